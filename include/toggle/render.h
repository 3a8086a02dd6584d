/* libtoggle: board states as pictures (PNG, PPM) through colour maps. */
#ifndef TOGGLE_RENDER_H
#define TOGGLE_RENDER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @file render.h
 *  @brief Rendering a board state (rows x cols values < k) to PNG or PPM.
 *
 *  Cell (r, c) of the board (value cells[r * cols + c]) is drawn as a
 *  cell_size x cell_size square whose colour is the colour map sampled for
 *  its value:
 *  - a continuous map (viridis, ...) has a 256-entry table; value v of k is
 *    drawn with entry floor((2 * v * 255 + (k - 1)) / (2 * (k - 1))), that is
 *    position v / (k - 1) rounded to the nearest entry (halves up), so 0 is
 *    the first colour and k - 1 the last;
 *  - a qualitative map (tab10, set1, ...) of N colours draws v with colour
 *    v mod N;
 *  - a reversed map draws v as the plain map draws k - 1 - v.
 *  Grid lines (if their width is nonzero) separate neighbouring cells and a
 *  border (if nonzero) surrounds the board, both in the line colour. So the
 *  image is border * 2 + cols * cell_size + (cols - 1) * line pixels wide.
 *
 *  Output is deterministic: the same input gives the same bytes (PNG: no
 *  time or text chunks, fixed zlib level, strategy and filter; palette
 *  images when the colours fit in 256 entries). PPM is binary "P6", 8 bits. */

/** Opaque rendering options; built with toggle_render_opts_new(). */
typedef struct toggle_render_opts toggle_render_opts;

/** Image formats. */
enum {
    TOGGLE_IMAGE_PPM = 1,  /**< binary PPM (P6), always available */
    TOGGLE_IMAGE_PNG = 2   /**< PNG, when the library was built with libpng */
};

/** Option keys for toggle_render_opts_set(). */
enum {
    TOGGLE_RENDER_CELL_SIZE = 1,   /**< pixels per cell side, 1..4096; default 8 */
    TOGGLE_RENDER_GRID_LINES = 2,  /**< width of the lines between cells, 0..256; default 0 */
    TOGGLE_RENDER_BORDER = 3,      /**< width of the border, 0..4096; default 0 */
    TOGGLE_RENDER_COLORMAP = 4,    /**< colour map id (TOGGLE_CMAP_*); default viridis */
    TOGGLE_RENDER_REVERSED = 5,    /**< 1 to reverse the colour map; default 0 */
    TOGGLE_RENDER_LINE_COLOR = 6   /**< 0xRRGGBB of lines and border; default 0x000000 */
};

/** Colour map ids. Ids are pinned; new maps are only appended.
 *  toggle_colormap_count() and toggle_colormap_name() list all of them. */
enum {
    TOGGLE_CMAP_VIRIDIS = 0,
    TOGGLE_CMAP_MAGMA = 1,
    TOGGLE_CMAP_INFERNO = 2,
    TOGGLE_CMAP_PLASMA = 3,
    TOGGLE_CMAP_CIVIDIS = 4,
    TOGGLE_CMAP_TWILIGHT = 5,
    TOGGLE_CMAP_TURBO = 6,
    TOGGLE_CMAP_GREYS = 7,   /**< matplotlib "Greys": white to black */
    TOGGLE_CMAP_TAB10 = 8,   /**< qualitative, 10 colours */
    TOGGLE_CMAP_TAB20 = 9,   /**< qualitative, 20 colours */
    TOGGLE_CMAP_SET1 = 10,   /**< qualitative, 9 colours */
    TOGGLE_CMAP_SET2 = 11,   /**< qualitative, 8 colours */
    TOGGLE_CMAP_SET3 = 12,   /**< qualitative, 12 colours */
    TOGGLE_CMAP_DARK2 = 13,  /**< qualitative, 8 colours */
    TOGGLE_CMAP_PAIRED = 14, /**< qualitative, 12 colours */
    TOGGLE_CMAP_PASTEL1 = 15,/**< qualitative, 9 colours */
    TOGGLE_CMAP_ACCENT = 16  /**< qualitative, 8 colours */
};

/** Number of colour maps (ids are 0 .. count - 1). */
TOGGLE_API size_t toggle_colormap_count(void);

/** Name of a colour map ("viridis"), or NULL for an unknown id. Static storage. */
TOGGLE_API const char *toggle_colormap_name(int id);

/** 1 if the map is qualitative (a list of colours), 0 if continuous,
 *  TOGGLE_EINVAL for an unknown id. */
TOGGLE_API int toggle_colormap_is_qualitative(int id);

/** Look up a colour map by name; a "_r" suffix ("viridis_r") asks for the
 *  reversed map.
 *  @param name      the map's name, NUL-terminated (borrowed)
 *  @param id        receives the id
 *  @param reversed  receives 1 for a "_r" name, else 0 (may be NULL)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL name or id, unknown name). */
