/* The row kernels: one chasing row of a class program over the cell-major
 * lanes (F_2, p = 3 in 4-bit fields, bit-sliced F_3, and the hex recurrence
 * of each), compiled per vector unit (TOGGLE__CLONES). Internal. */
#include <string.h>

#include "engine/transfer/transfer_internal.h"
#include "engine/transfer/s3.h"

#define ROW_KW 8
#if defined(__GNUC__)
#define ROW_INLINE static inline __attribute__((always_inline))
#else
#define ROW_INLINE static inline
#endif

#if defined(__GNUC__)
/* Eight words as one vector (GCC's vector extension: one register of
 * AVX-512, two of AVX2, four of SSE2). */
typedef uint64_t row_v8 __attribute__((vector_size(64)));
#endif

/* Step t's terms (*tm, *n); false for a promotion (its lanes copied to acc). */
ROW_INLINE bool row_step(const rowargs *a, size_t t, uint64_t *acc, const struct pterm **tm,
                         size_t *n)
{
    if (a->peq[t] == SIZE_MAX) {
        memcpy(acc, a->xsaved + (*a->xk)++ * a->nw, a->nw * sizeof *acc);
        return false;
    }
    *tm = a->pterm + a->pstart[t];
    *n = a->pstart[t + 1] - a->pstart[t];
    return true;
}

/* F_2: x_var = b + the sum of the other terms. */
ROW_INLINE void row_f2_body(const rowargs *a)
{
    size_t nw = a->nw;
    const uint64_t *src[ROW_MAX_TERMS];
    for (size_t t = 0; t < a->C; t++) {
        uint64_t *acc = a->dst + a->pvar[t] * nw;
        const struct pterm *tm;
        size_t n;
        if (!row_step(a, t, acc, &tm, &n))
            continue;
        uint64_t bb = a->bval ? (a->bval[a->peq[t]] & 1) << a->bshift : 0;
        if (nw == 1) { /* one word of lanes (the answers): no pointer list */
            uint64_t v = bb;
            for (size_t k = 0; k < n; k++)
                v ^= a->base[tm[k].slot][tm[k].col];
            *acc = v;
            continue;
        }
        if (n > ROW_MAX_TERMS) {
            memset(acc, 0, nw * sizeof *acc);
            for (size_t k = 0; k < n; k++) {
                const uint64_t *x = a->base[tm[k].slot] + tm[k].col * nw;
                for (size_t i = 0; i < nw; i++)
                    acc[i] ^= x[i];
            }
            acc[a->bword] ^= bb;
            continue;
        }
        for (size_t k = 0; k < n; k++)
            src[k] = a->base[tm[k].slot] + tm[k].col * nw;
        size_t i = 0;
#if defined(__GNUC__)
        for (; i + 8 <= nw; i += 8) {
            row_v8 v = {0}, x;
            if (a->bword - i < 8)
                v[a->bword - i] = bb;
            for (size_t k = 0; k < n; k++) {
                memcpy(&x, src[k] + i, sizeof x);
                v ^= x;
            }
            memcpy(acc + i, &v, sizeof v);
        }
#endif
        for (; i + ROW_KW <= nw; i += ROW_KW) {
            uint64_t v[ROW_KW];
            for (size_t q = 0; q < ROW_KW; q++) /* (no indexed store: it stalls the loads) */
                v[q] = i + q == a->bword ? bb : 0;
            for (size_t k = 0; k < n; k++)
                for (size_t q = 0; q < ROW_KW; q++)
                    v[q] ^= src[k][i + q];
            memcpy(acc + i, v, sizeof v);
        }
        for (; i < nw; i++) {
            uint64_t v = a->bword == i ? bb : 0;
            for (size_t k = 0; k < n; k++)
                v ^= src[k][i];
            acc[i] = v;
        }
    }
}

/* F_2, the hex recurrence (rec_class) over the cell-major lanes, W <= 8
 * words of each cell from word i0 on: w (in registers along the row) +=
 * b + x_r(c - delta) [+ x_r(c) when d is even], x_{r+1}(c) = w + x_r(c) +
 * x_{r-1}(c). Two reads and one store a word and cell. */
