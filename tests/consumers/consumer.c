/* An external program using an installed libtoggle: built with nothing but
 * `pkg-config --cflags --libs libtoggle`. Prints the 3 x 3 answers over F_2,
 * F_3, F_5 and checks them against the known ones. */
#include <toggle.h>

#include <stdio.h>
#include <string.h>

static int solve3(uint64_t k, const char *want)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    uint64_t x[9];
    char got[10];
    int rc = 1;
    if (toggle_graph_new_grid(&g, 3, 3, TOGGLE_GRID_CLASSIC) != TOGGLE_OK ||
        toggle_system_new(&s, g, k, NULL, NULL) != TOGGLE_OK ||
        toggle_solve(&sol, s) != TOGGLE_OK ||
        toggle_solution_particular(sol, x, 9) != TOGGLE_OK) {
        fprintf(stderr, "k=%llu: %s\n", (unsigned long long)k, toggle_last_error());
        goto done;
    }
    for (int i = 0; i < 9; i++)
        got[i] = (char)('0' + x[i]);
    got[9] = '\0';
    printf("3x3 mod %llu: %s\n", (unsigned long long)k, got);
    rc = strcmp(got, want) != 0;
done:
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return rc;
}

int main(void)
{
    if (toggle_version_number() / 10000 != TOGGLE_VERSION_MAJOR) {
        fprintf(stderr, "header %s, library %s\n", TOGGLE_VERSION_STRING,
                toggle_version_string());
        return 1;
    }
    printf("libtoggle %s\n", toggle_version_string());
    return solve3(2, "101010101") | solve3(3, "020222020") | solve3(5, "414121414");
}
