/* Grid engine workloads (owned by the grid engine work; see issue 4). */
#include "harness.h"

void bench_register_grid(void)
{
}
