/* Fuzz target: bytes -> a small grid board (up to 4 x 4, k from 2 to 7)
 * and a target; byte 1 picks ONE operation per input (so that an input
 * costs one check, not all of them: 10^7 executions stay reachable), each
 * checked by this file's own arithmetic: the iterator lists exactly count distinct
 * solutions, each with A x = b; samples solve the board; the fewest-press
 * search returns a solution of its reported weight, never below the
 * brute-force minimum, proven exactly when it visited every solution (and
 * then minimal); orbit counts equal a brute-force count of orbits under the
 * group (or EINVAL when the set is not invariant); board symmetries equal
 * this file's transforms; the iterator restarts at the particular solution
 * after a reset and counts what it produced; weighted searches (costs,
 * forbidden cells) against the brute-force minimum over the allowed
 * solutions, the lower bound never above it; generated starts are solvable with the asked lit
 * count and weight; pictures (any modulus up to 2^64 - 1) have the layout
 * and colours of render.h pixel by pixel, the PPM size formula, and a too
 * small buffer is left untouched. */
#include <string.h>

#ifdef HAVE_PNG
#include <png.h>
#endif

#include "fuzz.h"

#define MAXC 16
#define MAXSOL 512

static size_t R, C, N;
static uint64_t K;

/* Own A x for the plain grid: each press adds 1 to itself and its 4
 * neighbours. */
static void apply(const uint64_t *x, uint64_t *out)
{
    for (size_t i = 0; i < N; i++)
        out[i] = 0;
    for (size_t r = 0; r < R; r++)
        for (size_t c = 0; c < C; c++) {
            uint64_t v = x[r * C + c];
            const long dr[5] = {0, 1, -1, 0, 0}, dc[5] = {0, 0, 0, 1, -1};
            for (int t = 0; t < 5; t++) {
                long rr = (long)r + dr[t], cc = (long)c + dc[t];
                if (rr < 0 || cc < 0 || rr >= (long)R || cc >= (long)C)
                    continue;
                size_t i = (size_t)rr * C + (size_t)cc;
                out[i] = fuzz_addmod(out[i], v, K);
            }
        }
}

static int solves(const uint64_t *x, const uint64_t *b)
{
    uint64_t ax[MAXC];
    apply(x, ax);
    return memcmp(ax, b, N * sizeof *ax) == 0;
}

/* Cell (r, c) under symmetry bit g (symmetry.h). */
static size_t sym_dest(int g, size_t r, size_t c)
{
    switch (g) {
    case 0: return r * C + c;
    case 1: return c * C + (R - 1 - r);
    case 2: return (R - 1 - r) * C + (C - 1 - c);
    case 3: return (C - 1 - c) * C + r;
    case 4: return (R - 1 - r) * C + c;
    case 5: return r * C + (C - 1 - c);
    case 6: return c * C + r;
    default: return (C - 1 - c) * C + (R - 1 - r);
    }
}

static void transform(int g, const uint64_t *v, uint64_t *out)
{
    for (size_t r = 0; r < R; r++)
        for (size_t c = 0; c < C; c++)
            out[sym_dest(g, r, c)] = v[r * C + c];
}

static uint64_t sols[MAXSOL][MAXC];
static size_t nsols;

static long find_sol(const uint64_t *x)
{
    for (size_t i = 0; i < nsols; i++)
        if (memcmp(sols[i], x, N * sizeof *x) == 0)
            return (long)i;
    return -1;
}

