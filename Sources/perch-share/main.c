// perch-share: tells the daemon whether the screen is being shared, from
// the PipeWire graph.
//
// Started by the daemon while `while-sharing` is not `show`
// (ShareWatch.swift), its reports on stdout; it exits when stdin closes
// (the daemon stopped it, or is gone). libpipewire never sits in the
// daemon: this process is what the detection costs. Not meant to be run
// by hand, but harmless to (it prints its lines and waits for EOF).
//
// Reports are lines, each sent when the answer changes, and once after
// every connection's first look at the graph:
//   sharing 1     a screencast stream has a consumer linked to it
//   sharing 0     none has
//   absent        no PipeWire server could be reached; looked for again
//                 when its socket appears (inotify), and every 10 s; or
//                 libpipewire cannot work here at all (its native
//                 protocol module is not installed: no PipeWire on this
//                 system), said on stderr, and then it only waits for EOF
//
// A screencast stream is a node of media.class Video/Source or
// Stream/Output/Video that is no device (no device.id, media.role not
// Camera: a camera is not a screen) and is named as the portals' screen
// casters name their streams: xdg-desktop-portal-wlr "xdpw-stream-XXXXXX",
// xdg-desktop-portal-hyprland "xdph-streaming-N", mutter
// "meta-screen-cast-src", KWin "kwin-screencast-…". pw_stream_new puts
// that name in media.name and the program's name in node.name, and the
// registry's global properties carry node.name but not media.name: a
// video node whose node.name is one of those casters' programs counts at
// once; any other video node is bound (at most max_bound at a time) to
// read its media.name. It is shared while any link leads out of it.
//
// Nothing here polls: with PipeWire there, the process sleeps in the
// loop until the graph changes or stdin closes.
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <pipewire/impl-module.h>
#include <pipewire/pipewire.h>
#include <spa/utils/result.h>

// What is kept is bounded: the video nodes that are not devices (a
// desktop has a few), the links (hundreds on a busy audio graph), and the
// nodes bound to read their media.name. Past a bound, more are ignored
// (and said so once on stderr).
enum { max_nodes = 256, max_links = 4096, max_bound = 32 };
// Looked for again this often while PipeWire is absent, besides inotify.
static const long retry_seconds = 10;

static const char *const stream_prefixes[] = {
    "xdpw-stream-", "xdph-streaming-", "meta-screen-cast-src", "kwin-screencast-", NULL,
};
static const char *const caster_programs[] = {
    "xdg-desktop-portal-wlr", "xdg-desktop-portal-hyprland", "gnome-shell", "kwin_wayland", NULL,
};

// A video node that is no device; `used` marks a slot in use (slots never
// move: a bound node's listener points at its slot).
struct video_node {
    bool used;
    bool screen;
    uint32_t id;
    struct pw_proxy *proxy;
    struct spa_hook listener;
};

struct link {
    uint32_t id;
    uint32_t output_node;
};

static struct pw_main_loop *main_loop;
static struct pw_loop *loop;
static struct pw_context *context;
static struct pw_core *core;
static struct pw_registry *registry;
static struct spa_hook core_listener, registry_listener;
static struct spa_source *retry_timer;
static int sync_seq;
static bool synced;
// The connection failed (the server went): torn down from the timer, not
// from inside libpipewire's callback.
static bool lost;

static struct video_node nodes[max_nodes];
static struct link links[max_links];
static int link_count;
static int bound_count;
static bool told_full;

// Where the server's socket appears, for inotify while absent.
static int watch_fd = -1, watch = -1;
static char socket_dir[PATH_MAX], socket_name[NAME_MAX + 1];

// The last line said: -1 none yet, 0, 1, or 2 for absent.
static int said = -1;

