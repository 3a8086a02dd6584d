/* pattern.c: the pattern game over F_5. All lights start at 0; each press
 * adds 1 (mod 5) to a cell and its four neighbours; reach all 1s. */
#include <stdio.h>
#include <toggle.h>

#define N 9
#define P 5

int main(void)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    uint64_t x[N * N];
    char text[N * (N + 1) + 1];
    size_t nullity = 0;

    /* The nullity straight from the polynomials, without building the board. */
    int rc = toggle_grid_nullity(N, N, P, TOGGLE_GRID_CLASSIC, &nullity);
    if (!rc) printf("%d x %d over F_%d: nullity %zu\n", N, N, P, nullity);

    if (!rc) rc = toggle_graph_new_grid(&g, N, N, TOGGLE_GRID_CLASSIC);
    /* start NULL = all 0, target NULL = all 1: the pattern game. */
    if (!rc) rc = toggle_system_new(&s, g, P, NULL, NULL);
    if (!rc) rc = toggle_solve(&sol, s);
    if (!rc && toggle_solution_is_solvable(sol) != 1) {
        printf("no solution\n");
    } else {
        if (!rc) rc = toggle_solution_particular(sol, x, N * N);
        if (!rc) rc = toggle_board_format(x, N, N, P, text, sizeof text, NULL);
        if (!rc) printf("press each cell this many times:\n%s", text);
    }
    if (rc)
        fprintf(stderr, "%s: %s\n", toggle_status_name(rc), toggle_last_error());
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return rc != 0;
}
