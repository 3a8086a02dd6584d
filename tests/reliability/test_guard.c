/* The FLINT guard (include/toggle/guard.h): FLINT allocation failures,
 * injected one by one and caused by RLIMIT_AS, come back as TOGGLE_ENOMEM
 * with nothing leaked and the process alive; without the guard the memory
 * budget keeps FLINT away from a failing allocation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gmp.h>
#include <toggle/guard.h>

#include "engine/flint/flint_guard.h"
#include "core.h"
#include "rel_util.h"
#include "testutil.h"

#define SENTINEL ((toggle_solution *)(uintptr_t)0x5e17)

typedef struct {
    size_t rows, cols;
    uint64_t k;
    int unsolvable;
    int engine;
} gcase;

static const gcase cases[] = {
    {6, 6, 3, 0, TOGGLE_ENGINE_FLINT},
    {4, 4, 2, 1, TOGGLE_ENGINE_FLINT}, /* certificate path: a second FLINT call */
    {7, 5, UINT64_C(2305843009213693951), 0, TOGGLE_ENGINE_FLINT},
    {9, 9, 2, 0, TOGGLE_ENGINE_FLINT},
    /* the grid engine's polynomial arithmetic (nmod_poly) */
    {21, 21, 3, 0, TOGGLE_ENGINE_CHASE},
    {4, 4, 2, 1, TOGGLE_ENGINE_CHASE},
    {19, 17, 65521, 0, TOGGLE_ENGINE_CHASE},
};

START_TEST(guard_injected_flint_failures)
{
    const gcase *c = &cases[_i];
    ck_assert_int_eq(toggle_flint_guard_install(), TOGGLE_OK);
    ck_assert_int_eq(toggle_flint_guard_install(), TOGGLE_OK); /* idempotent */
    ck_assert_int_eq(toggle_flint_guard_installed(), 1);
    size_t n = c->rows * c->cols;
    uint64_t *a = tu_grid_matrix(c->rows, c->cols, 0);
    uint64_t *b = calloc(n, sizeof *b);
    for (size_t i = 0; i < n; i++)
        b[i] = c->unsolvable ? (i == 0) : 1;
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    ck_assert_int_eq(toggle_graph_new_grid(&g, c->rows, c->cols, 0), 0);
    ck_assert_int_eq(toggle_system_new(&s, g, c->k, NULL, b), 0);
    ck_assert_int_eq(toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, (uint64_t)c->engine), 0);
    uint64_t failures = 0, sites = 0;
    for (int sticky = 0; sticky <= 1; sticky++) {
        for (uint64_t k = 1;; k++) {
            ck_assert(k < 100000);
            toggle_solution *sol = SENTINEL;
            toggle__flint_fail_at(k, sticky);
            int rc = toggle_solve(&sol, s);
            uint64_t calls = toggle__flint_alloc_calls();
            toggle__flint_fail_at(0, false);
            if (rc == TOGGLE_OK) {
                const char *msg = tu_verify(sol, a, b, n, n, c->k, SIZE_MAX);
                ck_assert_msg(msg == NULL, "wrong answer after FLINT failure %llu: %s",
                              (unsigned long long)k, msg);
                ck_assert_int_eq(toggle_solution_is_solvable(sol), !c->unsolvable);
                toggle_solution_free(sol);
                ck_assert_msg(calls < k, "a FLINT allocation failed and the solve succeeded");
                sites = calls;
                break;
            }
            failures++;
            ck_assert_msg(rc == TOGGLE_ENOMEM, "FLINT failure %llu gave %s: %s",
                          (unsigned long long)k, toggle_status_name(rc), toggle_last_error());
            ck_assert_msg(strstr(toggle_last_error(), "FLINT") != NULL, "message: %s",
                          toggle_last_error());
            ck_assert_ptr_eq(sol, SENTINEL);
        }
    }
    fprintf(stderr, "guard: %zux%zu k=%llu%s: %llu FLINT allocations, %llu injected failures\n",
            c->rows, c->cols, (unsigned long long)c->k, c->unsolvable ? " unsolvable" : "",
            (unsigned long long)sites, (unsigned long long)failures);
    ck_assert_uint_gt(sites, 0);
    toggle_system_free(s);
    toggle_graph_free(g);
    free(a);
    free(b);
}
END_TEST