static void say(int what) {
    if (what == said) return;
    said = what;
    const char *line = what == 2 ? "absent\n" : what == 1 ? "sharing 1\n" : "sharing 0\n";
    // One write per line: stdout is the daemon's SOCK_SEQPACKET socket.
    if (write(STDOUT_FILENO, line, strlen(line)) < 0 && errno == EPIPE && main_loop) pw_main_loop_quit(main_loop);
}

static bool starts_with_any(const char *value, const char *const *prefixes) {
    if (!value) return false;
    for (int i = 0; prefixes[i]; i++) {
        if (strncmp(value, prefixes[i], strlen(prefixes[i])) == 0) return true;
    }
    return false;
}

static bool is_any(const char *value, const char *const *names) {
    if (!value) return false;
    for (int i = 0; names[i]; i++) {
        if (strcmp(value, names[i]) == 0) return true;
    }
    return false;
}

static void tell(void) {
    if (!synced) return;
    bool sharing = false;
    for (int l = 0; l < link_count && !sharing; l++) {
        for (int n = 0; n < max_nodes; n++) {
            if (nodes[n].used && nodes[n].screen && nodes[n].id == links[l].output_node) {
                sharing = true;
                break;
            }
        }
    }
    say(sharing ? 1 : 0);
}

static void too_many(const char *what) {
    if (told_full) return;
    told_full = true;
    fprintf(stderr, "perch-share: more than %s in the PipeWire graph; the rest are not looked at\n", what);
}

static void node_info(void *data, const struct pw_node_info *info) {
    struct video_node *node = data;
    if (!info->props) return;
    const char *role = spa_dict_lookup(info->props, PW_KEY_MEDIA_ROLE);
    node->screen = !(role && strcmp(role, "Camera") == 0)
        && (starts_with_any(spa_dict_lookup(info->props, PW_KEY_MEDIA_NAME), stream_prefixes)
            || starts_with_any(spa_dict_lookup(info->props, PW_KEY_NODE_NAME), stream_prefixes));
    tell();
}

static const struct pw_node_events node_events = {
    PW_VERSION_NODE_EVENTS,
    .info = node_info,
};

static void forget_node(struct video_node *node) {
    if (node->proxy) {
        spa_hook_remove(&node->listener);
        pw_proxy_destroy(node->proxy);
        bound_count--;
    }
    memset(node, 0, sizeof *node);
}

static void add_node(uint32_t id, const struct spa_dict *props) {
    const char *class = spa_dict_lookup(props, PW_KEY_MEDIA_CLASS);
    if (!class || (strcmp(class, "Video/Source") != 0 && strcmp(class, "Stream/Output/Video") != 0)) return;
    const char *role = spa_dict_lookup(props, PW_KEY_MEDIA_ROLE);
    // A camera (v4l2, libcamera) is a device's node, or says it is one.
    if (spa_dict_lookup(props, PW_KEY_DEVICE_ID) || (role && strcmp(role, "Camera") == 0)) return;
    struct video_node *node = NULL;
    for (int n = 0; n < max_nodes && !node; n++) {
        if (!nodes[n].used) node = &nodes[n];
    }
    if (!node) {
        too_many("256 video nodes");
        return;
    }
    const char *name = spa_dict_lookup(props, PW_KEY_NODE_NAME);
    node->used = true;
    node->id = id;
    node->screen = starts_with_any(name, stream_prefixes) || is_any(name, caster_programs);
    if (!node->screen && bound_count < max_bound) {
        node->proxy = pw_registry_bind(registry, id, PW_TYPE_INTERFACE_Node, PW_VERSION_NODE, 0);
        if (node->proxy) {
            bound_count++;
            pw_proxy_add_object_listener(node->proxy, &node->listener, &node_events, node);
        }
    }
}

static void add_link(uint32_t id, const struct spa_dict *props) {
    const char *output = spa_dict_lookup(props, PW_KEY_LINK_OUTPUT_NODE);
    if (!output) return;
    if (link_count == max_links) {
        too_many("4096 links");
        return;
    }
    links[link_count].id = id;
    links[link_count].output_node = (uint32_t)strtoul(output, NULL, 10);
    link_count++;
}

