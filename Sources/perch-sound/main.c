// perch-sound: plays the daemon's notification sounds through libcanberra.
//
// Started by the daemon on the first sound (SoundOutput.swift) with its
// requests on stdin and its reports on stdout; it exits when stdin closes
// or after a while with nothing to play, so that libcanberra, libpulse and
// the decoders (about 3 MB) never sit in an idle daemon, and a hostile
// file can only take this process down. Not meant to be run by hand, but
// harmless to.
//
// A request is four NUL-terminated fields: the notification id, the
// volume in percent, "cache" or "once", and the absolute path. Reports
// are lines:
//   played ID                 the sound ended (or was cut at the limit)
//   refused ID REASON         the file may not be played (not a regular
//                             file, too large, in /proc, unreadable, an
//                             Ogg file whose pages are damaged)
//   failed ID REASON          libcanberra could not play it
//   server REASON             no sound server could be reached
//   library REASON            libcanberra is missing
//
// The file is opened here, with O_NONBLOCK (a FIFO cannot hang us),
// checked by fstat and fstatfs, and handed to libcanberra as
// /proc/self/fd/N: what is played is what was checked, even if the path
// is changed meanwhile.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "ogg-pages.h"

// The part of libcanberra's API (canberra.h, 0.30) used here, declared
// from its documentation: the library is opened with dlopen, so no
// headers are needed to build Perch.
typedef struct ca_context ca_context;
typedef struct ca_proplist ca_proplist;
typedef void (*ca_finish_callback_t)(ca_context *c, uint32_t id, int error_code, void *userdata);

static struct {
    int (*context_create)(ca_context **c);
    int (*context_set_driver)(ca_context *c, const char *driver);
    int (*context_open)(ca_context *c);
    int (*context_destroy)(ca_context *c);
    int (*context_change_props_full)(ca_context *c, ca_proplist *p);
    int (*context_play_full)(ca_context *c, uint32_t id, ca_proplist *p, ca_finish_callback_t cb, void *userdata);
    int (*context_cancel)(ca_context *c, uint32_t id);
    int (*proplist_create)(ca_proplist **p);
    int (*proplist_destroy)(ca_proplist *p);
    int (*proplist_sets)(ca_proplist *p, const char *key, const char *value);
    const char *(*strerror)(int code);
} ca;

enum { CA_SUCCESS = 0, CA_ERROR_CANCELED = -11 };

// Larger sound files are refused unread: an event sound is a few hundred
// kilobytes (the freedesktop theme's largest is 150 KB).
static const off_t max_file = 16 << 20;
// A sound still playing after this is cut: a sender cannot keep the
// speakers busy with an hour of audio.
static const long long max_duration_ms = 10000;
// Nothing to play for this long: exit, and give the memory back.
static const long long idle_exit_ms = 30000;
// procfs and sysfs files claim to be regular files; none is a sound.
#define PROC_MAGIC 0x9fa0
#define SYSFS_MAGIC 0x62656572

static ca_context *context;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// What is playing, to cut what runs too long. Guarded by `lock` (the
// finish callback runs on libcanberra's thread).
enum { max_playing = 8 };
static struct { uint32_t id; long long started; } playing[max_playing];
static int playing_count;

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

// One report line; newlines in the reason become spaces. Under `lock`,
// so lines from the two threads never interleave.
__attribute__((format(printf, 1, 2)))
static void report(const char *format, ...) {
    char line[512];
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(line, sizeof line - 1, format, arguments);
    va_end(arguments);
    if (length < 0) return;
    if (length > (int)sizeof line - 2) length = (int)sizeof line - 2;
    for (int i = 0; i < length; i++) if (line[i] == '\n' || line[i] == '\r') line[i] = ' ';
    line[length++] = '\n';
    pthread_mutex_lock(&lock);
    const char *next = line;
    while (length > 0) {
        ssize_t done = write(STDOUT_FILENO, next, (size_t)length);
        if (done < 0 && errno == EINTR) continue;
        if (done <= 0) break;
        next += done;
        length -= (int)done;
    }
    pthread_mutex_unlock(&lock);
}