#define REC_F2_LOOP(T, LOAD, STORE, ZERO)                                          \
    do {                                                                           \
        bool asc = a->rdir == 1, self0 = !(a->rself & 1);                          \
        T w = ZERO, cur, nxt, bv = ZERO;                                           \
        size_t c = asc ? 0 : C - 1;                                                \
        cur = LOAD(xr + c * nw + i0);                                              \
        for (size_t k = 0; k < C; k++, c = asc ? c + 1 : c - 1) {                  \
            bool more = k + 1 < C;                                                 \
            nxt = more ? LOAD(xr + (asc ? c + 1 : c - 1) * nw + i0) : ZERO;        \
            w ^= nxt;                                                              \
            if (self0)                                                             \
                w ^= cur;                                                          \
            if (hasb) {                                                            \
                bv[bq] = (a->bval[c] & 1) << a->bshift;                            \
                w ^= bv;                                                           \
            }                                                                      \
            T o = w ^ cur;                                                         \
            if (xm)                                                                \
                o ^= LOAD(xm + c * nw + i0);                                       \
            STORE(a->dst + c * nw + i0, o);                                        \
            cur = nxt;                                                             \
        }                                                                          \
    } while (0)

#if defined(__GNUC__)
/* (macros: a vector argument or return would change the ABI) */
#define rec_load8(p) ({ row_v8 v_; memcpy(&v_, (p), sizeof v_); v_; })
#define rec_store8(p, v) do { row_v8 s_ = (v); memcpy((p), &s_, sizeof s_); } while (0)
#define REC_ZERO8 ((row_v8){0})
#endif

ROW_INLINE void rec_f2_body(const rowargs *a)
{
    size_t nw = a->nw, C = a->C;
    const uint64_t *xr = a->xr, *xm = a->xm;
    for (size_t i0 = 0; i0 < nw; i0 += 8) {
        size_t W = nw - i0 < 8 ? nw - i0 : 8;
        bool hasb = a->bval && a->bword - i0 < W;
        size_t bq = hasb ? a->bword - i0 : 0;
#if defined(__GNUC__)
        if (W == 8) {
            REC_F2_LOOP(row_v8, rec_load8, rec_store8, REC_ZERO8);
            continue;
        }
#endif
        for (size_t q = 0; q < W; q++) { /* one word at a time (few lanes) */
            size_t i1 = i0 + q;
            bool hb = hasb && bq == q;
            bool asc = a->rdir == 1, self0 = !(a->rself & 1);
            uint64_t w = 0, cur, nxt;
            size_t c = asc ? 0 : C - 1;
            cur = xr[c * nw + i1];
            for (size_t k = 0; k < C; k++, c = asc ? c + 1 : c - 1) {
                nxt = k + 1 < C ? xr[(asc ? c + 1 : c - 1) * nw + i1] : 0;
                w ^= nxt ^ (self0 ? cur : 0) ^ (hb ? (a->bval[c] & 1) << a->bshift : 0);
                a->dst[c * nw + i1] = w ^ cur ^ (xm ? xm[c * nw + i1] : 0);
                cur = nxt;
            }
        }
    }
}

/* p = 3 in 4-bit fields. m3_fold: every field of s (< 16) to at most 6
 * with the same residue (4 = 1 mod 3); m3_low: every field of s (<= 5)
 * mod 3, by the top bit of s + 8 - 3. */
#define M3_FOLD 0x3333333333333333ULL
#define M3_HI 0x8888888888888888ULL
#define M3_KK 0x5555555555555555ULL /* 8 - 3 in every field */
#define M3_SIX 0x6666666666666666ULL
ROW_INLINE uint64_t m3_fold(uint64_t s)
{
    return (s & M3_FOLD) + ((s >> 2) & M3_FOLD);
}