static void registry_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
                            const struct spa_dict *props) {
    (void)data, (void)permissions, (void)version;
    if (!props) return;
    if (strcmp(type, PW_TYPE_INTERFACE_Node) == 0) {
        add_node(id, props);
    } else if (strcmp(type, PW_TYPE_INTERFACE_Link) == 0) {
        add_link(id, props);
    } else {
        return;
    }
    tell();
}

static void registry_global_remove(void *data, uint32_t id) {
    (void)data;
    for (int n = 0; n < max_nodes; n++) {
        if (nodes[n].used && nodes[n].id == id) forget_node(&nodes[n]);
    }
    for (int l = 0; l < link_count; l++) {
        if (links[l].id == id) links[l--] = links[--link_count];
    }
    tell();
}

static const struct pw_registry_events registry_events = {
    PW_VERSION_REGISTRY_EVENTS,
    .global = registry_global,
    .global_remove = registry_global_remove,
};

static void arm_retry(long seconds, long nanoseconds) {
    struct timespec value = {.tv_sec = seconds, .tv_nsec = nanoseconds};
    pw_loop_update_timer(loop, retry_timer, &value, NULL, false);
}

static void core_done(void *data, uint32_t id, int seq) {
    (void)data;
    if (id == PW_ID_CORE && seq == sync_seq && !synced) {
        synced = true;
        said = -1;
        tell();
    }
}

// The server went away (EPIPE) or threw us out: start over, from the
// loop rather than inside libpipewire's callback. (An error about a bound
// node, one that went before its info came, changes nothing.)
static void core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    (void)data, (void)seq, (void)res, (void)message;
    if (id == PW_ID_CORE && !lost) {
        lost = true;
        arm_retry(0, 1);
    }
}

static const struct pw_core_events core_events = {
    PW_VERSION_CORE_EVENTS,
    .done = core_done,
    .error = core_error,
};

static void disconnect(void) {
    for (int n = 0; n < max_nodes; n++) {
        if (nodes[n].used) forget_node(&nodes[n]);
    }
    link_count = 0;
    if (registry) {
        spa_hook_remove(&registry_listener);
        pw_proxy_destroy((struct pw_proxy *)registry);
        registry = NULL;
    }
    if (core) {
        spa_hook_remove(&core_listener);
        pw_core_disconnect(core);
        core = NULL;
    }
    synced = false;
    lost = false;
}

static void watch_socket(bool on) {
    if (watch_fd < 0) return;
    if (on && watch < 0) {
        watch = inotify_add_watch(watch_fd, socket_dir, IN_CREATE | IN_MOVED_TO);
    } else if (!on && watch >= 0) {
        inotify_rm_watch(watch_fd, watch);
        watch = -1;
    }
}

static void try_connect(void) {
    core = pw_context_connect(context, NULL, 0);
    if (!core) {
        say(2);
        watch_socket(true);
        arm_retry(retry_seconds, 0);
        return;
    }
    watch_socket(false);
    arm_retry(0, 0);
    pw_core_add_listener(core, &core_listener, &core_events, NULL);
    registry = pw_core_get_registry(core, PW_VERSION_REGISTRY, 0);
    pw_registry_add_listener(registry, &registry_listener, &registry_events, NULL);
    sync_seq = pw_core_sync(core, PW_ID_CORE, 0);
}

static void on_retry(void *data, uint64_t expirations) {
    (void)data, (void)expirations;
    if (lost) {
        disconnect();
        say(2);
    }
    if (!core) try_connect();
}

