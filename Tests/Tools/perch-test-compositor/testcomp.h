/*
 * perch-test-compositor — shared declarations. See main.c for the command
 * and event reference.
 */
#ifndef PERCH_TEST_COMPOSITOR_H
#define PERCH_TEST_COMPOSITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include <xkbcommon/xkbcommon.h>

#include "viewporter-server-protocol.h"
#include "wlr-layer-shell-unstable-v1-server-protocol.h"

#define TC_MAX_OUTPUTS_ENTERED 16
#define TC_MAX_SERIALS 64
#define TC_MAX_TOUCH 16
#define TC_MAX_KEYS 32

/* ---------------------------------------------------------------- JSON out */

struct jbuf {
	char *data;
	size_t len, cap;
	bool need_comma; /* inside an object/array, after a member */
};

void jb_init(struct jbuf *b);
void jb_free(struct jbuf *b);
void jb_raw(struct jbuf *b, const char *s);
void jb_obj_begin(struct jbuf *b);          /* { */
void jb_obj_end(struct jbuf *b);            /* } */
void jb_arr_begin(struct jbuf *b);          /* [ */
void jb_arr_end(struct jbuf *b);            /* ] */
void jb_key(struct jbuf *b, const char *k); /* "k": (comma first when needed) */
void jb_str(struct jbuf *b, const char *s);
void jb_int(struct jbuf *b, long long v);
void jb_num(struct jbuf *b, double v);
void jb_bool(struct jbuf *b, bool v);
void jb_null(struct jbuf *b);
/* Shorthands: key + value. */
void jb_kstr(struct jbuf *b, const char *k, const char *s);
void jb_kint(struct jbuf *b, const char *k, long long v);
void jb_knum(struct jbuf *b, const char *k, double v);
void jb_kbool(struct jbuf *b, const char *k, bool v);

/* Writes the buffer plus a newline to stdout and flushes; frees it. */
void jb_emit(struct jbuf *b);

/* Starts {"event":NAME and leaves the object open. */
void ev_begin(struct jbuf *b, const char *name);
/* Closes the object and emits it. */
void ev_end(struct jbuf *b);
/* A one-line log event: {"event":"log","message":...}. */
void tc_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ------------------------------------------------------------------ model */

struct tc_client {
	struct wl_client *client;
	int index;
	pid_t pid;
	bool gone;
	struct wl_listener destroy;
	struct wl_list link; /* server.clients */
};

enum rect_op { RECT_ADD, RECT_SUB };
struct region_op {
	enum rect_op op;
	int32_t x, y, w, h;
};
struct region {
	struct region_op *ops;
	int n, cap;
};
void region_init(struct region *r);
void region_fini(struct region *r);
void region_copy(struct region *dst, const struct region *src);
void region_push(struct region *r, enum rect_op op, int32_t x, int32_t y, int32_t w, int32_t h);
bool region_contains(const struct region *r, double x, double y);

struct pixels {
	int32_t width, height; /* buffer pixels */
	uint32_t format;       /* WL_SHM_FORMAT_* */
	uint32_t *data;        /* width*height, 0xAARRGGBB (xrgb: alpha forced 0xff) */
};
void pixels_free(struct pixels *p);

enum state_bits {
	ST_BUFFER = 1 << 0,
	ST_INPUT = 1 << 1,
	ST_SCALE = 1 << 2,
	ST_TRANSFORM = 1 << 3,
	ST_VP_SRC = 1 << 4,
	ST_VP_DST = 1 << 5,
	ST_OPAQUE = 1 << 6,
};

struct surface_state {
	uint32_t committed; /* ST_* set since last commit */
	/* ST_BUFFER */
	struct pixels *pix;   /* copy of the buffer; NULL: attach(NULL) */
	uint64_t buffer_seq;  /* commit sequence number of the copy */
	struct wl_resource *buffer; /* pending only: the attached wl_buffer */
	struct wl_listener buffer_destroy; /* pending only */
	int32_t dx, dy;
	int damage_count;
	/* ST_INPUT */
	bool input_infinite;
	struct region input;
	int32_t scale;
	int32_t transform;
	/* ST_VP_SRC / ST_VP_DST */
	bool src_set;
	double src_x, src_y, src_w, src_h;
	bool dst_set;
	int32_t dst_w, dst_h;
	/* frame callbacks (wl_resource links) */
	struct wl_list frames;
};

enum surface_role { ROLE_NONE, ROLE_SUBSURFACE, ROLE_LAYER, ROLE_TOPLEVEL, ROLE_POPUP };

struct subsurface;
struct layer_surface;
struct shell_surface;
struct wm_base;
struct output;

/* One entry in a parent's stacking list: a child subsurface, or the parent
 * itself (sub == NULL). Bottom to top. */
struct stack_node {
	struct wl_list link;
	struct subsurface *sub;
};