ROW_INLINE uint64_t m3_low(uint64_t s)
{
    uint64_t t = ((s + M3_KK) & M3_HI) >> 3;
    return s - (((t << 4) - t) & M3_FOLD);
}

/* Sum of src[k][i] over n terms onto v, each field < 16: v (<= 2 at the
 * start, <= 6 after a fold) takes at most 6 terms of <= 2 before a fold,
 * then 4 after each. */
#define M3_SUM(v, src, n, i, W)                                                    \
    for (size_t k = 0; k < (n); k++) {                                             \
        if (k == 6 || (k > 6 && (k - 6) % 4 == 0))                                 \
            for (size_t q = 0; q < (W); q++)                                       \
                v[q] = m3_fold(v[q]);                                              \
        for (size_t q = 0; q < (W); q++)                                           \
            v[q] += src[k][(i) + q];                                               \
    }

/* Words i .. i + W of step x_var's lanes (below). */
#define M3_WORDS(i, W)                                                             \
    do {                                                                           \
        uint64_t N[W] = {0}, S[W];                                                 \
        for (size_t q = 0; q < (W); q++) /* (no indexed store: it stalls loads) */ \
            S[q] = (i) + q == a->bword ? bb : 0;                                   \
        M3_SUM(N, sn, nn, i, W)                                                    \
        M3_SUM(S, sp, np, i, W)                                                    \
        for (size_t q = 0; q < (W); q++) {                                         \
            uint64_t nf = m3_fold(N[q]), sf = np ? m3_fold(S[q]) : S[q];           \
            acc[(i) + q] = m3_low(m3_fold(flip ? nf + M3_SIX - sf : sf + M3_SIX - nf)); \
        }                                                                          \
    } while (0)

#if defined(__GNUC__)
#define M3V_FOLD(s) (((s) & M3_FOLD) + (((s) >> 2) & M3_FOLD))
#define M3V_LOW(s, t) ((t) = (((s) + M3_KK) & M3_HI) >> 3, (s) - ((((t) << 4) - (t)) & M3_FOLD))
#define M3_WORDS8(i)                                                               \
    do {                                                                           \
        row_v8 N = {0}, S = {0}, x, t;                                             \
        if (a->bword - (i) < 8)                                                    \
            S[a->bword - (i)] = bb;                                                \
        for (size_t k = 0; k < nn; k++) {                                          \
            if (k >= 6 && (k - 6) % 4 == 0)                                        \
                N = M3V_FOLD(N);                                                   \
            memcpy(&x, sn[k] + (i), sizeof x);                                     \
            N += x;                                                                \
        }                                                                          \
        for (size_t k = 0; k < np; k++) {                                          \
            if (k >= 6 && (k - 6) % 4 == 0)                                        \
                S = M3V_FOLD(S);                                                   \
            memcpy(&x, sp[k] + (i), sizeof x);                                     \
            S += x;                                                                \
        }                                                                          \
        N = M3V_FOLD(N);                                                           \
        if (np)                                                                    \
            S = M3V_FOLD(S);                                                       \
        x = flip ? N + M3_SIX - S : S + M3_SIX - N;                                \
        x = M3V_FOLD(x);                                                           \
        x = M3V_LOW(x, t);                                                         \
        memcpy(acc + (i), &x, sizeof x);                                           \
    } while (0)
#else
#define M3_WORDS8(i) M3_WORDS(i, 8)
#endif

/* p = 3: the n terms' lanes split by weight: those with (w == 1) != x into
 * one (*n1 of them), the others (w = 2) into two. */
ROW_INLINE void row_split(const rowargs *a, const struct pterm *tm, size_t n, bool x,
                          const uint64_t **one, size_t *n1, const uint64_t **two, size_t *n2)
{
    for (size_t k = 0; k < n; k++) {
        const uint64_t *v = a->base[tm[k].slot] + tm[k].col * a->nw;
        if ((tm[k].w == 1) != x)
            one[(*n1)++] = v;
        else
            two[(*n2)++] = v;
    }
}

