/* The transfer engine's internals shared by its files (lib/engine/
 * transfer/, docs/transfer.md): the frame and its row patterns, the lanes,
 * the sinks' contexts, the small inline helpers of the chases, and each
 * file's entry points. Never installed. */
#ifndef TOGGLE_TRANSFER_INTERNAL_H
#define TOGGLE_TRANSFER_INTERNAL_H

#include <string.h>

#include "engine/engine.h"
#include "engine/transfer/transfer.h"
#include "engine/transfer/transfer_tune.h"
#include "engine/transfer/tri.h"

/* One entry of an equation: weight w (mod p, nonzero) on the press at frame
 * row r + dq, frame column col. */
typedef struct {
    int64_t dq;
    size_t col;
    uint64_t w;
} tentry;

/* The equations of one class of frame rows (rows with equal patterns). */
typedef struct {
    size_t *start;  /* C + 1 offsets into ent */
    tentry *ent;
    size_t *peq;    /* substitution program: step t solves variable pvar[t] */
    size_t *pvar;   /* from equation peq[t] with the inverse weight pinv[t] */
    uint64_t *pinv;
    /* the program compiled from the substitution (chasing rows only): step
     * t reads the terms pterm[pstart[t] .. pstart[t + 1]) (every entry of
     * its equation but the solved variable's), row slot dq + Hb */
    size_t *pstart;
    struct pterm {
        size_t slot, col;
        uint64_t w;
    } *pterm;
    /* F_2 with B = I ("sliced": cells packed 64 to a word, one lane at a
     * time): the pattern as nst terms, term i adding mask i AND the row at
     * slot sterm[i].slot rotated by sterm[i].rot (cell e reads cell e + rot
     * mod C); smask holds nst masks of (C + 63) / 64 words */
    struct sterm {
        size_t slot, rot;
        bool lead;
    } *sterm;
    uint64_t *smask;
    /* p = 3: smask holds the cells of weight 1, smask2 those of weight 2 */
    uint64_t *smask2;
    size_t nst;
    /* promotions: npro steps of the program solve no equation (peq[t] ==
     * SIZE_MAX): their variable is a new unknown; the npro equations the
     * program leaves over (lefto) become rows of the small system */
    size_t npro;
    size_t *lefto;
    /* the hex recurrence (rec_class): 0 not checked, -1 not of that form,
     * 1 solved by ascending columns, 2 by descending ones; rself the
     * weight of a cell on itself */
    int rec;
    uint64_t rself;
    int p3ok;       /* row_p3_ok: 0 not checked, 1 yes, -1 no (toggle__tr_row_p3_once) */
    bool built, peels;
} rowpat;

typedef struct toggle__tframe {
    const toggle_graph *g;
    uint64_t p;
    bool tr;        /* frame rows are board columns */
    bool rev;       /* frame row r is board row R - 1 - r (chased from the end) */
    bool wrap;      /* frame rows wrap (the last touches the first) */
    size_t R, C;    /* frame rows, cells per frame row */
    size_t Hf, Hb;  /* forward and backward reach of the equations */
    size_t HH;      /* class radius */
    bool all;       /* every row is an unknown (no chase) */
    size_t nuk;     /* unknown rows */
    size_t nx;      /* promoted unknowns of the chasing rows (= their left-over equations) */
    size_t m;       /* the small system's unknowns: nuk C + nx */
    size_t ncls;
    rowpat *cls;
    toggle__colbuf cb;
    int sliced;     /* 0 not decided, 1 the sliced F_2 chase serves, -1 not */
    int rec;        /* 0 not decided, 1 every chasing row is a hex recurrence, -1 not */
    int s3;         /* 0 the bit-sliced F_3 chase may serve the small system, -1 not (plain) */
    bool notri;     /* the tri step off (the row programs, for the tests) */
} tframe;

static inline size_t frame_cell(const tframe *f, size_t r, size_t j)
{
    size_t rr = f->rev ? f->R - 1 - r : r;
    return f->tr ? j * f->g->cols + rr : rr * f->g->cols + j;
}

static inline size_t class_of(const tframe *f, size_t r)
{
    size_t par = (f->g->kind == TOGGLE_KIND_GRID && f->g->npar == 2) ? (r & 1) : 0;
    size_t top = r < f->HH ? r : f->HH, bot = f->R - 1 - r < f->HH ? f->R - 1 - r : f->HH;
    /* across a wrap no row is near an edge: one class (per parity, when
     * the parities alternate all the way round) */
    if (f->wrap && (f->g->npar == 1 || f->R % 2 == 0))
        top = bot = f->HH;
    return (par * (f->HH + 1) + top) * (f->HH + 1) + bot;
}

