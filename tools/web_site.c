/* The game page and the module of `toggle web` (web_site.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gallery_assets.h"
#include "path.h"
#include "web_module.h"
#include "web_site.h"

size_t web_module_size(void)
{
    return web_module_wasm_len;
}

/* base64 of the module, 76 characters a line inside a JS string concat. */
static int write_base64(FILE *f, const unsigned char *d, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    fputs("Toggle.wasmBase64 = '", f);
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)d[i] << 16 | (i + 1 < n ? (unsigned)d[i + 1] << 8 : 0) |
                     (i + 2 < n ? d[i + 2] : 0);
        char q[4] = {tab[v >> 18 & 63], tab[v >> 12 & 63], i + 1 < n ? tab[v >> 6 & 63] : '=',
                     i + 2 < n ? tab[v & 63] : '='};
        fwrite(q, 1, 4, f);
    }
    fputs("';\n", f);
    return ferror(f) ? -1 : 0;
}

/* The play page: the template with its style and script lines filled. */
static int write_play(FILE *f)
{
    const char *t = (const char *)play_page, *end = t + play_page_len;
    while (t < end) {
        const char *nl = memchr(t, '\n', (size_t)(end - t));
        size_t len = nl ? (size_t)(nl - t) : (size_t)(end - t), whole = nl ? len + 1 : len;
        if (len == 7 && !memcmp(t, "@style@", 7))
            fwrite(play_css, 1, play_css_len, f);
        else if (len == 8 && !memcmp(t, "@script@", 8))
            fwrite(play_js, 1, play_js_len, f);
        else
            fwrite(t, 1, whole, f);
        t += whole;
    }
    return ferror(f) ? -1 : 0;
}

static int write_file(const char *dir, const char *name, int (*body)(FILE *))
{
    char *path = path_join(dir, name), *tmp = NULL;
    FILE *f = path ? path_tmp_open(path, &tmp) : NULL; /* whole, then renamed */
    int rc = f ? body(f) : -1;
    if (f && path_tmp_commit(f, tmp, path, !rc))
        rc = -1;
    free(path);
    return rc;
}

static int write_module(FILE *f)
{
    fwrite(toggle_js, 1, toggle_js_len, f);
    return write_base64(f, web_module_wasm, web_module_wasm_len);
}

int web_site_write(const char *dir)
{
    if (write_file(dir, "play.html", write_play) || write_file(dir, "libtoggle.js", write_module))
        return -1;
    return 0;
}