/* GMP through the guard: the program's own GMP memory functions, set before
 * the guard, still serve its own GMP calls; inside libtoggle every GMP
 * allocation of the exact count is injectable (GMP's default allocator
 * aborts on NULL) and each failure is TOGGLE_ENOMEM with nothing leaked. */
static size_t prog_allocs;
static void *prog_alloc(size_t n) { prog_allocs++; return malloc(n); }
static void *prog_realloc(void *p, size_t o, size_t n) { (void)o; prog_allocs++; return realloc(p, n); }
static void prog_free(void *p, size_t n) { (void)n; free(p); }

START_TEST(guard_covers_gmp)
{
    mp_set_memory_functions(prog_alloc, prog_realloc, prog_free);
    ck_assert_int_eq(toggle_flint_guard_install(), TOGGLE_OK);
    /* a program's own GMP use: its functions, outside libtoggle */
    mpz_t z;
    mpz_init_set_ui(z, 3);
    mpz_pow_ui(z, z, 1000);
    ck_assert_uint_gt(prog_allocs, 0);
    mpz_clear(z);
    /* A = 0 (1 x 1100) modulo 2^61 - 1: nullity 1100, count (2^61 - 1)^1100
     * (20,000 digits): more factors than the plain-C product takes
     * (TOGGLE__DECIMAL_PLAIN_MAX), so GMP computes it */
    const uint64_t p = UINT64_C(2305843009213693951);
    enum { M = 1, N = 1100 };
    static uint64_t a[M * N], b[M];
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    ck_assert_int_eq(toggle_system_new_matrix(&s, M, N, a, b, p), TOGGLE_OK);
    ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
    static char want[24000], buf[24000];
    size_t need = 0;
    ck_assert_int_eq(toggle_solution_count_string(sol, want, sizeof want, &need), TOGGLE_OK);
    size_t before = prog_allocs;
    uint64_t failures = 0, sites = 0;
    for (int sticky = 0; sticky <= 1; sticky++) {
        for (uint64_t k = 1;; k++) {
            ck_assert(k < 10000);
            memset(buf, 'x', sizeof buf);
            toggle__flint_fail_at(k, sticky);
            int rc = toggle_solution_count_string(sol, buf, sizeof buf, &need);
            uint64_t calls = toggle__flint_alloc_calls();
            toggle__flint_fail_at(0, false);
            if (rc == TOGGLE_OK) {
                ck_assert_str_eq(buf, want);
                ck_assert_msg(calls < k, "a GMP allocation failed and the count succeeded");
                sites = calls;
                break;
            }
            failures++;
            ck_assert_msg(rc == TOGGLE_ENOMEM, "GMP failure %llu gave %s: %s",
                          (unsigned long long)k, toggle_status_name(rc), toggle_last_error());
            ck_assert_int_eq(buf[0], 'x');
        }
    }
    ck_assert_uint_eq(prog_allocs, before); /* libtoggle's GMP use stays inside the guard */
    fprintf(stderr, "guard: count string (2^61-1)^1100: %llu GMP allocations, %llu injected "
            "failures\n", (unsigned long long)sites, (unsigned long long)failures);
    ck_assert_uint_gt(sites, 0);
    toggle_solution_free(sol);
    toggle_system_free(s);
}
END_TEST

/* Counts of at most TOGGLE__DECIMAL_PLAIN_MAX factors are written in plain
 * C, larger ones by GMP: both equal GMP's own k^d computed here. */
