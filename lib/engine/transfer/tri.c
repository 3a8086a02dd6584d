/* The tri step over F_2, and over bit-sliced F_3 lanes (docs/transfer.md,
 * "The tri step"). A tri board
 * chased along its columns (a transposed frame, lead block I) has, on
 * frame row r (a board column), x_{r+1} = b + x_{r-1} + (I + V) x_r with V
 * a matching of the frame's cells (cell e's third neighbour p(e), the one
 * in its own board column). A pair (a, p(a)) with self shares
 * s = x_r(a) + x_r(p(a)): four reads and two stores a word of lanes for
 * the two cells instead of the row program's six reads. Cell-major lanes,
 * eight words a vector, compiled per vector unit (TOGGLE__CLONES). */
#include <string.h>

#include "core/core.h"
#include "engine/transfer/s3.h"
#include "engine/transfer/tri.h"

#if defined(__GNUC__)
#define TRI_INLINE static inline __attribute__((always_inline))
typedef uint64_t tri_v8 __attribute__((vector_size(64)));
#define TRI_LD(p) ({ tri_v8 v_; memcpy(&v_, (p), sizeof v_); v_; })
#define TRI_ST(p, v) do { tri_v8 s_ = (v); memcpy((p), &s_, sizeof s_); } while (0)
#else
#define TRI_INLINE static inline
#endif

/* A unit's cells: dst, row r and row r - 1 (NULL without one) of a and b. */
typedef struct {
    uint64_t *da, *db;
    const uint64_t *ra, *rb, *ma, *mb;
} tri_cells;

static inline tri_cells tri_cells_of(const toggle__tri_args *a, const toggle__tri_unit *u)
{
    size_t nw = a->nw;
    tri_cells c = {a->dst + u->a * nw, a->dst + u->b * nw, a->xr + u->a * nw, a->xr + u->b * nw,
                   a->xm ? a->xm + u->a * nw : NULL, a->xm ? a->xm + u->b * nw : NULL};
    return c;
}

TRI_INLINE void tri_f2_body(const toggle__tri_args *a)
{
    size_t nw = a->nw;
    for (size_t k = 0; k < a->nunit; k++) {
        const toggle__tri_unit *u = &a->unit[k];
        size_t ca = u->a;
        tri_cells tc = tri_cells_of(a, u);
        uint64_t *da = tc.da, *db = tc.db;
        const uint64_t *ra = tc.ra, *rb = tc.rb, *ma = tc.ma, *mb = tc.mb;
        if (u->flags & TOGGLE__TRI_PAIR) {
            size_t cb = u->b;
            bool self = u->flags & TOGGLE__TRI_SELF;
            size_t i = 0;
#if defined(__GNUC__)
            for (; i + 8 <= nw; i += 8) {
                tri_v8 va = TRI_LD(ra + i), vb = TRI_LD(rb + i), oa, ob;
                if (self)
                    oa = ob = va ^ vb;
                else
                    oa = vb, ob = va;
                if (ma) {
                    oa ^= TRI_LD(ma + i);
                    ob ^= TRI_LD(mb + i);
                }
                TRI_ST(da + i, oa);
                TRI_ST(db + i, ob);
            }
#endif
            for (; i < nw; i++) {
                uint64_t va = ra[i], vb = rb[i];
                uint64_t oa = self ? va ^ vb : vb, ob = self ? va ^ vb : va;
                da[i] = oa ^ (ma ? ma[i] : 0);
                db[i] = ob ^ (mb ? mb[i] : 0);
            }
            if (a->bval) {
                da[a->bword] ^= (a->bval[ca] & 1) << a->bshift;
                db[a->bword] ^= (a->bval[cb] & 1) << a->bshift;
            }
            continue;
        }
        /* a single cell: [self] x_r(a) + [partner] x_r(b) + x_{r-1}(a) */
        const uint64_t *pa = (u->flags & TOGGLE__TRI_PART) ? rb : NULL;
        bool self = u->flags & TOGGLE__TRI_SELF;
        for (size_t i = 0; i < nw; i++)
            da[i] = (self ? ra[i] : 0) ^ (pa ? pa[i] : 0) ^ (ma ? ma[i] : 0);
        if (a->bval)
            da[a->bword] ^= (a->bval[ca] & 1) << a->bshift;
    }
}

