/* Board pictures: colour map sampling, options, PPM and PNG encoding. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#ifdef TOGGLE_HAVE_PNG
#include <png.h>
#include <setjmp.h>
#endif

#include "render_internal.h"

#define MAX_SIDE 1000000u

struct toggle_render_opts {
    uint64_t cell, lines, border, cmap, reversed, line_color;
};

static const toggle_render_opts defaults = {8, 0, 0, TOGGLE_CMAP_VIRIDIS, 0, 0x000000};

/* ---- colour maps -------------------------------------------------------- */

size_t toggle_colormap_count(void)
{
    return toggle__colormap_count;
}

const char *toggle_colormap_name(int id)
{
    if (id < 0 || (size_t)id >= toggle__colormap_count)
        return NULL;
    return toggle__colormaps[id].name;
}

int toggle_colormap_is_qualitative(int id)
{
    if (id < 0 || (size_t)id >= toggle__colormap_count)
        return toggle__error(TOGGLE_EINVAL, "unknown colour map id %d", id);
    return toggle__colormaps[id].qualitative;
}

int toggle_colormap_from_name(const char *name, int *id, int *reversed)
{
    if (!name || !id)
        return toggle__error(TOGGLE_EINVAL, "name and id must not be NULL");
    size_t len = strlen(name);
    int rev = len > 2 && strcmp(name + len - 2, "_r") == 0;
    size_t base = rev ? len - 2 : len;
    for (size_t i = 0; i < toggle__colormap_count; i++) {
        const char *n = toggle__colormaps[i].name;
        if (strlen(n) == base && strncmp(n, name, base) == 0) {
            *id = (int)i;
            if (reversed)
                *reversed = rev;
            return TOGGLE_OK;
        }
    }
    return toggle__error(TOGGLE_EINVAL, "unknown colour map '%s'", name);
}

/* The sampling rule of render.h; v < k and k >= 2 are checked by callers. */
static const uint8_t *sample(const toggle__colormap *m, int reversed, uint64_t v, uint64_t k)
{
    if (reversed)
        v = k - 1 - v;
    if (m->qualitative)
        return m->rgb[v % m->n];
    /* round(v * 255 / (k - 1)), for a cyclic map round(v * 255 / k), so
     * that 0 and k - 1 differ (the map's ends are one colour); as 128-bit
     * integers, without overflow. */
    uint64_t q = m->cyclic ? k : k - 1;
    unsigned __int128 num = (unsigned __int128)v * 510u + q;
    uint64_t idx = (uint64_t)(num / ((unsigned __int128)q * 2u));
    return m->rgb[idx];
}

int toggle_colormap_color(int id, int reversed, uint64_t v, uint64_t k, uint8_t *rgb)
{
    if (!rgb)
        return toggle__error(TOGGLE_EINVAL, "rgb must not be NULL");
    if (id < 0 || (size_t)id >= toggle__colormap_count)
        return toggle__error(TOGGLE_EINVAL, "unknown colour map id %d", id);
    if (k < 2)
        return toggle__error(TOGGLE_EINVAL, "modulus must be >= 2");
    if (v >= k)
        return toggle__error(TOGGLE_ERANGE, "value %llu >= modulus %llu",
                             (unsigned long long)v, (unsigned long long)k);
    memcpy(rgb, sample(&toggle__colormaps[id], reversed != 0, v, k), 3);
    return TOGGLE_OK;
}

/* ---- options ------------------------------------------------------------ */

int toggle_render_opts_new(toggle_render_opts **out)
{
    if (!out)
        return toggle__error(TOGGLE_EINVAL, "out must not be NULL");
    toggle_render_opts *o = toggle__malloc(sizeof *o);
    if (!o)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for render options");
    *o = defaults;
    *out = o;
    return TOGGLE_OK;
}

void toggle_render_opts_free(toggle_render_opts *opts)
{
    toggle__free(opts);
}

