/* Text workloads: toggle_system_parse and toggle_system_write on augmented
 * systems of a few MB, against a bare scanner that only turns the same text
 * into numbers (no validation, no system): the floor any parser pays. */
#include <stdlib.h>
#include <string.h>

#include <toggle.h>

#include "harness.h"

typedef struct {
    size_t n;     /* n x n system */
    uint64_t k;   /* modulus: <= 10 digits packed, else space separated */
} io_arg;

typedef struct {
    size_t n;
    uint64_t k;
    char *text;
    size_t len;
    uint64_t *vals;   /* the scanner's output */
    toggle_system *sys;
    char *out;        /* write buffer */
    size_t outlen;
} io_state;

static void io_teardown(void *p)
{
    io_state *st = p;
    toggle_system_free(st->sys);
    free(st->text);
    free(st->vals);
    free(st->out);
    free(st);
}

/* Builds the text through toggle_system_write, so it is the library's own format. */
static void *io_setup(const void *arg)
{
    const io_arg *d = arg;
    io_state *st = calloc(1, sizeof *st);
    size_t n = d->n, need = 0;
    uint64_t *a = malloc(n * n * sizeof *a), *b = malloc(n * sizeof *b), s = 777 + n;
    st->n = n;
    st->k = d->k;
    st->vals = malloc(n * (n + 1) * sizeof *st->vals);
    if (!a || !b || !st->vals)
        goto fail;
    for (size_t i = 0; i < n * n; i++)
        a[i] = bench_rng(&s) % d->k;
    for (size_t i = 0; i < n; i++)
        b[i] = bench_rng(&s) % d->k;
    if (toggle_system_new_matrix(&st->sys, n, n, a, b, d->k) != TOGGLE_OK)
        goto fail;
    if (toggle_system_write(st->sys, NULL, 0, &need) != TOGGLE_EBUFSIZE || !need)
        goto fail;
    st->outlen = need;
    st->out = malloc(need);
    st->text = malloc(need);
    if (!st->out || !st->text || toggle_system_write(st->sys, st->text, need, NULL))
        goto fail;
    st->len = strlen(st->text);
    free(a);
    free(b);
    return st;
fail:
    free(a);
    free(b);
    io_teardown(st);
    return NULL;
}

static int run_parse(void *p, int check)
{
    io_state *st = p;
    toggle_system *s = NULL;
    if (toggle_system_parse(&s, st->text, st->len, st->k) != TOGGLE_OK)
        return 1;
    int bad = 0;
    if (check) {
        uint64_t x, y;
        bad = toggle_system_rows(s) != st->n || toggle_system_cols(s) != st->n;
        for (size_t i = 0; i < st->n && !bad; i += 7) {
            bad |= toggle_system_entry(s, i, (i * 31) % st->n, &x)
                || toggle_system_entry(st->sys, i, (i * 31) % st->n, &y) || x != y;
            bad |= toggle_system_rhs(s, i, &x) || toggle_system_rhs(st->sys, i, &y) || x != y;
        }
    }
    toggle_system_free(s);
    return bad;
}

static int run_write(void *p, int check)
{
    io_state *st = p;
    if (toggle_system_write(st->sys, st->out, st->outlen, NULL) != TOGGLE_OK)
        return 1;
    return check && strcmp(st->out, st->text) != 0;
}

/* The floor: digits to numbers, '|' and separators skipped, nothing checked. */
static int run_scan(void *p, int check)
{
    io_state *st = p;
    const char *t = st->text, *end = st->text + st->len;
    size_t cnt = 0, cap = st->n * (st->n + 1);
    int packed = st->k <= 10;
    while (t < end && cnt < cap) {
        char c = *t;
        if (c >= '0' && c <= '9') {
            uint64_t v = (uint64_t)(c - '0');
            t++;
            if (!packed)
                while (t < end && *t >= '0' && *t <= '9')
                    v = v * 10 + (uint64_t)(*t++ - '0');
            st->vals[cnt++] = v;
        } else {
            t++;
        }
    }
    return check && cnt != cap;
}

#define IO(N, K, Q)                                                                         \
    {"io/parse/" #N "/k" #K "/toggle", "io/parse/" #N "x" #N "/k=" #K, "toggle", "scan", Q, \
     5, io_setup, run_parse, io_teardown, &(io_arg){N, K}},                                 \
    {"io/parse/" #N "/k" #K "/scan", "io/parse/" #N "x" #N "/k=" #K, "scan", NULL, Q, 5,    \
     io_setup, run_scan, io_teardown, &(io_arg){N, K}},                                     \
    {"io/write/" #N "/k" #K "/toggle", "io/write/" #N "x" #N "/k=" #K, "toggle", NULL, Q, 5, \
     io_setup, run_write, io_teardown, &(io_arg){N, K}}

/* 2000 x 2000 over F_2 is 4 MB of text; 600 x 600 mod 65521 about 2 MB. */
static const bench_workload io[] = {
    IO(250, 2, 1),
    IO(500, 2, 0),
    IO(1000, 2, 0),
    IO(2000, 2, 0),
    IO(100, 65521, 1),
    IO(300, 65521, 0),
    IO(600, 65521, 0),
    IO(1200, 65521, 0),
};

void bench_register_io(void)
{
    bench_register(io, sizeof io / sizeof *io);
}
