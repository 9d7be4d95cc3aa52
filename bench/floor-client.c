/*
 * floor-client — the least a Wayland client can spend to answer a frame
 * callback: one wlr-layer-shell surface with one small shm buffer; each
 * wl_callback.done is answered with a new frame callback, a damage of the
 * whole buffer and a commit (the same buffer attached again: nothing is
 * drawn). bench/compare.py runs it for as many frames as Perch's slide takes
 * and compares Perch's CPU per animated frame with this one's.
 *
 * Usage: floor-client FRAMES
 *   maps the surface, prints "ready" once the first buffer is shown, waits
 *   for a line on stdin, then answers FRAMES frame callbacks and prints one
 *   JSON line: frames, wall time, the process's CPU over the frames
 *   (CLOCK_PROCESS_CPUTIME_ID, ns), voluntary context switches over them
 *   (getrusage), and the median / p99 / max of the client time from
 *   wl_callback.done to the commit that answers it (µs), which is what
 *   Perch's PERCH_TRACE `frame` lines measure for its own frames.
 *
 * Built by bench/compare.py: cc -O2 with the wayland-scanner output of
 * protocols/wlr-layer-shell-unstable-v1.xml and xdg-shell.xml, -lwayland-client.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <wayland-client.h>
#include "wlr-layer-shell-unstable-v1-client-protocol.h"

enum { WIDTH = 300, HEIGHT = 80, MAX_FRAMES = 10000 };

struct floor {
    struct wl_display *display;
    struct wl_compositor *compositor;
    struct wl_shm *shm;
    struct zwlr_layer_shell_v1 *layer_shell;
    struct wl_surface *surface;
    struct zwlr_layer_surface_v1 *layer_surface;
    struct wl_buffer *buffer;
    int configured;
    int frames_wanted;
    int frames_done;
    int64_t client_ns[MAX_FRAMES]; /* done -> commit, per frame */
};

static int64_t now_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void die(const char *what) {
    fprintf(stderr, "floor-client: %s\n", what);
    exit(1);
}

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
                            const char *interface, uint32_t version) {
    struct floor *f = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0)
        f->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
    else if (strcmp(interface, wl_shm_interface.name) == 0)
        f->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0)
        f->layer_shell = wl_registry_bind(registry, name, &zwlr_layer_shell_v1_interface, 1);
    (void)version;
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)data; (void)registry; (void)name;
}

static const struct wl_registry_listener registry_listener = {
    .global = registry_global,
    .global_remove = registry_global_remove,
};

static void layer_configure(void *data, struct zwlr_layer_surface_v1 *surface, uint32_t serial,
                            uint32_t width, uint32_t height) {
    struct floor *f = data;
    zwlr_layer_surface_v1_ack_configure(surface, serial);
    f->configured = 1;
    (void)width; (void)height;
}

static void layer_closed(void *data, struct zwlr_layer_surface_v1 *surface) {
    (void)data; (void)surface;
    die("layer surface closed");
}

static const struct zwlr_layer_surface_v1_listener layer_listener = {
    .configure = layer_configure,
    .closed = layer_closed,
};

static void frame_done(void *data, struct wl_callback *callback, uint32_t time_ms);

static const struct wl_callback_listener frame_listener = { .done = frame_done };

/* The answer to a frame: ask for the next one and commit the same buffer,
 * damaged whole, so that the compositor repaints and calls back again. */
static void commit_frame(struct floor *f) {
    struct wl_callback *cb = wl_surface_frame(f->surface);
    wl_callback_add_listener(cb, &frame_listener, f);
    wl_surface_attach(f->surface, f->buffer, 0, 0);
    wl_surface_damage_buffer(f->surface, 0, 0, WIDTH, HEIGHT);
    wl_surface_commit(f->surface);
}

static void frame_done(void *data, struct wl_callback *callback, uint32_t time_ms) {
    struct floor *f = data;
    int64_t t0 = now_ns(CLOCK_MONOTONIC);
    wl_callback_destroy(callback);
    (void)time_ms;
    if (f->frames_done >= f->frames_wanted)
        return;
    commit_frame(f);
    f->client_ns[f->frames_done++] = now_ns(CLOCK_MONOTONIC) - t0;
}

