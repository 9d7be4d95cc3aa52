// What the perch-svg helper writes on stdout, read by isolate.c: one
// header, then either width × height native-endian Cairo ARGB32 words
// (rows packed) or `width` bytes of error message. Both ends are built
// together, so the layout is the compiler's.
#ifndef PERCH_SVG_PROTOCOL_H
#define PERCH_SVG_PROTOCOL_H

#include <stdint.h>

enum {
    PERCH_SVG_REPLY_IMAGE = 0x49475653,  // "SVGI" in memory on little-endian
    PERCH_SVG_REPLY_ERROR = 0x45475653,  // "SVGE"
};

typedef struct {
    uint32_t magic;
    int32_t width;   // for an error: the message's length
    int32_t height;
} PerchSVGReplyHeader;

// Exit codes of the helper that mean it never got to librsvg.
enum {
    PERCH_SVG_EXIT_SETUP = 124,
    PERCH_SVG_EXIT_EXEC = 127,
};

#endif
