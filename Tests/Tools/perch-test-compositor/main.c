/*
 * perch-test-compositor — a small scripted Wayland compositor for Perch's
 * tests (libwayland-server, no wlroots, nothing is rendered on screen).
 *
 * Usage:
 *   perch-test-compositor [-s SOCKET] [-o NAME:WxH[@SCALE]]... [--release MODE]
 *                         [--lenient-scale] [--layer-shell-version 3|4]
 *
 *   -s SOCKET        socket name in $XDG_RUNTIME_DIR (default: wayland-N, the
 *                    first free one; reported in the "ready" event)
 *   -o NAME:WxH[@S]  an output (repeatable; default one HEADLESS-1:1280x720@1).
 *                    Outputs are laid out left to right in order.
 *   --release MODE   when wl_buffer.release is sent (see `release` below);
 *                    default commit
 *   --lenient-scale  do not post wl_surface.invalid_size when a buffer's size
 *                    is not a multiple of its scale
 *   --layer-shell-version 3|4
 *                    the zwlr_layer_shell_v1 version offered (default 4; 3
 *                    has no on_demand keyboard interactivity)
 *
 * Globals: wl_compositor v4, wl_subcompositor v1, wl_shm v1 (argb8888,
 * xrgb8888; libwayland's pools), zwlr_layer_shell_v1 v4 (or v3), wp_viewporter v1,
 * xdg_wm_base v1, wl_output v4 (one per output), wl_seat v5 "seat0" (pointer,
 * keyboard with an xkb "us" keymap, touch).
 *
 * Behaviour, in short:
 *   - Surface state (attach, damage, frame, buffer scale/transform, input
 *     region, viewport) is double-buffered and applied on commit. At commit
 *     the attached wl_shm buffer is copied (so `dump` can read it later) and,
 *     in the default release mode, wl_buffer.release is sent at once.
 *   - Subsurfaces are synchronized by default: their commits are cached and
 *     applied when the parent's state is applied; set_position applies then
 *     too. place_above/place_below restack at once (not on parent commit).
 *   - Layer surfaces: state applied on commit. The first commit (it must
 *     carry no buffer) gets a configure: requested size, 0 dimensions filled
 *     from the output's logical size minus margins. A buffer before any
 *     ack_configure, an unknown serial in ack_configure and a 0 size without
 *     both opposite anchors are protocol errors. Later commits that change
 *     the computed size get a new configure. Position on the output follows
 *     sway's arrange_layer. A mapped layer surface (and its mapped
 *     subsurfaces) gets wl_surface.enter for its output. Committing a null
 *     buffer unmaps it; the next commit is an initial one again.
 *   - Layer surfaces created without an output go on the first output; with
 *     none, they are closed at their first commit.
 *   - xdg toplevels (xdg.c; what a nested wlroots compositor shows its
 *     output in) fill the first output: configured to its logical size with
 *     the activated state, their window geometry at its top-left, stacked
 *     above the bottom layer and below the top one. The initial commit (no
 *     buffer) gets the configure; a buffer before an ack, an unknown serial
 *     and a commit without a role object are protocol errors. A toplevel
 *     that maps takes the keyboard focus (unless an exclusive layer surface
 *     has it). Popups are dismissed (popup_done) as soon as they are made.
 *     A nested compositor commits a frame whenever its frame callback
 *     fires: with autoframe on it never goes quiet, so `sync` then waits
 *     forever.
 *   - Keyboard focus goes to a layer surface with keyboard_interactivity
 *     exclusive (top/overlay layer) when it maps, and to one with on_demand or
 *     exclusive when it is pressed (pointer button or touch down), like sway.
 *     Pressing on nothing takes on_demand focus away. Setting interactivity
 *     to none drops the focus.
 *   - Pointer focus is re-evaluated after every commit (surfaces moving
 *     under a still pointer get enter/leave), except while a button is held
 *     (implicit grab).
 *   - Frame callbacks of applied states fire only on `frame` (or autoframe).
 *   - Protocol errors (ours and libwayland's) are reported as
 *     protocol_error events; the client is disconnected, the compositor goes
 *     on.
 *
 * CONTROL: one command per line on stdin; each command gets exactly one
 * reply line on stdout, in order:
 *   {"reply":"<command word>","seq":N,"ok":true,...}
 *   {"reply":"<command word>","seq":N,"ok":false,"error":"..."}
 * seq counts commands from 1. Events are interleaved as {"event":...} lines.
 * Every line is flushed. Coordinates are global layout (logical) pixels.
 *
 *   frame [MS]                   fire every pending frame callback (time MS,
 *                                default: monotonic ms) -> "fired","time"
 *   autoframe MS|off             fire frame callbacks every MS ms
 *   surfaces                     -> "surfaces": [surface objects, below]
 *   surface ID                   -> "surface": one surface object
 *   dump ID PATH [RRGGBB|rgba]   write the surface's last applied buffer:
 *                                binary PPM (P6) composited over RRGGBB
 *                                (default 336699), or with "rgba" a PAM (P7,
 *                                RGB_ALPHA, straight alpha) -> "width","height"
 *   screenshot PATH [RRGGBB [OUTPUT]]
 *                                compose the output's mapped layer surfaces,
 *                                toplevels and their subsurfaces over RRGGBB
 *                                (default 336699) into a P6 PPM of the
 *                                output's mode size
 *   pointer motion X Y           move; enter/leave/motion to the surface under
 *                                it (input regions, top-most subsurface first)
 *                                -> "surface" (or null),"x","y" (local)
 *   pointer button B press|release   B: left|right|middle|side|extra|CODE
 *   pointer click B              press + release
 *   touch down ID X Y [noframe]  to the surface under the point -> "surface"
 *   touch motion ID X Y [noframe]    to the surface the touch started on,
 *                                surface-local -> "x","y"
 *   touch up ID [noframe]
 *   touch frame                  wl_touch.frame to clients with touches
 *   touch cancel                 wl_touch.cancel; forgets every touch point
 *   key press|release|tap NAME   an xkb keysym name (Escape, Return, Tab,
 *                                space, a, Shift_L, Control_L...); modifiers
 *                                follow from the keys held -> "code" (evdev),
 *                                "focus"
 *   keyboard focus ID|none       wl_keyboard.enter/leave -> "focus"
 *   seat caps [pointer] [keyboard] [touch] | none
 *                                change the seat's capabilities
 *   output add NAME W H [SCALE]  new wl_output global
 *   output remove NAME           leave events, its layer surfaces get closed,
 *                                global removed (destroyed 1 s later)
 *   output mode NAME W H [SCALE] new mode/scale (+done); layer surfaces on it
 *                                are reconfigured when their size changes
 *   outputs                      -> "outputs": [{name,width,height,scale,x,y,bound}]
 *   closed ID                    zwlr_layer_surface_v1.closed to layer surface ID
 *   configure ID W H             an extra configure (a layer surface, or a
 *                                toplevel, which keeps that size until the
 *                                next) -> "serial"
 *   close ID                     xdg_toplevel.close to toplevel ID
 *   ping                         xdg_wm_base.ping to every client that bound
 *                                it -> "pinged" (pong events follow)
 *   release commit|apply|replace|never|now
 *                                when wl_buffer.release is sent: right after
 *                                the copy at commit (default); when the state
 *                                is applied (sync subsurfaces: parent commit);
 *                                when a newer buffer of the surface is applied;
 *                                never; "now" releases all held -> "held"
 *   sync [QUIET_MS]              reply once no client request has arrived for
 *                                QUIET_MS ms (default 50); commands after it
 *                                wait -> "waited_ms"
 *   clients                      -> "clients": [{client,pid}]
 *   disconnect CLIENT|all        destroy client connections
 *   echo WORDS...                -> "args": [...]
 *   quit                         exit (also on stdin EOF, SIGTERM, SIGINT)
 *
 * Surface object: id, client, object (protocol id), role (layer|subsurface|
 * toplevel|popup|none), parent, position ([x,y]: subsurface parent-relative; layer global),
 * global ([x,y] or null), size (surface pixels), buffer ([w,h] or null),
 * scale, mapped, commits, has_cached, frame_callbacks, input ("infinite" or
 * [[add|subtract,x,y,w,h]...]), viewport ({destination,source} or null),
 * outputs (entered), sync (subsurfaces), children (ids, bottom to top), and
 * for layer surfaces "layer": {namespace, layer, output, anchor, anchors,
 * requested_size, margins{top,right,bottom,left}, exclusive_zone,
 * keyboard_interactivity (0/1/2), keyboard (none/exclusive/on_demand),
 * configured_size, last_serial, acked_serial, configured, unacked, closed,
 * box [x,y,w,h]}; for toplevels "toplevel": {title, app_id, alive,
 * configured_size, last_serial, acked_serial, configured, unacked,
 * maximized, fullscreen, geometry [x,y,w,h] or null, output}; for popups
 * "popup": {dismissed}.
 *
 * EVENTS (all have "event"):
 *   ready {socket,pid}             listening
 *   client_connected {client,pid}  client_gone {client,pid}
 *   bind {client,interface,version[,output]}
 *   get_pointer|get_keyboard|get_touch {client}
 *   surface_created {surface,client,object}   surface_destroyed {surface,role}
 *   role {surface,role,parent | namespace,layer,output}   (role toplevel|popup too)
 *   commit {surface,role,seq,cached,[buffer [w,h]|null, buffer_object],scale,frame,
 *           [children [{surface,x,y,mapped}] after applying]}
 *   apply {surface,parent,[buffer]}   a cached subsurface state was applied
 *   frame_requested {surface}      an applied commit carried frame callbacks
 *   frame_done {fired}             (autoframe only)
 *   configure {surface,serial,width,height}   ack_configure {surface,serial}
 *   closed {surface}   map|unmap {surface,role}
 *   toplevel_close {surface}  toplevel_destroyed {surface}  popup_done {surface}
 *   pong {client,serial}
 *   surface_enter|surface_leave {surface,output}
 *   release {surface,buffer}
 *   pointer_enter {surface,x,y}  pointer_leave {surface}
 *   keyboard_enter {surface}  keyboard_leave {surface}
 *   touch_down {surface,id,x,y}
 *   subsurface_destroyed {surface}  layer_surface_destroyed {surface}
 *   protocol_error {client,object,interface,id,code,message}
 *   log {message}
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "testcomp.h"

struct server S;

/* ------------------------------------------------------------------ time */