static void check_render(fuzz_reader *rd, const uint64_t *board, int fmt)
{
    static const uint64_t ks[] = {2, 3, 7, 255, 256, 257, 1000, (uint64_t)1 << 32,
                                  UINT64_MAX - 1, UINT64_MAX};
    uint64_t k = ks[fuzz_u8(rd) % 10];
    uint64_t cells[MAXC];
    for (size_t i = 0; i < N; i++)
        cells[i] = k <= 7 ? board[i] % k : fuzz_u64(rd) % k;
    toggle_render_opts *o = NULL;
    if (toggle_render_opts_new(&o))
        return;
    uint64_t cell = 1 + fuzz_u8(rd) % 4, lines = fuzz_u8(rd) % 3, border = fuzz_u8(rd) % 3;
    int cmap = (int)(fuzz_u8(rd) % toggle_colormap_count()), rev = fuzz_u8(rd) & 1;
    uint64_t lrgb = (uint64_t)fuzz_u8(rd) << 16 | (uint64_t)fuzz_u8(rd) << 8 | fuzz_u8(rd);
    FUZZ_CHECK(!toggle_render_opts_set(o, TOGGLE_RENDER_CELL_SIZE, cell) &&
               !toggle_render_opts_set(o, TOGGLE_RENDER_GRID_LINES, lines) &&
               !toggle_render_opts_set(o, TOGGLE_RENDER_BORDER, border) &&
               !toggle_render_opts_set(o, TOGGLE_RENDER_COLORMAP, (uint64_t)cmap) &&
               !toggle_render_opts_set(o, TOGGLE_RENDER_REVERSED, (uint64_t)rev) &&
               !toggle_render_opts_set(o, TOGGLE_RENDER_LINE_COLOR, lrgb), "options");
    size_t W = C * cell + (C - 1) * lines + 2 * border, H = R * cell + (R - 1) * lines + 2 * border;
    size_t w = 0, h = 0;
    FUZZ_CHECK(toggle_render_size(o, R, C, &w, &h) == TOGGLE_OK && w == W && h == H,
               "render_size %zu x %zu, own %zu x %zu", w, h, W, H);
    {
        size_t need = 0;
        int rc = toggle_render(o, fmt, cells, R, C, k, NULL, 0, &need);
        if (fmt == TOGGLE_IMAGE_PNG && rc == TOGGLE_EUNSUPPORTED) {
            toggle_render_opts_free(o);
            return;
        }
        FUZZ_CHECK(rc == TOGGLE_EBUFSIZE, "size query: %s", toggle_last_error());
        char head[64];
        int hl = snprintf(head, sizeof head, "P6\n%zu %zu\n255\n", W, H);
        if (fmt == TOGGLE_IMAGE_PPM)
            FUZZ_CHECK(need == (size_t)hl + W * H * 3, "PPM size %zu", need);
        uint8_t *buf = malloc(need + 1);
        memset(buf, 0xa5, need + 1);
        size_t got = 0;
        FUZZ_CHECK(toggle_render(o, fmt, cells, R, C, k, buf, need - 1, &got) == TOGGLE_EBUFSIZE &&
                   got == need, "short buffer");
        for (size_t i = 0; i <= need; i++)
            FUZZ_CHECK(buf[i] == 0xa5, "a too small buffer was written at %zu", i);
        FUZZ_CHECK(toggle_render(o, fmt, cells, R, C, k, buf, need, &got) == TOGGLE_OK &&
                   got == need, "render: %s", toggle_last_error());
        if (fmt == TOGGLE_IMAGE_PPM) {
            FUZZ_CHECK(memcmp(buf, head, (size_t)hl) == 0, "PPM header");
            for (size_t y = 0; y < H; y++)
                for (size_t x = 0; x < W; x++) {
                    uint8_t want[3] = {(uint8_t)(lrgb >> 16), (uint8_t)(lrgb >> 8), (uint8_t)lrgb};
                    size_t py = y - border, px = x - border, pitch = cell + lines;
                    if (y >= border && x >= border && py / pitch < R && px / pitch < C &&
                        py % pitch < cell && px % pitch < cell)
                        FUZZ_CHECK(toggle_colormap_color(cmap, rev,
                                                         cells[py / pitch * C + px / pitch], k,
                                                         want) == TOGGLE_OK, "colour");
                    FUZZ_CHECK(memcmp(buf + hl + 3 * (y * W + x), want, 3) == 0,
                               "pixel (%zu, %zu) k=%llu", x, y, (unsigned long long)k);
                }
        } else {
            FUZZ_CHECK(need > 8 && memcmp(buf, "\x89PNG", 4) == 0, "PNG signature");
#ifdef HAVE_PNG
            /* decoded by libpng, the PNG has the PPM's pixels */
            size_t plen = 0;
            FUZZ_CHECK(toggle_render(o, TOGGLE_IMAGE_PPM, cells, R, C, k, NULL, 0, &plen) ==
                           TOGGLE_EBUFSIZE, "PPM size query");
            uint8_t *ppm = malloc(plen), *pix = NULL;
            FUZZ_CHECK(ppm && toggle_render(o, TOGGLE_IMAGE_PPM, cells, R, C, k, ppm, plen,
                                            &plen) == TOGGLE_OK, "PPM");
            png_image img;
            memset(&img, 0, sizeof img);
            img.version = PNG_IMAGE_VERSION;
            FUZZ_CHECK(png_image_begin_read_from_memory(&img, buf, need), "libpng: %s",
                       img.message);
            img.format = PNG_FORMAT_RGB;
            FUZZ_CHECK(img.width == W && img.height == H, "PNG is %u x %u", img.width,
                       img.height);
            pix = malloc(PNG_IMAGE_SIZE(img));
            FUZZ_CHECK(pix && png_image_finish_read(&img, NULL, pix, 0, NULL), "libpng: %s",
                       img.message);
            FUZZ_CHECK(memcmp(pix, ppm + (size_t)hl, W * H * 3) == 0, "PNG pixels differ from "
                       "the PPM's (k=%llu)", (unsigned long long)k);
            free(pix);
            free(ppm);
#endif
        }
        free(buf);
    }
    toggle_render_opts_free(o);
}

