#define _GNU_SOURCE
#include "CJPEG.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
// jpeglib.h needs size_t and FILE declared first.
#include <jerror.h>
#include <jpeglib.h>

// libjpeg-turbo's soname for the libjpeg 6b ABI that jpeglib.h describes
// (JPEG_LIB_VERSION 62); the struct layout below must match it.
static const char library_name[] = "libjpeg.so.62";

// A progressive JPEG can hold thousands of tiny scans, each a full pass
// over the image; djpeg -maxscans is the same defence.
enum { max_scans = 256 };
// Bounds the whole-image coefficient buffers of progressive files (the
// one allocation that grows with the image rather than with a row).
static const long max_memory = 64L << 20;

static struct {
    __typeof__(&jpeg_std_error) std_error;
    __typeof__(&jpeg_CreateDecompress) create_decompress;
    __typeof__(&jpeg_destroy_decompress) destroy_decompress;
    __typeof__(&jpeg_mem_src) mem_src;
    __typeof__(&jpeg_read_header) read_header;
    __typeof__(&jpeg_calc_output_dimensions) calc_output_dimensions;
    __typeof__(&jpeg_start_decompress) start_decompress;
    __typeof__(&jpeg_read_scanlines) read_scanlines;
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static bool loaded;
static char load_error[256];
// Where the library was loaded, to find its segments again.
static ElfW(Addr) library_base;
static bool releasable;

// Whether the library's code was patched in memory when it was loaded
// (text relocations): its read-only pages would then not be the file's.
static bool has_text_relocations(const ElfW(Dyn) *dynamic) {
    for (; dynamic && dynamic->d_tag != DT_NULL; dynamic++) {
        if (dynamic->d_tag == DT_TEXTREL) return true;
        if (dynamic->d_tag == DT_FLAGS && (dynamic->d_un.d_val & DF_TEXTREL)) return true;
    }
    return false;
}

static int release_segments(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    if (info->dlpi_addr != library_base) return 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD || (segment->p_flags & PF_W)) continue;
        // Whole pages inside the segment only: a page shared with a
        // writable neighbour must keep its contents.
        uintptr_t start = (info->dlpi_addr + segment->p_vaddr + page - 1) & ~(page - 1);
        uintptr_t end = (info->dlpi_addr + segment->p_vaddr + segment->p_memsz) & ~(page - 1);
        if (end > start) madvise((void *)start, end - start, MADV_DONTNEED);
    }
    return 1;
}

// Gives back the pages of libjpeg's code and tables that a decode touched,
// about 540 KB of Pss that would otherwise stay resident in an idle daemon
// after its first JPEG. They are read-only views of the file, so the next
// decode faults them in again from the page cache (some 150 minor faults,
// tens of microseconds); the writable pages (relocations, data) are kept.
static void release_library_pages(void) {
    if (releasable) dl_iterate_phdr(release_segments, NULL);
}

static void load(void) {
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "JPEG needs %s (Debian: libjpeg62-turbo): %s",
                 library_name, reason ? reason : "cannot be opened");
        return;
    }
    struct { void **slot; const char *name; } symbols[] = {
        {(void **)&api.std_error, "jpeg_std_error"},
        {(void **)&api.create_decompress, "jpeg_CreateDecompress"},
        {(void **)&api.destroy_decompress, "jpeg_destroy_decompress"},
        {(void **)&api.mem_src, "jpeg_mem_src"},
        {(void **)&api.read_header, "jpeg_read_header"},
        {(void **)&api.calc_output_dimensions, "jpeg_calc_output_dimensions"},
        {(void **)&api.start_decompress, "jpeg_start_decompress"},
        {(void **)&api.read_scanlines, "jpeg_read_scanlines"},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (!*symbols[i].slot) {
            snprintf(load_error, sizeof load_error, "%s has no %s (libjpeg-turbo is needed)",
                     library_name, symbols[i].name);
            return;
        }
    }
    struct link_map *map = NULL;
    if (dlinfo(library, RTLD_DI_LINKMAP, &map) == 0 && map) {
        library_base = map->l_addr;
        releasable = !has_text_relocations(map->l_ld);
    }
    loaded = true;
}

