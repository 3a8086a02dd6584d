/* Exact big integers for solution counts, through GMP (lib/engine/flint is
 * the only folder that includes GMP). Never installed. */
#ifndef TOGGLE_FLINT_BIGINT_H
#define TOGGLE_FLINT_BIGINT_H

#include "core.h"

/* The decimal digits of prod_{i < d} f(i), where f(i) = radix[i] when radix
 * is not NULL and k otherwise, into a toggle__malloc'd string (*out; the
 * caller frees). Runs inside the FLINT guard's recovery point. */
int toggle__decimal_product(const uint64_t *radix, size_t d, uint64_t k, char **out);

#endif
