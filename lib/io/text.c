/* Text forms: the augmented-matrix format, boards, and edge lists. */
#include <string.h>

#include "system/system_internal.h"

/* A growable array of uint64 values. */
typedef struct {
    uint64_t *v;
    size_t len, cap;
} u64buf;

static int buf_push(u64buf *b, uint64_t x)
{
    if (b->len == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        if (cap > SIZE_MAX / sizeof *b->v)
            return toggle__error(TOGGLE_EOVERFLOW, "input too large");
        uint64_t *v = toggle__realloc(b->v, cap * sizeof *v);
        if (!v)
            return toggle__error(TOGGLE_ENOMEM, "out of memory reading input");
        b->v = v;
        b->cap = cap;
    }
    b->v[b->len++] = x;
    return TOGGLE_OK;
}

/* Line iteration over (text, len): sets *line, *linelen and advances *pos.
 * A '#' comment is cut off; returns false at the end. */
static bool next_line(const char *text, size_t len, size_t *pos, const char **line,
                      size_t *linelen)
{
    if (*pos >= len)
        return false;
    size_t start = *pos, end = start;
    while (end < len && text[end] != '\n')
        end++;
    *pos = end < len ? end + 1 : end;
    size_t cut = start;
    while (cut < end && text[cut] != '#')
        cut++;
    *line = text + start;
    *linelen = cut - start;
    return true;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_space(s[i]))
            return false;
    return true;
}

/* The lines of a text that hold something: next_content_line skips blank
 * (and comment-only) lines and counts every line in lineno. */
typedef struct {
    const char *text, *line;
    size_t len, pos, lineno, ll;
} lines;

static bool next_content_line(lines *it)
{
    while (next_line(it->text, it->len, &it->pos, &it->line, &it->ll)) {
        it->lineno++;
        if (!blank(it->line, it->ll))
            return true;
    }
    return false;
}

/* Every row has as many values as the first (row 0 sets *width); what
 * names them in the message ("entries", "cells"). */
static int same_width(size_t row, size_t cnt, size_t *width, size_t lineno, const char *what)
{
    if (row == 0)
        *width = cnt;
    else if (cnt != *width)
        return toggle__error(TOGGLE_EPARSE, "line %zu has %zu %s, expected %zu", lineno, cnt,
                             what, *width);
    return TOGGLE_OK;
}

/* A parse error at a byte: printable bytes are quoted, others (NUL,
 * control bytes, bytes >= 127) are shown in hex, never copied raw. */
static int unexpected(size_t lineno, size_t col, char c)
{
    if ((unsigned char)c >= 32 && (unsigned char)c < 127)
        return toggle__error(TOGGLE_EPARSE, "line %zu, column %zu: unexpected '%c'", lineno,
                             col, c);
    return toggle__error(TOGGLE_EPARSE, "line %zu, column %zu: unexpected byte 0x%02x", lineno,
                         col, (unsigned)(unsigned char)c);
}

/* Where values are read: the line number, the column of s[0] minus one
 * (columns are reported for the whole line), and what bounds the values
 * (k, named "the modulus"; for edge lists no modulus: node numbers). */
typedef struct {
    size_t lineno, col0;
    bool modulus;
} place;

/* Read values from s[0..n): digits one per character when k <= 10 (spaces
 * skipped, '.' = 0 when dots), else white-space separated decimal numbers. */
static int read_values(const char *s, size_t n, uint64_t k, bool dots, place at, u64buf *out,
                       size_t *count)
{
    size_t before = out->len, lineno = at.lineno;
    int rc;
    for (size_t i = 0; i < n;) {
        char c = s[i];
        size_t col = at.col0 + i + 1;
        if (is_space(c)) {
            i++;
            continue;
        }
        if (k <= 10 && (c >= '0' && c <= '9')) {
            uint64_t v = (uint64_t)(c - '0');
            if (v >= k)
                return toggle__error(TOGGLE_ERANGE, "line %zu, column %zu: %c is not below the "
                                     "modulus %llu", lineno, col, c, (unsigned long long)k);
            if ((rc = buf_push(out, v)))
                return rc;
            i++;
            continue;
        }
        if (dots && c == '.') {
            if ((rc = buf_push(out, 0)))
                return rc;
            i++;
            continue;
        }
        if (k > 10 && c >= '0' && c <= '9') {
            uint64_t v = 0;
            while (i < n && s[i] >= '0' && s[i] <= '9') {
                if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
                    return toggle__error(TOGGLE_ERANGE, "line %zu, column %zu: number too large",
                                         lineno, col);
                i++;
            }
            if (i < n && !is_space(s[i]))
                return unexpected(lineno, at.col0 + i + 1, s[i]);
            if (v >= k && at.modulus)
                return toggle__error(TOGGLE_ERANGE, "line %zu, column %zu: %llu is not below the "
                                     "modulus %llu", lineno, col, (unsigned long long)v,
                                     (unsigned long long)k);
            if (v >= k)
                return toggle__error(TOGGLE_ERANGE, "line %zu, column %zu: number too large",
                                     lineno, col);
            if ((rc = buf_push(out, v)))
                return rc;
            continue;
        }
        return unexpected(lineno, col, c);
    }
    *count = out->len - before;
    return TOGGLE_OK;
}