static bool load_library(void) {
    void *library = dlopen("libcanberra.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        report("library libcanberra.so.0 could not be loaded (install libcanberra0 and libcanberra-pulse): %s",
               dlerror());
        return false;
    }
    struct { void **slot; const char *name; } symbols[] = {
        {(void **)&ca.context_create, "ca_context_create"},
        {(void **)&ca.context_set_driver, "ca_context_set_driver"},
        {(void **)&ca.context_open, "ca_context_open"},
        {(void **)&ca.context_destroy, "ca_context_destroy"},
        {(void **)&ca.context_change_props_full, "ca_context_change_props_full"},
        {(void **)&ca.context_play_full, "ca_context_play_full"},
        {(void **)&ca.context_cancel, "ca_context_cancel"},
        {(void **)&ca.proplist_create, "ca_proplist_create"},
        {(void **)&ca.proplist_destroy, "ca_proplist_destroy"},
        {(void **)&ca.proplist_sets, "ca_proplist_sets"},
        {(void **)&ca.strerror, "ca_strerror"},
    };
    for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
        *symbols[i].slot = dlsym(library, symbols[i].name);
        if (!*symbols[i].slot) {
            report("library libcanberra.so.0 has no %s", symbols[i].name);
            return false;
        }
    }
    return true;
}

// The context, opened on the first sound and again after the server went
// away. PulseAudio's protocol serves PipeWire too (pipewire-pulse).
static bool open_context(void) {
    if (context) return true;
    int error = ca.context_create(&context);
    if (error != CA_SUCCESS) {
        report("server libcanberra could not start: %s", ca.strerror(error));
        context = NULL;
        return false;
    }
    ca.context_set_driver(context, "pulse");
    ca_proplist *properties = NULL;
    if (ca.proplist_create(&properties) == CA_SUCCESS) {
        ca.proplist_sets(properties, "application.name", "Perch");
        ca.proplist_sets(properties, "application.id", "org.perch.Perch");
        ca.proplist_sets(properties, "application.icon_name", "preferences-system-notifications");
        ca.context_change_props_full(context, properties);
        ca.proplist_destroy(properties);
    }
    error = ca.context_open(context);
    if (error != CA_SUCCESS) {
        report("server no sound server answered: %s", ca.strerror(error));
        ca.context_destroy(context);
        context = NULL;
        return false;
    }
    return true;
}

static void forget_playing(uint32_t id) {
    for (int i = 0; i < playing_count; i++) {
        if (playing[i].id == id) {
            playing[i] = playing[--playing_count];
            return;
        }
    }
}

static void finished(ca_context *c, uint32_t id, int error, void *userdata) {
    (void)c;
    (void)userdata;
    pthread_mutex_lock(&lock);
    forget_playing(id);
    pthread_mutex_unlock(&lock);
    if (error == CA_SUCCESS || error == CA_ERROR_CANCELED) {
        report("played %u", id);
    } else {
        report("failed %u %s", id, ca.strerror(error));
    }
}

static const char *kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// Opens `path` for libcanberra; -1 after reporting why not.
static int open_checked(uint32_t id, const char *path) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        report("refused %u %s", id, strerror(errno));
        return -1;
    }
    struct stat info;
    struct statfs where;
    const char *problem = NULL;
    char size[64], damage[160];
    if (fstat(fd, &info) != 0) {
        problem = strerror(errno);
    } else if (!S_ISREG(info.st_mode)) {
        problem = kind_of(info.st_mode);
    } else if (fstatfs(fd, &where) == 0 && (where.f_type == PROC_MAGIC || where.f_type == SYSFS_MAGIC)) {
        problem = "a file of /proc or /sys, not a sound";
    } else if (info.st_size == 0) {
        problem = "an empty file";
    } else if (info.st_size > max_file) {
        snprintf(size, sizeof size, "%lld bytes, more than %lld", (long long)info.st_size, (long long)max_file);
        problem = size;
    } else if (ogg_looks_like_ogg(fd) && !ogg_pages_intact(fd, info.st_size, damage, sizeof damage)) {
        // libcanberra would play the good pages and say nothing of the rest.
        problem = damage;
    }
    if (problem) {
        report("refused %u %s", id, problem);
        close(fd);
        return -1;
    }
    return fd;
}

// The name the server keeps a cached sound under: sample names may hold
// only letters, digits and "-_.", so the path's hash and its file name.
static void cache_key(const char *path, char *key, size_t size) {
    uint64_t hash = 0xcbf29ce484222325u;  // FNV-1a
    for (const char *c = path; *c; c++) hash = (hash ^ (uint8_t)*c) * 0x100000001b3u;
    const char *name = strrchr(path, '/');
    int length = snprintf(key, size, "perch.%016llx.", (unsigned long long)hash);
    for (const char *c = name ? name + 1 : path; *c && length + 1 < (int)size; c++) {
        bool plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')
            || *c == '-' || *c == '_' || *c == '.';
        key[length++] = plain ? *c : '_';
    }
    key[length] = 0;
}

