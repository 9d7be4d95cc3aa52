// The Ogg container's own check of a sound file (see ogg-pages.c).
#pragma once
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

// Whether the `size` bytes of `fd` are Ogg pages from the first byte to the
// last, each with a correct checksum. False with a reason in `why` when
// not: the byte where the damage starts, and what is wrong there.
bool ogg_pages_intact(int fd, off_t size, char *why, size_t why_size);

// Whether the file starts as an Ogg file does ("OggS").
bool ogg_looks_like_ogg(int fd);
