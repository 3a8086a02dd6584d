/* toggle_steps: an augmented matrix under invertible row operations, with a
 * trace, undo and redo, and plain Gauss-Jordan elimination one step at a time. */
#include <string.h>

#include "steps_internal.h"

#define ENTRY(st, i, j) ((st)->mat[(i) * (st)->w + (j)])

static uint64_t *row_of(const toggle_steps *st, size_t i)
{
    return st->mat + i * st->w;
}

/* Bytes the handle holds with the given trace capacities; false on overflow. */
static bool handle_bytes(const toggle_steps *st, size_t caphist, size_t capredo, uint64_t *bytes)
{
    size_t cells, words, ops, opbytes, total;
    if (!toggle__add_ok(st->m, 1, &cells) || !toggle__mul_ok(cells, st->w, &words)
        || !toggle__mul_ok(words, sizeof(uint64_t), &words)
        || !toggle__add_ok(caphist, capredo, &ops)
        || !toggle__mul_ok(ops, sizeof(toggle__step), &opbytes)
        || !toggle__add_ok(words, opbytes, &total))
        return false;
    *bytes = total;
    return true;
}

static int budget_ok(const toggle_steps *st, size_t caphist, size_t capredo)
{
    uint64_t bytes;
    if (!handle_bytes(st, caphist, capredo, &bytes))
        return toggle__error(TOGGLE_EOVERFLOW, "the row-operation trace is too large to count");
    if (st->budget && bytes > st->budget)
        return toggle__error(TOGGLE_ENOMEM,
                             "the matrix and its row-operation trace need %llu bytes, over the "
                             "memory budget of %llu",
                             (unsigned long long)bytes, (unsigned long long)st->budget);
    return TOGGLE_OK;
}

/* Grow *arr (capacity *cap) to hold need entries, within the budget. */
static int reserve(toggle_steps *st, toggle__step **arr, size_t *cap, size_t need, bool hist)
{
    if (need <= *cap)
        return TOGGLE_OK;
    size_t want = *cap > need / 2 ? *cap * 2 : need;
    if (want < need || want > SIZE_MAX / sizeof(toggle__step))
        want = need;
    int rc = budget_ok(st, hist ? want : st->caphist, hist ? st->capredo : want);
    if (rc && want != need) {
        want = need;
        rc = budget_ok(st, hist ? want : st->caphist, hist ? st->capredo : want);
    }
    if (rc)
        return rc;
    toggle__step *p = toggle__realloc(*arr, want * sizeof *p);
    if (!p)
        return toggle__error(TOGGLE_ENOMEM, "out of memory for the row-operation trace");
    *arr = p;
    *cap = want;
    return TOGGLE_OK;
}

int toggle__steps_reserve(toggle_steps *st, size_t extra)
{
    size_t need;
    if (!toggle__add_ok(st->nhist, extra, &need))
        return toggle__error(TOGGLE_EOVERFLOW, "the row-operation trace is too large to count");
    return reserve(st, &st->hist, &st->caphist, need, true);
}

/* The raw effect of a checked operation on the matrix. */
static void mutate(toggle_steps *st, const toggle__step *op)
{
    size_t w = st->w;
    uint64_t k = st->k, *ra = row_of(st, op->a), *tmp = row_of(st, st->m);
    switch (op->op) {
    case TOGGLE_STEP_ADD: {
        uint64_t *rb = row_of(st, op->b);
        for (size_t j = 0; j < w; j++)
            if (ra[j])
                rb[j] = toggle__addmod(rb[j], toggle__mulmod(op->c, ra[j], k), k);
        break;
    }
    case TOGGLE_STEP_SCALE:
        for (size_t j = 0; j < w; j++)
            ra[j] = toggle__mulmod(op->c, ra[j], k);
        break;
    case TOGGLE_STEP_SWAP: {
        uint64_t *rb = row_of(st, op->b);
        memcpy(tmp, ra, w * sizeof *tmp);
        memcpy(ra, rb, w * sizeof *tmp);
        memcpy(rb, tmp, w * sizeof *tmp);
        break;
    }
    default: { /* MOVE: row a ends at index f */
        size_t a = op->a, f = op->b > a ? op->b - 1 : op->b;
        memcpy(tmp, ra, w * sizeof *tmp);
        if (a < f)
            memmove(row_of(st, a), row_of(st, a + 1), (f - a) * w * sizeof *tmp);
        else
            memmove(row_of(st, f + 1), row_of(st, f), (a - f) * w * sizeof *tmp);
        memcpy(row_of(st, f), tmp, w * sizeof *tmp);
        break;
    }
    }
}