int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint32_t time_ms32(void) { return (uint32_t)now_ms(); }

/* ------------------------------------------------------------------ JSON */

void jb_init(struct jbuf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
	b->need_comma = false;
}

void jb_free(struct jbuf *b)
{
	free(b->data);
	jb_init(b);
}

static void jb_put(struct jbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1) cap *= 2;
		char *d = realloc(b->data, cap);
		if (!d) return;
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = 0;
}

void jb_raw(struct jbuf *b, const char *s) { jb_put(b, s, strlen(s)); }

static void jb_sep(struct jbuf *b)
{
	if (b->need_comma) jb_put(b, ",", 1);
}

void jb_obj_begin(struct jbuf *b) { jb_sep(b); jb_put(b, "{", 1); b->need_comma = false; }
void jb_obj_end(struct jbuf *b) { jb_put(b, "}", 1); b->need_comma = true; }
void jb_arr_begin(struct jbuf *b) { jb_sep(b); jb_put(b, "[", 1); b->need_comma = false; }
void jb_arr_end(struct jbuf *b) { jb_put(b, "]", 1); b->need_comma = true; }

static void jb_quoted(struct jbuf *b, const char *s)
{
	jb_put(b, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		char esc[8];
		switch (*p) {
		case '"': jb_put(b, "\\\"", 2); break;
		case '\\': jb_put(b, "\\\\", 2); break;
		case '\n': jb_put(b, "\\n", 2); break;
		case '\r': jb_put(b, "\\r", 2); break;
		case '\t': jb_put(b, "\\t", 2); break;
		default:
			if (*p < 0x20) {
				snprintf(esc, sizeof esc, "\\u%04x", *p);
				jb_put(b, esc, 6);
			} else {
				jb_put(b, (const char *)p, 1);
			}
		}
	}
	jb_put(b, "\"", 1);
}

