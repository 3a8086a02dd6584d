/* The text language of row operations: reading a script
 * (toggle_steps_apply) and writing the trace (toggle_steps_write); each
 * operation is checked by check.c. */
#include <stdio.h>
#include <string.h>

#include "steps_internal.h"

/* ---- reading ---------------------------------------------------------------- */

typedef struct {
    const char *p, *end; /* the rest of the line */
} line_reader;

static void skip_blank(line_reader *lr)
{
    while (lr->p < lr->end && (*lr->p == ' ' || *lr->p == '\t' || *lr->p == '\r'))
        lr->p++;
}

/* The next word (up to blank or '*'), or an empty word at the end. */
static size_t word(line_reader *lr, const char **w)
{
    skip_blank(lr);
    *w = lr->p;
    while (lr->p < lr->end && *lr->p != ' ' && *lr->p != '\t' && *lr->p != '\r' && *lr->p != '*')
        lr->p++;
    return (size_t)(lr->p - *w);
}

/* A decimal number: 0 on success, else nonzero with msg set. neg allows '-'. */
static int number(const char *w, size_t len, bool neg_ok, uint64_t *v, bool *neg, char *msg,
                  size_t cap)
{
    *neg = false;
    if (len && *w == '-' && neg_ok) {
        *neg = true;
        w++;
        len--;
    }
    if (!len) {
        snprintf(msg, cap, "expected a number");
        return 1;
    }
    uint64_t x = 0;
    for (size_t i = 0; i < len; i++) {
        if (w[i] < '0' || w[i] > '9') {
            snprintf(msg, cap, "'%.*s' is not a number", (int)(len > 40 ? 40 : len), w);
            return 1;
        }
        unsigned d = (unsigned)(w[i] - '0');
        if (x > (UINT64_MAX - d) / 10) {
            snprintf(msg, cap, "'%.*s' is too large", (int)(len > 40 ? 40 : len), w);
            return 1;
        }
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

static int row_number(line_reader *lr, size_t *row, char *msg, size_t cap)
{
    const char *w;
    size_t len = word(lr, &w);
    uint64_t v;
    bool neg;
    if (!len) {
        snprintf(msg, cap, "a row number is missing");
        return TOGGLE_EPARSE;
    }
    if (number(w, len, false, &v, &neg, msg, cap))
        return TOGGLE_EPARSE;
    *row = v > SIZE_MAX ? SIZE_MAX : (size_t)v;
    return TOGGLE_OK;
}

static const char *const names[] = {"", "add", "scale", "swap", "move"};
static const char *const usages[] = {"", "add A B [B ...] or add A*C B [B ...]", "scale A C",
                                     "swap A B", "move A B"};

/* Prefix msg with the command and follow it with its usage; returns rc. */
static int with_usage(int op, char *msg, size_t cap, int rc)
{
    char inner[160];
    snprintf(inner, sizeof inner, "%s", msg);
    snprintf(msg, cap, "%s: %s (usage: %s)", names[op], inner, usages[op]);
    return rc;
}

/* Parse and check one line; when doit, apply its operations (room reserved).
 * *ops counts the operations of the line. */
static int one_line(toggle_steps *st, line_reader *lr, bool doit, size_t *ops, char *msg,
                    size_t cap)
{
    const char *w;
    size_t len = word(lr, &w), a = 0, b = 0;
    *ops = 0;
    if (!len) {
        if (lr->p < lr->end) {
            snprintf(msg, cap, "a line cannot start with '*'");
            return TOGGLE_EPARSE;
        }
        return TOGGLE_OK;
    }
    toggle__step op = {0};
    if (len == 3 && !memcmp(w, "add", 3))
        op.op = TOGGLE_STEP_ADD;
    else if (len == 5 && !memcmp(w, "scale", 5))
        op.op = TOGGLE_STEP_SCALE;
    else if (len == 4 && !memcmp(w, "swap", 4))
        op.op = TOGGLE_STEP_SWAP;
    else if (len == 4 && !memcmp(w, "move", 4))
        op.op = TOGGLE_STEP_MOVE;
    else {
        snprintf(msg, cap, "unknown command '%.*s' (row operations: add, scale, swap, move)",
                 (int)(len > 40 ? 40 : len), w);
        return TOGGLE_EPARSE;
    }
    const char *name = names[op.op];
    int rc = row_number(lr, &a, msg, cap);
    op.a = a;
    op.c = op.op == TOGGLE_STEP_ADD ? 1 % st->k : 0;
    if (!rc && (op.op == TOGGLE_STEP_SCALE || (lr->p < lr->end && *lr->p == '*'))) {
        if (op.op == TOGGLE_STEP_ADD)
            lr->p++;
        uint64_t c = 0;
        bool neg;
        size_t clen = word(lr, &w);
        if (number(w, clen, true, &c, &neg, msg, cap))
            rc = TOGGLE_EPARSE;
        c %= st->k;
        op.c = neg && c ? st->k - c : c;
    }
    if (rc)
        return with_usage(op.op, msg, cap, rc);
    do {
        if (op.op != TOGGLE_STEP_SCALE) {
            skip_blank(lr);
            if (lr->p == lr->end && *ops)
                break;
            if ((rc = row_number(lr, &b, msg, cap)))
                return with_usage(op.op, msg, cap, rc);
            op.b = b;
        }
        if ((rc = toggle__step_problem(st, &op, msg, cap)))
            return rc;
        if (doit)
            toggle__steps_push(st, &op);
        ++*ops;
        skip_blank(lr);
    } while (op.op == TOGGLE_STEP_ADD && lr->p < lr->end);
    if (lr->p < lr->end) {
        snprintf(msg, cap, "%s: unexpected '%.*s' after the last argument", name,
                 (int)((size_t)(lr->end - lr->p) > 40 ? 40 : lr->end - lr->p), lr->p);
        return TOGGLE_EPARSE;
    }
    return TOGGLE_OK;
}

/* Walk the script; on failure *line is the line at fault. */
static int walk(toggle_steps *st, const char *text, size_t len, bool doit, size_t *count,
                size_t *line, char *msg, size_t cap)
{
    const char *p = text, *end = text + len;
    *count = 0;
    *line = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        const char *hash = memchr(p, '#', (size_t)(eol - p));
        line_reader lr = {p, hash ? hash : eol};
        size_t ops;
        ++*line;
        int rc = one_line(st, &lr, doit, &ops, msg, cap);
        if (rc)
            return rc;
        *count += ops;
        p = nl ? nl + 1 : end;
    }
    return TOGGLE_OK;
}

int toggle_steps_apply(toggle_steps *st, const char *text, size_t len, size_t *applied)
{
    if (!st || (!text && len))
        return toggle__error(TOGGLE_EINVAL, "toggle_steps_apply: NULL argument");
    char msg[256];
    size_t count, line;
    int rc = walk(st, text, len, false, &count, &line, msg, sizeof msg);
    if (rc) {
        const char *nl = text ? memchr(text, '\n', len) : NULL;
        bool multiline = nl && (size_t)(nl - text) + 1 < len;
        return multiline ? toggle__error(rc, "line %zu: %s", line, msg)
                         : toggle__error(rc, "%s", msg);
    }
    if ((rc = toggle__steps_reserve(st, count)))
        return rc;
    walk(st, text, len, true, &count, &line, msg, sizeof msg);
    if (applied)
        *applied = count;
    return TOGGLE_OK;
}

/* ---- writing ---------------------------------------------------------------- */

static int format_op(const toggle__step *s, char *out, size_t cap)
{
    switch (s->op) {
    case TOGGLE_STEP_ADD:
        if (s->c == 1)
            return snprintf(out, cap, "add %zu %zu\n", s->a, s->b);
        return snprintf(out, cap, "add %zu*%llu %zu\n", s->a, (unsigned long long)s->c, s->b);
    case TOGGLE_STEP_SCALE:
        return snprintf(out, cap, "scale %zu %llu\n", s->a, (unsigned long long)s->c);
    case TOGGLE_STEP_SWAP:
        return snprintf(out, cap, "swap %zu %zu\n", s->a, s->b);
    default:
        return snprintf(out, cap, "move %zu %zu\n", s->a, s->b);
    }
}

int toggle_steps_write(const toggle_steps *st, size_t first, char *buf, size_t len,
                       size_t *needed)
{
    if (!st || (!buf && len))
        return toggle__error(TOGGLE_EINVAL, "toggle_steps_write: NULL argument");
    if (first > st->nhist)
        return toggle__error(TOGGLE_ERANGE, "operation %zu does not exist (%zu done)", first,
                             st->nhist);
    char line[96];
    size_t total = 1;
    for (size_t i = first; i < st->nhist; i++) {
        size_t n = (size_t)format_op(&st->hist[i], line, sizeof line);
        if (!toggle__add_ok(total, n, &total))
            return toggle__error(TOGGLE_EOVERFLOW, "the script is too long to measure");
    }
    if (needed)
        *needed = total;
    if (len < total)
        return toggle__error(TOGGLE_EBUFSIZE, "the script needs %zu bytes, the buffer has %zu",
                             total, len);
    size_t at = 0;
    for (size_t i = first; i < st->nhist; i++)
        at += (size_t)format_op(&st->hist[i], buf + at, len - at);
    buf[at] = '\0';
    return TOGGLE_OK;
}