static void check_symmetry(const uint64_t *board)
{
    uint32_t mask = 0, want = 0, shape = toggle_symmetry_of_shape(R, C);
    FUZZ_CHECK(toggle_board_symmetry(board, R, C, &mask) == TOGGLE_OK, "board symmetry");
    uint64_t t[MAXC];
    for (int g = 0; g < 8; g++) {
        if (!(shape & (1u << g)))
            continue;
        transform(g, board, t);
        if (memcmp(t, board, N * sizeof *t) == 0)
            want |= 1u << g;
    }
    FUZZ_CHECK(mask == want, "symmetry 0x%02x, own 0x%02x", mask, want);
}

/* Brute-force orbits of the listed solutions under group; -1 if some
 * symmetry maps a solution outside the set. */
static long brute_orbits(uint32_t group)
{
    static unsigned char seen[MAXSOL];
    memset(seen, 0, sizeof seen);
    long orbits = 0;
    uint64_t t[MAXC];
    for (size_t i = 0; i < nsols; i++) {
        if (seen[i])
            continue;
        orbits++; /* a new orbit: mark its images (the group is closed) */
        for (int g = 0; g < 8; g++) {
            if (!(group & (1u << g)))
                continue;
            transform(g, sols[i], t);
            long j = find_sol(t);
            if (j < 0)
                return -1;
            seen[j] = 1;
        }
    }
    return orbits;
}

