// What the perch-svg helper and the daemon say to each other.
//
// One-shot (`perch-svg BOX < document`, run by isolate.c for tests and
// tools): one reply header on stdout, then either width × height
// native-endian Cairo ARGB32 words (rows packed) or `width` bytes of error
// message. Both ends are built together, so the layout is the compiler's.
//
// Serving (`perch-svg --serve`, the daemon's warm helper): stdin and stdout
// are one SOCK_SEQPACKET socket, so each message is one frame. Every field
// is a 32-bit little-endian word, whatever the machine (the daemon's side
// is Swift, PerchCore's SVGHelperWire, pinned by its tests):
//   request  "SVGQ" ticket box length, with the document in a memfd
//            (SCM_RIGHTS) of exactly `length` bytes;
//   image    "SVGI" ticket width height, with the pixels in a memfd of
//            width × height × 4 bytes (Cairo ARGB32 words, little-endian,
//            rows packed);
//   error    "SVGE" ticket length 0, then `length` bytes of message (at
//            most 255) in the same frame;
//   goodbye  "SVGB" 0 0 0: the helper leaves (idle, or served enough) and
//            reads no more requests; one sent and not answered is to be
//            sent again to the next helper.
// One answer per request, in order; the daemon sends one at a time.
#ifndef PERCH_SVG_PROTOCOL_H
#define PERCH_SVG_PROTOCOL_H

#include <stdint.h>

enum {
    PERCH_SVG_REPLY_IMAGE = 0x49475653,  // "SVGI" in memory on little-endian
    PERCH_SVG_REPLY_ERROR = 0x45475653,  // "SVGE"
    PERCH_SVG_REQUEST = 0x51475653,      // "SVGQ"
    PERCH_SVG_GOODBYE = 0x42475653,      // "SVGB"
};

typedef struct {
    uint32_t magic;
    int32_t width;   // for an error: the message's length
    int32_t height;
} PerchSVGReplyHeader;

// A serving frame's four words (see above), 16 bytes on the wire.
enum { PERCH_SVG_FRAME_BYTES = 16, PERCH_SVG_MAX_MESSAGE = 255 };

// Exit codes of the helper that mean it never got to librsvg.
enum {
    PERCH_SVG_EXIT_SETUP = 124,
    PERCH_SVG_EXIT_EXEC = 127,
};

#endif