void jb_key(struct jbuf *b, const char *k)
{
	jb_sep(b);
	jb_quoted(b, k);
	jb_put(b, ":", 1);
	b->need_comma = false;
}

void jb_str(struct jbuf *b, const char *s) { jb_sep(b); jb_quoted(b, s); b->need_comma = true; }

void jb_int(struct jbuf *b, long long v)
{
	char t[32];
	snprintf(t, sizeof t, "%lld", v);
	jb_sep(b);
	jb_raw(b, t);
	b->need_comma = true;
}

void jb_num(struct jbuf *b, double v)
{
	char t[64];
	if (!isfinite(v)) v = 0;
	if (v == floor(v) && fabs(v) < 1e15) snprintf(t, sizeof t, "%.0f", v);
	else snprintf(t, sizeof t, "%.6f", v);
	jb_sep(b);
	jb_raw(b, t);
	b->need_comma = true;
}

void jb_bool(struct jbuf *b, bool v) { jb_sep(b); jb_raw(b, v ? "true" : "false"); b->need_comma = true; }
void jb_null(struct jbuf *b) { jb_sep(b); jb_raw(b, "null"); b->need_comma = true; }
void jb_kstr(struct jbuf *b, const char *k, const char *s) { jb_key(b, k); jb_str(b, s); }
void jb_kint(struct jbuf *b, const char *k, long long v) { jb_key(b, k); jb_int(b, v); }
void jb_knum(struct jbuf *b, const char *k, double v) { jb_key(b, k); jb_num(b, v); }
void jb_kbool(struct jbuf *b, const char *k, bool v) { jb_key(b, k); jb_bool(b, v); }