static void check_generator(fuzz_reader *rd, const toggle_system *s, const toggle_graph *g)
{
    toggle_generator *gen = NULL;
    int rc = toggle_generator_new(&gen, s);
    FUZZ_KNOWN_STATUS(rc);
    if (rc)
        return;
    uint8_t opt = fuzz_u8(rd);
    uint64_t lit = fuzz_u8(rd) % (N + 2), presses = fuzz_u8(rd) % (N + 2);
    toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_SEED, fuzz_u64(rd));
    /* few attempts: each may run a fewest-press search */
    toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_ATTEMPTS, 1 + fuzz_u8(rd) % 8);
    if (opt & 1)
        toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_LIT, lit);
    if (opt & 2)
        toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_PRESSES, presses);
    if (opt & 4)
        toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_UNIQUE, 1);
    if (opt & 8)
        toggle_generator_set_option(gen, TOGGLE_GENERATOR_OPT_METRIC, TOGGLE_METRIC_PRESSES);
    uint64_t start[MAXC], w = 0;
    rc = toggle_generator_next(gen, start, MAXC, &w);
    FUZZ_CHECK(rc == TOGGLE_OK || rc == TOGGLE_ENOSOLUTION || rc == TOGGLE_ELIMIT ||
               rc == TOGGLE_ENOMEM, "generator: %s: %s", toggle_status_name(rc),
               toggle_last_error());
    if (rc == TOGGLE_OK) {
        size_t on = 0;
        for (size_t i = 0; i < N; i++) {
            FUZZ_CHECK(start[i] < K, "start value");
            on += start[i] != 0;
        }
        if (opt & 1)
            FUZZ_CHECK(on == lit, "%zu lit, %llu asked", on, (unsigned long long)lit);
        if ((opt & 2) && w != UINT64_MAX)
            FUZZ_CHECK(w == presses, "weight %llu, %llu asked", (unsigned long long)w,
                       (unsigned long long)presses);
        /* solvable: start + A x = 0 for the solution of (start -> 0) */
        toggle_system *t = NULL;
        toggle_solution *sol = NULL;
        uint64_t zero[MAXC] = {0};
        FUZZ_CHECK(toggle_system_new(&t, g, K, start, zero) == TOGGLE_OK, "start system");
        FUZZ_CHECK(toggle_solve(&sol, t) == TOGGLE_OK && toggle_solution_is_solvable(sol),
                   "a generated start is unsolvable");
        uint64_t x[MAXC], neg[MAXC];
        toggle_solution_particular(sol, x, MAXC);
        for (size_t i = 0; i < N; i++)
            neg[i] = (K - start[i]) % K;
        FUZZ_CHECK(solves(x, neg), "the start's solution does not clear it");
        toggle_solution_free(sol);
        toggle_system_free(t);
    }
    toggle_generator_free(gen);
}

/* The iterator lists exactly count distinct solutions, each A x = b, into
 * sols; after a reset it starts again at the particular solution. */
static void list_solutions(const toggle_solution *sol, const uint64_t *b, uint64_t count)
{
    toggle_iter *it = NULL;
    FUZZ_CHECK(toggle_iter_new(&it, sol) == TOGGLE_OK, "iter");
    nsols = 0;
    uint64_t x[MAXC];
    int rc;
    while ((rc = toggle_iter_next(it, x, MAXC)) == TOGGLE_OK) {
        FUZZ_CHECK(nsols < count, "more than %llu solutions", (unsigned long long)count);
        FUZZ_CHECK(solves(x, b), "iterated vector is not a solution");
        FUZZ_CHECK(find_sol(x) < 0, "solution listed twice");
        memcpy(sols[nsols++], x, N * sizeof *x);
    }
    FUZZ_CHECK(rc == TOGGLE_ITEROVER && nsols == count, "%zu of %llu solutions (%s)", nsols,
               (unsigned long long)count, toggle_status_name(rc));
    FUZZ_CHECK(toggle_iter_produced(it) == count, "produced %llu of %llu",
               (unsigned long long)toggle_iter_produced(it), (unsigned long long)count);
    toggle_iter_reset(it);
    FUZZ_CHECK(toggle_iter_produced(it) == 0, "produced after a reset");
    uint64_t p[MAXC];
    FUZZ_CHECK(toggle_iter_next(it, x, MAXC) == TOGGLE_OK &&
               toggle_solution_particular(sol, p, MAXC) == TOGGLE_OK &&
               memcmp(x, p, N * sizeof *x) == 0, "the first solution is not the particular one");
    toggle_iter_free(it);
}

static void check_samples(fuzz_reader *rd, const toggle_solution *sol)
{
    toggle_rng *rng = NULL;
    uint64_t x[MAXC];
    FUZZ_CHECK(toggle_rng_new(&rng, fuzz_u64(rd)) == TOGGLE_OK, "rng");
    for (int t = 0; t < 3; t++) {
        FUZZ_CHECK(toggle_solution_sample(sol, rng, x, MAXC) == TOGGLE_OK, "sample");
        FUZZ_CHECK(find_sol(x) >= 0, "a sample is not a solution");
    }
    toggle_rng_free(rng);
}

/* Weight of x under metric and costs (NULL: every cost 1); UINT64_MAX when
 * x presses a forbidden cell. */