#define TRANSFER_MAX_REACH 4

/* The unknowns: rows 0 .. Hf - 1, then across a wrap rows R - Hb .. R - 1;
 * every row when there is no chase. Index of unknown row i, or SIZE_MAX. */
static inline size_t unknown_slot(const tframe *f, size_t r)
{
    if (f->all)
        return r;
    if (r < f->Hf)
        return r;
    if (f->wrap && r >= f->R - f->Hb)
        return f->Hf + (r - (f->R - f->Hb));
    return SIZE_MAX;
}

/* First constraint row (its equations and the following rows' make E). */
static inline size_t first_constraint(const tframe *f)
{
    return f->all ? 0 : f->R - (f->wrap ? f->Hf + f->Hb : f->Hf);
}


/* Narrow lanes: a cell's L lanes are packed `per` to a word, lw bits each
 * (1 for F_2; for odd p the narrowest of 4, 8, 16, 32 with p <= 2^(lw-1),
 * else one 64-bit word per lane). Odd p adds and subtracts a word's fields
 * at once without carries between them: s = a + b < 2p per field, and the
 * field's top bit of s + 2^(lw-1) - p says s >= p (docs/transfer.md). */
typedef struct {
    unsigned lw;     /* bits per lane */
    size_t per;      /* lanes per word */
    uint64_t fmask;  /* one field's mask */
    uint64_t hi;     /* the top bit of every field */
    uint64_t kk;     /* 2^(lw-1) - p in every field */
    uint64_t pb;     /* p in every field */
} lanefmt;

static inline unsigned lane_bits(uint64_t p)
{
    if (p == 2)
        return 1;
    for (unsigned lw = 4; lw <= 32; lw *= 2)
        if (p <= (uint64_t)1 << (lw - 1))
            return lw;
    return 64;
}

/* Words per cell of L lanes. */
static inline size_t lane_words(uint64_t p, size_t L)
{
    size_t per = 64 / lane_bits(p), nw = (L + per - 1) / per;
    /* past one cache line, whole lines: the row kernels' loads stay aligned */
    return nw > 8 ? (nw + 7) & ~(size_t)7 : nw ? nw : 1;
}

/* Fields of s (each < 2p) reduced mod p. */
static inline uint64_t swar_reduce(const lanefmt *lf, uint64_t s)
{
    uint64_t t = ((s + lf->kk) & lf->hi) >> (lf->lw - 1);
    return s - (((t << lf->lw) - t) & lf->pb);
}

/* Field-wise w * a mod p (w < p). */
static inline uint64_t swar_mul(const lanefmt *lf, uint64_t a, uint64_t w, uint64_t p)
{
    uint64_t o = 0;
    for (size_t i = 0; i < lf->per; i++) {
        unsigned sh = (unsigned)(i * lf->lw);
        o |= toggle__mulmod((a >> sh) & lf->fmask, w, p) << sh;
    }
    return o;
}

typedef struct {
    const tframe *f;
    size_t L, nw;            /* lanes, words per cell */
    lanefmt lf;
    size_t blane;            /* the lane that carries b */
    uint64_t *saved;         /* nuk rows: the unknown rows' cells */
    uint64_t *xsaved;        /* nx cells: the promoted unknowns, in chase order */
    uint64_t *ring;          /* ring of Hf + Hb + 1 computed rows */
    size_t nring;
    uint64_t *acc;           /* one cell */
    void *mem;               /* saved and ring, each on a cache line */
} lanes;

static inline uint64_t *row_ptr(lanes *ln, size_t r)
{
    size_t u = unknown_slot(ln->f, r), rowwords = ln->f->C * ln->nw;
    if (u != SIZE_MAX)
        return ln->saved + u * rowwords;
    return ln->ring + (r % ln->nring) * rowwords;
}