static void on_socket_dir(void *data, int fd, uint32_t mask) {
    (void)data, (void)mask;
    char buffer[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    bool appeared = false;
    ssize_t length;
    while ((length = read(fd, buffer, sizeof buffer)) > 0) {
        for (char *at = buffer; at < buffer + length;) {
            struct inotify_event *event = (struct inotify_event *)at;
            if (event->len && strcmp(event->name, socket_name) == 0) appeared = true;
            at += sizeof *event + event->len;
        }
    }
    // The server binds its socket before it listens: a moment later.
    if (appeared && !core) arm_retry(0, 200 * 1000 * 1000);
}

static void on_stdin(void *data, int fd, uint32_t mask) {
    (void)data, (void)mask;
    char buffer[256];
    ssize_t got = read(fd, buffer, sizeof buffer);
    if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) pw_main_loop_quit(main_loop);
}

// Where libpipewire looks for the server: $PIPEWIRE_REMOTE (a name, or a
// path), in $PIPEWIRE_RUNTIME_DIR, else $XDG_RUNTIME_DIR; "pipewire-0".
static void find_socket(void) {
    const char *remote = getenv("PIPEWIRE_REMOTE");
    if (!remote || !*remote) remote = "pipewire-0";
    const char *dir = getenv("PIPEWIRE_RUNTIME_DIR");
    if (!dir || !*dir) dir = getenv("XDG_RUNTIME_DIR");
    const char *slash = strrchr(remote, '/');
    if (remote[0] == '/' && slash) {
        snprintf(socket_dir, sizeof socket_dir, "%.*s", (int)(slash - remote), remote);
        snprintf(socket_name, sizeof socket_name, "%s", slash + 1);
    } else if (dir && *dir) {
        snprintf(socket_dir, sizeof socket_dir, "%s", dir);
        snprintf(socket_name, sizeof socket_name, "%s", remote);
    }
    if (socket_dir[0]) watch_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
}

// libpipewire cannot work here: said once, then nothing until the daemon
// closes stdin (exiting would only have it started again and again).
static int give_up(const char *what) {
    fprintf(stderr, "perch-share: %s (%s): screen shares cannot be seen\n", what, strerror(errno));
    say(2);
    char buffer[256];
    for (;;) {
        ssize_t got = read(STDIN_FILENO, buffer, sizeof buffer);
        if (got == 0 || (got < 0 && errno != EINTR)) return 0;
    }
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    pw_init(NULL, NULL);
    // libpipewire's warnings are about its own set-up here (the empty
    // module list below): errors only, unless PIPEWIRE_DEBUG asks.
    if (!getenv("PIPEWIRE_DEBUG")) pw_log_set_level(SPA_LOG_LEVEL_ERROR);
    main_loop = pw_main_loop_new(NULL);
    if (!main_loop) return give_up("cannot make PipeWire's loop");
    loop = pw_main_loop_get_loop(main_loop);
    // No config file, and only the native protocol: client.conf and the
    // modules it names (client-node, adapter, metadata…) come with the
    // pipewire package and serve clients that make nodes; a watcher needs
    // none of them (0.5 MB less Pss), and works where only the library is.
    context = pw_context_new(loop, pw_properties_new(PW_KEY_APP_NAME, "perch-share", PW_KEY_CONFIG_NAME, "null",
                                                     "context.modules.allow-empty", "true", NULL), 0);
    if (!context) return give_up("cannot make a PipeWire context");
    if (!pw_context_load_module(context, "libpipewire-module-protocol-native", NULL, NULL)) {
        return give_up("cannot load libpipewire-module-protocol-native");
    }
    pw_loop_add_io(loop, STDIN_FILENO, SPA_IO_IN | SPA_IO_HUP | SPA_IO_ERR, false, on_stdin, NULL);
    retry_timer = pw_loop_add_timer(loop, on_retry, NULL);
    find_socket();
    if (watch_fd >= 0) pw_loop_add_io(loop, watch_fd, SPA_IO_IN, true, on_socket_dir, NULL);
    try_connect();
    pw_main_loop_run(main_loop);
    disconnect();
    pw_context_destroy(context);
    pw_main_loop_destroy(main_loop);
    pw_deinit();
    return 0;
}