bool perch_jpeg_available(char *message, size_t size) {
    pthread_once(&load_once, load);
    if (!loaded && message && size > 0) snprintf(message, size, "%s", load_error);
    return loaded;
}

struct PerchJPEG {
    struct jpeg_decompress_struct decompress;
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    // Where a libjpeg error returns to: set by each function below before
    // it calls into libjpeg, so it always points at a live frame.
    jmp_buf recover;
    char message[JMSG_LENGTH_MAX];
    bool created;
};

static void fail(j_common_ptr common) {
    PerchJPEG *jpeg = common->client_data;
    common->err->format_message(common, jpeg->message);
    longjmp(jpeg->recover, 1);
}

// Warnings are printed to stderr and ignored by default. Most are harmless
// (stray bytes before a marker), but running out of data means libjpeg
// would pad the picture with grey and call it decoded.
static void warn(j_common_ptr common, int level) {
    if (level < 0 && (common->err->msg_code == JWRN_JPEG_EOF || common->err->msg_code == JWRN_HIT_MARKER)) {
        fail(common);
    }
}

static void quiet(j_common_ptr common) { (void)common; }

static void count_scans(j_common_ptr common) {
    j_decompress_ptr decompress = (j_decompress_ptr)common;
    if (decompress->input_scan_number > max_scans) {
        PerchJPEG *jpeg = common->client_data;
        snprintf(jpeg->message, sizeof jpeg->message, "more than %d progressive scans", max_scans);
        longjmp(jpeg->recover, 1);
    }
}

static void copy_message(const PerchJPEG *jpeg, char *message, size_t size) {
    if (message && size > 0) snprintf(message, size, "%s", jpeg->message[0] ? jpeg->message : "unknown error");
}

PerchJPEG *perch_jpeg_open(const uint8_t *data, size_t length, char *message, size_t size) {
    if (!loaded) {
        if (message && size > 0) snprintf(message, size, "libjpeg is not loaded");
        return NULL;
    }
    PerchJPEG *jpeg = calloc(1, sizeof *jpeg);
    if (!jpeg) {
        if (message && size > 0) snprintf(message, size, "out of memory");
        return NULL;
    }
    jpeg->decompress.err = api.std_error(&jpeg->errors);
    jpeg->errors.error_exit = fail;
    jpeg->errors.emit_message = warn;
    jpeg->errors.output_message = quiet;
    jpeg->decompress.client_data = jpeg;
    if (setjmp(jpeg->recover)) {
        copy_message(jpeg, message, size);
        perch_jpeg_close(jpeg);
        return NULL;
    }
    api.create_decompress(&jpeg->decompress, JPEG_LIB_VERSION, sizeof jpeg->decompress);
    jpeg->created = true;
    // create_decompress clears the struct but for err; set these after it.
    jpeg->decompress.client_data = jpeg;
    jpeg->decompress.mem->max_memory_to_use = max_memory;
    jpeg->progress.progress_monitor = count_scans;
    jpeg->decompress.progress = &jpeg->progress;
    api.mem_src(&jpeg->decompress, data, (unsigned long)length);
    api.read_header(&jpeg->decompress, TRUE);
    return jpeg;
}

PerchJPEGInfo perch_jpeg_info(PerchJPEG *jpeg) {
    const struct jpeg_decompress_struct *d = &jpeg->decompress;
    PerchJPEGInfo info = {
        .width = (int)d->image_width,
        .height = (int)d->image_height,
        .outputWidth = (int)d->output_width,
        .outputHeight = (int)d->output_height,
    };
    switch (d->jpeg_color_space) {
    case JCS_GRAYSCALE: info.colorSpace = PERCH_JPEG_GRAY; break;
    case JCS_YCbCr: case JCS_RGB: info.colorSpace = PERCH_JPEG_COLOR; break;
    case JCS_CMYK: case JCS_YCCK: info.colorSpace = PERCH_JPEG_CMYK; break;
    default: info.colorSpace = PERCH_JPEG_OTHER; break;
    }
    return info;
}