/* Append the line just read (the width values of a) as packed row m of
 * *bits (rows of *bw words, capacity *cap words), and empty a. */
static int pack_line(u64buf *a, size_t width, size_t m, uint64_t **bits, size_t *cap,
                     size_t *bw)
{
    size_t W = width / 64 + (width % 64 != 0), need;
    *bw = W;
    if (!toggle__mul_ok(m + 1, W, &need) || need > SIZE_MAX / 16)
        return toggle__error(TOGGLE_EOVERFLOW, "input too large");
    if (need > *cap || !*bits) {
        size_t nc = *cap ? *cap * 2 : 64;
        while (nc < need)
            nc *= 2;
        uint64_t *v = toggle__realloc(*bits, nc * sizeof *v);
        if (!v)
            return toggle__error(TOGGLE_ENOMEM, "out of memory reading input");
        *bits = v;
        *cap = nc;
    }
    uint64_t *row = *bits + m * W;
    memset(row, 0, W * sizeof *row);
    for (size_t j = 0; j < width; j++)
        row[j >> 6] |= (a->v[j] & 1) << (j & 63);
    a->len = 0;
    return TOGGLE_OK;
}

int toggle_system_parse(toggle_system **out, const char *text, size_t len, uint64_t k)
{
    if (!out || (!text && len))
        return toggle__error(TOGGLE_EINVAL, "out and text must not be NULL");
    int rc = toggle__check_modulus(k);
    if (rc)
        return rc;
    u64buf a = {0}, b = {0};
    /* k = 2: each line's values are packed into `bits` at once (rows of
     * bw words), so A is never held at a word per entry */
    uint64_t *bits = NULL;
    size_t bcap = 0, bw = 0;
    size_t width = 0, m = 0;
    lines it = {.text = text, .len = len};
    while (!rc && next_content_line(&it)) {
        const char *line = it.line;
        size_t ll = it.ll, lineno = it.lineno;
        const char *bar = memchr(line, '|', ll);
        if (!bar) {
            rc = toggle__error(TOGGLE_EPARSE, "line %zu: no '|' before the right-hand side", lineno);
            break;
        }
        size_t left = (size_t)(bar - line), cnt = 0, rcnt = 0;
        if ((rc = read_values(line, left, k, false, (place){lineno, 0, true}, &a, &cnt)))
            break;
        if ((rc = read_values(bar + 1, ll - left - 1, k, false, (place){lineno, left + 1, true},
                              &b, &rcnt)))
            break;
        if (rcnt != 1) {
            rc = toggle__error(TOGGLE_EPARSE, "line %zu: %zu values after '|', expected 1",
                               lineno, rcnt);
            break;
        }
        rc = same_width(m, cnt, &width, lineno, "entries");
        if (!rc && k == 2)
            rc = pack_line(&a, width, m, &bits, &bcap, &bw);
        m++;
    }
    if (!rc && k == 2) {
        rc = toggle__system_adopt_packed(out, m, width, bits, b.v, false);
        bits = NULL;
    } else if (!rc) {
        rc = toggle_system_new_matrix(out, m, width, a.v, b.v, k);
    }
    toggle__free(bits);
    toggle__free(a.v);
    toggle__free(b.v);
    return rc;
}

