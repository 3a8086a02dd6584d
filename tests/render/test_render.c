/* Rendering: colour map sampling, PPM pixels checked by the test's own
 * geometry, PNG decoded (libpng) and compared with the PPM, golden bytes,
 * caller buffers, files and every misuse. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_PNG
#include <png.h>
#endif

#include "testutil.h"

/* Canonical all-off to all-on solution of an R x C board over F_p. */
static uint64_t *solve_board(size_t R, size_t C, uint64_t p)
{
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    uint64_t *x = calloc(R * C, sizeof *x);
    sol = tu_solve_grid(R, C, 0, p, &g, &s);
    ck_assert_int_eq(toggle_solution_particular(sol, x, R * C), TOGGLE_OK);
    int ok = 0;
    ck_assert_int_eq(toggle_system_check(s, x, R * C, &ok), TOGGLE_OK);
    ck_assert_int_eq(ok, 1);
    tu_free_all(g, s, sol);
    return x;
}

static uint8_t *render_alloc(const toggle_render_opts *o, int fmt, const uint64_t *v, size_t R,
                             size_t C, uint64_t k, size_t *len)
{
    size_t need = 0;
    int rc = toggle_render(o, fmt, v, R, C, k, NULL, 0, &need);
    ck_assert_int_eq(rc, TOGGLE_EBUFSIZE);
    uint8_t *buf = malloc(need);
    size_t need2 = 0;
    ck_assert_int_eq(toggle_render(o, fmt, v, R, C, k, buf, need, &need2), TOGGLE_OK);
    ck_assert_uint_eq(need, need2);
    *len = need;
    return buf;
}

