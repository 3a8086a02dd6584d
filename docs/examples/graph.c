/* graph.c: Lights Out on an arbitrary graph, the Petersen graph. Pressing a
 * node toggles it and its three neighbours; turn every light on. */
#include <stdio.h>
#include <string.h>
#include <toggle.h>

static const char edges[] =
    "# outer 5-cycle, spokes, inner pentagram\n"
    "0 1\n1 2\n2 3\n3 4\n4 0\n"
    "0 5\n1 6\n2 7\n3 8\n4 9\n"
    "5 7\n7 9\n9 6\n6 8\n8 5\n";

int main(void)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    uint64_t x[10], count = 0;
    int rc = toggle_graph_parse_edges(&g, edges, strlen(edges), 0);
    if (!rc) rc = toggle_system_new(&s, g, 2, NULL, NULL); /* all off -> all on */
    if (!rc) rc = toggle_solve(&sol, s);
    if (!rc) rc = toggle_solution_count_u64(sol, &count);
    if (rc) {
        fprintf(stderr, "%s: %s\n", toggle_status_name(rc), toggle_last_error());
        return 1;
    }
    printf("%zu nodes, nullity %zu, %llu solutions\n", toggle_graph_cells(g),
           toggle_solution_nullity(sol), (unsigned long long)count);
    /* Sutner's theorem: over F_2 this is always solvable. */
    if (toggle_solution_particular(sol, x, 10) == TOGGLE_OK) {
        printf("press nodes:");
        for (int i = 0; i < 10; i++)
            if (x[i])
                printf(" %d", i);
        printf("\n");
    }
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return 0;
}
