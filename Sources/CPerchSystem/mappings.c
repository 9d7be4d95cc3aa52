// Giving back the pages of read-only file mappings (perch_release_file_pages).
//
// A daemon that has finished starting up, or has had nothing to do for a
// while, still maps every page of code and read-only data it ever ran or
// read: its own binary's and every library's (the kernel maps them in
// 64 KB windows, or whole large folios, around each page touched), the
// font files and fontconfig's caches. None of that is the daemon's own
// memory: the pages belong to the page cache and are mapped again, from
// there, by the next instruction or read that needs them. madvise
// MADV_DONTNEED on such a mapping takes them out of this process's page
// tables (and out of its RSS and Pss), as memory pressure would.
//
// It is only safe where no page of the mapping is a private copy: a
// private mapping that was written to before it became read-only (a
// library's RELRO after relocation) or a text page a debugger or uprobe
// patched holds anonymous pages, which MADV_DONTNEED would throw away
// (the next access would read the unrelocated file). So every candidate
// mapping is read in /proc/self/pagemap first, and one with any page that
// is present and not a file page is left alone. Writable mappings, device
// files and anonymous memory are never candidates.
#define _GNU_SOURCE
#include "CPerchSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// /proc/self/maps is read whole into one buffer of at most this size; a
// process with more mappings than fit (~20 000) has the rest left alone.
enum { maps_limit = 2 << 20 };
// pagemap entries read per pread (8 bytes each), on the stack: a static
// buffer would keep its pages resident for good.
enum { pagemap_batch = 512 };

#define PAGEMAP_PRESENT (1ULL << 63)
#define PAGEMAP_SWAPPED (1ULL << 62)
#define PAGEMAP_FILE (1ULL << 61)

static char *read_maps(size_t *length) {
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    size_t capacity = 64 * 1024, used = 0;
    char *text = malloc(capacity + 1);
    while (text) {
        if (used == capacity) {
            if (capacity >= maps_limit) break;
            capacity *= 2;
            char *grown = realloc(text, capacity + 1);
            if (!grown) {
                free(text);
                text = NULL;
                break;
            }
            text = grown;
        }
        ssize_t got = read(fd, text + used, capacity - used);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        used += (size_t)got;
    }
    close(fd);
    if (text) {
        text[used] = 0;
        *length = used;
    }
    return text;
}

// What /proc/self/pagemap says of the pages of [start, end).
enum pages { pages_private, pages_file, pages_none };

// pages_private when a page is present (or swapped) and not a page of the
// file — also when pagemap cannot say; else pages_file when some page is
// present, pages_none when none is (nothing to give back).
static enum pages page_kinds(int pagemap, uintptr_t start, uintptr_t end, long page) {
    uint64_t entries[pagemap_batch];
    int present = 0;
    for (uintptr_t address = start; address < end;) {
        size_t count = (end - address) / (uintptr_t)page;
        if (count > pagemap_batch) count = pagemap_batch;
        off_t offset = (off_t)(address / (uintptr_t)page) * (off_t)sizeof(uint64_t);
        ssize_t got = pread(pagemap, entries, count * sizeof(uint64_t), offset);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0 || got % (ssize_t)sizeof(uint64_t) != 0) return pages_private;
        size_t read_count = (size_t)got / sizeof(uint64_t);
        for (size_t i = 0; i < read_count; i++) {
            uint64_t entry = entries[i];
            if (!(entry & (PAGEMAP_PRESENT | PAGEMAP_SWAPPED))) continue;
            if (!(entry & PAGEMAP_FILE)) return pages_private;
            present = 1;
        }
        address += read_count * (uintptr_t)page;
    }
    return present ? pages_file : pages_none;
}

// Reads a hexadecimal number at *text, moving past it.
static uintptr_t hex(const char **text) {
    uintptr_t value = 0;
    for (;; (*text)++) {
        char c = **text;
        if (c >= '0' && c <= '9') value = value * 16 + (uintptr_t)(c - '0');
        else if (c >= 'a' && c <= 'f') value = value * 16 + (uintptr_t)(c - 'a' + 10);
        else return value;
    }
}

// Moves *text past the next run of spaces after a field.
static void next_field(const char **text) {
    while (**text && **text != ' ') (*text)++;
    while (**text == ' ') (*text)++;
}

int perch_release_file_pages(struct perch_release_summary *summary) {
    memset(summary, 0, sizeof *summary);
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) return -EINVAL;
    size_t length = 0;
    errno = 0;
    char *maps = read_maps(&length);
    if (!maps) return errno ? -errno : -ENOMEM;
    int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (pagemap < 0) {
        int error = errno;
        free(maps);
        return -error;
    }
    char *line = maps;
    while (line < maps + length) {
        char *next = strchr(line, '\n');
        if (next) *next = 0;
        // start-end perms offset dev inode [path]; parsed by hand, a line
        // at a time (sscanf cost more than the madvise calls).
        const char *field = line;
        uintptr_t start = hex(&field);
        uintptr_t end = *field == '-' ? (field++, hex(&field)) : 0;
        while (*field == ' ') field++;
        int readable = field[0] == 'r', writable = field[1] == 'w';
        next_field(&field);  // to offset
        next_field(&field);  // to dev
        next_field(&field);  // to inode
        int has_inode = *field != '0' && *field != 0;
        next_field(&field);  // to path
        const char *path = field;
        if (readable && !writable && has_inode && path[0] == '/' && strncmp(path, "/dev/", 5) != 0 &&
            end > start) {
            switch (page_kinds(pagemap, start, end, page)) {
            case pages_private:
                summary->kept++;
                break;
            case pages_none:
                break;
            case pages_file:
                if (madvise((void *)start, end - start, MADV_DONTNEED) == 0) {
                    summary->released++;
                } else {
                    summary->failed++;
                }
                break;
            }
        }
        if (!next) break;
        line = next + 1;
    }
    close(pagemap);
    free(maps);
    return 0;
}