void jb_emit(struct jbuf *b)
{
	if (b->data) {
		fwrite(b->data, 1, b->len, stdout);
		fputc('\n', stdout);
		fflush(stdout);
	}
	jb_free(b);
}

void ev_begin(struct jbuf *b, const char *name)
{
	jb_init(b);
	jb_obj_begin(b);
	jb_kstr(b, "event", name);
}

void ev_end(struct jbuf *b)
{
	jb_obj_end(b);
	jb_emit(b);
}

void tc_log(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	struct jbuf b;
	ev_begin(&b, "log");
	jb_kstr(&b, "message", msg);
	ev_end(&b);
}

/* --------------------------------------------------------------- clients */

static void client_destroyed(struct wl_listener *l, void *data)
{
	(void)data;
	struct tc_client *tc = wl_container_of(l, tc, destroy);
	tc->gone = true;
	wl_list_remove(&tc->destroy.link);
	wl_list_init(&tc->destroy.link);
	struct jbuf b;
	ev_begin(&b, "client_gone");
	jb_kint(&b, "client", tc->index);
	jb_kint(&b, "pid", tc->pid);
	ev_end(&b);
	/* Its resources are destroyed after this: every destructor unlinks. */
}

static struct wl_listener client_created_listener;

static void client_created(struct wl_listener *l, void *data)
{
	(void)l;
	struct wl_client *c = data;
	struct tc_client *tc = calloc(1, sizeof *tc);
	if (!tc) return;
	tc->client = c;
	tc->index = ++S.next_client_index;
	uid_t uid;
	gid_t gid;
	wl_client_get_credentials(c, &tc->pid, &uid, &gid);
	tc->destroy.notify = client_destroyed;
	wl_client_add_destroy_listener(c, &tc->destroy);
	wl_list_insert(S.clients.prev, &tc->link);
	struct jbuf b;
	ev_begin(&b, "client_connected");
	jb_kint(&b, "client", tc->index);
	jb_kint(&b, "pid", tc->pid);
	ev_end(&b);
}

static int client_index(struct wl_client *c)
{
	struct tc_client *tc;
	wl_list_for_each(tc, &S.clients, link)
		if (tc->client == c && !tc->gone) return tc->index;
	return -1;
}

/* Every request counts as activity (for `sync`); every wl_display.error
 * event is reported. */