static J_COLOR_SPACE output_space(const struct jpeg_decompress_struct *d) {
    if (d->jpeg_color_space == JCS_CMYK || d->jpeg_color_space == JCS_YCCK) return JCS_CMYK;
    // Cairo's ARGB32 is a native-endian 32-bit word, alpha in the top byte.
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return JCS_EXT_BGRA;
#else
    return JCS_EXT_ARGB;
#endif
}

bool perch_jpeg_scale_for(PerchJPEG *jpeg, int longSide, char *message, size_t size) {
    if (setjmp(jpeg->recover)) {
        copy_message(jpeg, message, size);
        return false;
    }
    struct jpeg_decompress_struct *d = &jpeg->decompress;
    d->out_color_space = output_space(d);
    d->scale_num = 1;
    d->scale_denom = 1;
    unsigned long longest = d->image_width > d->image_height ? d->image_width : d->image_height;
    for (unsigned denom = 8; denom > 1; denom /= 2) {
        if (longest / denom >= (unsigned long)(longSide > 0 ? longSide : 1)) {
            d->scale_denom = denom;
            break;
        }
    }
    api.calc_output_dimensions(d);
    return true;
}

// CMYK JPEGs as Photoshop writes them (with an Adobe marker) store each
// ink inverted; others store it as is. No colour profile is applied.
static void cmyk_row_to_argb(const JSAMPLE *cmyk, uint32_t *argb, JDIMENSION width, bool inverted) {
    for (JDIMENSION x = 0; x < width; x++, cmyk += 4) {
        unsigned c = cmyk[0], m = cmyk[1], y = cmyk[2], k = cmyk[3];
        if (!inverted) {
            c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
        }
        uint32_t r = (c * k + 127) / 255, g = (m * k + 127) / 255, b = (y * k + 127) / 255;
        argb[x] = 0xFF000000u | r << 16 | g << 8 | b;
    }
}

bool perch_jpeg_decode(PerchJPEG *jpeg, uint8_t *pixels, size_t stride, char *message, size_t size) {
    struct jpeg_decompress_struct *d = &jpeg->decompress;
    // volatile: changed between setjmp and a longjmp that may follow.
    JSAMPLE *volatile cmyk_row = NULL;
    if (setjmp(jpeg->recover)) {
        free(cmyk_row);
        copy_message(jpeg, message, size);
        return false;
    }
    if (d->out_color_space != output_space(d)) {
        d->out_color_space = output_space(d);
        api.calc_output_dimensions(d);
    }
    api.start_decompress(d);
    bool cmyk = d->out_color_space == JCS_CMYK;
    if (cmyk) {
        cmyk_row = malloc((size_t)d->output_width * 4);
        if (!cmyk_row) {
            snprintf(jpeg->message, sizeof jpeg->message, "out of memory");
            longjmp(jpeg->recover, 1);
        }
    }
    while (d->output_scanline < d->output_height) {
        uint8_t *row = pixels + (size_t)d->output_scanline * stride;
        JSAMPROW target = cmyk ? cmyk_row : row;
        if (api.read_scanlines(d, &target, 1) != 1) {
            snprintf(jpeg->message, sizeof jpeg->message, "no scanline decoded");
            longjmp(jpeg->recover, 1);
        }
        if (cmyk) cmyk_row_to_argb(cmyk_row, (uint32_t *)(void *)row, d->output_width, d->saw_Adobe_marker);
    }
    free(cmyk_row);
    // Not jpeg_finish_decompress: the pixels are all here, and reading on
    // to the end marker would only fail on trailing junk.
    return true;
}

void perch_jpeg_close(PerchJPEG *jpeg) {
    if (!jpeg) return;
    if (jpeg->created) api.destroy_decompress(&jpeg->decompress);
    free(jpeg);
    release_library_pages();
}
