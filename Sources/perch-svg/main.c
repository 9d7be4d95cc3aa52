// perch-svg BOX < document.svg > reply
// perch-svg --serve            (stdin = stdout = a SOCK_SEQPACKET socket)
//
// Renders SVG (or gzipped SVG) documents fitted to a BOX × BOX pixel
// square, keeping their proportions, and answers as described in
// perch-svg-protocol.h: one document per run (isolate.c, for tests and
// tools), or, serving, one answer per request for as long as requests
// come (the daemon's warm helper, SVGRenderHelper.swift). Either way
// under memory and CPU limits, with the daemon's deadline on top; a
// hostile document can only take this process down. Not meant to be run
// by hand, but harmless to.
#define _GNU_SOURCE
#include <CPerchSystem.h>
#include <CRsvg.h>
#include <perch-svg-protocol.h>

#include <cairo.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
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

// Renders `document` (consumed) fitted to `box`; the image surface, or
// NULL with the reason in `message`.
static cairo_surface_t *render(uint8_t *document, size_t length, int box, char *message, size_t size) {
    if (length >= 2 && document[0] == 0x1F && document[1] == 0x8B) {
        uint8_t *inflated = malloc(max_document);
        long inflated_length = inflated ? perch_gunzip(document, length, inflated, max_document) : -1;
        free(document);
        if (inflated_length < 0) free(inflated);
        if (inflated_length == -2) {
            snprintf(message, size, "compressed SVG inflates to more than 16 MiB");
            return NULL;
        }
        if (inflated_length < 0) {
            snprintf(message, size, "compressed SVG is not valid gzip data");
            return NULL;
        }
        document = inflated;
        length = (size_t)inflated_length;
    }
    if (!perch_svg_available(message, size)) {
        free(document);
        return NULL;
    }
    PerchSVG *svg = perch_svg_parse(document, length, message, size);
    free(document);
    if (!svg) return NULL;
    int width = 0, height = 0;
    fit(perch_svg_size(svg), box, &width, &height);

    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cairo = cairo_create(surface);
    bool rendered = perch_svg_render(svg, cairo, width, height, message, size);
    cairo_destroy(cairo);
    cairo_surface_flush(surface);
    perch_svg_free(svg);
    if (rendered && cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        snprintf(message, size, "%s", cairo_status_to_string(cairo_surface_status(surface)));
        rendered = false;
    }
    if (!rendered) {
        cairo_surface_destroy(surface);
        return NULL;
    }
    return surface;
}

static int run_once(int box) {
    char message[256] = {0};
    size_t length = 0;
    uint8_t *document = read_document(&length);
    if (!document) return fail("document too large");
    cairo_surface_t *surface = render(document, length, box, message, sizeof message);
    if (!surface) return fail(message);
    int width = cairo_image_surface_get_width(surface), height = cairo_image_surface_get_height(surface);
    PerchSVGReplyHeader header = {PERCH_SVG_REPLY_IMAGE, width, height};
    if (!write_all(&header, sizeof header)) return 1;
    const uint8_t *rows = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    for (int y = 0; y < height; y++) {
        if (!write_all(rows + (size_t)y * (size_t)stride, (size_t)width * 4)) return 1;
    }
    return 0;
}

// ---- Serving ----------------------------------------------------------

// Leaves after this long without a request, and after this many renders
// (what librsvg and the allocator keep between documents stays bounded).
static const int idle_exit_ms = 30000;
static const int max_renders = 256;
// Address space: librsvg, ICU and fontconfig map about 150 MB before
// drawing anything; an ordinary icon peaks well under 100 MB more. A
// document that wants more fails its allocation there (and takes this
// process down, not the daemon).
static const rlim_t address_space = 768ul << 20;
// CPU seconds one render may take; the daemon's wall-clock deadline (1 s)
// normally comes first, this backs it up when the daemon is stopped.
static const rlim_t render_cpu_seconds = 4;
// And a wall-clock backstop for the same case (SIGALRM ends the process).
static const unsigned render_alarm_seconds = 3;

static void put32(uint8_t *at, uint32_t value) {
    at[0] = (uint8_t)value;
    at[1] = (uint8_t)(value >> 8);
    at[2] = (uint8_t)(value >> 16);
    at[3] = (uint8_t)(value >> 24);
}

static uint32_t get32(const uint8_t *at) {
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

static bool send_frame(uint32_t magic, uint32_t ticket, uint32_t a, uint32_t b, const char *text, int fd) {
    uint8_t frame[PERCH_SVG_FRAME_BYTES + PERCH_SVG_MAX_MESSAGE];
    put32(frame, magic);
    put32(frame + 4, ticket);
    put32(frame + 8, a);
    put32(frame + 12, b);
    size_t length = PERCH_SVG_FRAME_BYTES;
    if (text) {
        memcpy(frame + length, text, a);
        length += a;
    }
    return perch_send_message(STDOUT_FILENO, frame, length, fd, 1) == (long)length;
}

static bool answer_error(uint32_t ticket, const char *message) {
    size_t length = strlen(message);
    if (length > PERCH_SVG_MAX_MESSAGE) length = PERCH_SVG_MAX_MESSAGE;
    // libxml2's messages end in a newline.
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == ' ')) length--;
    return send_frame(PERCH_SVG_REPLY_ERROR, ticket, (uint32_t)length, 0, message, -1);
}