static struct wl_buffer *make_buffer(struct wl_shm *shm) {
    int stride = WIDTH * 4, size = stride * HEIGHT;
    int fd = memfd_create("floor-client", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, size) < 0)
        die("memfd");
    uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED)
        die("mmap");
    for (int i = 0; i < WIDTH * HEIGHT; i++)
        pixels[i] = 0xb3000000; /* black at 70 %, premultiplied ARGB */
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, size);
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, WIDTH, HEIGHT, stride,
                                                         WL_SHM_FORMAT_ARGB8888);
    wl_shm_pool_destroy(pool);
    munmap(pixels, size);
    close(fd);
    return buffer;
}

static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    static struct floor f;
    f.frames_wanted = argc > 1 ? atoi(argv[1]) : 38;
    if (f.frames_wanted < 1 || f.frames_wanted > MAX_FRAMES)
        die("FRAMES must be 1..10000");
    f.display = wl_display_connect(NULL);
    if (!f.display)
        die("cannot connect to the Wayland display");
    struct wl_registry *registry = wl_display_get_registry(f.display);
    wl_registry_add_listener(registry, &registry_listener, &f);
    wl_display_roundtrip(f.display);
    if (!f.compositor || !f.shm || !f.layer_shell)
        die("compositor lacks wl_compositor, wl_shm or zwlr_layer_shell_v1");

    f.surface = wl_compositor_create_surface(f.compositor);
    f.layer_surface = zwlr_layer_shell_v1_get_layer_surface(
        f.layer_shell, f.surface, NULL, ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY, "floor-client");
    zwlr_layer_surface_v1_add_listener(f.layer_surface, &layer_listener, &f);
    zwlr_layer_surface_v1_set_size(f.layer_surface, WIDTH, HEIGHT);
    zwlr_layer_surface_v1_set_anchor(f.layer_surface, ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP |
                                                      ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT);
    zwlr_layer_surface_v1_set_margin(f.layer_surface, 10, 10, 10, 10);
    wl_surface_commit(f.surface);
    while (!f.configured)
        if (wl_display_dispatch(f.display) < 0)
            die("display error before configure");
    f.buffer = make_buffer(f.shm);
    wl_surface_attach(f.surface, f.buffer, 0, 0);
    wl_surface_commit(f.surface);
    wl_display_roundtrip(f.display);
    printf("ready\n");
    fflush(stdout);

    char line[64];
    if (!fgets(line, sizeof line, stdin))
        return 0;

    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    int64_t cpu0 = now_ns(CLOCK_PROCESS_CPUTIME_ID), wall0 = now_ns(CLOCK_MONOTONIC);
    commit_frame(&f);
    /* The canonical read path: prepare, flush, poll, read, dispatch. */
    while (f.frames_done < f.frames_wanted) {
        while (wl_display_prepare_read(f.display) != 0)
            wl_display_dispatch_pending(f.display);
        wl_display_flush(f.display);
        struct pollfd pfd = { .fd = wl_display_get_fd(f.display), .events = POLLIN };
        if (poll(&pfd, 1, 2000) <= 0) {
            wl_display_cancel_read(f.display);
            die("no frame callback within 2 s");
        }
        if (wl_display_read_events(f.display) < 0)
            die("display error");
        wl_display_dispatch_pending(f.display);
    }
    wl_display_flush(f.display);
    int64_t cpu1 = now_ns(CLOCK_PROCESS_CPUTIME_ID), wall1 = now_ns(CLOCK_MONOTONIC);
    getrusage(RUSAGE_SELF, &r1);

    int n = f.frames_done;
    qsort(f.client_ns, n, sizeof f.client_ns[0], cmp64);
    int p99 = (int)(0.99 * (n - 1) + 0.5);
    printf("{\"frames\": %d, \"wall_ms\": %.3f, \"cpu_ns\": %lld, \"vcsw\": %ld, \"nvcsw\": %ld, "
           "\"client_us_median\": %.2f, \"client_us_p99\": %.2f, \"client_us_max\": %.2f}\n",
           n, (wall1 - wall0) / 1e6, (long long)(cpu1 - cpu0), r1.ru_nvcsw - r0.ru_nvcsw,
           r1.ru_nivcsw - r0.ru_nivcsw, f.client_ns[n / 2] / 1e3, f.client_ns[p99] / 1e3,
           f.client_ns[n - 1] / 1e3);
    fflush(stdout);
    return 0;
}
