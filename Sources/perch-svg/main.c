// perch-svg BOX < document.svg > reply
//
// Renders one SVG (or gzipped SVG) document fitted to a BOX × BOX pixel
// square, keeping its proportions, and writes the reply described in
// perch-svg-protocol.h. Run by the daemon (isolate.c) under memory and
// CPU limits and a deadline; a hostile document can only take this
// process down. Not meant to be run by hand, but harmless to.
#include <CRsvg.h>
#include <perch-svg-protocol.h>

#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Larger than the daemon sends (4 MiB); an .svgz inflates to at most this.
static const size_t max_document = 16u << 20;

static bool write_all(const void *data, size_t length) {
    const uint8_t *bytes = data;
    while (length > 0) {
        ssize_t done = write(STDOUT_FILENO, bytes, length);
        if (done < 0 && errno == EINTR) continue;
        if (done <= 0) return false;
        bytes += done;
        length -= (size_t)done;
    }
    return true;
}

static int fail(const char *message) {
    size_t length = strlen(message);
    if (length > 255) length = 255;
    // libxml2's messages end in a newline.
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == ' ')) length--;
    PerchSVGReplyHeader header = {PERCH_SVG_REPLY_ERROR, (int32_t)length, 0};
    write_all(&header, sizeof header);
    write_all(message, length);
    return 1;
}

// Reads all of stdin, up to max_document bytes; NULL if more.
static uint8_t *read_document(size_t *length) {
    size_t capacity = 64 * 1024, used = 0;
    uint8_t *buffer = malloc(capacity);
    while (buffer) {
        if (used == capacity) {
            if (capacity >= max_document) break;
            capacity *= 2;
            uint8_t *grown = realloc(buffer, capacity);
            if (!grown) break;
            buffer = grown;
        }
        ssize_t got = read(STDIN_FILENO, buffer + used, capacity - used);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) break;
        if (got == 0) {
            *length = used;
            return buffer;
        }
        used += (size_t)got;
    }
    free(buffer);
    return NULL;
}

// The proportions to fit into the box: the size in pixels when the
// document states one, else its viewBox, else square (what librsvg's
// render_document assumes too). Only the ratio is used: a 100000 px
// canvas renders into the same BOX-sized surface as a 16 px one.
static void fit(PerchSVGSize size, int box, int *width, int *height) {
    double w = 1, h = 1;
    if (size.hasPixelSize && isfinite(size.width) && isfinite(size.height) && size.width > 0 && size.height > 0) {
        w = size.width;
        h = size.height;
    } else if (size.hasViewBox && isfinite(size.viewBoxWidth) && isfinite(size.viewBoxHeight) &&
               size.viewBoxWidth > 0 && size.viewBoxHeight > 0) {
        w = size.viewBoxWidth;
        h = size.viewBoxHeight;
    }
    double factor = box / (w > h ? w : h);
    *width = (int)fmax(1, round(w * factor));
    *height = (int)fmax(1, round(h * factor));
}

int main(int argc, char **argv) {
    char message[256] = {0};
    int box = argc == 2 ? atoi(argv[1]) : 0;
    if (box < 1 || box > PERCH_SVG_MAX_BOX) return fail("usage: perch-svg BOX < document");

    size_t length = 0;
    uint8_t *document = read_document(&length);
    if (!document) return fail("document too large");
    if (length >= 2 && document[0] == 0x1F && document[1] == 0x8B) {
        uint8_t *inflated = malloc(max_document);
        long inflated_length = inflated ? perch_gunzip(document, length, inflated, max_document) : -1;
        free(document);
        if (inflated_length == -2) return fail("compressed SVG inflates to more than 16 MiB");
        if (inflated_length < 0) return fail("compressed SVG is not valid gzip data");
        document = inflated;
        length = (size_t)inflated_length;
    }

    if (!perch_svg_available(message, sizeof message)) return fail(message);
    PerchSVG *svg = perch_svg_parse(document, length, message, sizeof message);
    if (!svg) return fail(message);
    int width = 0, height = 0;
    fit(perch_svg_size(svg), box, &width, &height);

    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cairo = cairo_create(surface);
    bool rendered = perch_svg_render(svg, cairo, width, height, message, sizeof message);
    cairo_destroy(cairo);
    cairo_surface_flush(surface);
    if (!rendered) return fail(message);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        return fail(cairo_status_to_string(cairo_surface_status(surface)));
    }

    PerchSVGReplyHeader header = {PERCH_SVG_REPLY_IMAGE, width, height};
    if (!write_all(&header, sizeof header)) return 1;
    const uint8_t *rows = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    for (int y = 0; y < height; y++) {
        if (!write_all(rows + (size_t)y * (size_t)stride, (size_t)width * 4)) return 1;
    }
    return 0;
}
