/* toggle web: the seeds' web experience (docs/web.md). The article sweep's
 * gallery (index.html), the game (play.html) and libtoggle.js with the
 * WebAssembly build of the library embedded: a static site that works from
 * file:// and from any static server. It is `toggle sweep --site`. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "web_site.h"

int cmd_web(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs("usage: toggle web --out DIR [toggle sweep options]\n"
                  "  Writes DIR/index.html (the gallery of the n x n sweep, default 1..70 x "
                  "2..67),\n  DIR/play.html (the game) and DIR/libtoggle.js (libtoggle.wasm "
                  "embedded).\n  The options are those of toggle sweep.\n", stdout);
            return 0;
        }
    if (web_module_size() == 0)
        return cli_fail("web", "this toggle was built without libtoggle.wasm (the build needs "
                        "clang with wasm32-wasi: wasi-libc, lld, libclang-rt-14-dev-wasm32; "
                        "see docs/web.md)");
    char **args = malloc(((size_t)argc + 2) * sizeof *args);
    if (!args)
        return cli_nomem("web");
    args[0] = "sweep";
    for (int i = 1; i < argc; i++)
        args[i] = argv[i];
    args[argc] = "--site";
    args[argc + 1] = NULL;
    int rc = cmd_sweep(argc + 1, args);
    free(args);
    return rc;
}