TOGGLE_API int toggle_colormap_from_name(const char *name, int *id, int *reversed);

/** The colour of value v of k under a map (the sampling rule above).
 *  @param id        a colour map id (TOGGLE_CMAP_*)
 *  @param reversed  1 to read the map backwards, else 0
 *  @param v         the value, < k
 *  @param k         the number of values (the modulus), >= 2
 *  @param rgb  receives 3 bytes: red, green, blue
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL rgb, unknown id, k < 2),
 *          TOGGLE_ERANGE (v >= k). */
TOGGLE_API int toggle_colormap_color(int id, int reversed, uint64_t v, uint64_t k,
                                     uint8_t *rgb);

/** Create rendering options holding the defaults.
 *  @param out  receives the options (free with toggle_render_opts_free())
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL out), TOGGLE_ENOMEM. */
TOGGLE_API int toggle_render_opts_new(toggle_render_opts **out);

/** Free options. NULL is a no-op. */
TOGGLE_API void toggle_render_opts_free(toggle_render_opts *opts);

/** Set one option (TOGGLE_RENDER_*).
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL opts, unknown key),
 *          TOGGLE_ERANGE (value outside the key's range or unknown map id). */
TOGGLE_API int toggle_render_opts_set(toggle_render_opts *opts, int key, uint64_t value);

/** Read one option.
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL argument, unknown key). */
TOGGLE_API int toggle_render_opts_get(const toggle_render_opts *opts, int key,
                                      uint64_t *value);

/** Size in pixels of the picture of a rows x cols board.
 *  @param opts  options, or NULL for the defaults
 *  @param rows, cols  the board's shape
 *  @param width   receives the picture's width in pixels
 *  @param height  receives the picture's height in pixels
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL width/height, zero rows or cols),
 *          TOGGLE_ERANGE (a side exceeds 1000000 pixels). */
TOGGLE_API int toggle_render_size(const toggle_render_opts *opts, size_t rows, size_t cols,
                                  size_t *width, size_t *height);

/** Render a board into a caller buffer.
 *  A too small buffer (or buf NULL, len 0: a size query) is left untouched,
 *  *needed receives the exact size and the call returns TOGGLE_EBUFSIZE.
 *  For PPM the size is a formula (a size query costs nothing); for PNG it
 *  is known only after encoding, so a size query encodes the picture as a
 *  stream, counting the bytes, and holds only a few rows and at most len
 *  bytes of output in memory.
 *  @param opts     options, or NULL for the defaults
 *  @param format   TOGGLE_IMAGE_PNG or TOGGLE_IMAGE_PPM
 *  @param cells    rows * cols values < modulus, row-major (borrowed)
 *  @param modulus  k >= 2: the number of values (sets the colour sampling)
 *  @param rows     rows of the board
 *  @param cols     columns of the board
 *  @param buf      receives the file bytes (may be NULL when len is 0)
 *  @param len      size of buf in bytes
 *  @param needed   receives the size of the image in bytes (may be NULL)
 *  @return TOGGLE_OK, TOGGLE_EINVAL (NULL cells, zero size, k < 2, unknown
 *          format, NULL buf with len > 0), TOGGLE_ERANGE (a value >= k,
 *          image too large), TOGGLE_EBUFSIZE, TOGGLE_EUNSUPPORTED (PNG in a
 *          build without libpng), TOGGLE_ENOMEM (out of memory, or the
 *          encoder's memory, a copy of the PNG of up to len bytes included,
 *          over TOGGLE_DEFAULT_MEMORY_BUDGET: checked before any work). */
TOGGLE_API int toggle_render(const toggle_render_opts *opts, int format, const uint64_t *cells,
                             size_t rows, size_t cols, uint64_t modulus, uint8_t *buf,
                             size_t len, size_t *needed);

/** Render a board into a file (created or truncated). A failed write
 *  removes nothing it did not create but may leave a partial file.
 *  @param opts     options, or NULL for the defaults
 *  @param format   TOGGLE_IMAGE_PNG or TOGGLE_IMAGE_PPM
 *  @param cells    rows * cols values < modulus, row-major (borrowed)
 *  @param rows     rows of the board
 *  @param cols     columns of the board
 *  @param modulus  k >= 2
 *  @param path  file name (borrowed)
 *  @return as toggle_render() without TOGGLE_EBUFSIZE, plus TOGGLE_EIO (the
 *          file cannot be opened or written) and TOGGLE_EINVAL (NULL path). */
TOGGLE_API int toggle_render_file(const toggle_render_opts *opts, int format,
                                  const uint64_t *cells, size_t rows, size_t cols,
                                  uint64_t modulus, const char *path);

#ifdef __cplusplus
}
#endif
#endif