/* p = 3: x_var = inv (b - sum w x), w and inv 1 or 2. With N the sum of the
 * weight-1 terms and S = b + the weight-2 terms' x (-2 x = x), b - sum w x
 * = S - N; both are folded to <= 6, S + 6 - N (or N + 6 - S for inv 2, the
 * negation) is in 0 .. 12, one fold leaves <= 5 and m3_low the residue. */
ROW_INLINE void row_p3_body(const rowargs *a)
{
    size_t nw = a->nw;
    const uint64_t *sn[ROW_MAX_TERMS], *sp[ROW_MAX_TERMS];
    for (size_t t = 0; t < a->C; t++) {
        uint64_t *acc = a->dst + a->pvar[t] * nw;
        const struct pterm *tm;
        size_t n, nn = 0, np = 0;
        if (!row_step(a, t, acc, &tm, &n))
            continue;
        bool flip = a->pinv[t] == 2;
        uint64_t bb = a->bval ? a->bval[a->peq[t]] << a->bshift : 0;
        if (nw == 1) { /* one word of lanes (the answers): the values, no pointer list */
            uint64_t N = 0, S = bb;
            for (size_t k = 0; k < n; k++) {
                if (k >= 6 && (k - 6) % 4 == 0) {
                    N = m3_fold(N);
                    S = m3_fold(S);
                }
                uint64_t x = a->base[tm[k].slot][tm[k].col], one = tm[k].w == 1 ? ~(uint64_t)0 : 0;
                N += x & one;
                S += x & ~one;
            }
            N = m3_fold(N);
            S = m3_fold(S);
            *acc = m3_low(m3_fold(flip ? N + M3_SIX - S : S + M3_SIX - N));
            continue;
        }
        row_split(a, tm, n, false, sn, &nn, sp, &np);
        size_t i = 0;
        for (; i + 8 <= nw; i += 8)
            M3_WORDS8(i);
        for (; i < nw; i++)
            M3_WORDS(i, 1);
    }
}

/* p = 3 in 4-bit fields, the hex recurrence (rec_class), a word of each
 * cell at a time (the answers' few lanes): w = b - x_r(c - delta) -
 * (d - 1) x_r(c) - w (kept along the row), x_{r+1}(c) = w - x_r(c) -
 * x_{r-1}(c); -y is 3 - y in every field (M3_FOLD), each sum below 16,
 * folded and reduced (m3_low). Padding fields stay 0. */
ROW_INLINE void rec_p3_body(const rowargs *a)
{
    size_t nw = a->nw, C = a->C;
    const uint64_t *xr = a->xr, *xm = a->xm;
    bool asc = a->rdir == 1;
    uint64_t d = a->rself % 3;
    for (size_t i = 0; i < nw; i++) {
        bool hb = a->bval && a->bword == i;
        uint64_t w = 0, cur, nxt;
        size_t c = asc ? 0 : C - 1;
        cur = xr[c * nw + i];
        for (size_t k = 0; k < C; k++, c = asc ? c + 1 : c - 1) {
            nxt = k + 1 < C ? xr[(asc ? c + 1 : c - 1) * nw + i] : 0;
            uint64_t v = (M3_FOLD - nxt) + (M3_FOLD - w) + (hb ? a->bval[c] << a->bshift : 0)
                       + (d == 0 ? cur : d == 2 ? M3_FOLD - cur : 0);
            w = m3_low(m3_fold(v));
            uint64_t o = w + (M3_FOLD - cur) + (xm ? M3_FOLD - xm[c * nw + i] : 0);
            a->dst[c * nw + i] = m3_low(m3_fold(o));
            cur = nxt;
        }
    }
}

/* Each kernel compiled for the vector units of x86 (TOGGLE__CLONES,
 * lib/core/core.h; the widest one the CPU has is picked once per chase). */

TOGGLE__CLONES(row_f2, rowargs)
TOGGLE__CLONES(row_p3, rowargs)
TOGGLE__CLONES(rec_f2, rowargs)
TOGGLE__CLONES(rec_p3, rowargs)

