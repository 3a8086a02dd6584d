/* The square cylinder's nullity by polynomials (toggle__grid_cylinder_nullity,
 * used by the transfer engine's estimate) against this suite's own
 * elimination of its own neighbourhood model (tests/common), every cylinder
 * up to 12 x 12 (16 x 16 over F_2), with and without self, over 2, 3, 5, 7,
 * 101, 32749, 10^9 + 7 and 2^61 - 1. Without FLINT the function declines
 * (TOGGLE_EUNSUPPORTED, no message). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/flint/poly.h"
#include "testutil.h"

static const uint64_t primes[] = {2, 3, 5, 7, 101, 32749, 1000000007ull, 2305843009213693951ull};

START_TEST(cylinder_nullity_by_polynomials)
{
    size_t checked = 0;
    for (size_t q = 0; q < sizeof primes / sizeof *primes; q++)
        for (unsigned self = 0; self <= 1; self++) {
            size_t side = primes[q] == 2 ? 16 : 12;
            for (size_t r = 1; r <= side; r++)
                for (size_t c = 1; c <= side; c++) {
                    uint32_t flags = TOGGLE_GRID_CYLINDER | (self ? 0 : TOGGLE_GRID_NO_SELF);
                    size_t got = 0;
                    int rc = toggle__grid_cylinder_nullity(primes[q], r, c, self, &got);
#ifndef TOGGLE_HAVE_FLINT
                    ck_assert_int_eq(rc, TOGGLE_EUNSUPPORTED);
                    return;
#endif
                    ck_assert_int_eq(rc, TOGGLE_OK);
                    uint64_t *a = tu_grid_matrix(r, c, flags);
                    size_t want = r * c - tu_rank(a, r * c, r * c, primes[q]);
                    free(a);
                    ck_assert_msg(got == want, "cylinder %zux%zu%s mod %llu: nullity %zu, own "
                                  "elimination %zu", r, c, self ? "" : " no-self",
                                  (unsigned long long)primes[q], got, want);
                    checked++;
                }
        }
    printf("cylinder nullity by polynomials: %zu boards agree with elimination\n", checked);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("cylinder-poly");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, cylinder_nullity_by_polynomials);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