static toggle__step inverse(const toggle_steps *st, const toggle__step *op)
{
    toggle__step inv = *op;
    if (op->op == TOGGLE_STEP_ADD) {
        inv.c = st->k - op->c;
    } else if (op->op == TOGGLE_STEP_SCALE) {
        inv.c = toggle__invmod(op->c, st->k);
    } else if (op->op == TOGGLE_STEP_MOVE) {
        size_t f = op->b > op->a ? op->b - 1 : op->b;
        inv.a = f;
        inv.b = op->a < f ? op->a : op->a + 1;
    }
    return inv;
}

void toggle__steps_push(toggle_steps *st, const toggle__step *op)
{
    mutate(st, op);
    st->hist[st->nhist++] = *op;
    st->nredo = 0;
}

int toggle_steps_new(toggle_steps **out, const toggle_system *system)
{
    if (!out || !system)
        return toggle__error(TOGGLE_EINVAL, "toggle_steps_new: NULL %s", out ? "system" : "out");
    toggle_steps tmp = {0};
    tmp.m = toggle_system_rows(system);
    tmp.n = toggle_system_cols(system);
    tmp.k = toggle_system_modulus(system);
    tmp.prime = toggle__is_prime(tmp.k);
    if (!toggle__add_ok(tmp.n, 1, &tmp.w))
        return toggle__error(TOGGLE_EOVERFLOW, "the system has too many unknowns");
    int rc = toggle_system_get_option(system, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, &tmp.budget);
    if (rc)
        return rc;
    if ((rc = budget_ok(&tmp, 0, 0)))
        return rc;
    toggle_steps *st = toggle__calloc(1, sizeof *st);
    uint64_t *mat = toggle__malloc_array((tmp.m + 1) * tmp.w, sizeof *mat);
    if (!st || !mat) {
        toggle__free(st);
        toggle__free(mat);
        return toggle__error(TOGGLE_ENOMEM, "out of memory for a %zu x %zu augmented matrix",
                             tmp.m, tmp.w);
    }
    *st = tmp;
    st->mat = mat;
    for (size_t i = 0; i < st->m && !rc; i++) {
        for (size_t j = 0; j < st->n && !rc; j++)
            rc = toggle_system_entry(system, i, j, &ENTRY(st, i, j));
        if (!rc)
            rc = toggle_system_rhs(system, i, &ENTRY(st, i, st->n));
    }
    TOGGLE__HAND_OUT(out, st, rc, toggle_steps_free);
}

void toggle_steps_free(toggle_steps *st)
{
    if (!st)
        return;
    TOGGLE__FREE_ALL(st->mat, st->hist, st->redo, st);
}

TOGGLE__GETTER(size_t, toggle_steps_rows, toggle_steps, m)
TOGGLE__GETTER(size_t, toggle_steps_cols, toggle_steps, n)
TOGGLE__GETTER(uint64_t, toggle_steps_modulus, toggle_steps, k)

int toggle_steps_entry(const toggle_steps *st, size_t i, size_t j, uint64_t *value)
{
    if (!st || !value)
        return toggle__error(TOGGLE_EINVAL, "toggle_steps_entry: NULL argument");
    if (i >= st->m || j >= st->w)
        return toggle__error(TOGGLE_ERANGE, "entry (%zu, %zu) is outside the %zu x %zu matrix",
                             i, j, st->m, st->w);
    *value = ENTRY(st, i, j);
    return TOGGLE_OK;
}

/* One operation from the public entry points: check, reserve, apply. */
static int apply_one(toggle_steps *st, toggle__step op)
{
    if (!st)
        return toggle__error(TOGGLE_EINVAL, "NULL steps");
    int rc = toggle__step_check(st, &op);
    if (!rc)
        rc = toggle__steps_reserve(st, 1);
    if (!rc)
        toggle__steps_push(st, &op);
    return rc;
}

int toggle_steps_add(toggle_steps *st, size_t a, size_t b, uint64_t c)
{
    return apply_one(st, (toggle__step){TOGGLE_STEP_ADD, a, b, c});
}

int toggle_steps_scale(toggle_steps *st, size_t a, uint64_t c)
{
    return apply_one(st, (toggle__step){TOGGLE_STEP_SCALE, a, 0, c});
}

int toggle_steps_swap(toggle_steps *st, size_t a, size_t b)
{
    return apply_one(st, (toggle__step){TOGGLE_STEP_SWAP, a, b, 0});
}

int toggle_steps_move(toggle_steps *st, size_t a, size_t b)
{
    return apply_one(st, (toggle__step){TOGGLE_STEP_MOVE, a, b, 0});
}

/* ---- Gauss-Jordan, resumable from any state ------------------------------ */

enum { SCAN_NEXT, SCAN_REDUCED, SCAN_BLOCKED };