static uint64_t *opt_slot(toggle_render_opts *o, int key, uint64_t *max)
{
    switch (key) {
    case TOGGLE_RENDER_CELL_SIZE: *max = 4096; return &o->cell;
    case TOGGLE_RENDER_GRID_LINES: *max = 256; return &o->lines;
    case TOGGLE_RENDER_BORDER: *max = 4096; return &o->border;
    case TOGGLE_RENDER_COLORMAP: *max = toggle__colormap_count - 1; return &o->cmap;
    case TOGGLE_RENDER_REVERSED: *max = 1; return &o->reversed;
    case TOGGLE_RENDER_LINE_COLOR: *max = 0xFFFFFF; return &o->line_color;
    default: return NULL;
    }
}

int toggle_render_opts_set(toggle_render_opts *opts, int key, uint64_t value)
{
    if (!opts)
        return toggle__error(TOGGLE_EINVAL, "opts must not be NULL");
    uint64_t max = 0;
    uint64_t *slot = opt_slot(opts, key, &max);
    if (!slot)
        return toggle__error(TOGGLE_EINVAL, "unknown render option %d", key);
    if (value > max || (key == TOGGLE_RENDER_CELL_SIZE && value == 0))
        return toggle__error(TOGGLE_ERANGE, "render option %d: value %llu out of range", key,
                             (unsigned long long)value);
    *slot = value;
    return TOGGLE_OK;
}

int toggle_render_opts_get(const toggle_render_opts *opts, int key, uint64_t *value)
{
    if (!opts || !value)
        return toggle__error(TOGGLE_EINVAL, "opts and value must not be NULL");
    uint64_t max;
    uint64_t *slot = opt_slot((toggle_render_opts *)opts, key, &max);
    if (!slot)
        return toggle__error(TOGGLE_EINVAL, "unknown render option %d", key);
    *value = *slot;
    return TOGGLE_OK;
}

/* ---- layout ------------------------------------------------------------- */

static int side(const toggle_render_opts *o, size_t cells, size_t *px)
{
    /* cells * cell + (cells - 1) * lines + 2 * border, all bounded small */
    if (cells > MAX_SIDE) /* every cell is at least one pixel */
        return toggle__error(TOGGLE_ERANGE, "image too large (%zu cells on a side)", cells);
    uint64_t v = (uint64_t)cells * o->cell + (uint64_t)(cells - 1) * o->lines + 2 * o->border;
    if (v > MAX_SIDE)
        return toggle__error(TOGGLE_ERANGE, "image too large (%llu pixels on a side, at most %u)",
                             (unsigned long long)v, MAX_SIDE);
    *px = (size_t)v;
    return TOGGLE_OK;
}

int toggle_render_size(const toggle_render_opts *opts, size_t rows, size_t cols,
                       size_t *width, size_t *height)
{
    if (!width || !height)
        return toggle__error(TOGGLE_EINVAL, "width and height must not be NULL");
    if (rows == 0 || cols == 0)
        return toggle__error(TOGGLE_EINVAL, "board must have at least one cell");
    if (!opts)
        opts = &defaults;
    size_t w = 0, h = 0;
    int rc = side(opts, cols, &w);
    if (!rc)
        rc = side(opts, rows, &h);
    if (rc)
        return rc;
    *width = w;
    *height = h;
    return TOGGLE_OK;
}

/* A picture being drawn: index rows (palette index per pixel, value v is
 * index v, the line colour index k) expand to RGB through pal. */
typedef struct {
    const toggle_render_opts *o;
    const uint64_t *cells;
    size_t rows, cols, width, height;
    uint64_t k;
    const toggle__colormap *map;
    uint8_t line_rgb[3];
} picture;

/* Which board row pixel row y shows, or SIZE_MAX for a line/border row. */
static size_t pixel_cell(const toggle_render_opts *o, size_t y, size_t count)
{
    if (y < o->border)
        return SIZE_MAX;
    y -= o->border;
    size_t pitch = o->cell + o->lines;
    size_t c = y / pitch;
    if (c >= count || y % pitch >= o->cell)
        return SIZE_MAX;
    return c;
}

/* Board column of every pixel column (SIZE_MAX for lines and border), so
 * that rows are filled without a division per pixel. */
static size_t *column_map(const picture *p)
{
    size_t *map = toggle__malloc_array(p->width, sizeof *map);
    if (map)
        for (size_t x = 0; x < p->width; x++)
            map[x] = pixel_cell(p->o, x, p->cols);
    return map;
}

