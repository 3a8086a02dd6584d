/* toggle solve --orbits: the number of solutions up to the board's symmetries. */
#include "commands.h"

int cli_orbits_report(FILE *f, const toggle_solution *sol, size_t rows, size_t cols)
{
    uint32_t group = toggle_symmetry_of_shape(rows, cols);
    uint64_t orbits = 0;
    int rc = toggle_solution_count_orbits(sol, rows, cols, group, &orbits);
    if (rc)
        return cli_status("--orbits", rc);
    fprintf(f, "orbits (%s): %llu\n", toggle_symmetry_name(group), (unsigned long long)orbits);
    return 0;
}