/* Rows 0 .. r - 1 are finished pivot rows and every row >= r is zero left of
 * column j: what the scan has verified so far. */
typedef struct {
    size_t r, j, rank_a; /* rank_a: finished pivots left of column n */
    bool rhs_pivot;
} cursor;

static bool is_unit(const toggle_steps *st, uint64_t v)
{
    return v && (st->prime || toggle__invmod(v, st->k));
}

/* Advance the cursor to the next operation Gauss-Jordan would make. Pivot
 * columns go to piv[] while they fit in cap. */
static int scan(const toggle_steps *st, cursor *cu, toggle__step *next, size_t *piv, size_t cap)
{
    size_t m = st->m;
    uint64_t k = st->k;
    for (; cu->r < m && cu->j < st->w; cu->j++) {
        size_t j = cu->j, r = cu->r, p = m;
        bool nonzero = false;
        for (size_t i = r; i < m && p == m; i++) {
            uint64_t v = ENTRY(st, i, j);
            nonzero = nonzero || v;
            if (is_unit(st, v))
                p = i;
        }
        if (p == m) {
            if (nonzero)
                return SCAN_BLOCKED;
            continue;
        }
        if (p != r) {
            *next = (toggle__step){TOGGLE_STEP_SWAP, p, r, 0};
            return SCAN_NEXT;
        }
        uint64_t v = ENTRY(st, r, j);
        if (v != 1) {
            *next = (toggle__step){TOGGLE_STEP_SCALE, r, 0, toggle__invmod(v, k)};
            return SCAN_NEXT;
        }
        for (size_t i = 0; i < m; i++) {
            if (i != r && ENTRY(st, i, j)) {
                *next = (toggle__step){TOGGLE_STEP_ADD, r, i, k - ENTRY(st, i, j)};
                return SCAN_NEXT;
            }
        }
        if (piv && r < cap)
            piv[r] = j;
        if (j < st->n)
            cu->rank_a++;
        else
            cu->rhs_pivot = true;
        cu->r++;
    }
    return SCAN_REDUCED;
}

int toggle_steps_auto(toggle_steps *st, size_t max, size_t *done)
{
    if (!st)
        return toggle__error(TOGGLE_EINVAL, "toggle_steps_auto: NULL steps");
    cursor cu = {0};
    toggle__step next;
    int state = scan(st, &cu, &next, NULL, 0);
    if (state == SCAN_BLOCKED)
        return toggle__error(TOGGLE_EUNSUPPORTED,
                             "column %zu has no unit at or below row %zu (k = %llu is not "
                             "prime): Gauss-Jordan cannot pivot there; reduce it by hand, or "
                             "solve with toggle_solve (Howell form)",
                             cu.j, cu.r, (unsigned long long)st->k);
    /* Each pivot column costs at most a swap, a scale and m - 1 adds. */
    size_t pivots = st->m < st->w ? st->m : st->w, worst;
    if (!toggle__mul_ok(pivots, st->m + 1, &worst))
        worst = SIZE_MAX;
    int rc = toggle__steps_reserve(st, max < worst ? max : worst);
    if (rc)
        return rc;
    size_t count = 0;
    for (; count < max && state == SCAN_NEXT; count++) {
        toggle__steps_push(st, &next);
        state = scan(st, &cu, &next, NULL, 0);
    }
    if (done)
        *done = count;
    return TOGGLE_OK;
}

/* ---- undo and redo --------------------------------------------------------- */

/* Move count operations from the trace to the redo list (undo) or back. */
static int walk_trace(toggle_steps *st, size_t count, bool undo)
{
    const char *what = undo ? "undo" : "redo";
    if (!st)
        return toggle__error(TOGGLE_EINVAL, "toggle_steps_%s: NULL steps", what);
    size_t avail = undo ? st->nhist : st->nredo;
    if (count > avail)
        return toggle__error(TOGGLE_ERANGE, "cannot %s %zu operation%s: %zu %s", what, count,
                             count == 1 ? "" : "s", avail, undo ? "done" : "undone");
    int rc = undo ? reserve(st, &st->redo, &st->capredo, st->nredo + count, false)
                  : toggle__steps_reserve(st, count);
    if (rc)
        return rc;
    for (size_t i = 0; i < count; i++) {
        toggle__step op = undo ? st->hist[--st->nhist] : st->redo[--st->nredo];
        toggle__step eff = undo ? inverse(st, &op) : op;
        mutate(st, &eff);
        if (undo)
            st->redo[st->nredo++] = op;
        else
            st->hist[st->nhist++] = op;
    }
    return TOGGLE_OK;
}

int toggle_steps_undo(toggle_steps *st, size_t count)
{
    return walk_trace(st, count, true);
}

int toggle_steps_redo(toggle_steps *st, size_t count)
{
    return walk_trace(st, count, false);
}

