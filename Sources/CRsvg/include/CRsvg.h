// SVG icons, rendered by librsvg in a child process.
//
// librsvg 2.54 cannot be trusted with hostile input inside the daemon:
// measured here, a 200 KB feConvolveMatrix aborts the process (a Rust
// panic across the C boundary), 2 KB of nested patterns render for 18 s,
// and a data: URI PNG of 12000x12000 px in a 775 KB file takes 1.1 GB.
// None of that can be cut short from outside a call into librsvg. So the
// daemon never loads it: perch_svg_render_isolated() hands the document
// to the perch-svg helper, which runs under memory and CPU limits, and
// kills it at a deadline. The daemon maps no byte of librsvg, libxml2 or
// ICU, before or after its first SVG.
//
// The helper itself loads librsvg with dlopen (perch_svg_available), so
// building Perch needs no librsvg headers and a missing library is a
// message, not a helper that cannot start.
#ifndef PERCH_CRSVG_H
#define PERCH_CRSVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct _cairo;

// ---- The daemon's side -----------------------------------------------

// Renders `data` (an SVG document, or one gzipped as in .svgz files)
// fitted to a `box` × `box` square (buffer pixels), keeping its
// proportions, by running the helper at `helper` (argv: perch-svg BOX,
// the document on stdin). The image is written to `pixels` (room for
// box × box words), `width` × `height` Cairo ARGB32 words, rows packed.
// Waits at most `timeout_ms`, then kills the helper. False on any
// failure, with the reason in `message` (NUL-terminated, cut to `size`).
bool perch_svg_render_isolated(const char *helper, const uint8_t *data, size_t length, int box,
                               int timeout_ms, uint32_t *pixels, int *width, int *height,
                               char *message, size_t size);

// Largest box the helper renders, in pixels.
enum { PERCH_SVG_MAX_BOX = 1024 };

// ---- The helper's side: librsvg through dlopen -----------------------

// A parsed SVG document (an RsvgHandle underneath).
typedef struct PerchSVG PerchSVG;

// Opens librsvg-2.so.2 once per process. False when it is missing or too
// old (render_document needs 2.46, the pixel size 2.52), with the reason
// in `message` (NUL-terminated, cut to `size`). The answer is remembered:
// installing librsvg later needs a restart.
bool perch_svg_available(char *message, size_t size);

// Parses an SVG document held in memory. It has no base file, so librsvg
// resolves no reference to another file or URL (images, <use>, CSS
// @import): they are left out. NULL on error, with librsvg's message.
// Requires perch_svg_available() to have returned true.
PerchSVG *perch_svg_parse(const uint8_t *data, size_t length, char *message, size_t size);

void perch_svg_free(PerchSVG *svg);

// The document's intrinsic size, as far as it has one.
typedef struct {
    // width and height in absolute units, converted to pixels at 96 dpi.
    bool hasPixelSize;
    double width, height;
    // The viewBox: only its proportions matter here.
    bool hasViewBox;
    double viewBoxWidth, viewBoxHeight;
} PerchSVGSize;

PerchSVGSize perch_svg_size(PerchSVG *svg);

// Renders the whole document scaled to fit `width` × `height` at the
// origin of `cairo`'s user space, keeping its proportions. False on error.
bool perch_svg_render(PerchSVG *svg, struct _cairo *cairo, double width, double height,
                      char *message, size_t size);

// Inflates gzip data (an .svgz file) into `output`. Returns the length
// written; -1 when the data is not valid gzip, -2 when it inflates to more
// than `capacity` bytes (stopped there: a small file may inflate to GB).
long perch_gunzip(const uint8_t *input, size_t length, uint8_t *output, size_t capacity);

#endif