/* ---- bit-sliced F_3 lanes (the small system's chase) ------------------------
 * A residue v is two bits (lo, hi) = ([v == 1], [v == 2]) (s3.h: S3_ADD);
 * a cell's L lanes are nh words of lo bits, then nh words of hi bits
 * (s3_words). */

/* p = 3, sliced: x_var = inv (b - sum w x) as a signed sum: b's sign is
 * inv's, a term's -inv w (1 or 2, as row_p3_ok admits); the terms of sign
 * +1 are added, the others subtracted, 8 words of both planes at a time. */
ROW_INLINE bool s3_terms(const rowargs *a, size_t t, uint64_t *acc, const uint64_t **sa,
                         size_t *na, const uint64_t **ss, size_t *ns, uint64_t *bl, uint64_t *bh)
{
    const struct pterm *tm;
    size_t n;
    if (!row_step(a, t, acc, &tm, &n))
        return false;
    bool flip = a->pinv[t] == 2;
    row_split(a, tm, n, flip, ss, ns, sa, na);
    uint64_t bv = a->bval ? a->bval[a->peq[t]] : 0;
    *bl = (uint64_t)(bv == (flip ? 2u : 1u)) << a->bshift;
    *bh = (uint64_t)(bv == (flip ? 1u : 2u)) << a->bshift;
    return true;
}

ROW_INLINE void row_s3_body(const rowargs *a)
{
    size_t nw = a->nw, nh = nw / 2;
    const uint64_t *sa[ROW_MAX_TERMS], *ss[ROW_MAX_TERMS];
    for (size_t t = 0; t < a->C; t++) {
        size_t na = 0, ns = 0, i = 0;
        uint64_t *acc = a->dst + a->pvar[t] * nw, bl, bh;
        if (!s3_terms(a, t, acc, sa, &na, ss, &ns, &bl, &bh))
            continue;
#if defined(__GNUC__)
        for (; i + 8 <= nh; i += 8) {
            row_v8 l = {0}, h = {0}, xl, xh;
            if (a->bword - i < 8) {
                l[a->bword - i] = bl;
                h[a->bword - i] = bh;
            }
            for (size_t k = 0; k < na; k++) {
                memcpy(&xl, sa[k] + i, sizeof xl);
                memcpy(&xh, sa[k] + nh + i, sizeof xh);
                S3_ADD(l, h, xl, xh);
            }
            for (size_t k = 0; k < ns; k++) {
                memcpy(&xl, ss[k] + i, sizeof xl);
                memcpy(&xh, ss[k] + nh + i, sizeof xh);
                S3_ADD(l, h, xh, xl);
            }
            memcpy(acc + i, &l, sizeof l);
            memcpy(acc + nh + i, &h, sizeof h);
        }
#endif
        for (; i < nh; i++) {
            uint64_t l = i == a->bword ? bl : 0, h = i == a->bword ? bh : 0;
            for (size_t k = 0; k < na; k++)
                S3_ADD(l, h, sa[k][i], sa[k][nh + i]);
            for (size_t k = 0; k < ns; k++)
                S3_ADD(l, h, ss[k][nh + i], ss[k][i]);
            acc[i] = l;
            acc[nh + i] = h;
        }
    }
}

/* p = 3, sliced, the hex recurrence (rec_class; rec_p3 in 4-bit fields):
 * u = b - x_r(c - delta) - (d - 1) x_r(c) does not depend on w, so the
 * chain along the row is one addition (w = u - w), then x_{r+1}(c) =
 * w - x_r(c) - x_{r-1}(c): two cells read and one stored a cell instead of
 * the program's seven terms. LOAD/STORE: W words of one plane. */