static uint64_t fnv1a(const uint8_t *b, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

START_TEST(colormaps)
{
    ck_assert_uint_ge(toggle_colormap_count(), 17);
    const char *need[] = {"viridis", "magma", "inferno", "plasma", "cividis", "twilight",
                          "turbo", "greys", "tab10", "tab20", "set1", "set2", "dark2", "paired"};
    for (size_t i = 0; i < sizeof need / sizeof *need; i++) {
        int id = -1, rev = -1;
        ck_assert_int_eq(toggle_colormap_from_name(need[i], &id, &rev), TOGGLE_OK);
        ck_assert_str_eq(toggle_colormap_name(id), need[i]);
        ck_assert_int_eq(rev, 0);
    }
    int id, rev;
    ck_assert_int_eq(toggle_colormap_from_name("magma_r", &id, &rev), TOGGLE_OK);
    ck_assert_int_eq(id, TOGGLE_CMAP_MAGMA);
    ck_assert_int_eq(rev, 1);
    ck_assert_int_eq(toggle_colormap_from_name("nope", &id, NULL), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_colormap_from_name("_r", &id, NULL), TOGGLE_EINVAL);
    ck_assert_ptr_null(toggle_colormap_name(-1));
    ck_assert_ptr_null(toggle_colormap_name((int)toggle_colormap_count()));
    ck_assert_int_eq(toggle_colormap_is_qualitative(TOGGLE_CMAP_VIRIDIS), 0);
    ck_assert_int_eq(toggle_colormap_is_qualitative(TOGGLE_CMAP_SET1), 1);
    ck_assert_int_eq(toggle_colormap_is_qualitative(-3), TOGGLE_EINVAL);

    /* matplotlib's viridis: (68, 1, 84) at 0, (253, 231, 37) at 1 */
    uint8_t c[3], d[3];
    ck_assert_int_eq(toggle_colormap_color(TOGGLE_CMAP_VIRIDIS, 0, 0, 5, c), TOGGLE_OK);
    ck_assert(c[0] == 68 && c[1] == 1 && c[2] == 84);
    ck_assert_int_eq(toggle_colormap_color(TOGGLE_CMAP_VIRIDIS, 0, 4, 5, c), TOGGLE_OK);
    ck_assert(c[0] == 253 && c[1] == 231 && c[2] == 37);
    /* reversed: v is drawn as k - 1 - v */
    for (uint64_t k = 2; k < 70; k += 7)
        for (uint64_t v = 0; v < k; v++)
            for (int m = 0; m < (int)toggle_colormap_count(); m++) {
                ck_assert_int_eq(toggle_colormap_color(m, 1, v, k, c), TOGGLE_OK);
                ck_assert_int_eq(toggle_colormap_color(m, 0, k - 1 - v, k, d), TOGGLE_OK);
                ck_assert(memcmp(c, d, 3) == 0);
            }
    /* greys runs white to black; the middle of k = 3 is entry 128 of 256 */
    ck_assert_int_eq(toggle_colormap_color(TOGGLE_CMAP_GREYS, 0, 0, 3, c), TOGGLE_OK);
    ck_assert(c[0] == 255 && c[1] == 255 && c[2] == 255);
    ck_assert_int_eq(toggle_colormap_color(TOGGLE_CMAP_GREYS, 0, 2, 3, c), TOGGLE_OK);
    ck_assert(c[0] == 0 && c[1] == 0 && c[2] == 0);
    /* qualitative maps cycle: tab10 value v is colour v mod 10 */
    ck_assert_int_eq(toggle_colormap_color(TOGGLE_CMAP_TAB10, 0, 0, 67, c), TOGGLE_OK);
    ck_assert_int_eq(toggle_colormap_color(TOGGLE_CMAP_TAB10, 0, 30, 67, d), TOGGLE_OK);
    ck_assert(memcmp(c, d, 3) == 0 && c[0] == 31 && c[1] == 119 && c[2] == 180);
    /* huge moduli do not overflow the sampling */
    ck_assert_int_eq(toggle_colormap_color(TOGGLE_CMAP_VIRIDIS, 0, UINT64_MAX - 1, UINT64_MAX,
                                           c), TOGGLE_OK);
    ck_assert(c[0] == 253 && c[1] == 231 && c[2] == 37);
    ck_assert_int_eq(toggle_colormap_color(TOGGLE_CMAP_VIRIDIS, 0, 5, 5, c), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_colormap_color(TOGGLE_CMAP_VIRIDIS, 0, 0, 1, c), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_colormap_color(999, 0, 0, 2, c), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_colormap_color(0, 0, 0, 2, NULL), TOGGLE_EINVAL);
}
END_TEST

START_TEST(options)
{
    toggle_render_opts *o = NULL;
    uint64_t v;
    ck_assert_int_eq(toggle_render_opts_new(NULL), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render_opts_new(&o), TOGGLE_OK);
    ck_assert_int_eq(toggle_render_opts_get(o, TOGGLE_RENDER_CELL_SIZE, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, 8);
    ck_assert_int_eq(toggle_render_opts_get(o, TOGGLE_RENDER_COLORMAP, &v), TOGGLE_OK);
    ck_assert_uint_eq(v, TOGGLE_CMAP_VIRIDIS);
    ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, 0), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, 4097), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_REVERSED, 2), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_LINE_COLOR, 0x1000000),
                     TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_COLORMAP, toggle_colormap_count()),
                     TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_render_opts_set(o, 99, 1), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render_opts_set(NULL, TOGGLE_RENDER_BORDER, 1), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render_opts_get(o, 99, &v), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render_opts_get(o, TOGGLE_RENDER_BORDER, NULL), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, 3), TOGGLE_OK);
    ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_GRID_LINES, 2), TOGGLE_OK);
    ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_BORDER, 5), TOGGLE_OK);
    size_t w, h;
    ck_assert_int_eq(toggle_render_size(o, 4, 7, &w, &h), TOGGLE_OK);
    ck_assert_uint_eq(w, 10 + 7 * 3 + 6 * 2);
    ck_assert_uint_eq(h, 10 + 4 * 3 + 3 * 2);
    ck_assert_int_eq(toggle_render_size(NULL, 4, 7, &w, &h), TOGGLE_OK);
    ck_assert_uint_eq(w, 56);
    ck_assert_uint_eq(h, 32);
    ck_assert_int_eq(toggle_render_size(o, 0, 7, &w, &h), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render_size(o, 1, 7, NULL, &h), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render_size(o, 1, 300000, &w, &h), TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_render_size(o, 1, SIZE_MAX, &w, &h), TOGGLE_ERANGE);
    toggle_render_opts_free(o);
    toggle_render_opts_free(NULL);
}
END_TEST