/* Fill one RGB row (width * 3 bytes) showing board row r (SIZE_MAX: a line). */
static void rgb_row(const picture *p, const size_t *colmap, size_t r, uint8_t *out)
{
    for (size_t x = 0; x < p->width; x++) {
        size_t c = r == SIZE_MAX ? SIZE_MAX : colmap[x];
        const uint8_t *rgb = c == SIZE_MAX ? p->line_rgb
                                            : sample(p->map, p->o->reversed != 0,
                                                     p->cells[r * p->cols + c], p->k);
        memcpy(out + 3 * x, rgb, 3);
    }
}

static int picture_init(picture *p, const toggle_render_opts *opts, int format,
                        const uint64_t *cells, size_t rows, size_t cols, uint64_t k)
{
    if (!cells)
        return toggle__error(TOGGLE_EINVAL, "cells must not be NULL");
    if (format != TOGGLE_IMAGE_PNG && format != TOGGLE_IMAGE_PPM)
        return toggle__error(TOGGLE_EINVAL, "unknown image format %d", format);
    if (k < 2)
        return toggle__error(TOGGLE_EINVAL, "modulus must be >= 2");
    memset(p, 0, sizeof *p);
    p->o = opts ? opts : &defaults;
    int rc = toggle_render_size(p->o, rows, cols, &p->width, &p->height);
    if (rc)
        return rc;
    size_t n = rows * cols; /* fits: both sides are bounded above */
    for (size_t i = 0; i < n; i++)
        if (cells[i] >= k)
            return toggle__error(TOGGLE_ERANGE, "cell %zu has value %llu >= modulus %llu", i,
                                 (unsigned long long)cells[i], (unsigned long long)k);
    if (format == TOGGLE_IMAGE_PNG) {
#ifndef TOGGLE_HAVE_PNG
        return toggle__error(TOGGLE_EUNSUPPORTED, "this build of libtoggle has no PNG support "
                             "(built without libpng)");
#endif
    }
    p->cells = cells;
    p->rows = rows;
    p->cols = cols;
    p->k = k;
    p->map = &toggle__colormaps[p->o->cmap];
    p->line_rgb[0] = (uint8_t)(p->o->line_color >> 16);
    p->line_rgb[1] = (uint8_t)(p->o->line_color >> 8);
    p->line_rgb[2] = (uint8_t)p->o->line_color;
    return TOGGLE_OK;
}

/* ---- output sinks ------------------------------------------------------- */

/* Bytes go to a caller buffer (counting past its end), a growable buffer
 * of at most `limit` bytes (past it the bytes are only counted: a size
 * query keeps no more than the caller's buffer could take), or a file. */
typedef struct {
    uint8_t *buf;
    size_t len, pos;
    int grow;          /* buf is ours and grows up to limit */
    size_t limit;
    FILE *f;
    int failed;        /* TOGGLE_* status of the first failure */
} sink;

static void sink_put(sink *s, const void *data, size_t n)
{
    if (s->failed)
        return;
    if (s->f) {
        if (fwrite(data, 1, n, s->f) != n)
            s->failed = toggle__error(TOGGLE_EIO, "write failed");
        s->pos += n;
        return;
    }
    size_t end;
    if (!toggle__add_ok(s->pos, n, &end)) {
        s->failed = toggle__error(TOGGLE_EOVERFLOW, "image too large");
        return;
    }
    if (end > s->len && s->grow && end <= s->limit) {
        size_t cap = s->len ? s->len : 4096;
        while (cap < end)
            cap = cap > SIZE_MAX / 2 ? end : cap * 2;
        if (cap > s->limit)
            cap = s->limit;
        uint8_t *nb = toggle__realloc(s->buf, cap);
        if (!nb) {
            s->failed = toggle__error(TOGGLE_ENOMEM, "out of memory encoding an image");
            return;
        }
        s->buf = nb;
        s->len = cap;
    }
    if (end <= s->len)
        memcpy(s->buf + s->pos, data, n);
    s->pos = end;
}