struct surface {
	struct wl_resource *resource;
	struct tc_client *client;
	uint32_t id; /* compositor-wide, from 1 */
	struct wl_list link; /* server.surfaces (creation order) */
	struct surface_state pending, cached, current;
	bool has_cached;
	enum surface_role role;
	struct subsurface *sub;     /* ROLE_SUBSURFACE, NULL once the wl_subsurface died */
	struct layer_surface *layer; /* ROLE_LAYER, NULL once the layer surface died */
	struct shell_surface *xdg;     /* its xdg_surface (xdg.c), NULL before and after one */
	struct wl_list stack;  /* stack_node, bottom to top, includes self_node */
	struct stack_node self_node;
	struct wl_resource *viewport;
	struct output *entered[TC_MAX_OUTPUTS_ENTERED];
	int n_entered;
	uint64_t commits;
	bool has_buffer_ever;
	bool was_mapped;
};

struct subsurface {
	struct wl_resource *resource;
	struct surface *surface; /* the child; NULL when destroyed */
	struct surface *parent;  /* NULL when destroyed */
	struct stack_node node;
	int32_t x, y;       /* current, parent-local */
	int32_t px, py;     /* pending */
	bool pos_pending;
	bool sync;
};

struct layer_state {
	uint32_t anchor;
	uint32_t width, height;
	int32_t exclusive_zone;
	int32_t margin_top, margin_right, margin_bottom, margin_left;
	uint32_t keyboard_interactivity;
	uint32_t layer;
};

struct layer_surface {
	struct wl_resource *resource;
	struct surface *surface; /* NULL when the wl_surface died */
	struct output *output;   /* NULL: not (or no longer) on an output */
	bool output_given;       /* the client named an output */
	char *namespace;
	struct layer_state pending, current;
	bool initial_done;   /* the initial (configure-asking) commit happened */
	bool configured;     /* a configure was acked */
	bool closed;
	uint32_t serials[TC_MAX_SERIALS]; /* sent, not yet acked */
	int n_serials;
	uint32_t last_serial, acked_serial;
	int32_t conf_w, conf_h;    /* last configure sent */
	int32_t natural_w, natural_h; /* size computed from the client's state at the last automatic configure */
	int32_t acked_w, acked_h;  /* size of the last acked configure */
	uint64_t created_seq;
};

enum xdg_kind { XDG_KIND_NONE, XDG_KIND_TOPLEVEL, XDG_KIND_POPUP };

/* An xdg_surface (xdg.c) and the state of its role object. */
struct shell_surface {
	struct wl_resource *resource;
	struct wl_resource *role_resource; /* xdg_toplevel / xdg_popup; NULL when there is none */
	struct surface *surface;           /* NULL once the wl_surface died */
	struct wm_base *base;              /* NULL once the xdg_wm_base died */
	struct wl_list base_link;          /* wm_base.surfaces */
	enum xdg_kind kind;
	bool initial_done;  /* the initial (configure-asking) commit happened */
	bool configured;    /* a configure was acked since then */
	uint32_t serials[TC_MAX_SERIALS]; /* sent, not yet acked */
	int n_serials;
	uint32_t last_serial, acked_serial;
	int32_t conf_w, conf_h;         /* last configure sent (surface-local) */
	int32_t override_w, override_h; /* from a `configure` command; 0: the output's */
	bool geometry_pending, geometry_set;
	int32_t pend_x, pend_y, pend_w, pend_h;
	int32_t geom_x, geom_y, geom_w, geom_h;
	bool want_maximized, want_fullscreen;
	char *title, *app_id;
};

struct output {
	char name[64];
	int32_t width, height; /* mode, buffer pixels */
	int32_t scale;
	int32_t x, y;          /* layout position (logical) */
	struct wl_global *global;
	struct wl_list resources; /* wl_output resources (links) */
	struct wl_list link;      /* server.outputs */
	bool removed;
	struct wl_event_source *destroy_timer;
};

struct touch_point {
	bool active;
	int32_t id;
	struct surface *surface; /* NULL if it went away */
	struct tc_client *client;
};

enum release_mode { RELEASE_COMMIT, RELEASE_APPLY, RELEASE_REPLACE, RELEASE_NEVER };

/* A buffer the compositor holds (release not yet sent). */
struct held_buffer {
	struct wl_resource *buffer;
	struct wl_listener destroy;
	uint32_t surface_id;
	uint64_t seq;
	bool applied;
	struct wl_list link; /* server.held */
};

struct server {
	struct wl_display *display;
	struct wl_event_loop *loop;
	const char *socket;
	struct wl_list clients;
	int next_client_index;
	struct wl_list surfaces;
	uint32_t next_surface_id;
	uint64_t commit_seq;
	uint64_t layer_seq;
	struct wl_list outputs;
	struct wl_list held;
	enum release_mode release_mode;