#define REC_S3_LOOP(T, LOAD, STORE, ZERO, BSET)                                    \
    do {                                                                           \
        T wl = ZERO, wh = ZERO, cl, ch, ql, qh, ul, uh;                            \
        size_t c = asc ? 0 : C - 1;                                                \
        cl = LOAD(xr + c * nw + i0);                                               \
        ch = LOAD(xr + c * nw + nh + i0);                                          \
        for (size_t k = 0; k < C; k++) {                                           \
            size_t cn = asc ? c + 1 : c - 1;                                       \
            bool more = k + 1 < C;                                                 \
            ql = more ? LOAD(xr + cn * nw + i0) : ZERO;                            \
            qh = more ? LOAD(xr + cn * nw + nh + i0) : ZERO;                       \
            ul = ZERO;                                                             \
            uh = ZERO;                                                             \
            if (hasb)                                                              \
                BSET(ul, uh, a->bval[c]);                                          \
            S3_ADD(ul, uh, qh, ql);                                                \
            if (d == 0)                                                            \
                S3_ADD(ul, uh, cl, ch);                                            \
            else if (d == 2)                                                       \
                S3_ADD(ul, uh, ch, cl);                                            \
            S3_ADD(ul, uh, wh, wl);                                                \
            wl = ul;                                                               \
            wh = uh;                                                               \
            S3_ADD(ul, uh, ch, cl);                                                \
            if (xm) {                                                              \
                T ml = LOAD(xm + c * nw + i0), mh = LOAD(xm + c * nw + nh + i0);   \
                S3_ADD(ul, uh, mh, ml);                                            \
            }                                                                      \
            STORE(a->dst + c * nw + i0, ul);                                       \
            STORE(a->dst + c * nw + nh + i0, uh);                                  \
            cl = ql;                                                               \
            ch = qh;                                                               \
            c = cn;                                                                \
        }                                                                          \
    } while (0)

#define S3_BSET8(l, h, v)                                                          \
    do {                                                                           \
        (l)[bq] = (uint64_t)((v) == 1) << a->bshift;                               \
        (h)[bq] = (uint64_t)((v) == 2) << a->bshift;                               \
    } while (0)
#define S3_BSET1(l, h, v)                                                          \
    do {                                                                           \
        (l) = (uint64_t)((v) == 1) << a->bshift;                                   \
        (h) = (uint64_t)((v) == 2) << a->bshift;                                   \
    } while (0)
#define S3_LOAD1(p) (*(p))
#define S3_STORE1(p, v) (*(p) = (v))

ROW_INLINE void rec_s3_body(const rowargs *a)
{
    size_t nw = a->nw, nh = nw / 2, C = a->C;
    const uint64_t *xr = a->xr, *xm = a->xm;
    bool asc = a->rdir == 1;
    uint64_t d = a->rself % 3;
    size_t i0 = 0;
#if defined(__GNUC__)
    for (; i0 + 8 <= nh; i0 += 8) {
        bool hasb = a->bval && a->bword - i0 < 8;
        size_t bq = hasb ? a->bword - i0 : 0;
        REC_S3_LOOP(row_v8, rec_load8, rec_store8, REC_ZERO8, S3_BSET8);
    }
#endif
    for (; i0 < nh; i0++) {
        bool hasb = a->bval && a->bword == i0;
        REC_S3_LOOP(uint64_t, S3_LOAD1, S3_STORE1, 0, S3_BSET1);
    }
}

TOGGLE__CLONES(row_s3, rowargs)
TOGGLE__CLONES(rec_s3, rowargs)

row_fn toggle__tr_row_f2_pick(void)
{
    return TOGGLE__PICK(row_f2);
}

row_fn toggle__tr_row_p3_pick(void)
{
    return TOGGLE__PICK(row_p3);
}

row_fn toggle__tr_rec_f2_pick(void)
{
    return TOGGLE__PICK(rec_f2);
}

row_fn toggle__tr_rec_p3_pick(void)
{
    return TOGGLE__PICK(rec_p3);
}

row_fn toggle__tr_row_s3_pick(void)
{
    return TOGGLE__PICK(row_s3);
}

row_fn toggle__tr_rec_s3_pick(void)
{
    return TOGGLE__PICK(rec_s3);
}