/* Expected colour at pixel (x, y), by the test's own layout arithmetic. */
static void expect_pixel(size_t x, size_t y, const uint64_t *v, size_t C, uint64_t k,
                         size_t cell, size_t line, size_t border, size_t W, size_t H,
                         int cmap, int rev, uint32_t line_rgb, uint8_t *out)
{
    int edge = x < border || y < border || x >= W - border || y >= H - border;
    size_t xx = x - border, yy = y - border;
    if (edge || xx % (cell + line) >= cell || yy % (cell + line) >= cell) {
        out[0] = (uint8_t)(line_rgb >> 16);
        out[1] = (uint8_t)(line_rgb >> 8);
        out[2] = (uint8_t)line_rgb;
        return;
    }
    uint64_t val = v[(yy / (cell + line)) * C + xx / (cell + line)];
    ck_assert_int_eq(toggle_colormap_color(cmap, rev, val, k, out), TOGGLE_OK);
}

/* Renders a PPM and checks every pixel; returns the pixel data (malloc'd). */
static uint8_t *check_ppm(const toggle_render_opts *o, const uint64_t *v, size_t R, size_t C,
                          uint64_t k, size_t cell, size_t line, size_t border, int cmap, int rev,
                          uint32_t lrgb)
{
    size_t len, W = 2 * border + C * cell + (C - 1) * line;
    size_t H = 2 * border + R * cell + (R - 1) * line;
    uint8_t *ppm = render_alloc(o, TOGGLE_IMAGE_PPM, v, R, C, k, &len);
    char head[64];
    int hl = snprintf(head, sizeof head, "P6\n%zu %zu\n255\n", W, H);
    ck_assert_uint_eq(len, (size_t)hl + W * H * 3);
    ck_assert(memcmp(ppm, head, (size_t)hl) == 0);
    uint8_t want[3];
    for (size_t y = 0; y < H; y++)
        for (size_t x = 0; x < W; x++) {
            expect_pixel(x, y, v, C, k, cell, line, border, W, H, cmap, rev, lrgb, want);
            ck_assert_msg(memcmp(ppm + hl + 3 * (y * W + x), want, 3) == 0,
                          "pixel (%zu, %zu)", x, y);
        }
    uint8_t *pix = malloc(W * H * 3);
    memcpy(pix, ppm + hl, W * H * 3);
    free(ppm);
    return pix;
}

#ifdef HAVE_PNG
/* Decode a PNG with libpng's simplified API into RGB. */
static uint8_t *decode_png(const uint8_t *buf, size_t len, size_t *W, size_t *H)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    ck_assert(png_image_begin_read_from_memory(&img, buf, len));
    img.format = PNG_FORMAT_RGB;
    uint8_t *pix = malloc(PNG_IMAGE_SIZE(img));
    ck_assert(png_image_finish_read(&img, NULL, pix, 0, NULL));
    *W = img.width;
    *H = img.height;
    return pix;
}
#endif

START_TEST(pixels_ppm_and_png)
{
    tu_rng rng = tu_rng_for(17);
    size_t iters = tu_iters(40);
    for (size_t it = 0; it < iters; it++) {
        size_t R = 1 + tu_below(&rng, 7), C = 1 + tu_below(&rng, 7);
        uint64_t ks[] = {2, 3, 5, 16, 17, 255, 256, 300};
        uint64_t k = ks[tu_below(&rng, 8)];
        uint64_t *v = malloc(R * C * sizeof *v);
        for (size_t i = 0; i < R * C; i++)
            v[i] = tu_below(&rng, k);
        size_t cell = 1 + tu_below(&rng, 4), line = tu_below(&rng, 3), border = tu_below(&rng, 3);
        int cmap = (int)tu_below(&rng, toggle_colormap_count()), rev = (int)tu_below(&rng, 2);
        uint32_t lrgb = (uint32_t)tu_below(&rng, 0x1000000);
        toggle_render_opts *o = NULL;
        ck_assert_int_eq(toggle_render_opts_new(&o), TOGGLE_OK);
        ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, cell), TOGGLE_OK);
        ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_GRID_LINES, line), TOGGLE_OK);
        ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_BORDER, border), TOGGLE_OK);
        ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_COLORMAP, (uint64_t)cmap),
                         TOGGLE_OK);
        ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_REVERSED, (uint64_t)rev),
                         TOGGLE_OK);
        ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_LINE_COLOR, lrgb), TOGGLE_OK);
        uint8_t *pix = check_ppm(o, v, R, C, k, cell, line, border, cmap, rev, lrgb);
