/* GF(2) engine workloads (owned by the GF(2) engine work; see issue 3). */
#include "harness.h"

void bench_register_gf2(void)
{
}