// The pixels, rows packed, in a memfd handed over with the answer.
static bool answer_image(uint32_t ticket, cairo_surface_t *surface) {
    int width = cairo_image_surface_get_width(surface), height = cairo_image_surface_get_height(surface);
    int stride = cairo_image_surface_get_stride(surface);
    const uint8_t *rows = cairo_image_surface_get_data(surface);
    int fd = memfd_create("perch-svg-icon", MFD_CLOEXEC);
    if (fd < 0) return answer_error(ticket, "cannot hand the image over (memfd_create)");
    size_t row_bytes = (size_t)width * 4;
    uint8_t *row = malloc(row_bytes);
    bool written = row != NULL;
    for (int y = 0; written && y < height; y++) {
        const uint32_t *words = (const uint32_t *)(rows + (size_t)y * (size_t)stride);
        for (int x = 0; x < width; x++) put32(row + (size_t)x * 4, words[x]);
        written = pwrite(fd, row, row_bytes, (off_t)(row_bytes * (size_t)y)) == (ssize_t)row_bytes;
    }
    free(row);
    bool sent = written ? send_frame(PERCH_SVG_REPLY_IMAGE, ticket, (uint32_t)width, (uint32_t)height, NULL, fd)
                        : answer_error(ticket, "cannot hand the image over (write)");
    close(fd);
    return sent;
}

// The CPU time this process has used, whole seconds rounded up.
static rlim_t cpu_seconds_used(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
    return (rlim_t)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + 1);
}

// One request: checks it, renders, answers. False when the channel is gone.
static bool serve_request(const uint8_t *frame, long length, int fd) {
    uint32_t ticket = length >= 8 ? get32(frame + 4) : 0;
    char message[256] = {0};
    if (length != PERCH_SVG_FRAME_BYTES || get32(frame) != PERCH_SVG_REQUEST) {
        return answer_error(ticket, "a request the daemon should not have sent");
    }
    uint32_t box = get32(frame + 8), size = get32(frame + 12);
    struct stat info;
    if (box < 1 || box > PERCH_SVG_MAX_BOX) return answer_error(ticket, "a box out of range");
    if (fd < 0 || fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size != (off_t)size ||
        size > max_document) {
        return answer_error(ticket, "the document did not come with the request");
    }
    uint8_t *document = malloc(size ? size : 1);
    if (!document || pread(fd, document, size, 0) != (ssize_t)size) {
        free(document);
        return answer_error(ticket, "cannot read the document");
    }
    struct rlimit cpu = {cpu_seconds_used() + render_cpu_seconds, RLIM_INFINITY};
    setrlimit(RLIMIT_CPU, &cpu);
    alarm(render_alarm_seconds);
    cairo_surface_t *surface = render(document, size, (int)box, message, sizeof message);
    alarm(0);
    if (!surface) return answer_error(ticket, message);
    bool sent = answer_image(ticket, surface);
    cairo_surface_destroy(surface);
    return sent;
}

static int serve(void) {
    // librsvg's and Rust's complaints about a hostile file would end up in
    // the daemon's journal; what matters goes back in the answers.
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null >= 0) dup2(null, STDERR_FILENO);
    struct rlimit space = {address_space, address_space};
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_AS, &space);
    setrlimit(RLIMIT_CORE, &core);
    // Loaded now, while the daemon draws the toast the first icon is for.
    char message[256];
    (void)perch_svg_available(message, sizeof message);

    int renders = 0;
    while (renders < max_renders) {
        struct pollfd input = {.fd = STDIN_FILENO, .events = POLLIN};
        int ready = poll(&input, 1, idle_exit_ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) return 1;
        if (ready == 0) break;  // idle
        uint8_t frame[64];
        int fd;
        long got = perch_receive_message(STDIN_FILENO, frame, sizeof frame, &fd);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got <= 0) return 0;  // The daemon closed its end, or is gone.
        // A longer message is cut (a return of the size + 1): not a request.
        bool kept = serve_request(frame, got > (long)sizeof frame ? -1 : got, fd);
        if (fd >= 0) close(fd);
        if (!kept) return 0;
        renders++;
    }
    send_frame(PERCH_SVG_GOODBYE, 0, 0, 0, NULL, -1);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "--serve") == 0) return serve();
    int box = argc == 2 ? atoi(argv[1]) : 0;
    if (box < 1 || box > PERCH_SVG_MAX_BOX) return fail("usage: perch-svg BOX < document | perch-svg --serve");
    return run_once(box);
}
