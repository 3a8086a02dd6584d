/* chaos.c: a "chaos" puzzle given as an augmented matrix over Z/3Z: row i
 * lists what each press adds to light i, then '|' and what light i needs. */
#include <stdio.h>
#include <string.h>
#include <toggle.h>

static const char puzzle[] =
    "# 5 lights, 5 buttons, mod 3\n"
    "12000|1\n"
    "01210|2\n"
    "00121|0\n"
    "10012|1\n"
    "10210|0\n"; /* = row 1 + row 2 (mod 3): one press pattern is free */

/* The same buttons with one light's demand changed: no longer solvable. */
static const char broken[] =
    "1100|1\n"
    "0110|0\n"
    "0011|1\n"
    "1001|1\n";

static void print_vec(const char *what, const uint64_t *v, size_t n)
{
    printf("%s", what);
    for (size_t i = 0; i < n; i++)
        printf(" %llu", (unsigned long long)v[i]);
    printf("\n");
}

static int solve_text(const char *text, uint64_t k)
{
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    uint64_t v[8];
    int rc = toggle_system_parse(&s, text, strlen(text), k);
    if (!rc) rc = toggle_solve(&sol, s);
    if (rc) {
        fprintf(stderr, "%s: %s\n", toggle_status_name(rc), toggle_last_error());
        toggle_system_free(s);
        return 1;
    }
    size_t n = toggle_system_cols(s), m = toggle_system_rows(s);
    printf("%zu equations, %zu unknowns, mod %llu: ", m, n, (unsigned long long)k);
    if (toggle_solution_is_solvable(sol) == 1) {
        char count[32];
        toggle_solution_particular(sol, v, n);
        toggle_solution_count_string(sol, count, sizeof count, NULL);
        printf("solvable, %s solution(s)\n", count);
        print_vec("  presses:", v, n);
        for (size_t i = 0; i < toggle_solution_nullity(sol); i++) {
            toggle_solution_kernel_vector(sol, i, v, n);
            print_vec("  plus any multiple of:", v, n);
        }
    } else {
        int valid = 0;
        /* The proof: y with y A = 0 but y . b != 0. Anyone can check it. */
        toggle_solution_certificate(sol, v, m);
        toggle_system_check_certificate(s, v, m, &valid);
        printf("no solution\n");
        print_vec("  certificate y:", v, m);
        printf("  y A = 0 and y . b != 0: %s\n", valid ? "verified" : "NOT verified");
    }
    toggle_solution_free(sol);
    toggle_system_free(s);
    return 0;
}

int main(void)
{
    return solve_text(puzzle, 3) | solve_text(broken, 2);
}