static void protocol_logger(void *data, enum wl_protocol_logger_type type, const struct wl_protocol_logger_message *m)
{
	(void)data;
	if (type == WL_PROTOCOL_LOGGER_REQUEST) {
		S.last_request_ms = now_ms();
		return;
	}
	if (strcmp(m->message->name, "error") != 0 || strcmp(wl_resource_get_class(m->resource), "wl_display") != 0)
		return;
	if (m->arguments_count < 3) return;
	struct wl_resource *obj = (struct wl_resource *)(void *)m->arguments[0].o;
	struct jbuf b;
	ev_begin(&b, "protocol_error");
	jb_kint(&b, "client", client_index(wl_resource_get_client(m->resource)));
	char name[160];
	if (obj) {
		snprintf(name, sizeof name, "%s@%u", wl_resource_get_class(obj), wl_resource_get_id(obj));
		jb_kstr(&b, "object", name);
		jb_kstr(&b, "interface", wl_resource_get_class(obj));
		jb_kint(&b, "id", wl_resource_get_id(obj));
	} else {
		jb_key(&b, "object");
		jb_null(&b);
	}
	jb_kint(&b, "code", m->arguments[1].u);
	jb_kstr(&b, "message", m->arguments[2].s);
	ev_end(&b);
}

/* ----------------------------------------------------------------- stdin */

static char *in_buf;
static size_t in_len, in_cap;
static bool in_eof;

