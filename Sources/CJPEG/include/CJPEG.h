// libjpeg-turbo, loaded with dlopen the first time a JPEG icon is drawn,
// behind an error handler that returns instead of exiting.
//
// libjpeg reports errors through a callback that must not return; its
// default calls exit(). Here it longjmps back into the C function that
// called libjpeg, which then fails with the message, so no libjpeg error
// ever crosses into Swift (longjmp over Swift frames is undefined).
//
// Loaded on the first JPEG: it is not otherwise in Perch's process, and
// few notifications carry JPEGs. Each perch_jpeg_close() hands the pages
// of libjpeg's code and tables back (jpeg.c), so an idle daemon does not
// keep them resident after a JPEG. Separate PerchJPEG values may be used
// from separate threads.
#ifndef PERCH_CJPEG_H
#define PERCH_CJPEG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// A decompressor over a JPEG held in memory (which must outlive it).
typedef struct PerchJPEG PerchJPEG;

// Opens libjpeg.so.62 once per process. False when it is missing, with
// the reason in `message` (NUL-terminated, cut to `size`).
bool perch_jpeg_available(char *message, size_t size);

typedef enum {
    PERCH_JPEG_GRAY,
    PERCH_JPEG_COLOR,  // YCbCr or RGB
    PERCH_JPEG_CMYK,   // CMYK or YCCK, converted without a colour profile
    PERCH_JPEG_OTHER,  // refused
} PerchJPEGColorSpace;

typedef struct {
    // The image's size as stored, in pixels.
    int width, height;
    // The size perch_jpeg_decode writes, after perch_jpeg_scale_for.
    int outputWidth, outputHeight;
    PerchJPEGColorSpace colorSpace;
} PerchJPEGInfo;

// Reads the headers (up to the first scan): the size is known before any
// pixel is decoded. NULL on error, with libjpeg's message.
PerchJPEG *perch_jpeg_open(const uint8_t *data, size_t length, char *message, size_t size);

PerchJPEGInfo perch_jpeg_info(PerchJPEG *jpeg);

// Lets libjpeg decode at 1/2, 1/4 or 1/8 of the size (in its DCT, far
// cheaper than decoding in full and scaling down) while the longer side
// stays at least `longSide` pixels. Updates the output size in the info.
bool perch_jpeg_scale_for(PerchJPEG *jpeg, int longSide, char *message, size_t size);

// Decodes into `pixels`, outputWidth × outputHeight Cairo ARGB32 words
// (opaque, so premultiplied as they are), `stride` bytes per row. A file
// that ends early is an error, not an image padded with grey.
bool perch_jpeg_decode(PerchJPEG *jpeg, uint8_t *pixels, size_t stride, char *message, size_t size);

void perch_jpeg_close(PerchJPEG *jpeg);

#endif