/* Decimal digits of v. */
static size_t digits(uint64_t v)
{
    size_t d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* A text writer: with buf NULL it only counts (the measuring pass), else
 * it writes; the callers measure first, so a too small buffer is never
 * touched. */
typedef struct {
    char *buf;
    size_t len;
    bool overflow; /* the count passed SIZE_MAX */
} writer;

static void put(writer *w, const char *s, size_t n)
{
    if (w->buf)
        memcpy(w->buf + w->len, s, n);
    if (!toggle__add_ok(w->len, n, &w->len))
        w->overflow = true;
}

static void put_u64(writer *w, uint64_t v)
{
    char tmp[24];
    size_t d = digits(v);
    for (size_t i = d; i-- > 0; v /= 10)
        tmp[i] = (char)('0' + v % 10);
    put(w, tmp, d);
}

/* Write the text of body(obj) into buf if its `need` bytes (NUL included)
 * fit in len, else leave buf untouched and return TOGGLE_EBUFSIZE. */
static int emit(void (*body)(writer *, const void *), const void *obj, size_t need, char *buf,
                size_t len, size_t *needed)
{
    if (needed)
        *needed = need;
    if (need > len)
        return toggle__error(TOGGLE_EBUFSIZE, "the text needs %zu bytes, buffer has %zu", need,
                             len);
    writer w = {buf, 0, false};
    body(&w, obj);
    buf[w.len] = '\0';
    return TOGGLE_OK;
}

/* The measuring pass: the bytes body(obj) writes, NUL included. */
static int measure(void (*body)(writer *, const void *), const void *obj, size_t *need)
{
    writer w = {NULL, 0, false};
    body(&w, obj);
    if (w.overflow || !toggle__add_ok(w.len, 1, need))
        return toggle__error(TOGGLE_EOVERFLOW, "the text is longer than SIZE_MAX bytes");
    return TOGGLE_OK;
}

static void system_body(writer *w, const void *obj)
{
    const toggle_system *s = obj;
    bool sep = s->k > 10;
    for (size_t i = 0; i < s->m; i++) {
        for (size_t j = 0; j < s->n; j++) {
            if (sep && j)
                put(w, " ", 1);
            put_u64(w, toggle__system_get(s, i, j));
        }
        put(w, sep ? " | " : "|", sep ? 3 : 1);
        put_u64(w, toggle__rhs(s, i));
        put(w, "\n", 1);
    }
}

/* The size of the system's text by arithmetic on its structure: every
 * entry is one digit, plus digits(v) - 1 for each nonzero v (one walk over
 * the nonzeros: 5 per cell for a grid), the separators, the right-hand
 * sides and the NUL. */
typedef struct {
    unsigned __int128 extra;
} nz_digits;

static void count_nonzero(void *ctx, size_t i, size_t j, uint64_t v)
{
    (void)i;
    (void)j;
    ((nz_digits *)ctx)->extra += digits(v) - 1;
}

static int system_text_size(const toggle_system *s, size_t *need)
{
    nz_digits nz = {0};
    int rc = toggle__system_each_entry(s, count_nonzero, &nz);
    if (rc)
        return rc;
    unsigned __int128 m = s->m, n = s->n, t = m * n + nz.extra;
    bool sep = s->k > 10;
    if (sep && n > 0)
        t += m * (n - 1);                   /* spaces between entries */
    t += m * (sep ? 3u : 1u) + m;           /* the bars and the newlines */
    for (size_t i = 0; i < s->m; i++)
        t += digits(toggle__rhs(s, i));
    t += 1;                                 /* NUL */
    if (t > SIZE_MAX)
        return toggle__error(TOGGLE_EOVERFLOW, "the text of a %zu x %zu system is longer than "
                             "SIZE_MAX bytes", s->m, s->n);
    *need = (size_t)t;
    return TOGGLE_OK;
}

int toggle_system_write(const toggle_system *s, char *buf, size_t len, size_t *needed)
{
    if (!s || (!buf && len))
        return toggle__error(TOGGLE_EINVAL, "system is NULL, or buf is NULL with len > 0");
    size_t need = 0;
    int rc = system_text_size(s, &need);
    return rc ? rc : emit(system_body, s, need, buf, len, needed);
}

int toggle_board_parse(const char *text, size_t len, uint64_t k, uint64_t *cells, size_t cap,
                       size_t *rows, size_t *cols)
{
    if ((!text && len) || !rows || !cols || (!cells && cap))
        return toggle__error(TOGGLE_EINVAL, "text, rows and cols must not be NULL");
    int rc = toggle__check_modulus(k);
    if (rc)
        return rc;
    u64buf v = {0};
    size_t r = 0, c = 0;
    lines it = {.text = text, .len = len};
    while (!rc && next_content_line(&it)) {
        size_t cnt = 0;
        if ((rc = read_values(it.line, it.ll, k, true, (place){it.lineno, 0, true}, &v, &cnt)))
            break;
        rc = same_width(r, cnt, &c, it.lineno, "cells");
        r++;
    }
    if (!rc && r == 0)
        rc = toggle__error(TOGGLE_EPARSE, "the board has no rows");
    if (!rc) {
        *rows = r;
        *cols = c;
        if (cap < v.len)
            rc = toggle__error(TOGGLE_EBUFSIZE, "the board has %zu cells, buffer holds %zu",
                               v.len, cap);
        else
            memcpy(cells, v.v, v.len * sizeof *cells);
    }
    toggle__free(v.v);
    return rc;
}

typedef struct {
    const uint64_t *cells;
    size_t rows, cols;
    uint64_t k;
} board;

static void board_body(writer *w, const void *obj)
{
    const board *b = obj;
    for (size_t r = 0; r < b->rows; r++) {
        for (size_t c = 0; c < b->cols; c++) {
            if (b->k > 10 && c)
                put(w, " ", 1);
            put_u64(w, b->cells[r * b->cols + c]);
        }
        put(w, "\n", 1);
    }
}

int toggle_board_format(const uint64_t *cells, size_t rows, size_t cols, uint64_t k,
                        char *buf, size_t len, size_t *needed)
{
    size_t n;
    if (!cells || (!buf && len))
        return toggle__error(TOGGLE_EINVAL, "cells is NULL, or buf is NULL with len > 0");
    int rc = toggle__check_modulus(k);
    if (rc)
        return rc;
    if (!toggle__mul_ok(rows, cols, &n))
        return toggle__error(TOGGLE_EOVERFLOW, "board %zu x %zu overflows size_t", rows, cols);
    for (size_t i = 0; i < n; i++)
        if (cells[i] >= k)
            return toggle__error(TOGGLE_ERANGE, "cell %zu = %llu is not below the modulus %llu",
                                 i, (unsigned long long)cells[i], (unsigned long long)k);
    board b = {cells, rows, cols, k};
    size_t need = 0;
    rc = measure(board_body, &b, &need);
    return rc ? rc : emit(board_body, &b, need, buf, len, needed);
}

int toggle_graph_parse_edges(toggle_graph **out, const char *text, size_t len, uint32_t flags)
{
    if (!out || (!text && len))
        return toggle__error(TOGGLE_EINVAL, "out and text must not be NULL");
    u64buf e = {0};
    size_t nodes = 0, maxnode = 0;
    bool have_nodes = false, any = false;
    int rc = TOGGLE_OK;
    lines it = {.text = text, .len = len};
    while (!rc && next_content_line(&it)) {
        const char *line = it.line;
        size_t ll = it.ll, lineno = it.lineno, i = 0;
        while (i < ll && is_space(line[i]))
            i++;
        if (!any && ll - i >= 5 && memcmp(line + i, "nodes", 5) == 0) {
            u64buf t = {0};
            size_t cnt = 0;
            rc = read_values(line + i + 5, ll - i - 5, UINT64_MAX, false,
                             (place){lineno, i + 5, false}, &t, &cnt);
            if (!rc && cnt != 1)
                rc = toggle__error(TOGGLE_EPARSE, "line %zu: 'nodes' takes one number", lineno);
            if (!rc) {
                nodes = (size_t)t.v[0];
                have_nodes = true;
            }
            toggle__free(t.v);
            any = true;
            continue;
        }
        any = true;
        size_t cnt = 0;
        if ((rc = read_values(line, ll, UINT64_MAX, false, (place){lineno, 0, false}, &e,
                              &cnt)))
            break;
        if (cnt != 2) {
            rc = toggle__error(TOGGLE_EPARSE, "line %zu: %zu numbers, an edge is 'u v'", lineno,
                               cnt);
            break;
        }
        for (size_t q = e.len - 2; q < e.len; q++) {
            if (e.v[q] >= SIZE_MAX) {
                rc = toggle__error(TOGGLE_ERANGE, "line %zu: node number too large", lineno);
                break;
            }
            if (e.v[q] + 1 > maxnode)
                maxnode = (size_t)e.v[q] + 1;
        }
    }
    if (!rc) {
        size_t n = have_nodes ? nodes : maxnode;
        size_t ne = e.len / 2;
        size_t *edges = toggle__malloc_array(e.len ? e.len : 1, sizeof *edges);
        if (!edges) {
            rc = toggle__error(TOGGLE_ENOMEM, "out of memory reading edges");
        } else {
            for (size_t q = 0; q < e.len; q++)
                edges[q] = (size_t)e.v[q];
            rc = toggle_graph_new_edges(out, n, edges, ne, flags);
            toggle__free(edges);
        }
    }
    toggle__free(e.v);
    return rc;
}