TOGGLE__GETTER(size_t, toggle_steps_count, toggle_steps, nhist)
TOGGLE__GETTER(size_t, toggle_steps_redo_count, toggle_steps, nredo)

int toggle_steps_op(const toggle_steps *st, size_t index, int *op, size_t *a, size_t *b,
                    uint64_t *c)
{
    if (!st)
        return toggle__error(TOGGLE_EINVAL, "toggle_steps_op: NULL steps");
    if (index >= st->nhist)
        return toggle__error(TOGGLE_ERANGE, "operation %zu does not exist (%zu done)", index,
                             st->nhist);
    const toggle__step *s = &st->hist[index];
    if (op)
        *op = s->op;
    if (a)
        *a = s->a;
    if (b)
        *b = s->b;
    if (c)
        *c = s->c;
    return TOGGLE_OK;
}

/* ---- where it stands ------------------------------------------------------- */

static bool has_contradiction(const toggle_steps *st)
{
    for (size_t i = 0; i < st->m; i++) {
        const uint64_t *r = row_of(st, i);
        size_t j = 0;
        while (j < st->n && !r[j])
            j++;
        if (j == st->n && r[st->n])
            return true;
    }
    return false;
}

int toggle_steps_status(const toggle_steps *st, size_t *rank, int *reduced, int *unsolvable)
{
    if (!st)
        return toggle__error(TOGGLE_EINVAL, "toggle_steps_status: NULL steps");
    cursor cu = {0};
    toggle__step next;
    int state = scan(st, &cu, &next, NULL, 0);
    if (rank)
        *rank = cu.rank_a;
    if (reduced)
        *reduced = state == SCAN_REDUCED;
    if (unsolvable)
        *unsolvable = has_contradiction(st);
    return TOGGLE_OK;
}

int toggle_steps_pivots(const toggle_steps *st, size_t *cols, size_t cap, size_t *count)
{
    if (!st || (!cols && cap))
        return toggle__error(TOGGLE_EINVAL, "toggle_steps_pivots: NULL argument");
    cursor cu = {0};
    toggle__step next;
    scan(st, &cu, &next, cols, cap);
    if (count)
        *count = cu.r;
    if (cap < cu.r)
        return toggle__error(TOGGLE_EBUFSIZE, "%zu pivots, room for %zu", cu.r, cap);
    return TOGGLE_OK;
}

int toggle_steps_solution(const toggle_steps *st, uint64_t *x, size_t len, size_t *nullity)
{
    if (!st || !x)
        return toggle__error(TOGGLE_EINVAL, "toggle_steps_solution: NULL argument");
    cursor cu = {0};
    toggle__step next;
    if (scan(st, &cu, &next, NULL, 0) != SCAN_REDUCED)
        return toggle__error(TOGGLE_EINVAL, "the matrix is not in reduced row echelon form yet");
    if (cu.rhs_pivot)
        return toggle__error(TOGGLE_ENOSOLUTION, "row %zu reads 0 = 1: no solution", cu.rank_a);
    if (len < st->n)
        return toggle__error(TOGGLE_EBUFSIZE, "the solution has %zu values, room for %zu", st->n,
                             len);
    memset(x, 0, st->n * sizeof *x);
    for (size_t i = 0; i < cu.rank_a; i++) {
        const uint64_t *r = row_of(st, i);
        size_t j = 0;
        while (!r[j])
            j++;
        x[j] = r[st->n];
    }
    if (nullity)
        *nullity = st->n - cu.rank_a;
    return TOGGLE_OK;
}

int toggle_steps_system(const toggle_steps *st, toggle_system **out)
{
    if (!st || !out)
        return toggle__error(TOGGLE_EINVAL, "toggle_steps_system: NULL argument");
    size_t m = st->m, n = st->n;
    uint64_t *a = toggle__malloc_array(m && n ? m * n : 1, sizeof *a);
    uint64_t *b = toggle__malloc_array(m ? m : 1, sizeof *b);
    int rc = TOGGLE_OK;
    if (!a || !b)
        rc = toggle__error(TOGGLE_ENOMEM, "out of memory copying a %zu x %zu matrix", m, n);
    for (size_t i = 0; !rc && i < m; i++) {
        memcpy(a + i * n, row_of(st, i), n * sizeof *a);
        b[i] = ENTRY(st, i, n);
    }
    toggle_system *s = NULL;
    if (!rc)
        rc = toggle_system_new_matrix(&s, m, n, a, b, st->k);
    if (!rc)
        rc = toggle_system_set_option(s, TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, st->budget);
    toggle__free(a);
    toggle__free(b);
    TOGGLE__HAND_OUT(out, s, rc, toggle_system_free);
}