/* The PPM header, and the file's size by formula (ERANGE past SIZE_MAX). */
static int ppm_head(const picture *p, char head[64], size_t *hl, size_t *total)
{
    int n = snprintf(head, 64, "P6\n%zu %zu\n255\n", p->width, p->height);
    *hl = (size_t)n;
    size_t px;
    if (!toggle__mul_ok(p->width, p->height, &px) || !toggle__mul_ok(px, 3, &px) ||
        !toggle__add_ok(px, *hl, total))
        return toggle__error(TOGGLE_ERANGE, "a %zu x %zu picture is larger than SIZE_MAX bytes",
                             p->width, p->height);
    return TOGGLE_OK;
}

/* Everything is allocated before the first byte goes out, so a write into
 * memory cannot fail half way. */
static int encode_ppm(const picture *p, sink *s)
{
    char head[64];
    size_t hl, total;
    int rc = ppm_head(p, head, &hl, &total);
    if (rc)
        return rc;
    uint8_t *row = toggle__malloc_array(p->width, 3);
    size_t *colmap = column_map(p);
    if (!row || !colmap) {
        toggle__free(row);
        toggle__free(colmap);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for an image row");
    }
    sink_put(s, head, hl);
    size_t last = SIZE_MAX - 1; /* board row the buffer holds (SIZE_MAX: a line) */
    for (size_t y = 0; y < p->height && !s->failed; y++) {
        size_t r = pixel_cell(p->o, y, p->rows);
        if (r != last)
            rgb_row(p, colmap, r, row);
        last = r;
        sink_put(s, row, p->width * 3);
    }
    toggle__free(row);
    toggle__free(colmap);
    return s->failed;
}

#ifdef TOGGLE_HAVE_PNG
typedef struct {
    jmp_buf jb;
    sink *s;
    char why[128]; /* libpng's message of a png_error() */
} png_ctx;

static void png_err(png_structp png, png_const_charp msg)
{
    png_ctx *c = png_get_error_ptr(png);
    snprintf(c->why, sizeof c->why, "%s", msg ? msg : "");
    longjmp(c->jb, 1);
}

static void png_warn(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* the library never prints */
}

static void png_write(png_structp png, png_bytep data, size_t n)
{
    png_ctx *c = png_get_io_ptr(png);
    sink_put(c->s, data, n);
}

static void png_flush(png_structp png)
{
    (void)png;
}

static png_voidp png_alloc(png_structp png, png_alloc_size_t n)
{
    (void)png;
    return toggle__malloc(n);
}

static void png_dealloc(png_structp png, png_voidp ptr)
{
    (void)png;
    toggle__free(ptr);
}

/* Palette images when the k values plus the line colour fit in 256 entries
 * (bit depth 1, 2, 4 or 8 by palette size), else 8-bit RGB. */