static uint64_t cost_weight(const uint64_t *x, int metric, const uint64_t *cost)
{
    unsigned __int128 w = 0;
    for (size_t i = 0; i < N; i++) {
        uint64_t c = cost ? cost[i] : 1;
        if (c == TOGGLE_COST_FORBIDDEN) {
            if (x[i])
                return UINT64_MAX;
            continue;
        }
        w += (unsigned __int128)c * (metric == TOGGLE_METRIC_PRESSES ? x[i] : (x[i] != 0));
    }
    return w >= UINT64_MAX ? UINT64_MAX - 1 : (uint64_t)w;
}

/* The fewest-press search against the brute-force minimum of the listed
 * solutions, with or without costs. */
static void check_search(fuzz_reader *rd, const toggle_solution *sol, uint64_t count)
{
    int metric = fuzz_u8(rd) & 1 ? TOGGLE_METRIC_PRESSES : TOGGLE_METRIC_CELLS;
    uint8_t copt = fuzz_u8(rd);
    uint64_t costs[MAXC], *cost = NULL;
    if (copt & 1) {
        static const uint64_t cv[8] = {0, 1, 1, 2, 3, 1000, (uint64_t)1 << 40,
                                       TOGGLE_COST_FORBIDDEN};
        for (size_t i = 0; i < N; i++)
            costs[i] = cv[fuzz_u8(rd) & 7];
        cost = costs;
    }
    uint64_t best = UINT64_MAX;
    for (size_t i = 0; i < nsols; i++) {
        uint64_t w = cost_weight(sols[i], metric, cost);
        best = w < best ? w : best;
    }
    toggle_search *se = NULL;
    FUZZ_CHECK(toggle_search_new(&se, sol) == TOGGLE_OK, "search");
    uint64_t limit = 1 + fuzz_u8(rd) % (count + 2);
    FUZZ_CHECK(toggle_search_set_option(se, TOGGLE_SEARCH_OPT_METRIC, (uint64_t)metric) == TOGGLE_OK &&
               toggle_search_set_option(se, TOGGLE_SEARCH_OPT_SEARCH_LIMIT, limit) == TOGGLE_OK,
               "search options");
    if (cost)
        FUZZ_CHECK(toggle_search_set_costs(se, cost, N) == TOGGLE_OK, "costs");
    int rc = toggle_search_run(se);
    uint64_t x[MAXC], w, visited, lower = 0;
    int proven;
    if (best == UINT64_MAX) {
        /* no allowed solution: ENOSOLUTION once every solution was seen */
        FUZZ_CHECK(rc == TOGGLE_ENOSOLUTION || (rc == TOGGLE_ELIMIT && limit < count),
                   "no allowed solution: %s (limit %llu of %llu)", toggle_status_name(rc),
                   (unsigned long long)limit, (unsigned long long)count);
        FUZZ_CHECK(toggle_search_result(se, x, MAXC, &w, &proven, &visited) == rc,
                   "result after %s", toggle_status_name(rc));
        toggle_search_free(se);
        return;
    }
    if (rc == TOGGLE_ELIMIT) {
        FUZZ_CHECK(limit < count, "ELIMIT with the limit %llu >= %llu solutions",
                   (unsigned long long)limit, (unsigned long long)count);
        toggle_search_free(se);
        return;
    }
    FUZZ_CHECK(rc == TOGGLE_OK, "search run: %s: %s", toggle_status_name(rc), toggle_last_error());
    FUZZ_CHECK(toggle_search_result(se, x, MAXC, &w, &proven, &visited) == TOGGLE_OK, "result");
    FUZZ_CHECK(find_sol(x) >= 0 && cost_weight(x, metric, cost) == w && w >= best,
               "search answer weight %llu, own %llu, minimum %llu", (unsigned long long)w,
               (unsigned long long)cost_weight(x, metric, cost), (unsigned long long)best);
    /* complete => proven; proven earlier only through a lower bound that
     * reaches the weight (checked against the brute-force minimum below) */
    FUZZ_CHECK(visited < count || proven, "proven %d after %llu of %llu", proven,
               (unsigned long long)visited, (unsigned long long)count);
    FUZZ_CHECK(!proven || w == best, "proven weight %llu, minimum %llu",
               (unsigned long long)w, (unsigned long long)best);
    FUZZ_CHECK(visited <= limit || limit >= count, "visited %llu over the limit %llu",
               (unsigned long long)visited, (unsigned long long)limit);
    FUZZ_CHECK(toggle_search_bound(se, &lower) == TOGGLE_OK && lower <= best &&
               (!proven || lower == w), "bound %llu, minimum %llu, weight %llu, proven %d",
               (unsigned long long)lower, (unsigned long long)best, (unsigned long long)w, proven);
    toggle_search_free(se);
}

