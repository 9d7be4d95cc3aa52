// A damaged Ogg file (a good start, then garbage) plays without a word:
// libvorbisfile skips what is not a page, plays the good part, and
// libcanberra reports success. Each Ogg page carries a CRC-32 of itself,
// so walking the pages tells a whole file from a damaged one, in one read
// of the file (at most the 16 MB the helper accepts) and no decoding.
//
// A page (RFC 3533, section 6): "OggS", version 0, a header type byte, the
// granule position (8 bytes), the stream serial (4), the page sequence
// (4), the CRC (4), the number of segments (1), the segment table (one
// length byte per segment), then the segments. The CRC is the
// non-reflected CRC-32 with polynomial 0x04c11db7, initial value 0 and
// no final inversion, taken over the whole page with its CRC field zero.
#include "ogg-pages.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { header_size = 27, largest_page = header_size + 255 + 255 * 255 };

static uint32_t crc_table[256];

static void make_crc_table(void) {
    for (uint32_t byte = 0; byte < 256; byte++) {
        uint32_t crc = byte << 24;
        for (int bit = 0; bit < 8; bit++) crc = crc & 0x80000000u ? crc << 1 ^ 0x04c11db7u : crc << 1;
        crc_table[byte] = crc;
    }
}

static uint32_t crc_of(const uint8_t *bytes, size_t length) {
    uint32_t crc = 0;
    for (size_t i = 0; i < length; i++) crc = crc << 8 ^ crc_table[(crc >> 24 ^ bytes[i]) & 0xff];
    return crc;
}

// Reads exactly `length` bytes at `offset`; false at a short read.
static bool read_at(int fd, uint8_t *into, size_t length, off_t offset) {
    size_t done = 0;
    while (done < length) {
        ssize_t got = pread(fd, into + done, length - done, offset + (off_t)done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        done += (size_t)got;
    }
    return true;
}

bool ogg_looks_like_ogg(int fd) {
    uint8_t start[4];
    return read_at(fd, start, sizeof start, 0) && memcmp(start, "OggS", 4) == 0;
}

bool ogg_pages_intact(int fd, off_t size, char *why, size_t why_size) {
    if (crc_table[1] == 0) make_crc_table();
    static uint8_t page[largest_page];
    off_t at = 0;
    long long pages = 0;
    while (at < size) {
        const char *problem = NULL;
        if (size - at < header_size || !read_at(fd, page, header_size, at)) {
            problem = "the file ends inside a page header";
        } else if (memcmp(page, "OggS", 4) != 0) {
            problem = "bytes that are not an Ogg page";
        } else if (page[4] != 0) {
            problem = "a page of an unknown Ogg version";
        } else {
            size_t segments = page[26];
            size_t length = header_size + segments;
            if (!read_at(fd, page + header_size, segments, at + header_size)) {
                problem = "the file ends inside a page's segment table";
            } else {
                for (size_t i = 0; i < segments; i++) length += page[header_size + i];
                if ((off_t)length > size - at
                    || !read_at(fd, page + header_size + segments, length - header_size - segments,
                                at + header_size + (off_t)segments)) {
                    problem = "the file ends inside a page";
                } else {
                    uint32_t stored = (uint32_t)page[22] | (uint32_t)page[23] << 8 | (uint32_t)page[24] << 16
                        | (uint32_t)page[25] << 24;
                    memset(page + 22, 0, 4);
                    if (crc_of(page, length) != stored) problem = "a page whose checksum is wrong";
                }
            }
            if (!problem) {
                at += (off_t)length;
                pages++;
                continue;
            }
        }
        snprintf(why, why_size, "a damaged Ogg file: at byte %lld, after %lld good page%s, %s", (long long)at,
                 pages, pages == 1 ? "" : "s", problem);
        return false;
    }
    return true;
}
