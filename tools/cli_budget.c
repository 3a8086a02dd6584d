/* The CLI's memory budget (commands.h): --budget BYTES, and the check of
 * what a command holds for a board, made before any work. */
#include <string.h>

#include "commands.h"

int cli_budget_parse(const char *val, uint64_t *budget)
{
    if (!val || cli_parse_u64(val, budget))
        return cli_usage("--budget", "expected a number of bytes (0 = unlimited), got '%s'",
                        val ? val : "");
    return 0;
}

int cli_budget_board(const char *what, uint64_t budget, size_t rows, size_t cols,
                     unsigned copies)
{
    unsigned __int128 need = (unsigned __int128)rows * cols * sizeof(uint64_t) * copies;
    if (!budget || need <= budget)
        return 0;
    unsigned long long n = need > UINT64_MAX ? UINT64_MAX : (unsigned long long)need;
    cli_fail(what, "a %zux%zu board needs at least %llu bytes (%u value%s of 8 bytes a cell), over the "
                    "memory budget of %llu bytes; raise it with --budget BYTES (0 = unlimited)",
                    rows, cols, n, copies, copies == 1 ? "" : "s", (unsigned long long)budget);
    return CLI_EXIT_RESOURCE;
}