static void play(uint32_t id, int volume, bool cache, const char *path) {
    int fd = open_checked(id, path);
    if (fd < 0) return;
    if (!open_context()) {
        close(fd);
        return;
    }
    char file[64], decibels[32];
    snprintf(file, sizeof file, "/proc/self/fd/%d", fd);
    // libcanberra's volume is in dB; percent of amplitude, as mixers show.
    snprintf(decibels, sizeof decibels, "%.2f", 20.0 * log10((double)volume / 100.0));
    ca_proplist *properties = NULL;
    if (ca.proplist_create(&properties) != CA_SUCCESS) {
        close(fd);
        report("failed %u out of memory", id);
        return;
    }
    ca.proplist_sets(properties, "media.filename", file);
    ca.proplist_sets(properties, "media.role", "event");
    ca.proplist_sets(properties, "canberra.volume", decibels);
    // A theme's sound is kept by the server and played from there the
    // next time; a sender's file is streamed once.
    if (cache) {
        char key[96];
        cache_key(path, key, sizeof key);
        ca.proplist_sets(properties, "event.id", key);
        ca.proplist_sets(properties, "canberra.cache-control", "volatile");
    } else {
        ca.proplist_sets(properties, "canberra.cache-control", "never");
    }
    pthread_mutex_lock(&lock);
    if (playing_count == max_playing) {
        // The oldest is cut to make room; its callback forgets it.
        uint32_t oldest = playing[0].id;
        pthread_mutex_unlock(&lock);
        ca.context_cancel(context, oldest);
        pthread_mutex_lock(&lock);
        forget_playing(oldest);
    }
    playing[playing_count].id = id;
    playing[playing_count].started = now_ms();
    playing_count++;
    pthread_mutex_unlock(&lock);
    int error = ca.context_play_full(context, id, properties, finished, NULL);
    ca.proplist_destroy(properties);
    // libcanberra has opened its own copy of the file by now.
    close(fd);
    if (error != CA_SUCCESS) {
        pthread_mutex_lock(&lock);
        forget_playing(id);
        pthread_mutex_unlock(&lock);
        report("failed %u %s", id, ca.strerror(error));
        // A server that went away: open again at the next sound.
        ca.context_destroy(context);
        context = NULL;
    }
}

// Cuts every sound that has played longer than the limit.
static void cut_long_sounds(void) {
    uint32_t overdue[max_playing];
    int count = 0;
    long long now = now_ms();
    pthread_mutex_lock(&lock);
    for (int i = 0; i < playing_count; i++) {
        if (now - playing[i].started >= max_duration_ms) overdue[count++] = playing[i].id;
    }
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < count; i++) ca.context_cancel(context, overdue[i]);
}

// Parses the complete requests at the start of `buffer`; returns how many
// bytes they took.
static size_t serve(char *buffer, size_t length, bool loaded) {
    size_t used = 0;
    for (;;) {
        const char *fields[4];
        size_t at = used;
        int found = 0;
        while (found < 4) {
            char *end = memchr(buffer + at, 0, length - at);
            if (!end) return used;
            fields[found++] = buffer + at;
            at = (size_t)(end - buffer) + 1;
        }
        used = at;
        char *rest = NULL;
        unsigned long id = strtoul(fields[0], &rest, 10);
        long volume = strtol(fields[1], NULL, 10);
        if (*rest != 0 || id > UINT32_MAX || volume < 1 || volume > 100 || fields[3][0] != '/') {
            report("failed %lu a request the daemon should not have sent", id);
            continue;
        }
        if (loaded) play((uint32_t)id, (int)volume, strcmp(fields[2], "cache") == 0, fields[3]);
    }
}

int main(void) {
    bool loaded = load_library();
    // Requests are at most 4 small fields and a path (PATH_MAX).
    static char buffer[2 * PATH_MAX + 256];
    size_t length = 0;
    long long last_activity = now_ms();
    for (;;) {
        pthread_mutex_lock(&lock);
        bool busy = playing_count > 0;
        pthread_mutex_unlock(&lock);
        if (!busy && now_ms() - last_activity >= idle_exit_ms) break;
        struct pollfd input = {.fd = STDIN_FILENO, .events = POLLIN};
        int ready = poll(&input, 1, busy ? 100 : 1000);
        if (ready < 0 && errno != EINTR) break;
        if (busy && context) cut_long_sounds();
        if (ready <= 0) continue;
        ssize_t got = read(STDIN_FILENO, buffer + length, sizeof buffer - length);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got <= 0) break;  // The daemon closed its end, or is gone.
        length += (size_t)got;
        last_activity = now_ms();
        size_t used = serve(buffer, length, loaded);
        memmove(buffer, buffer + used, length - used);
        length -= used;
        if (length == sizeof buffer) {
            report("failed 0 a request longer than %zu bytes", sizeof buffer);
            length = 0;
        }
    }
    if (context) ca.context_destroy(context);
    return 0;
}