#ifdef HAVE_PNG
        size_t len, W, H, len2;
        uint8_t *png = render_alloc(o, TOGGLE_IMAGE_PNG, v, R, C, k, &len);
        uint8_t *png2 = render_alloc(o, TOGGLE_IMAGE_PNG, v, R, C, k, &len2);
        ck_assert(len == len2 && memcmp(png, png2, len) == 0); /* deterministic */
        uint8_t *dec = decode_png(png, len, &W, &H);
        ck_assert_uint_eq(W, 2 * border + C * cell + (C - 1) * line);
        ck_assert_uint_eq(H, 2 * border + R * cell + (R - 1) * line);
        ck_assert_msg(memcmp(dec, pix, W * H * 3) == 0, "PNG differs from PPM (k=%llu)",
                      (unsigned long long)k);
        free(dec);
        free(png);
        free(png2);
#else
        size_t need = 0;
        ck_assert_int_eq(toggle_render(o, TOGGLE_IMAGE_PNG, v, R, C, k, NULL, 0, &need),
                         TOGGLE_EUNSUPPORTED);
#endif
        free(pix);
        free(v);
        toggle_render_opts_free(o);
    }
}
END_TEST

/* Golden bytes: FNV-1a of a few pictures. The PNG hashes pin libpng's and
 * zlib's output at the fixed settings (libpng 1.6 / zlib 1.2 on Debian 12);
 * if a new zlib changes them, the pixel test above still holds: re-pin. */
START_TEST(golden)
{
    static const struct {
        size_t n;
        uint64_t p;
        int cmap, rev, fmt;
        size_t cell, line, border;
        uint64_t hash;
        size_t len;
    } g[] = {
        {3, 5, TOGGLE_CMAP_VIRIDIS, 0, TOGGLE_IMAGE_PPM, 8, 0, 0, 0x92017b0f90937243ull, 1741},
        {5, 3, TOGGLE_CMAP_MAGMA, 1, TOGGLE_IMAGE_PPM, 4, 1, 2, 0xb3a3dfabb5a3f09bull, 2365},
        {3, 5, TOGGLE_CMAP_VIRIDIS, 0, TOGGLE_IMAGE_PNG, 8, 0, 0, 0xb95d958f0913953full, 145},
        {17, 2, TOGGLE_CMAP_GREYS, 0, TOGGLE_IMAGE_PNG, 6, 0, 0, 0x4dc55411712ce756ull, 337},
        {20, 11, TOGGLE_CMAP_TWILIGHT, 0, TOGGLE_IMAGE_PNG, 5, 1, 3, 0x1127c5cf904bfdc4ull, 2075},
        {12, 31, TOGGLE_CMAP_TURBO, 1, TOGGLE_IMAGE_PNG, 7, 0, 0, 0x967e0e69e9c1da93ull, 480},
        {9, 11, TOGGLE_CMAP_TAB10, 0, TOGGLE_IMAGE_PNG, 9, 1, 1, 0xfea02ee06a6f9051ull, 622},
    };
    for (size_t i = 0; i < sizeof g / sizeof *g; i++) {
#ifndef HAVE_PNG
        if (g[i].fmt == TOGGLE_IMAGE_PNG)
            continue;
#endif
        uint64_t *v = solve_board(g[i].n, g[i].n, g[i].p);
        toggle_render_opts *o = NULL;
        ck_assert_int_eq(toggle_render_opts_new(&o), TOGGLE_OK);
        toggle_render_opts_set(o, TOGGLE_RENDER_COLORMAP, (uint64_t)g[i].cmap);
        toggle_render_opts_set(o, TOGGLE_RENDER_REVERSED, (uint64_t)g[i].rev);
        toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, g[i].cell);
        toggle_render_opts_set(o, TOGGLE_RENDER_GRID_LINES, g[i].line);
        toggle_render_opts_set(o, TOGGLE_RENDER_BORDER, g[i].border);
        size_t len;
        uint8_t *b = render_alloc(o, g[i].fmt, v, g[i].n, g[i].n, g[i].p, &len);
        uint64_t h = fnv1a(b, len);
        if (getenv("TOGGLE_PRINT_GOLDEN"))
            printf("golden %zu: 0x%016llxull, %zu\n", i, (unsigned long long)h, len);
        else
            ck_assert_msg(h == g[i].hash && len == g[i].len,
                      "golden %zu: hash 0x%016llx len %zu (expected 0x%016llx, %zu)", i,
                      (unsigned long long)h, len, (unsigned long long)g[i].hash, g[i].len);
        free(b);
        free(v);
        toggle_render_opts_free(o);
    }
}
END_TEST