/* acc -= w * x over the lanes. */
static inline void lane_axpy(const lanes *ln, uint64_t *acc, const uint64_t *x, uint64_t w)
{
    size_t nw = ln->nw;
    uint64_t p = ln->f->p;
    const lanefmt *lf = &ln->lf;
    if (p == 2) {
        if (w & 1)
            for (size_t i = 0; i < nw; i++)
                acc[i] ^= x[i];
    } else if (lf->lw < 64) {
        if (w == 1)
            for (size_t i = 0; i < nw; i++)
                acc[i] = swar_reduce(lf, acc[i] + (lf->pb - x[i]));
        else if (w == p - 1)
            for (size_t i = 0; i < nw; i++)
                acc[i] = swar_reduce(lf, acc[i] + x[i]);
        else
            for (size_t i = 0; i < nw; i++)
                acc[i] = swar_reduce(lf, acc[i] + (lf->pb - swar_mul(lf, x[i], w, p)));
    } else if (w == 1) {
        for (size_t i = 0; i < nw; i++)
            acc[i] = toggle__submod(acc[i], x[i], p);
    } else if (w == p - 1) {
        for (size_t i = 0; i < nw; i++)
            acc[i] = toggle__addmod(acc[i], x[i], p);
    } else {
        for (size_t i = 0; i < nw; i++)
            acc[i] = toggle__submod(acc[i], toggle__mulmod(w, x[i], p), p);
    }
}

/* acc = w * acc over the lanes (odd p). */
static inline void lane_scale(const lanes *ln, uint64_t *acc, uint64_t w)
{
    for (size_t i = 0; i < ln->nw; i++)
        acc[i] = ln->lf.lw < 64 ? swar_mul(&ln->lf, acc[i], w, ln->f->p)
                                : toggle__mulmod(acc[i], w, ln->f->p);
}

static inline uint64_t lane_get(const lanes *ln, const uint64_t *cell, size_t l)
{
    const lanefmt *lf = &ln->lf;
    return (cell[l / lf->per] >> ((l % lf->per) * lf->lw)) & lf->fmask;
}

/* Lane l of cell := v (the lane is 0 before). */
static inline void lane_set(const lanes *ln, uint64_t *cell, size_t l, uint64_t v)
{
    const lanefmt *lf = &ln->lf;
    cell[l / lf->per] |= (v & lf->fmask) << ((l % lf->per) * lf->lw);
}

/* A computed row: cell-major (row: C cells of nw words) or, from the
 * sliced chase, lane-major (lrow: L lanes of C bits, lstride words apart;
 * F_3: lane l's lo plane at lrow + l lstride, its hi plane lstride / 2
 * words after it; bits past C are not the row's); the other pointer is
 * NULL. */
typedef void (*row_sink)(void *ctx, const lanes *ln, size_t r, const uint64_t *row,
                         const uint64_t *lrow, size_t lstride);

/* Lane l's value at cell j of a lane-major row (the sinks' reader). */
static inline uint64_t lrow_get(const lanes *ln, const uint64_t *lrow, size_t lstride, size_t l,
                                size_t j)
{
    const uint64_t *v = lrow + l * lstride;
    uint64_t lo = (v[j >> 6] >> (j & 63)) & 1;
    return ln->f->p == 2 ? lo : lo | ((v[lstride / 2 + (j >> 6)] >> (j & 63)) & 1) << 1;
}


#define SLICED_MAX_TERMS 64
/* Bits [off, off + 64) of a (zero-padded) word array. */
static inline uint64_t bits_at(const uint64_t *v, size_t off)
{
    size_t q = off >> 6;
    unsigned sh = off & 63;
    return sh ? (v[q] >> sh) | (v[q + 1] << (64 - sh)) : v[q];
}

/* A transposed frame's b, 64 frame rows at a time: w[j] holds the bits of
 * frame rows r0 .. r0 + 63 at frame column j (one window of board row j),
 * transposed into 64 rows of CW words after it, so that a frame row is a
 * copy instead of C scattered reads. */
typedef struct {
    uint64_t *w; /* BTILE_WORDS(C), or NULL (then one read a cell) */
    size_t r0;
    bool have;
} btile;
#define BTILE_WORDS(C) ((C) + 64 * (((C) + 63) / 64))

/* The tri step's units per class, built at the class's first row (st: 0
 * not yet, 1 the units serve, 2 with row r - 1, -1 not). */
typedef struct {
    toggle__tri_unit **un;
    size_t *n;
    signed char *st;
    size_t ncls;
} tri_cache;

/* Frame row q's row (across a wrap q mod R) among a chase's own copies of
 * the rows (saved: the unknown rows; ring: the last Hf + Hb + 1 chased),
 * NULL off the frame: the sliced chases and toggle__tr_chase_s3. */