/* The tri step over bit-sliced F_3 lanes (s3.h; a cell is nw / 2 words of
 * lo bits, then as many of hi bits): x_{r+1}(e) = b(e) - x_{r-1}(e) -
 * [self] x_r(e) - [partner] x_r(p(e)), as the sum of the terms, negated
 * (its planes swapped); a pair with self shares s = x_r(a) + x_r(b). */
#define TRI3_PAIR(T, LD, ST)                                                       \
    do {                                                                           \
        T al = LD(ra + i), ah = LD(ra + nh + i), bl = LD(rb + i), bh = LD(rb + nh + i); \
        T ol, oh, pl, ph;                                                          \
        if (self) {                                                                \
            S3_ADD(al, ah, bl, bh);                                                \
            ol = pl = al, oh = ph = ah;                                            \
        } else {                                                                   \
            ol = bl, oh = bh, pl = al, ph = ah;                                    \
        }                                                                          \
        if (ma) {                                                                  \
            T xl = LD(ma + i), xh = LD(ma + nh + i);                               \
            S3_ADD(ol, oh, xl, xh);                                                \
            xl = LD(mb + i), xh = LD(mb + nh + i);                                 \
            S3_ADD(pl, ph, xl, xh);                                                \
        }                                                                          \
        ST(da + i, oh); /* negated: the planes swapped */                          \
        ST(da + nh + i, ol);                                                       \
        ST(db + i, ph);                                                            \
        ST(db + nh + i, pl);                                                       \
    } while (0)
#define TRI3_LD1(p) (*(p))
#define TRI3_ST1(p, v) (*(p) = (v))

/* b(e) (1 or 2) added on the b lane of cell d. */
static inline void tri3_b(uint64_t *d, size_t nh, const toggle__tri_args *a, uint64_t v)
{
    uint64_t l = (uint64_t)(v == 1) << a->bshift, h = (uint64_t)(v == 2) << a->bshift;
    S3_ADD(d[a->bword], d[nh + a->bword], l, h);
}

TRI_INLINE void tri_s3_body(const toggle__tri_args *a)
{
    size_t nh = a->nw / 2;
    for (size_t k = 0; k < a->nunit; k++) {
        const toggle__tri_unit *u = &a->unit[k];
        tri_cells tc = tri_cells_of(a, u);
        uint64_t *da = tc.da, *db = tc.db;
        const uint64_t *ra = tc.ra, *rb = tc.rb, *ma = tc.ma, *mb = tc.mb;
        bool self = u->flags & TOGGLE__TRI_SELF;
        if (u->flags & TOGGLE__TRI_PAIR) {
            size_t i = 0;
#if defined(__GNUC__)
            for (; i + 8 <= nh; i += 8)
                TRI3_PAIR(tri_v8, TRI_LD, TRI_ST);
#endif
            for (; i < nh; i++)
                TRI3_PAIR(uint64_t, TRI3_LD1, TRI3_ST1);
            if (a->bval) {
                tri3_b(da, nh, a, a->bval[u->a]);
                tri3_b(db, nh, a, a->bval[u->b]);
            }
            continue;
        }
        /* a single cell: -([self] x_r(a) + [partner] x_r(b) + x_{r-1}(a)) + b */
        const uint64_t *pa = (u->flags & TOGGLE__TRI_PART) ? rb : NULL;
        for (size_t i = 0; i < nh; i++) {
            uint64_t ol = self ? ra[i] : 0, oh = self ? ra[nh + i] : 0;
            if (pa)
                S3_ADD(ol, oh, pa[i], pa[nh + i]);
            if (ma)
                S3_ADD(ol, oh, ma[i], ma[nh + i]);
            da[i] = oh;
            da[nh + i] = ol;
        }
        if (a->bval)
            tri3_b(da, nh, a, a->bval[u->a]);
    }
}

TOGGLE__CLONES(tri_f2, toggle__tri_args)
TOGGLE__CLONES(tri_s3, toggle__tri_args)

toggle__tri_fn toggle__transfer_tri_pick(void)
{
    return TOGGLE__PICK(tri_f2);
}

toggle__tri_fn toggle__transfer_tri3_pick(void)
{
    return TOGGLE__PICK(tri_s3);
}