START_TEST(count_string_plain_and_gmp)
{
    static const uint64_t ks[] = {2, 3, 7, UINT64_C(2305843009213693951),
                                  UINT64_C(9223372036854775783)};
    static const size_t ds[] = {1, 2, 7, 40, 1023, 1024, 1025, 1100};
    static uint64_t a[1100], b[1];
    static char got[24000];
    for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
        for (size_t j = 0; j < sizeof ds / sizeof *ds; j++) {
            toggle_system *s = NULL;
            toggle_solution *sol = NULL;
            ck_assert_int_eq(toggle_system_new_matrix(&s, 1, ds[j], a, b, ks[i]), TOGGLE_OK);
            ck_assert_int_eq(toggle_solve(&sol, s), TOGGLE_OK);
            size_t need = 0;
            ck_assert_int_eq(toggle_solution_count_string(sol, got, sizeof got, &need),
                             TOGGLE_OK);
            mpz_t z;
            mpz_init(z);
            mpz_ui_pow_ui(z, ks[i], ds[j]);
            char *want = mpz_get_str(NULL, 10, z);
            ck_assert_msg(strcmp(got, want) == 0 && need == strlen(want) + 1,
                          "count %llu^%zu", (unsigned long long)ks[i], ds[j]);
            void (*gmp_free)(void *, size_t);
            mp_get_memory_functions(NULL, NULL, &gmp_free);
            gmp_free(want, strlen(want) + 1);
            mpz_clear(z);
            toggle_solution_free(sol);
            toggle_system_free(s);
        }
}
END_TEST

/* Current virtual size in bytes (/proc/self/statm). */
static size_t vm_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

/* In a child under RLIMIT_AS = current + 192 MiB: solve a 100 x 100 grid
 * with FLINT (about 800 MB of nmod_mat), then a small one. */
static int rlimit_child(int guard, uint64_t budget)
{
    if (guard)
        toggle_flint_guard_install();
    toggle_graph *g = NULL, *h = NULL;
    toggle_system *s = NULL, *t = NULL;
    if (toggle_graph_new_grid(&g, 100, 100, 0) || toggle_system_new(&s, g, 3, NULL, NULL) ||
        toggle_graph_new_grid(&h, 5, 5, 0) || toggle_system_new(&t, h, 3, NULL, NULL))
        return 10;
    toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_FLINT);
    toggle_system_set_option(t, TOGGLE_SYSTEM_OPT_ENGINE, TOGGLE_ENGINE_FLINT);
    if (budget)
        toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, budget);
    struct rlimit rl;
    rl.rlim_cur = rl.rlim_max = vm_bytes() + ((size_t)192 << 20);
    if (setrlimit(RLIMIT_AS, &rl) != 0)
        return 11;
    toggle_solution *sol = SENTINEL;
    int rc = toggle_solve(&sol, s);
    if (rc != TOGGLE_ENOMEM || sol != SENTINEL)
        return 12;
    if (guard && !strstr(toggle_last_error(), "FLINT"))
        return 13;
    if (!guard && !strstr(toggle_last_error(), "budget"))
        return 14;
    /* the process is healthy: a small solve still works */
    if (toggle_solve(&sol, t) != TOGGLE_OK || !toggle_solution_is_solvable(sol))
        return 15;
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_system_free(t);
    toggle_graph_free(g);
    toggle_graph_free(h);
    return 0;
}

static void run_rlimit(int guard, uint64_t budget)
{
    if (!rel_memory_figures_meaningful()) {
        fprintf(stderr, "guard: RLIMIT_AS test skipped under ASan/TSan/valgrind\n");
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(rlimit_child(guard, budget));
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st), "the child died of signal %d (FLINT aborted?)",
                  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    ck_assert_msg(WEXITSTATUS(st) == 0, "child failed at step %d", WEXITSTATUS(st));
}

START_TEST(guard_rlimit_as)
{
    run_rlimit(1, 0); /* accepted by the default budget, refused by the OS */
}
END_TEST

START_TEST(no_guard_budget_keeps_flint_safe)
{
    ck_assert_int_eq(toggle_flint_guard_installed(), 0); /* each test is a fresh process */
    run_rlimit(0, (uint64_t)64 << 20); /* budget below the limit: refused before FLINT */
}
END_TEST

int main(void)
{
    Suite *su = suite_create("guard");
    TCase *tc = tcase_create("guard");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, guard_injected_flint_failures, 0,
                        (int)(sizeof cases / sizeof *cases));
    tcase_add_test(tc, guard_covers_gmp);
    tcase_add_test(tc, count_string_plain_and_gmp);
    tcase_add_test(tc, guard_rlimit_as);
    tcase_add_test(tc, no_guard_budget_keeps_flint_safe);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
