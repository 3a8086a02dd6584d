/* Every tuning threshold of the transfer engine (lib/engine/transfer/), one
 * line each: what it trades, and how to re-measure it. Changing one never
 * changes an answer (each side of a threshold gives the same canonical
 * answers, checked by the transfer suite), only time and memory. Measure
 * with a release build: `toggle solve` on the boards named, CPU time
 * (`/usr/bin/time -f %U`), runs alternated against the previous value.
 * Never installed. */
#ifndef TOGGLE_TRANSFER_TUNE_H
#define TOGGLE_TRANSFER_TUNE_H

/* A class build keeps its (equation, entry) list (32 bytes an entry) up to
 * this many entries, else walks the columns twice: memory against a second
 * walk; re-measure on a wide stencil board (a 2000 x 2000 Moore grid). */
#define PAT_LIST_MAX 65536

/* F_2: the sliced chase (one word operation per 64 cells, term and lane)
 * serves up to this many lanes, the cell-major kernels (one per 64 lanes,
 * cell and term) beyond; re-measure on grids of growing nullity (square
 * boards of 100 .. 2000 cells a side, mod 2). */
#define SLICED_MAX_LANES 128

/* F_3: the sliced chase serves up to this many lanes, the cell-major
 * kernels' words of 16 lanes a cell beyond; re-measure on mod 3 grids. */
#define SLICED3_MAX_LANES 16

/* The sliced chase serves the hex recurrence up to this many lanes (each
 * lane a prefix XOR along the row), the cell-major recurrence beyond;
 * re-measure on hex boards (`--hex`) mod 2 and 3. */
#define REC_SLICED_MAX_LANES 16

/* The bit-sliced F_3 chase builds the small system from this many lanes
 * on (fewer fit in a word or two of 4-bit fields); re-measure on mod 3
 * boards with small systems of 1 .. 64 unknowns. */
#define S3_MIN_LANES 2

/* span_chase's suffix grows to at most this many board rows (its RREF
 * costs ns^2 (h C + m)); re-measure on the tri torus mod 3. */
#define SPAN_HMAX 8

/* span_chase runs when ns^2 >= L (ns spanning vectors, L lanes): below,
 * reducing the ns rows by each other costs less than one chase; re-measure
 * on the tri cylinder (few spanning vectors) and the tri torus mod 3. */
#define SPAN_MIN_SQ_OVER_L 1

/* tail_f2_canonical doubles its tail while it holds at most this many
 * cells (then the whole-basis RREF, canonicalise_f2); re-measure on
 * transposed F_2 frames of large nullity (tall thin tori mod 2). */
#define TAIL_CELLS(dn, cols) (8 * ((dn) + (cols)))

/* The probe takes a board when its small system has at most 1 / SMALL_SHARE
 * of the board's unknowns (1 / SMALL_SHARE_PROMO with promotions), boards
 * of more than SMALL_MIN_CELLS cells; beyond, dense elimination of the
 * whole board is as fast. Re-measure on Moore and random-stencil boards
 * against `--engine flint`. */
#define SMALL_SHARE 2
#define SMALL_SHARE_PROMO 4
#define SMALL_MIN_CELLS 64

/* canonical_check scans every kernel vector's last nonzero for answers of
 * up to this many entries (a safety net: O(d N)); beyond, only the free
 * cells are checked. Re-measure: a hex board mod 2 of nullity ~ 1000. */
#define CHECK_SCAN_MAX ((size_t)1 << 24)

/* The ring route faults an answer vector in this many words at a time,
 * just ahead of the writer: larger blocks cost more memory traffic ahead of
 * use, smaller ones more calls; re-measure on the 10000 x 10000 torus mod 2
 * (128 KiB to 512 KiB measure alike). */
#define RING_PREFAULT_WORDS ((size_t)1 << 15)
/* ... for answers (all vectors of one block) of at least this many words:
 * glibc maps each such block afresh, so all its pages fault; a smaller one
 * may come back from the heap already in memory, where the calls cost and
 * win nothing. Re-measure on the 1000 x 1000 torus mod 2, with and
 * without. */
#define RING_PREFAULT_MIN_WORDS ((size_t)1 << 22)

#endif