/* Cyclic maps sample v of k at v / k: 0 and k - 1 differ (a mod-2 board is
 * not one colour), 0 is the first entry; sequential maps keep v / (k - 1). */
START_TEST(cyclic_maps)
{
    static const char *cyclic[] = {"twilight", "twilight_shifted", "hsv"};
    for (size_t i = 0; i < 3; i++) {
        int id = -1;
        ck_assert_int_eq(toggle_colormap_from_name(cyclic[i], &id, NULL), TOGGLE_OK);
        for (uint64_t k = 2; k <= 17; k++) {
            uint8_t first[3], last[3], zero256[3];
            ck_assert_int_eq(toggle_colormap_color(id, 0, 0, k, first), TOGGLE_OK);
            ck_assert_int_eq(toggle_colormap_color(id, 0, k - 1, k, last), TOGGLE_OK);
            ck_assert_int_eq(toggle_colormap_color(id, 0, 0, 256, zero256), TOGGLE_OK);
            ck_assert_msg(memcmp(first, last, 3) != 0, "%s: 0 and %llu of %llu share a colour",
                          cyclic[i], (unsigned long long)(k - 1), (unsigned long long)k);
            ck_assert(memcmp(first, zero256, 3) == 0);
        }
        /* v of k at entry floor((510 v + k) / (2 k)): 1 of 2 is entry 128 = 128 of 256 */
        uint8_t a[3], b[3];
        ck_assert_int_eq(toggle_colormap_color(id, 0, 1, 2, a), TOGGLE_OK);
        ck_assert_int_eq(toggle_colormap_color(id, 0, 128, 256, b), TOGGLE_OK);
        ck_assert(memcmp(a, b, 3) == 0);
    }
    /* sequential: k - 1 is the last entry */
    uint8_t a[3], b[3];
    ck_assert_int_eq(toggle_colormap_color(TOGGLE_CMAP_VIRIDIS, 0, 1, 2, a), TOGGLE_OK);
    ck_assert_int_eq(toggle_colormap_color(TOGGLE_CMAP_VIRIDIS, 0, 255, 256, b), TOGGLE_OK);
    ck_assert(memcmp(a, b, 3) == 0);
}
END_TEST