static int stdin_ready(int fd, uint32_t mask, void *data)
{
	(void)data;
	if (mask & (WL_EVENT_READABLE | WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		if (in_cap - in_len < 4096) {
			size_t cap = in_cap ? in_cap * 2 : 8192;
			char *nb = realloc(in_buf, cap);
			if (!nb) return 0;
			in_buf = nb;
			in_cap = cap;
		}
		ssize_t n = read(fd, in_buf + in_len, in_cap - in_len - 1);
		if (n < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
		if (n <= 0) {
			in_eof = true;
			return 0;
		}
		in_len += (size_t)n;
		size_t start = 0;
		for (size_t i = 0; i < in_len; i++) {
			if (in_buf[i] != '\n') continue;
			in_buf[i] = 0;
			control_push_line(in_buf + start);
			start = i + 1;
		}
		memmove(in_buf, in_buf + start, in_len - start);
		in_len -= start;
	}
	return 0;
}

static int on_signal(int sig, void *data)
{
	(void)sig;
	(void)data;
	S.quit = true;
	return 0;
}

/* ------------------------------------------------------------------ main */

static bool parse_output_spec(const char *spec, char *name, size_t nlen, int *w, int *h, int *scale)
{
	const char *colon = strchr(spec, ':');
	if (!colon || (size_t)(colon - spec) >= nlen || colon == spec) return false;
	memcpy(name, spec, (size_t)(colon - spec));
	name[colon - spec] = 0;
	*scale = 1;
	int n = sscanf(colon + 1, "%dx%d@%d", w, h, scale);
	return n >= 2 && *w > 0 && *h > 0 && *scale > 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: perch-test-compositor [-s SOCKET] [-o NAME:WxH[@SCALE]]... "
			"[--release commit|apply|replace|never] [--lenient-scale] [--layer-shell-version 3|4]\n");
}

int main(int argc, char **argv)
{
	const char *socket = NULL;
	const char *outs[16];
	int n_outs = 0;
	memset(&S, 0, sizeof S);
	S.strict_scale = true;
	S.release_mode = RELEASE_COMMIT;
	S.layer_shell_version = 4;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
			socket = argv[++i];
		} else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc && n_outs < 16) {
			outs[n_outs++] = argv[++i];
		} else if (strcmp(argv[i], "--release") == 0 && i + 1 < argc) {
			const char *m = argv[++i];
			if (strcmp(m, "commit") == 0) S.release_mode = RELEASE_COMMIT;
			else if (strcmp(m, "apply") == 0) S.release_mode = RELEASE_APPLY;
			else if (strcmp(m, "replace") == 0) S.release_mode = RELEASE_REPLACE;
			else if (strcmp(m, "never") == 0) S.release_mode = RELEASE_NEVER;
			else {
				usage();
				return 2;
			}
		} else if (strcmp(argv[i], "--layer-shell-version") == 0 && i + 1 < argc) {
			const char *v = argv[++i];
			if (strcmp(v, "3") == 0) S.layer_shell_version = 3;
			else if (strcmp(v, "4") == 0) S.layer_shell_version = 4;
			else {
				usage();
				return 2;
			}
		} else if (strcmp(argv[i], "--lenient-scale") == 0) {
			S.strict_scale = false;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage();
			return 0;
		} else {
			usage();
			return 2;
		}
	}
	if (!getenv("XDG_RUNTIME_DIR")) {
		fprintf(stderr, "perch-test-compositor: XDG_RUNTIME_DIR is not set\n");
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);

	wl_list_init(&S.clients);
	wl_list_init(&S.surfaces);
	wl_list_init(&S.outputs);
	wl_list_init(&S.held);
	S.display = wl_display_create();
	if (!S.display) {
		fprintf(stderr, "perch-test-compositor: wl_display_create failed\n");
		return 1;
	}
	S.loop = wl_display_get_event_loop(S.display);
	struct wl_protocol_logger *logger = wl_display_add_protocol_logger(S.display, protocol_logger, NULL);
	client_created_listener.notify = client_created;
	wl_display_add_client_created_listener(S.display, &client_created_listener);

	compositor_init();
	if (seat_init() < 0) return 1;
	control_init();
	for (int i = 0; i < n_outs; i++) {
		char name[64];
		int w, h, scale;
		if (!parse_output_spec(outs[i], name, sizeof name, &w, &h, &scale)) {
			fprintf(stderr, "perch-test-compositor: bad output %s (NAME:WxH[@SCALE])\n", outs[i]);
			return 2;
		}
		output_add(name, w, h, scale);
	}
	if (n_outs == 0) output_add("HEADLESS-1", 1280, 720, 1);

	if (socket) {
		if (wl_display_add_socket(S.display, socket) != 0) {
			fprintf(stderr, "perch-test-compositor: cannot listen on %s/%s: %s\n", getenv("XDG_RUNTIME_DIR"),
				socket, strerror(errno));
			return 1;
		}
	} else {
		socket = wl_display_add_socket_auto(S.display);
		if (!socket) {
			fprintf(stderr, "perch-test-compositor: cannot create a Wayland socket\n");
			return 1;
		}
	}
	S.socket = socket;

	fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
	struct wl_event_source *in_src = wl_event_loop_add_fd(S.loop, 0, WL_EVENT_READABLE, stdin_ready, NULL);
	struct wl_event_source *sig_term = wl_event_loop_add_signal(S.loop, SIGTERM, on_signal, NULL);
	struct wl_event_source *sig_int = wl_event_loop_add_signal(S.loop, SIGINT, on_signal, NULL);

	struct jbuf b;
	ev_begin(&b, "ready");
	jb_kstr(&b, "socket", socket);
	jb_kint(&b, "pid", getpid());
	ev_end(&b);

	while (!S.quit) {
		control_tick();
		if (S.quit) break;
		if (in_eof && control_idle()) break;
		wl_display_flush_clients(S.display);
		int timeout = control_sync_pending() ? 5 : (in_eof ? 5 : -1);
		if (wl_event_loop_dispatch(S.loop, timeout) < 0 && errno != EINTR) break;
		if (in_eof && in_src) {
			wl_event_source_remove(in_src);
			in_src = NULL;
		}
	}

	struct jbuf e;
	ev_begin(&e, "exit");
	ev_end(&e);
	wl_display_destroy_clients(S.display);
	if (in_src) wl_event_source_remove(in_src);
	wl_event_source_remove(sig_term);
	wl_event_source_remove(sig_int);
	control_fini();
	compositor_fini();
	outputs_fini();
	wl_protocol_logger_destroy(logger);
	wl_list_remove(&client_created_listener.link);
	wl_display_destroy(S.display);
	seat_fini();
	struct tc_client *tc, *tmp;
	wl_list_for_each_safe(tc, tmp, &S.clients, link) {
		wl_list_remove(&tc->destroy.link);
		free(tc);
	}
	free(in_buf);
	return S.exit_code;
}