	/* seat */
	struct wl_global *seat_global;
	uint32_t caps;
	struct wl_list seat_resources, pointers, keyboards, touches;
	double px, py;           /* pointer, global */
	bool pointer_placed;
	struct surface *pointer_focus;
	double pointer_lx, pointer_ly;
	uint32_t buttons[8];
	int n_buttons;
	struct surface *kb_focus;
	struct touch_point touch[TC_MAX_TOUCH];

	struct xkb_context *xkb_ctx;
	struct xkb_keymap *keymap;
	struct xkb_state *xkb_state;
	int keymap_fd;
	uint32_t keymap_size;
	uint32_t keys[TC_MAX_KEYS];
	int n_keys;
	uint32_t mods_depressed, mods_latched, mods_locked, group;

	/* control */
	int64_t last_request_ms;
	struct wl_event_source *autoframe;
	int autoframe_ms;
	bool quit;
	int exit_code;
	bool strict_scale;
	/* The zwlr_layer_shell_v1 version offered (3 or 4; 4 by default). */
	uint32_t layer_shell_version;
};

extern struct server S;

int64_t now_ms(void);
uint32_t time_ms32(void);

/* surface.c */
void compositor_init(void);
void compositor_fini(void);
struct surface *surface_by_id(uint32_t id);
struct surface *surface_from_resource(struct wl_resource *r);
bool surface_mapped(struct surface *s);
void surface_size(struct surface *s, int32_t *w, int32_t *h);
struct surface *surface_root(struct surface *s);
/* Global (layout) position of the surface's top-left; false if it is not
 * placed (no root layer surface on an output). */
bool surface_global_pos(struct surface *s, int32_t *x, int32_t *y);
bool layer_global_pos(struct layer_surface *l, int32_t *x, int32_t *y, int32_t *w, int32_t *h);
/* Surface under a global point (honours input regions and stacking). */
struct surface *surface_at(double gx, double gy, double *lx, double *ly);
int fire_frames(uint32_t time);
void layer_send_configure(struct layer_surface *l, int32_t w, int32_t h);
void layer_close(struct layer_surface *l);
void layer_output_changed(struct output *o);
void output_going(struct output *o);
void release_held(bool all, uint32_t surface_id);
/* After anything that may map, unmap or move surfaces. */
void refresh_all(void);
void surfaces_json(struct jbuf *b);
void surface_one_json(struct jbuf *b, struct surface *s);
const char *role_name(enum surface_role r);
void post_error(struct wl_resource *r, uint32_t code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* xdg.c */
void xdg_init(void);
bool xdg_precommit(struct surface *s);  /* false after a protocol error */
void xdg_postcommit(struct surface *s);
void xdg_surface_gone(struct surface *s);
void toplevels_output_changed(void);
struct shell_surface *toplevel_of(struct surface *s);
struct output *toplevel_output(struct surface *s);
bool toplevel_mapped(struct surface *s);
bool toplevel_global_pos(struct surface *s, int32_t *x, int32_t *y);
int toplevel_configure(struct surface *s, int32_t w, int32_t h, char *err, size_t errlen);
int toplevel_close(struct surface *s, char *err, size_t errlen);
int xdg_ping_all(void);
void xdg_json(struct jbuf *b, struct surface *s);

/* output.c */
struct output *output_add(const char *name, int32_t w, int32_t h, int32_t scale);
void output_remove(struct output *o);
struct output *output_by_name(const char *name);
struct output *output_first(void);
void output_set_mode(struct output *o, int32_t w, int32_t h, int32_t scale);
void outputs_layout(void);
struct wl_resource *output_resource_for(struct output *o, struct wl_client *c);
void outputs_fini(void);
int32_t output_lw(struct output *o);
int32_t output_lh(struct output *o);

/* seat.c */
int seat_init(void);
void seat_fini(void);
void seat_set_caps(uint32_t caps);
void seat_surface_gone(struct surface *s);
void pointer_motion(double x, double y);
void pointer_rebase(void);
int pointer_button(uint32_t button, bool pressed, char *err, size_t errlen);
int touch_down(int32_t id, double x, double y, bool frame, struct surface **hit, char *err, size_t errlen);
int touch_motion(int32_t id, double x, double y, bool frame, char *err, size_t errlen);
int touch_up(int32_t id, bool frame, char *err, size_t errlen);
void touch_frame(void);
void touch_cancel(void);
int keyboard_key(const char *name, bool pressed, char *err, size_t errlen);
void keyboard_focus(struct surface *s);
void seat_focus_on_press(struct surface *s);
void layer_keyboard_changed(struct layer_surface *l);
void seat_toplevel_mapped(struct surface *s);

/* control.c */
void control_init(void);
void control_fini(void);
void control_tick(void);
void control_push_line(const char *line);
bool control_idle(void);          /* nothing queued, no sync pending */
bool control_sync_pending(void);
int control_dump(struct surface *s, const char *path, const char *bg, char *err, size_t errlen);

#endif
