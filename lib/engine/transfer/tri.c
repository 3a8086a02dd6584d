/* The tri step over F_2 (docs/transfer.md, "The tri step"). A tri board
 * chased along its columns (a transposed frame, lead block I) has, on
 * frame row r (a board column), x_{r+1} = b + x_{r-1} + (I + V) x_r with V
 * a matching of the frame's cells (cell e's third neighbour p(e), the one
 * in its own board column). A pair (a, p(a)) with self shares
 * s = x_r(a) + x_r(p(a)): four reads and two stores a word of lanes for
 * the two cells instead of the row program's six reads. Cell-major lanes,
 * eight words a vector, compiled per vector unit (TOGGLE__CLONES). */
#include <string.h>

#include "core/core.h"
#include "engine/transfer/tri.h"

#if defined(__GNUC__)
#define TRI_INLINE static inline __attribute__((always_inline))
typedef uint64_t tri_v8 __attribute__((vector_size(64)));
#define TRI_LD(p) ({ tri_v8 v_; memcpy(&v_, (p), sizeof v_); v_; })
#define TRI_ST(p, v) do { tri_v8 s_ = (v); memcpy((p), &s_, sizeof s_); } while (0)
#else
#define TRI_INLINE static inline
#endif

TRI_INLINE void tri_f2_body(const toggle__tri_args *a)
{
    size_t nw = a->nw;
    const uint64_t *xr = a->xr, *xm = a->xm;
    for (size_t k = 0; k < a->nunit; k++) {
        const toggle__tri_unit *u = &a->unit[k];
        size_t ca = u->a, cb = u->b;
        uint64_t *da = a->dst + ca * nw;
        const uint64_t *ra = xr + ca * nw, *ma = xm ? xm + ca * nw : NULL;
        if (u->flags & TOGGLE__TRI_PAIR) {
            uint64_t *db = a->dst + cb * nw;
            const uint64_t *rb = xr + cb * nw, *mb = xm ? xm + cb * nw : NULL;
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
        const uint64_t *pa = (u->flags & TOGGLE__TRI_PART) ? xr + cb * nw : NULL;
        bool self = u->flags & TOGGLE__TRI_SELF;
        for (size_t i = 0; i < nw; i++)
            da[i] = (self ? ra[i] : 0) ^ (pa ? pa[i] : 0) ^ (ma ? ma[i] : 0);
        if (a->bval)
            da[a->bword] ^= (a->bval[ca] & 1) << a->bshift;
    }
}

TOGGLE__CLONES(tri_f2, toggle__tri_args)

toggle__tri_fn toggle__transfer_tri_pick(void)
{
    return TOGGLE__PICK(tri_f2);
}