/* Orbits under a subgroup of the shape (prime k) against brute force. */
static void check_orbits(fuzz_reader *rd, const toggle_solution *sol)
{
    static const uint32_t groups[] = {0x01, 0x05, 0x11, 0x21, 0x41, 0x81, 0x35, 0xC5, 0x0F,
                                      0xFF};
    uint32_t grp = groups[fuzz_u8(rd) % 10];
    uint64_t orbits = 0;
    int rc = toggle_solution_count_orbits(sol, R, C, grp, &orbits);
    int prime = K == 2 || K == 3 || K == 5 || K == 7;
    if (grp & ~toggle_symmetry_of_shape(R, C)) {
        FUZZ_CHECK(rc == TOGGLE_EINVAL, "group not of the shape: %s", toggle_status_name(rc));
    } else if (!prime) {
        FUZZ_CHECK(rc == TOGGLE_EUNSUPPORTED, "composite orbits: %s", toggle_status_name(rc));
    } else {
        long want = brute_orbits(grp);
        if (want < 0)
            FUZZ_CHECK(rc == TOGGLE_EINVAL, "not invariant: %s", toggle_status_name(rc));
        else
            FUZZ_CHECK(rc == TOGGLE_OK && orbits == (uint64_t)want, "orbits %llu, own %ld (%s)",
                       (unsigned long long)orbits, want, toggle_status_name(rc));
    }
}

enum { OP_PPM, OP_PNG, OP_SYMMETRY, OP_GENERATOR, OP_ITER, OP_SEARCH, OP_ORBITS, OP_COUNT };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_reader rd = {data, size};
    uint8_t shape = fuzz_u8(&rd);
    int op = fuzz_u8(&rd) % OP_COUNT;
    R = 1 + (shape & 3);
    C = 1 + ((shape >> 2) & 3);
    N = R * C;
    K = 2 + (shape >> 4) % 6;
    uint64_t b[MAXC];
    for (size_t i = 0; i < N; i++)
        b[i] = fuzz_u8(&rd) % K;
    if (op == OP_PPM || op == OP_PNG) {
        check_render(&rd, b, op == OP_PPM ? TOGGLE_IMAGE_PPM : TOGGLE_IMAGE_PNG);
        return 0;
    }
    if (op == OP_SYMMETRY) {
        check_symmetry(b);
        return 0;
    }
    toggle_graph *g = NULL;
    toggle_system *s = NULL;
    toggle_solution *sol = NULL;
    FUZZ_CHECK(toggle_graph_new_grid(&g, R, C, 0) == TOGGLE_OK, "grid");
    FUZZ_CHECK(toggle_system_new(&s, g, K, NULL, b) == TOGGLE_OK, "system");
    if (op == OP_GENERATOR) {
        check_generator(&rd, s, g);
        toggle_system_free(s);
        toggle_graph_free(g);
        return 0;
    }
    FUZZ_CHECK(toggle_solve(&sol, s) == TOGGLE_OK, "solve: %s", toggle_last_error());
    uint64_t count = 0;
    FUZZ_CHECK(toggle_solution_count_u64(sol, &count) == TOGGLE_OK, "count");
    if (toggle_solution_is_solvable(sol) && count <= MAXSOL) {
        list_solutions(sol, b, count);
        if (op == OP_ITER)
            check_samples(&rd, sol);
        else if (op == OP_SEARCH)
            check_search(&rd, sol, count);
        else
            check_orbits(&rd, sol);
    }
    toggle_solution_free(sol);
    toggle_system_free(s);
    toggle_graph_free(g);
    return 0;
}
