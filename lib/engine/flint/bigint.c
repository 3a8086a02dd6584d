/* Solution counts as decimal strings, with GMP (bigint.h). */
#include <string.h>

#include <gmp.h>

#include "bigint.h"
#include "flint_guard.h"

typedef struct {
    const uint64_t *radix;
    size_t d;
    uint64_t k;
    char *digits; /* owned by toggle__decimal_product: an unwind skips the body */
} product_job;

static int product_body(void *arg)
{
    product_job *job = arg;
    mpz_t c;
    if (job->radix) {
        mpz_init_set_ui(c, 1);
        for (size_t i = 0; i < job->d; i++)
            mpz_mul_ui(c, c, job->radix[i]);
    } else {
        mpz_init(c);
        mpz_ui_pow_ui(c, job->k, job->d);
    }
    size_t need = mpz_sizeinbase(c, 10) + 2; /* sizeinbase may be one too big */
    job->digits = toggle__malloc(need);
    if (job->digits)
        mpz_get_str(job->digits, 10, c); /* may allocate: it can unwind */
    mpz_clear(c);
    if (!job->digits)
        return toggle__error(TOGGLE_ENOMEM, "out of memory writing the count");
    return TOGGLE_OK;
}

int toggle__decimal_product(const uint64_t *radix, size_t d, uint64_t k, char **out)
{
    /* about d * 63 bits: refuse absurd sizes before GMP allocates */
    if (d > ((size_t)1 << 26))
        return toggle__error(TOGGLE_ENOMEM, "a product of %zu factors is too large to write out",
                             d);
    /* small counts in plain C: no GMP, so no GMP abort without the guard */
    if (d <= TOGGLE__DECIMAL_PLAIN_MAX)
        return toggle__decimal_product_plain(radix, d, k, out);
    product_job job = {radix, d, k, NULL};
    int rc = toggle__flint_call(product_body, &job, "the exact count");
    if (rc)
        toggle__free(job.digits);
    else
        *out = job.digits;
    return rc;
}