static int encode_png(const picture *p, sink *s)
{
    const toggle_render_opts *o = p->o;
    int framed = o->lines > 0 || o->border > 0;
    /* k values plus the line colour: compared, never added (k + 1 wraps
     * for k = 2^64 - 1) */
    int palette = p->k <= (framed ? 255u : 256u);
    unsigned ncolors = palette ? (unsigned)p->k + (framed ? 1u : 0u) : 0u;
    const int depth = !palette ? 8 : ncolors <= 2 ? 1 : ncolors <= 4 ? 2 : ncolors <= 16 ? 4 : 8;
    size_t rowbytes = palette ? p->width : p->width * 3;
    if (!palette && p->width > SIZE_MAX / 3)
        return toggle__error(TOGGLE_EOVERFLOW, "image too large");
    uint8_t *volatile row = toggle__malloc(rowbytes);
    size_t *volatile colmap = column_map(p);
    if (!row || !colmap) {
        toggle__free(row);
        toggle__free(colmap);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for an image row");
    }
    png_ctx ctx;
    ctx.s = s;
    ctx.why[0] = '\0';
    png_structp png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, &ctx, png_err, png_warn,
                                                NULL, png_alloc, png_dealloc);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(png ? &png : NULL, NULL);
        toggle__free(row);
        toggle__free(colmap);
        return toggle__error(TOGGLE_ENOMEM, "out of memory starting PNG output");
    }
    if (setjmp(ctx.jb)) {
        png_destroy_write_struct(&png, &info);
        toggle__free(row);
        toggle__free(colmap);
        /* the sink's own failure, else libpng's: on validated input its only
         * errors are failed allocations (its own or zlib's) */
        return s->failed ? s->failed
                         : toggle__error(TOGGLE_ENOMEM, "out of memory encoding the PNG "
                                         "(libpng: %s)", ctx.why);
    }
    png_set_write_fn(png, &ctx, png_write, png_flush);
    png_set_compression_level(png, 6);
    png_set_compression_mem_level(png, 8);
    png_set_compression_strategy(png, 3 /* Z_RLE: fast; the filter turns repeated rows into zero runs */);
    png_set_compression_window_bits(png, 15);
    png_set_filter(png, 0, PNG_FILTER_UP);
    png_set_IHDR(png, info, (png_uint_32)p->width, (png_uint_32)p->height, depth,
                 palette ? PNG_COLOR_TYPE_PALETTE : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (palette) {
        png_color pal[256];
        for (uint64_t v = 0; v < p->k; v++) {
            const uint8_t *c = sample(p->map, o->reversed != 0, v, p->k);
            pal[v].red = c[0];
            pal[v].green = c[1];
            pal[v].blue = c[2];
        }
        if (framed) {
            pal[p->k].red = p->line_rgb[0];
            pal[p->k].green = p->line_rgb[1];
            pal[p->k].blue = p->line_rgb[2];
        }
        png_set_PLTE(png, info, pal, (int)ncolors);
    }
    png_write_info(png, info);
    if (palette && depth < 8)
        png_set_packing(png);
    size_t last = SIZE_MAX - 1; /* board row the buffer holds (SIZE_MAX: a line) */
    for (size_t y = 0; y < p->height; y++) {
        size_t r = pixel_cell(o, y, p->rows);
        if (r != last && palette) {
            for (size_t x = 0; x < p->width; x++) {
                size_t c = r == SIZE_MAX ? SIZE_MAX : colmap[x];
                row[x] = c == SIZE_MAX ? (uint8_t)p->k : (uint8_t)p->cells[r * p->cols + c];
            }
        } else if (r != last) {
            rgb_row(p, colmap, r, row);
        }
        last = r;
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    toggle__free(row);
    toggle__free(colmap);
    return s->failed;
}
#endif

/* ---- the memory estimate ------------------------------------------------ */

/* zlib's deflate state for windowBits 15, memLevel 8 (window, prev and head
 * arrays of 64 KiB each, the pending buffer 64 KiB, the state), libpng's
 * structs and its compression buffer. */
#define PNG_FIXED_BYTES ((uint64_t)(4 * 65536 + 6 * 1024 + 12 * 1024))

int toggle__render_estimate(const toggle_render_opts *opts, int format, size_t rows,
                            size_t cols, uint64_t k, size_t len, uint64_t *bytes)
{
    size_t w, h;
    int rc = toggle_render_size(opts ? opts : &defaults, rows, cols, &w, &h);
    if (rc)
        return rc;
    const toggle_render_opts *o = opts ? opts : &defaults;
    /* every encoder: one RGB (or index) row and the column map */
    unsigned __int128 e = (unsigned __int128)w * 3 + (unsigned __int128)w * sizeof(size_t) + 64;
    if (format == TOGGLE_IMAGE_PNG) {
        int framed = o->lines > 0 || o->border > 0;
        int palette = k <= (framed ? 255u : 256u);
        unsigned ncolors = palette ? (unsigned)k + (framed ? 1u : 0u) : 0u;
        unsigned depth = !palette ? 24 : ncolors <= 2 ? 1 : ncolors <= 4 ? 2 : ncolors <= 16 ? 4 : 8;
        unsigned __int128 pngrow = ((unsigned __int128)w * depth + 7) / 8 + 1;
        /* libpng's rows: the row, the previous row (filter Up) and the
         * filtered row; then the fixed state */
        e += 3 * pngrow + PNG_FIXED_BYTES;
        if (len) {
            /* our copy of the encoded bytes, at most len and at most the
             * largest PNG of this picture (stored deflate blocks); while
             * it grows, realloc holds the old block (up to the new
             * one's size) beside the new one */
            unsigned __int128 bound = (unsigned __int128)h * pngrow
                                    + (unsigned __int128)h * pngrow / 16000 * 5 + 4096 + 1024;
            unsigned __int128 own = len < bound ? len : bound;
            e += 2 * own;
        }
    }
    *bytes = e > UINT64_MAX ? UINT64_MAX : (uint64_t)e;
    return TOGGLE_OK;
}

static int render_budget(const picture *p, int format, size_t len)
{
    uint64_t est = 0;
    int rc = toggle__render_estimate(p->o, format, p->rows, p->cols, p->k, len, &est);
    return rc ? rc : toggle__budget_check_bytes(TOGGLE_DEFAULT_MEMORY_BUDGET, est,
                                                "rendering the picture");
}

static int encode(const picture *p, int format, sink *s)
{
#ifdef TOGGLE_HAVE_PNG
    if (format == TOGGLE_IMAGE_PNG)
        return encode_png(p, s);
#endif
    (void)format;
    return encode_ppm(p, s);
}

int toggle_render(const toggle_render_opts *opts, int format, const uint64_t *cells,
                  size_t rows, size_t cols, uint64_t modulus, uint8_t *buf, size_t len,
                  size_t *needed)
{
    if (!buf && len > 0)
        return toggle__error(TOGGLE_EINVAL, "buf is NULL but len is %zu", len);
    picture p;
    int rc = picture_init(&p, opts, format, cells, rows, cols, modulus);
    if (rc)
        return rc;
    if ((rc = render_budget(&p, format, len)))
        return rc;
    sink s = {0};
    if (format == TOGGLE_IMAGE_PPM) {
        /* The size by formula; a large enough buffer is written directly
         * (encode_ppm cannot fail once it writes). */
        char head[64];
        size_t hl, total;
        if ((rc = ppm_head(&p, head, &hl, &total)))
            return rc;
        if (needed)
            *needed = total;
        if (total > len)
            return toggle__error(TOGGLE_EBUFSIZE, "image needs %zu bytes, buffer has %zu",
                                 total, len);
        s.buf = buf;
        s.len = len;
        return encode_ppm(&p, &s);
    }
    /* PNG: the size is known only after encoding. Encode into our own
     * buffer, kept only while it fits in len (past that the bytes are only
     * counted), so a too small caller buffer is left untouched and a size
     * query holds a row, not the picture. */
    s.grow = 1;
    s.limit = len;
    rc = encode(&p, format, &s);
    if (!rc) {
        if (needed)
            *needed = s.pos;
        if (s.pos > len)
            rc = toggle__error(TOGGLE_EBUFSIZE, "image needs %zu bytes, buffer has %zu", s.pos,
                               len);
        else if (s.pos)
            memcpy(buf, s.buf, s.pos);
    }
    toggle__free(s.buf);
    return rc;
}

int toggle_render_file(const toggle_render_opts *opts, int format, const uint64_t *cells,
                       size_t rows, size_t cols, uint64_t modulus, const char *path)
{
    if (!path)
        return toggle__error(TOGGLE_EINVAL, "path must not be NULL");
    picture p;
    int rc = picture_init(&p, opts, format, cells, rows, cols, modulus);
    if (rc)
        return rc;
    if ((rc = render_budget(&p, format, 0)))
        return rc;
    sink s = {0};
    s.f = fopen(path, "wb");
    if (!s.f && errno == ENOMEM) /* fopen's own allocation */
        return toggle__error(TOGGLE_ENOMEM, "out of memory opening '%s'", path);
    if (!s.f)
        return toggle__error(TOGGLE_EIO, "cannot open '%s' for writing", path);
    rc = encode(&p, format, &s);
    if (fclose(s.f) != 0 && !rc)
        rc = toggle__error(TOGGLE_EIO, "cannot write '%s'", path);
    if (rc == TOGGLE_EIO)
        toggle__error(TOGGLE_EIO, "cannot write '%s'", path);
    return rc;
}
