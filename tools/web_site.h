/* `toggle web`: the game page and the JavaScript module with the embedded
 * libtoggle.wasm, next to the sweep's gallery (docs/web.md). */
#ifndef TOGGLE_TOOLS_WEB_SITE_H
#define TOGGLE_TOOLS_WEB_SITE_H

#include <stddef.h>

/* Bytes of the built-in libtoggle.wasm: 0 when the build had no module. */
size_t web_module_size(void);
/* Write DIR/play.html and DIR/libtoggle.js (toggle.js + the module as
 * base64); 0 or -1. */
int web_site_write(const char *dir);

#endif
