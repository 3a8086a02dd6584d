/* classic.c: the classic 5 x 5 Lights Out board. Press cells until every
 * light is off, and learn how many press patterns do it. */
#include <stdio.h>
#include <toggle.h>

static const char puzzle[] = /* 1 = lit */
    "01010\n"
    "11011\n"
    "00100\n"
    "11011\n"
    "01010\n";

static int fail(int rc)
{
    fprintf(stderr, "%s: %s\n", toggle_status_name(rc), toggle_last_error());
    return 1;
}

int main(void)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    uint64_t start[25], zero[25] = {0}, x[25], count = 0;
    size_t rows, cols;
    char text[64];
    int rc, solves = 0;

    /* The board as text: 5 rows of 5 digits, values < 2. */
    rc = toggle_board_parse(puzzle, sizeof puzzle - 1, 2, start, 25, &rows, &cols);
    /* Pressing a cell toggles it and its up, down, left and right neighbours. */
    if (!rc) rc = toggle_graph_new_grid(&g, rows, cols, TOGGLE_GRID_CLASSIC);
    /* A x = target - start over F_2, from the puzzle to all off. */
    if (!rc) rc = toggle_system_new(&s, g, 2, start, zero);
    if (!rc) rc = toggle_solve(&sol, s);
    if (rc) return fail(rc);

    if (toggle_solution_is_solvable(sol) == 1) {
        rc = toggle_solution_particular(sol, x, 25);
        if (!rc) rc = toggle_solution_count_u64(sol, &count);
        /* Apply the presses without any elimination, as an independent check. */
        if (!rc) rc = toggle_system_check(s, x, 25, &solves);
        if (!rc) rc = toggle_board_format(x, rows, cols, 2, text, sizeof text, NULL);
        if (rc) return fail(rc);
        printf("press these cells (1 = press):\n%s", text);
        printf("checked: %s\n", solves ? "all lights off" : "WRONG");
        printf("nullity %zu, so %llu press patterns solve it\n",
               toggle_solution_nullity(sol), (unsigned long long)count);
    } else {
        printf("no solution\n");
    }
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return 0;
}