START_TEST(buffers_files_misuse)
{
    uint64_t v[6] = {0, 1, 2, 2, 1, 0};
    uint8_t small[16];
    memset(small, 0xAB, sizeof small);
    size_t need = 0;
    ck_assert_int_eq(toggle_render(NULL, TOGGLE_IMAGE_PPM, v, 2, 3, 3, small, sizeof small,
                                   &need), TOGGLE_EBUFSIZE);
    ck_assert_uint_eq(need, strlen("P6\n24 16\n255\n") + 24 * 16 * 3);
    for (size_t i = 0; i < sizeof small; i++)
        ck_assert_uint_eq(small[i], 0xAB); /* untouched */
    ck_assert_int_eq(toggle_render(NULL, TOGGLE_IMAGE_PPM, v, 2, 3, 3, NULL, 5, &need),
                     TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render(NULL, TOGGLE_IMAGE_PPM, NULL, 2, 3, 3, NULL, 0, &need),
                     TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render(NULL, 7, v, 2, 3, 3, NULL, 0, &need), TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render(NULL, TOGGLE_IMAGE_PPM, v, 2, 3, 1, NULL, 0, &need),
                     TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render(NULL, TOGGLE_IMAGE_PPM, v, 0, 3, 3, NULL, 0, &need),
                     TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render(NULL, TOGGLE_IMAGE_PPM, v, 2, 3, 2, NULL, 0, &need),
                     TOGGLE_ERANGE);
    ck_assert_int_eq(toggle_render(NULL, TOGGLE_IMAGE_PPM, v, 2, 3, 3, NULL, 0, NULL),
                     TOGGLE_EBUFSIZE);

    /* files: the same bytes as the buffer; a bad path is TOGGLE_EIO */
    char path[] = "/tmp/toggle-render-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    for (int fmt = TOGGLE_IMAGE_PPM; fmt <= TOGGLE_IMAGE_PNG; fmt++) {
        int rc = toggle_render_file(NULL, fmt, v, 2, 3, 3, path);
#ifndef HAVE_PNG
        if (fmt == TOGGLE_IMAGE_PNG) {
            ck_assert_int_eq(rc, TOGGLE_EUNSUPPORTED);
            continue;
        }
#endif
        ck_assert_int_eq(rc, TOGGLE_OK);
        size_t len;
        uint8_t *b = render_alloc(NULL, fmt, v, 2, 3, 3, &len);
        FILE *f = fopen(path, "rb");
        uint8_t *fb = malloc(len + 1);
        ck_assert_uint_eq(fread(fb, 1, len + 1, f), len);
        fclose(f);
        ck_assert(memcmp(b, fb, len) == 0);
        free(b);
        free(fb);
    }
    unlink(path);
    ck_assert_int_eq(toggle_render_file(NULL, TOGGLE_IMAGE_PPM, v, 2, 3, 3,
                                        "/nonexistent-dir/x.ppm"), TOGGLE_EIO);
    ck_assert_int_eq(toggle_render_file(NULL, TOGGLE_IMAGE_PPM, v, 2, 3, 3, NULL),
                     TOGGLE_EINVAL);
    ck_assert_int_eq(toggle_render_file(NULL, TOGGLE_IMAGE_PPM, v, 2, 3, 9, "/dev/full"),
                     TOGGLE_EIO);
}
END_TEST

/* Moduli near 2^64 (and the palette edge 255/256/257), with and without a
 * frame: k + 1 must not wrap into a palette (it wrote past a 256-entry
 * array); the PNG shows the PPM's pixels. */
START_TEST(png_extreme_moduli)
{
    const uint64_t ks[] = {2, 255, 256, 257, (uint64_t)1 << 32, (uint64_t)1 << 63,
                           UINT64_MAX - 1, UINT64_MAX};
    for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++)
        for (int framed = 0; framed < 2; framed++) {
            uint64_t k = ks[ki];
            uint64_t v[6] = {0, 1, k - 1, k / 2, k - 2, 1};
            toggle_render_opts *o = NULL;
            ck_assert_int_eq(toggle_render_opts_new(&o), TOGGLE_OK);
            ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, 2), TOGGLE_OK);
            ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_BORDER, (uint64_t)framed),
                             TOGGLE_OK);
            ck_assert_int_eq(toggle_render_opts_set(o, TOGGLE_RENDER_GRID_LINES,
                                                    (uint64_t)framed), TOGGLE_OK);
            size_t plen;
            uint8_t *ppm = render_alloc(o, TOGGLE_IMAGE_PPM, v, 2, 3, k, &plen);
#ifdef HAVE_PNG
            size_t len, W, H;
            uint8_t *png = render_alloc(o, TOGGLE_IMAGE_PNG, v, 2, 3, k, &len);
            uint8_t *dec = decode_png(png, len, &W, &H);
            ck_assert_uint_ge(plen, W * H * 3);
            ck_assert_msg(memcmp(dec, ppm + plen - W * H * 3, W * H * 3) == 0,
                          "PNG differs from PPM (k=%llu, framed %d)", (unsigned long long)k,
                          framed);
            free(dec);
            free(png);
#endif
            free(ppm);
            toggle_render_opts_free(o);
        }
}
END_TEST

int main(void)
{
    Suite *su = suite_create("render");
    TCase *tc = tcase_create("render");
    tcase_add_test(tc, colormaps);
    tcase_add_test(tc, options);
    tcase_add_test(tc, pixels_ppm_and_png);
    tcase_add_test(tc, golden);
    tcase_add_test(tc, cyclic_maps);
    tcase_add_test(tc, buffers_files_misuse);
    tcase_add_test(tc, png_extreme_moduli);
    suite_add_tcase(su, tc);
    return tu_run(su);
}
