#include "CRsvg.h"
#include "rsvg-api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

// The soname of librsvg 2.x; its ABI has been kept since 2.0.
static const char library_name[] = "librsvg-2.so.2";

static struct {
    __typeof__(&rsvg_handle_new_from_data) new_from_data;
    __typeof__(&rsvg_handle_get_intrinsic_dimensions) intrinsic_dimensions;
    __typeof__(&rsvg_handle_get_intrinsic_size_in_pixels) intrinsic_size_in_pixels;
    __typeof__(&rsvg_handle_render_document) render_document;
    __typeof__(&g_object_unref) object_unref;
    __typeof__(&g_error_free) error_free;
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static bool loaded;
static char load_error[256];

static void copy_message(char *message, size_t size, const char *text) {
    if (message && size > 0) snprintf(message, size, "%s", text ? text : "unknown error");
}

static void *find(void *library, const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol && !load_error[0]) {
        snprintf(load_error, sizeof load_error, "%s has no %s (librsvg 2.52 or later is needed)",
                 library_name, name);
    }
    return symbol;
}

static void load(void) {
    // RTLD_LOCAL: librsvg's dependencies stay out of the global namespace,
    // so nothing Perch links starts resolving symbols against them.
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "SVG needs %s (Debian: librsvg2-2): %s",
                 library_name, reason ? reason : "cannot be opened");
        return;
    }
    api.new_from_data = find(library, "rsvg_handle_new_from_data");
    api.intrinsic_dimensions = find(library, "rsvg_handle_get_intrinsic_dimensions");
    api.intrinsic_size_in_pixels = find(library, "rsvg_handle_get_intrinsic_size_in_pixels");
    api.render_document = find(library, "rsvg_handle_render_document");
    api.object_unref = find(library, "g_object_unref");
    api.error_free = find(library, "g_error_free");
    // Never closed: librsvg starts GLib types and Rust state that do not
    // survive an unload, and the next SVG would load it again.
    loaded = !load_error[0];
}

bool perch_svg_available(char *message, size_t size) {
    pthread_once(&load_once, load);
    if (!loaded) copy_message(message, size, load_error);
    return loaded;
}

static void take_error(GError *error, char *message, size_t size) {
    copy_message(message, size, error ? error->message : NULL);
    if (error) api.error_free(error);
}

PerchSVG *perch_svg_parse(const uint8_t *data, size_t length, char *message, size_t size) {
    if (!loaded) {
        copy_message(message, size, "librsvg is not loaded");
        return NULL;
    }
    GError *error = NULL;
    RsvgHandle *handle = api.new_from_data(data, length, &error);
    if (!handle) take_error(error, message, size);
    return (PerchSVG *)handle;
}

void perch_svg_free(PerchSVG *svg) {
    if (svg) api.object_unref(svg);
}

PerchSVGSize perch_svg_size(PerchSVG *svg) {
    RsvgHandle *handle = (RsvgHandle *)svg;
    PerchSVGSize size = {0};
    double width = 0, height = 0;
    size.hasPixelSize = api.intrinsic_size_in_pixels(handle, &width, &height) != 0;
    size.width = width;
    size.height = height;
    int has_width = 0, has_height = 0, has_viewbox = 0;
    RsvgLength ignored_width, ignored_height;
    RsvgRectangle viewbox = {0};
    api.intrinsic_dimensions(handle, &has_width, &ignored_width, &has_height, &ignored_height,
                             &has_viewbox, &viewbox);
    size.hasViewBox = has_viewbox != 0;
    size.viewBoxWidth = viewbox.width;
    size.viewBoxHeight = viewbox.height;
    return size;
}

bool perch_svg_render(PerchSVG *svg, struct _cairo *cairo, double width, double height,
                      char *message, size_t size) {
    RsvgRectangle viewport = {0, 0, width, height};
    GError *error = NULL;
    if (api.render_document((RsvgHandle *)svg, cairo, &viewport, &error)) return true;
    take_error(error, message, size);
    return false;
}

long perch_gunzip(const uint8_t *input, size_t length, uint8_t *output, size_t capacity) {
    // uInt counts: both sides are bounded by the caller's caps, far below.
    if (length > UINT32_MAX || capacity > UINT32_MAX) return -1;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    // 16 + MAX_WBITS: a gzip header and trailer, not a raw zlib stream.
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK) return -1;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = inflate(&stream, Z_FINISH);
    long written = (long)stream.total_out;
    inflateEnd(&stream);
    if (status == Z_STREAM_END) return written;
    // Not finished with the output full: there is more than fits.
    if ((status == Z_OK || status == Z_BUF_ERROR) && stream.avail_out == 0) return -2;
    return -1;
}