static inline uint64_t *own_row(const tframe *f, int64_t q, uint64_t *saved, uint64_t *ring,
                         size_t rowsz)
{
    int64_t R = (int64_t)f->R;
    if (f->wrap)
        q = ((q % R) + R) % R;
    if (q < 0 || q >= R)
        return NULL;
    size_t u = unknown_slot(f, (size_t)q);
    return u != SIZE_MAX ? saved + u * rowsz : ring + ((size_t)q % (f->Hf + f->Hb + 1)) * rowsz;
}

/* base[sl] = frame row r - Hb + sl's own row (own_row), sl = 0 .. Hf + Hb. */
static inline void own_bases(const tframe *f, size_t r, uint64_t *saved, uint64_t *ring, size_t rowsz,
                      uint64_t **base)
{
    for (size_t sl = 0; sl <= f->Hf + f->Hb; sl++)
        base[sl] = own_row(f, (int64_t)(r + sl) - (int64_t)f->Hb, saved, ring, rowsz);
}

/* One chasing row of a class program over the cell-major lanes, for F_2 and
 * for p = 3 in 4-bit fields (every weight 1 or 2): each step's lanes are
 * summed in registers, KW words at a time, and stored once. Compiled per
 * vector unit (TOGGLE__CLONES); the caller keeps the other moduli. */
typedef struct {
    size_t C, nw;
    const size_t *pstart, *pvar, *peq;
    const struct pterm *pterm;
    uint64_t *const *base;
    uint64_t *dst;
    const uint64_t *bval;   /* b at equation e (frame column), or NULL */
    uint64_t bword;         /* the word (blane / per) and its shift: b's field */
    unsigned bshift;
    const uint64_t *pinv;   /* the steps' inverse weights (p = 3: 1 or 2) */
    const uint64_t *xsaved; /* the promoted unknowns' lanes, read from *xk on */
    size_t *xk;
    /* the hex recurrence (rec_f2): rows r and r - 1 (NULL for r = 0), the
     * class's rec and rself */
    const uint64_t *xr, *xm;
    int rdir;
    uint64_t rself;
} rowargs;

#define ROW_MAX_TERMS 64

/* Bit 0 of each byte of w gathered into bits 0 .. 7, and back. */
static inline uint64_t byte_bits(uint64_t w)
{
    return ((w & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56;
}

static inline uint64_t bits_bytes(uint64_t x)
{
    x = (x | x << 28) & 0x0000000F0000000FULL;
    x = (x | x << 14) & 0x0003000300030003ULL;
    return (x | x << 7) & 0x0101010101010101ULL;
}

/* OR the first nbits bits of src into dst from bit offset off (those bits are 0). */
static inline void or_bits(uint64_t *dst, size_t off, const uint64_t *src, size_t nbits)
{
    size_t q = off >> 6, nw = (nbits + 63) / 64;
    unsigned sh = off & 63;
    for (size_t i = 0; i < nw; i++) {
        uint64_t w = src[i]; /* bits past nbits are ignored */
        if (i + 1 == nw && (nbits & 63))
            w &= ((uint64_t)1 << (nbits & 63)) - 1;
        dst[q + i] |= w << sh;
        if (sh && ((off + nbits - 1) >> 6) > q + i)
            dst[q + i + 1] |= w >> (64 - sh);
    }
}


/* The free cells found so far (ascending): cell, the vector's first
 * possibly nonzero cell, and where it is: a local vector (src | LOC_LOCAL:
 * its row in the locals, board cell lo + i at entry i) or a kernel row. */
#define LOC_LOCAL ((size_t)1 << (sizeof(size_t) * 8 - 1))

typedef struct {
    size_t n, *cell, *lo, *src;
    uint64_t *bits; /* the free cells, one bit each */
} loc_free;

/* What toggle__tr_canonicalise_local needs to chase combinations of the kernel rows
 * (toggle__tr_span_chase): the lanes of the answers' chase and the unknowns U they
 * were loaded from (ln->L rows of m; x's first when solvable), resid for
 * a chase's residuals (m lanes). NULL: toggle__tr_span_chase does not run. */
typedef struct {
    lanes *ln;
    const uint64_t *U;
    size_t m;
    bool solvable;
    uint64_t *resid;
} loc_chase;

/* A system without a grid (the certificate system of a board whose A is not
 * symmetric: stencils, hex and tri across an odd wrap) goes to dense
 * elimination. */
static inline bool is_board(const toggle_system *s)
{
    return s->graph && (s->graph->kind == TOGGLE_KIND_GRID ||
                        s->graph->kind == TOGGLE_KIND_STENCIL);
}

typedef struct {
    toggle_solution *sol;
    bool with_b;
    uint64_t *tbuf; /* F_2: L rows of (C + 63) / 64 words */
    uint64_t **dst; /* odd p: lane l's vector (x, then the kernel; NULL: not
                     * written), or NULL */
    /* F_2, a transposed frame (frame rows are board columns): a block of 64
     * board columns, written out as words of the board rows (toggle__tr_tcol_flush).
     * Cell-major rows (cube): column q's row at blk + q * C * nw; lane rows
     * (the sliced chase): lane l's column q as C bits at blk + (l * 64 + q)
     * * CW. col: C words */
    uint64_t *blk, *col;
    size_t bcur;    /* the block held (board columns 64 bcur ..), SIZE_MAX: none */
    uint64_t bhave; /* its columns received */
    bool cube;      /* the held columns are cell-major rows */
} out_ctx;

typedef struct {
    size_t first;  /* first captured frame row */
    size_t H;      /* rows captured */
    uint64_t *T;   /* L vectors of H * C values (or of hc, below) */
    /* or single cells: frame row r's cells rcol[rstart[r] .. rstart[r + 1])
     * go to positions ridx[..] of the L vectors of hc values */
    const size_t *rstart, *rcol, *ridx;
    size_t hc;
} tail_ctx;

/* Reduction mod p < 2^32 of x < 2^64 (Barrett: mu = floor(2^64 / p), the
 * quotient estimate is short by at most one). */
typedef struct {
    uint64_t p, mu;
} modp;

static inline void modp_init(modp *mp, uint64_t p)
{
    mp->p = p;
    mp->mu = p < ((uint64_t)1 << 32) ? UINT64_MAX / p : 0;
}

static inline uint64_t modp_reduce(const modp *mp, uint64_t x)
{
    uint64_t q = (uint64_t)(((unsigned __int128)x * mp->mu) >> 64), r = x - q * mp->p;
    return r >= mp->p ? r - mp->p : r;
}

typedef void (*row_fn)(const rowargs *);

/* canonical.c */
void toggle__tr_axpy_span(toggle__vecs *v, size_t dst, size_t off, const toggle__vecs *sv,
                          size_t src, uint64_t fct, uint64_t k, size_t from, size_t upto);
void toggle__tr_scale_span(toggle__vecs *v, size_t i, size_t from, size_t upto, uint64_t f,
                           uint64_t k);
int toggle__tr_canonical_basis(toggle__vecs *K, size_t dn, uint64_t k, size_t *piv);
void toggle__tr_clear_free(toggle_solution *sol, const size_t *piv, const size_t *lo);
int toggle__tr_canonicalise(toggle_solution *sol);

/* canonical_f2.c */
int toggle__tr_canonicalise_f2(toggle_solution *sol);
uint64_t toggle__tr_canonicalise_f2_bytes(size_t d, size_t n, unsigned threads);

/* chase.c */
int toggle__tr_chase(lanes *ln, bool with_b, const toggle_system *s, uint64_t *resid, row_sink sink,
                     void *ctx);

/* chase_s3.c */
int toggle__tr_chase_s3(lanes *ln, const toggle_system *s, uint64_t *resid);

/* classify.c */
bool toggle__tr_sliced_ok(tframe *f);
bool toggle__tr_rec_ok(tframe *f);
bool toggle__tr_row_p3_once(rowpat *pt, size_t C);
bool toggle__tr_s3_ok(tframe *f, const lanes *ln);

/* echelon.c */
void toggle__tr_capture_row(void *ctx_, const lanes *ln, size_t r, const uint64_t *row,
                            const uint64_t *lrow, size_t lstride);
void toggle__tr_vec_submul(uint64_t *v, const uint64_t *w, uint64_t e, size_t n, const modp *mp);
int toggle__tr_restricted_echelon(uint64_t p, bool solvable, size_t dn, uint64_t *T, size_t hc,
                                  uint64_t *U, size_t m, bool *full);

/* estimate.c */
size_t toggle__tr_tcol_words(const tframe *f, size_t L, size_t nw);
int toggle__tr_lanes_estimate(const toggle_system *s, uint64_t *bytes);

/* frame.c */
void toggle__tr_frame_clear(tframe *f);
int toggle__tr_frame_class(tframe *f, size_t r, rowpat **out);
bool toggle__tr_frame_pick(const toggle_system *s, tframe *f, bool *oom);
int toggle__tr_pick_error(bool oom);

/* freecells.c */
void toggle__tr_loc_insert(loc_free *fr, size_t cell, size_t lo, size_t src);
size_t toggle__tr_loc_reduce(toggle__vecs *K, size_t i, const toggle__vecs *Lv, const loc_free *fr,
                             size_t top, size_t *lo, bool stop, uint64_t p);

/* lanes.c */
void toggle__tr_lanes_clear(lanes *ln);
int toggle__tr_lanes_init(lanes *ln, const tframe *f, size_t L);
uint64_t *toggle__tr_unknown_lanes(lanes *ln, size_t i);
void toggle__tr_clear_unknowns(lanes *ln, size_t m);
void toggle__tr_load_lanes(lanes *ln, const uint64_t *U, size_t m);

/* local.c */
uint64_t toggle__tr_canonicalise_local_bytes(size_t rows, size_t cols, size_t d, uint64_t k);
int toggle__tr_canonicalise_local(const toggle_system *s, toggle_solution *sol, const loc_chase *lc,
                                  bool *done, bool *spanned);

/* output.c */
void toggle__tr_tcol_flush(out_ctx *ctx, const lanes *ln);
void toggle__tr_write_row(void *ctx_, const lanes *ln, size_t r, const uint64_t *row,
                          const uint64_t *lrow, size_t lstride);

/* pattern.c */
void toggle__tr_pat_clear(rowpat *pt);
int toggle__tr_pat_build(tframe *f, size_t r, rowpat *pt);

/* rev.c */
int toggle__tr_rev_canonical(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U,
                             size_t m, uint64_t *resid, size_t *pcell, bool *full);

/* sliced.c */
void toggle__tr_sliced_load_b(const tframe *f, const toggle_system *s, size_t r, uint64_t *out,
                              btile *bt);
void toggle__tr_sliced_store(uint64_t *dst, const uint64_t *bits, size_t C, size_t DW);
int toggle__tr_chase_sliced(lanes *ln, bool with_b, const toggle_system *s, uint64_t *resid,
                            row_sink sink, void *ctx);

/* sliced3.c */
int toggle__tr_chase_sliced3(lanes *ln, bool with_b, const toggle_system *s, uint64_t *resid,
                             row_sink sink, void *ctx);

/* small.c */
bool toggle__tr_shift_invariant(tframe *f, size_t P);
int toggle__tr_solve_small(const toggle_system *ss, toggle_solution **small);
int toggle__tr_small_system(const toggle_system *s, tframe *f, toggle_solution **small,
                            toggle_system **keep);

/* solve.c */
int toggle__tr_lanes_solve(const toggle_system *s, toggle_solution *sol, bool plain, bool local,
                           bool *ran, bool *spanned);

/* span.c */
int toggle__tr_span_chase(const toggle_system *s, toggle_solution *sol, const loc_chase *lc,
                          const toggle__vecs *Lv, loc_free *fr, bool *ok);
uint64_t toggle__tr_span_chase_bytes(size_t rows, size_t cols, size_t d, size_t m, size_t L,
                                     uint64_t k);

/* tail.c */
uint64_t toggle__tr_tail_rows_p_bytes(const tframe *f, size_t d, size_t m, unsigned threads);
int toggle__tr_tail_canonical(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U,
                              size_t m, uint64_t *resid, bool *full);
size_t toggle__tr_tail_first(const tframe *f, size_t dn);
int toggle__tr_tail_rows_p(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U, size_t m,
                           uint64_t *resid, size_t h, bool *full);
int toggle__tr_tail_f2_canonical(lanes *ln, const toggle_system *s, bool solvable, uint64_t *U,
                                 size_t m, uint64_t *resid, bool *full);

/* tri_units.c */
bool toggle__tr_tri_cache_init(tri_cache *c, size_t ncls);
void toggle__tr_tri_cache_free(tri_cache *c);
int toggle__tr_tri_cache_get(tri_cache *c, const tframe *f, const rowpat *pt, size_t ci);

/* rowkern.c: each row kernel for the widest vector unit the CPU has (pick
 * once a chase) */
row_fn toggle__tr_row_f2_pick(void);
row_fn toggle__tr_row_p3_pick(void);
row_fn toggle__tr_rec_f2_pick(void);
row_fn toggle__tr_rec_p3_pick(void);
row_fn toggle__tr_row_s3_pick(void);
row_fn toggle__tr_rec_s3_pick(void);

#endif
