/*
 * perch-test-compositor — xdg_wm_base (v1), xdg_positioner, xdg_surface,
 * xdg_toplevel and xdg_popup: what a nested compositor needs for its window.
 *
 * A wlroots compositor run with WLR_BACKENDS=wayland (sway, labwc) shows
 * each of its outputs as an xdg_toplevel of its parent and takes its input
 * from the parent's seat, the parent's wl_touch included. That is how the
 * touch tests reach a real compositor's touch handling: this compositor
 * injects the touch, the nested one routes it to Perch. wlroots binds
 * xdg_wm_base v1 (0.18 to 0.20), so v1 is what is offered.
 *
 * Window management, in short:
 *   - Every toplevel fills the first output: it is configured to the
 *     output's logical size (or the size a `configure` command gave it)
 *     with the `activated` state, plus `maximized` / `fullscreen` while the
 *     client asks for them, and placed so that its window geometry starts
 *     at the output's top-left. Toplevels stack above the background and
 *     bottom layers and below the top and overlay ones, newer above older.
 *   - A toplevel that maps takes the keyboard focus unless a layer surface
 *     holds it exclusively; a press on it takes it too.
 *   - Interactive move, resize and the window menu are ignored (nothing
 *     here is interactive); minimizing is a hint that is ignored.
 *   - Popups are dismissed as soon as they are made (popup_done): nothing
 *     in the tests opens one, and a dismissal is an answer the protocol
 *     allows at any time.
 *   - The rules of the protocol are enforced as protocol errors: a role
 *     taken twice, a buffer before the first ack_configure, an unknown
 *     serial, a commit without a role object, an xdg_surface destroyed
 *     before its role object, an xdg_wm_base destroyed before its surfaces,
 *     an incomplete positioner, invalid sizes and edges.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "testcomp.h"
#include "xdg-shell-server-protocol.h"

/* One bound xdg_wm_base: its xdg_surfaces (xdg_surface::base_link). */
struct wm_base {
	struct wl_resource *resource;
	struct wl_list surfaces;
};

struct positioner {
	int32_t width, height;
	bool has_size, has_anchor_rect;
	int32_t ax, ay, aw, ah;
	uint32_t anchor, gravity, constraint;
	int32_t off_x, off_y;
};

/* ------------------------------------------------------------- helpers */

static struct tc_client *client_of(struct wl_client *c)
{
	struct tc_client *tc;
	wl_list_for_each(tc, &S.clients, link)
		if (tc->client == c && !tc->gone) return tc;
	return NULL;
}

static void emit_surface_event(const char *name, struct shell_surface *x)
{
	struct jbuf b;
	ev_begin(&b, name);
	jb_kint(&b, "surface", x->surface ? (long long)x->surface->id : -1);
	ev_end(&b);
}

static bool is_toplevel(const struct shell_surface *x)
{
	return x && x->kind == XDG_KIND_TOPLEVEL && x->role_resource;
}

/* The size a toplevel is given: a `configure` command's, else the first
 * output's logical size (0x0, "you choose", without an output). */
static void toplevel_wanted_size(struct shell_surface *x, int32_t *w, int32_t *h)
{
	if (x->override_w > 0 && x->override_h > 0) {
		*w = x->override_w;
		*h = x->override_h;
		return;
	}
	struct output *o = output_first();
	*w = o ? output_lw(o) : 0;
	*h = o ? output_lh(o) : 0;
}

/* A configure sequence: xdg_toplevel.configure, then xdg_surface.configure
 * with a new serial that the client must ack before it commits for it. */
static void toplevel_send_configure(struct shell_surface *x, int32_t w, int32_t h)
{
	if (!is_toplevel(x)) return;
	struct wl_array states;
	wl_array_init(&states);
	uint32_t *st;
	if ((st = wl_array_add(&states, sizeof *st))) *st = XDG_TOPLEVEL_STATE_ACTIVATED;
	if (x->want_maximized && (st = wl_array_add(&states, sizeof *st))) *st = XDG_TOPLEVEL_STATE_MAXIMIZED;
	if (x->want_fullscreen && (st = wl_array_add(&states, sizeof *st))) *st = XDG_TOPLEVEL_STATE_FULLSCREEN;
	xdg_toplevel_send_configure(x->role_resource, w, h, &states);
	wl_array_release(&states);

	uint32_t serial = wl_display_next_serial(S.display);
	if (x->n_serials == TC_MAX_SERIALS) {
		memmove(x->serials, x->serials + 1, sizeof x->serials[0] * (TC_MAX_SERIALS - 1));
		x->n_serials--;
	}
	x->serials[x->n_serials++] = serial;
	x->last_serial = serial;
	x->conf_w = w;
	x->conf_h = h;
	xdg_surface_send_configure(x->resource, serial);
	struct jbuf b;
	ev_begin(&b, "configure");
	jb_kint(&b, "surface", x->surface ? (long long)x->surface->id : -1);
	jb_kint(&b, "serial", serial);
	jb_kint(&b, "width", w);
	jb_kint(&b, "height", h);
	ev_end(&b);
}

/* Configures the toplevel again when what it should be differs from what
 * it was last told (after its initial commit only). */
static void toplevel_reconfigure(struct shell_surface *x, bool force)
{
	if (!is_toplevel(x) || !x->initial_done) return;
	int32_t w, h;
	toplevel_wanted_size(x, &w, &h);
	if (force || w != x->conf_w || h != x->conf_h) toplevel_send_configure(x, w, h);
}

/* Back to the state before the initial commit: a toplevel unmapped by a
 * null buffer, or whose role object went, must start over. */
static void xdg_reset(struct shell_surface *x)
{
	x->initial_done = false;
	x->configured = false;
	x->n_serials = 0;
}

/* ------------------------------------------------------------- queries */

struct output *toplevel_output(struct surface *s)
{
	if (!s || s->role != ROLE_TOPLEVEL || !is_toplevel(s->xdg)) return NULL;
	struct output *o = output_first();
	return o && !o->removed ? o : NULL;
}

bool toplevel_mapped(struct surface *s)
{
	struct shell_surface *x = s ? s->xdg : NULL;
	return is_toplevel(x) && x->configured && s->current.pix && toplevel_output(s);
}

bool toplevel_global_pos(struct surface *s, int32_t *x, int32_t *y)
{
	struct output *o = toplevel_output(s);
	if (!o) return false;
	/* The window geometry's top-left sits on the output's top-left. */
	struct shell_surface *xs = s->xdg;
	*x = o->x - (xs->geometry_set ? xs->geom_x : 0);
	*y = o->y - (xs->geometry_set ? xs->geom_y : 0);
	return true;
}

struct shell_surface *toplevel_of(struct surface *s)
{
	return s && s->role == ROLE_TOPLEVEL && is_toplevel(s->xdg) ? s->xdg : NULL;
}

/* ------------------------------------------------------- surface hooks */

bool xdg_precommit(struct surface *s)
{
	struct shell_surface *x = s->xdg;
	if (!x) return true;
	if (x->kind == XDG_KIND_NONE || !x->role_resource) {
		post_error(x->resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
			   "wl_surface@%u committed while its xdg_surface has no role object",
			   wl_resource_get_id(s->resource));
		return false;
	}
	if ((s->pending.committed & ST_BUFFER) && s->pending.pix && !x->configured) {
		post_error(x->resource, XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
			   "a buffer was committed before the first configure was acked");
		return false;
	}
	if (x->geometry_pending) {
		x->geometry_pending = false;
		x->geometry_set = true;
		x->geom_x = x->pend_x;
		x->geom_y = x->pend_y;
		x->geom_w = x->pend_w;
		x->geom_h = x->pend_h;
	}
	return true;
}

void xdg_postcommit(struct surface *s)
{
	struct shell_surface *x = s->xdg;
	if (!x || !x->role_resource) return;
	if (!x->initial_done) {
		x->initial_done = true;
		if (x->kind == XDG_KIND_TOPLEVEL) toplevel_reconfigure(x, true);
		return;
	}
	if (!s->current.pix && s->was_mapped) xdg_reset(x);
}

void xdg_surface_gone(struct surface *s)
{
	if (s->xdg) s->xdg->surface = NULL;
	s->xdg = NULL;
}

void toplevels_output_changed(void)
{
	struct surface *s;
	wl_list_for_each(s, &S.surfaces, link)
		if (s->role == ROLE_TOPLEVEL) toplevel_reconfigure(s->xdg, false);
}

int toplevel_configure(struct surface *s, int32_t w, int32_t h, char *err, size_t errlen)
{
	struct shell_surface *x = toplevel_of(s);
	if (!x || !x->initial_done) {
		snprintf(err, errlen, "surface %u is not a toplevel past its initial commit", s->id);
		return -1;
	}
	x->override_w = w;
	x->override_h = h;
	toplevel_send_configure(x, w, h);
	return 0;
}

int toplevel_close(struct surface *s, char *err, size_t errlen)
{
	struct shell_surface *x = toplevel_of(s);
	if (!x) {
		snprintf(err, errlen, "surface %u is not a toplevel", s->id);
		return -1;
	}
	xdg_toplevel_send_close(x->role_resource);
	emit_surface_event("toplevel_close", x);
	return 0;
}

/* ---------------------------------------------------------- xdg_popup */

static void popup_res_destroy(struct wl_resource *r)
{
	struct shell_surface *x = wl_resource_get_user_data(r);
	if (!x) return;
	x->role_resource = NULL;
	xdg_reset(x);
	refresh_all();
}

static void popup_destroy(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static void popup_grab(struct wl_client *c, struct wl_resource *r, struct wl_resource *seat, uint32_t serial)
{
	/* Already dismissed: a grab has nothing to hold. */
	(void)c; (void)r; (void)seat; (void)serial;
}

static const struct xdg_popup_interface popup_impl = {
	.destroy = popup_destroy,
	.grab = popup_grab,
};

/* --------------------------------------------------------- xdg_toplevel */

static void toplevel_res_destroy(struct wl_resource *r)
{
	struct shell_surface *x = wl_resource_get_user_data(r);
	if (!x) return;
	x->role_resource = NULL;
	xdg_reset(x);
	emit_surface_event("toplevel_destroyed", x);
	refresh_all();
}

static void toplevel_destroy(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static void toplevel_set_parent(struct wl_client *c, struct wl_resource *r, struct wl_resource *parent)
{
	/* Every toplevel fills the output: a parent changes nothing here. */
	(void)c; (void)r; (void)parent;
}

static void set_string(char **dst, const char *s)
{
	free(*dst);
	*dst = strdup(s ? s : "");
}

static void toplevel_set_title(struct wl_client *c, struct wl_resource *r, const char *title)
{
	(void)c;
	struct shell_surface *x = wl_resource_get_user_data(r);
	if (x) set_string(&x->title, title);
}

static void toplevel_set_app_id(struct wl_client *c, struct wl_resource *r, const char *app_id)
{
	(void)c;
	struct shell_surface *x = wl_resource_get_user_data(r);
	if (x) set_string(&x->app_id, app_id);
}

static void toplevel_show_window_menu(struct wl_client *c, struct wl_resource *r, struct wl_resource *seat,
				      uint32_t serial, int32_t x, int32_t y)
{
	(void)c; (void)r; (void)seat; (void)serial; (void)x; (void)y;
}

static void toplevel_move(struct wl_client *c, struct wl_resource *r, struct wl_resource *seat, uint32_t serial)
{
	(void)c; (void)r; (void)seat; (void)serial;
}

static void toplevel_resize(struct wl_client *c, struct wl_resource *r, struct wl_resource *seat, uint32_t serial,
			    uint32_t edges)
{
	(void)c; (void)seat; (void)serial;
	switch (edges) {
	case XDG_TOPLEVEL_RESIZE_EDGE_NONE: case XDG_TOPLEVEL_RESIZE_EDGE_TOP: case XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM:
	case XDG_TOPLEVEL_RESIZE_EDGE_LEFT: case XDG_TOPLEVEL_RESIZE_EDGE_TOP_LEFT:
	case XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_LEFT: case XDG_TOPLEVEL_RESIZE_EDGE_RIGHT:
	case XDG_TOPLEVEL_RESIZE_EDGE_TOP_RIGHT: case XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT:
		return; /* valid; nothing here resizes interactively */
	default:
		post_error(r, XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE, "invalid resize edge %u", edges);
	}
}

static void toplevel_set_limit(struct wl_resource *r, const char *what, int32_t w, int32_t h)
{
	if (w < 0 || h < 0)
		post_error(r, XDG_TOPLEVEL_ERROR_INVALID_SIZE, "%s %dx%d is negative", what, w, h);
	/* Otherwise a hint: every toplevel is given the output's size. */
}

static void toplevel_set_max_size(struct wl_client *c, struct wl_resource *r, int32_t w, int32_t h)
{
	(void)c;
	toplevel_set_limit(r, "maximum size", w, h);
}

static void toplevel_set_min_size(struct wl_client *c, struct wl_resource *r, int32_t w, int32_t h)
{
	(void)c;
	toplevel_set_limit(r, "minimum size", w, h);
}

/* The protocol asks for a configure in answer to each of these, whether or
 * not the state changes. Before the initial commit the initial configure
 * carries it. (A role object whose xdg_surface is gone has no state: its
 * client is being disconnected.) */
enum wish { WISH_MAXIMIZED, WISH_FULLSCREEN };

static void toplevel_want(struct wl_resource *r, enum wish wish, bool on)
{
	struct shell_surface *x = wl_resource_get_user_data(r);
	if (!x) return;
	if (wish == WISH_MAXIMIZED) x->want_maximized = on;
	else x->want_fullscreen = on;
	toplevel_reconfigure(x, true);
}

static void toplevel_set_maximized(struct wl_client *c, struct wl_resource *r)
{
	(void)c;
	toplevel_want(r, WISH_MAXIMIZED, true);
}

static void toplevel_unset_maximized(struct wl_client *c, struct wl_resource *r)
{
	(void)c;
	toplevel_want(r, WISH_MAXIMIZED, false);
}

static void toplevel_set_fullscreen(struct wl_client *c, struct wl_resource *r, struct wl_resource *output)
{
	(void)c; (void)output; /* there is one place for a toplevel: the first output */
	toplevel_want(r, WISH_FULLSCREEN, true);
}

static void toplevel_unset_fullscreen(struct wl_client *c, struct wl_resource *r)
{
	(void)c;
	toplevel_want(r, WISH_FULLSCREEN, false);
}

static void toplevel_set_minimized(struct wl_client *c, struct wl_resource *r) { (void)c; (void)r; }

static const struct xdg_toplevel_interface toplevel_impl = {
	.destroy = toplevel_destroy,
	.set_parent = toplevel_set_parent,
	.set_title = toplevel_set_title,
	.set_app_id = toplevel_set_app_id,
	.show_window_menu = toplevel_show_window_menu,
	.move = toplevel_move,
	.resize = toplevel_resize,
	.set_max_size = toplevel_set_max_size,
	.set_min_size = toplevel_set_min_size,
	.set_maximized = toplevel_set_maximized,
	.unset_maximized = toplevel_unset_maximized,
	.set_fullscreen = toplevel_set_fullscreen,
	.unset_fullscreen = toplevel_unset_fullscreen,
	.set_minimized = toplevel_set_minimized,
};

/* ----------------------------------------------------------- xdg_surface */

static void xsurface_res_destroy(struct wl_resource *r)
{
	struct shell_surface *x = wl_resource_get_user_data(r);
	/* A role object outliving its xdg_surface (after a protocol error, or
	 * when the client goes) must not reach freed memory. */
	if (x->role_resource) wl_resource_set_user_data(x->role_resource, NULL);
	if (x->surface) x->surface->xdg = NULL;
	wl_list_remove(&x->base_link);
	free(x->title);
	free(x->app_id);
	free(x);
	refresh_all();
}

static void xsurface_destroy(struct wl_client *c, struct wl_resource *r)
{
	(void)c;
	struct shell_surface *x = wl_resource_get_user_data(r);
	if (x->role_resource) {
		post_error(r, XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT,
			   "xdg_surface destroyed before its role object");
		return;
	}
	wl_resource_destroy(r);
}

/* Checks common to get_toplevel and get_popup; the surface's role. */
static bool xsurface_take_role(struct shell_surface *x, enum xdg_kind kind, enum surface_role role)
{
	if (x->role_resource) {
		post_error(x->resource, XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED, "the xdg_surface already has a role object");
		return false;
	}
	if (!x->surface) {
		post_error(x->resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED, "the wl_surface of this xdg_surface is gone");
		return false;
	}
	struct surface *s = x->surface;
	if (s->role != ROLE_NONE && s->role != role) {
		post_error(x->base ? x->base->resource : x->resource, XDG_WM_BASE_ERROR_ROLE,
			   "wl_surface@%u already has the %s role", wl_resource_get_id(s->resource), role_name(s->role));
		return false;
	}
	x->kind = kind;
	s->role = role;
	xdg_reset(x);
	return true;
}

static void xsurface_get_toplevel(struct wl_client *c, struct wl_resource *r, uint32_t id)
{
	struct shell_surface *x = wl_resource_get_user_data(r);
	if (!xsurface_take_role(x, XDG_KIND_TOPLEVEL, ROLE_TOPLEVEL)) return;
	struct wl_resource *t = wl_resource_create(c, &xdg_toplevel_interface, wl_resource_get_version(r), id);
	if (!t) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(t, &toplevel_impl, x, toplevel_res_destroy);
	x->role_resource = t;
	struct jbuf b;
	ev_begin(&b, "role");
	jb_kint(&b, "surface", x->surface->id);
	jb_kstr(&b, "role", "toplevel");
	ev_end(&b);
}

static void xsurface_get_popup(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *parent,
			       struct wl_resource *positioner)
{
	(void)parent; /* may be null (another protocol names it); dismissed either way */
	struct shell_surface *x = wl_resource_get_user_data(r);
	struct positioner *p = wl_resource_get_user_data(positioner);
	if (!p->has_size || !p->has_anchor_rect) {
		post_error(x->base ? x->base->resource : r, XDG_WM_BASE_ERROR_INVALID_POSITIONER,
			   "the positioner has no %s", p->has_size ? "anchor rectangle" : "size");
		return;
	}
	if (!xsurface_take_role(x, XDG_KIND_POPUP, ROLE_POPUP)) return;
	struct wl_resource *pr = wl_resource_create(c, &xdg_popup_interface, wl_resource_get_version(r), id);
	if (!pr) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(pr, &popup_impl, x, popup_res_destroy);
	x->role_resource = pr;
	struct jbuf b;
	ev_begin(&b, "role");
	jb_kint(&b, "surface", x->surface->id);
	jb_kstr(&b, "role", "popup");
	ev_end(&b);
	xdg_popup_send_popup_done(pr);
	emit_surface_event("popup_done", x);
}

static void xsurface_set_window_geometry(struct wl_client *c, struct wl_resource *r, int32_t x0, int32_t y0,
					 int32_t w, int32_t h)
{
	(void)c;
	struct shell_surface *x = wl_resource_get_user_data(r);
	if (w <= 0 || h <= 0) {
		post_error(r, XDG_SURFACE_ERROR_INVALID_SIZE, "window geometry %dx%d is not positive", w, h);
		return;
	}
	x->geometry_pending = true;
	x->pend_x = x0;
	x->pend_y = y0;
	x->pend_w = w;
	x->pend_h = h;
}

static void xsurface_ack_configure(struct wl_client *c, struct wl_resource *r, uint32_t serial)
{
	(void)c;
	struct shell_surface *x = wl_resource_get_user_data(r);
	int found = -1;
	for (int i = 0; i < x->n_serials; i++)
		if (x->serials[i] == serial) found = i;
	if (found < 0) {
		post_error(r, XDG_SURFACE_ERROR_INVALID_SERIAL, "wrong configure serial: %u", serial);
		return;
	}
	/* Acking one consumes it and every earlier one. */
	memmove(x->serials, x->serials + found + 1, sizeof x->serials[0] * (size_t)(x->n_serials - found - 1));
	x->n_serials -= found + 1;
	x->configured = true;
	x->acked_serial = serial;
	struct jbuf b;
	ev_begin(&b, "ack_configure");
	jb_kint(&b, "surface", x->surface ? (long long)x->surface->id : -1);
	jb_kint(&b, "serial", serial);
	ev_end(&b);
}

static const struct xdg_surface_interface xsurface_impl = {
	.destroy = xsurface_destroy,
	.get_toplevel = xsurface_get_toplevel,
	.get_popup = xsurface_get_popup,
	.set_window_geometry = xsurface_set_window_geometry,
	.ack_configure = xsurface_ack_configure,
};

/* -------------------------------------------------------- xdg_positioner */

static void positioner_res_destroy(struct wl_resource *r) { free(wl_resource_get_user_data(r)); }

static void positioner_destroy(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static void positioner_set_size(struct wl_client *c, struct wl_resource *r, int32_t w, int32_t h)
{
	(void)c;
	struct positioner *p = wl_resource_get_user_data(r);
	if (w <= 0 || h <= 0) {
		post_error(r, XDG_POSITIONER_ERROR_INVALID_INPUT, "size %dx%d is not positive", w, h);
		return;
	}
	p->width = w;
	p->height = h;
	p->has_size = true;
}

static void positioner_set_anchor_rect(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w,
				       int32_t h)
{
	(void)c;
	struct positioner *p = wl_resource_get_user_data(r);
	if (w < 0 || h < 0) {
		post_error(r, XDG_POSITIONER_ERROR_INVALID_INPUT, "anchor rectangle %dx%d is negative", w, h);
		return;
	}
	p->ax = x;
	p->ay = y;
	p->aw = w;
	p->ah = h;
	p->has_anchor_rect = true;
}

static void positioner_set_anchor(struct wl_client *c, struct wl_resource *r, uint32_t anchor)
{
	(void)c;
	struct positioner *p = wl_resource_get_user_data(r);
	if (anchor > XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT) {
		post_error(r, XDG_POSITIONER_ERROR_INVALID_INPUT, "invalid anchor %u", anchor);
		return;
	}
	p->anchor = anchor;
}

static void positioner_set_gravity(struct wl_client *c, struct wl_resource *r, uint32_t gravity)
{
	(void)c;
	struct positioner *p = wl_resource_get_user_data(r);
	if (gravity > XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT) {
		post_error(r, XDG_POSITIONER_ERROR_INVALID_INPUT, "invalid gravity %u", gravity);
		return;
	}
	p->gravity = gravity;
}

static void positioner_set_constraint_adjustment(struct wl_client *c, struct wl_resource *r, uint32_t adj)
{
	(void)c;
	struct positioner *p = wl_resource_get_user_data(r);
	p->constraint = adj;
}

static void positioner_set_offset(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y)
{
	(void)c;
	struct positioner *p = wl_resource_get_user_data(r);
	p->off_x = x;
	p->off_y = y;
}

static const struct xdg_positioner_interface positioner_impl = {
	.destroy = positioner_destroy,
	.set_size = positioner_set_size,
	.set_anchor_rect = positioner_set_anchor_rect,
	.set_anchor = positioner_set_anchor,
	.set_gravity = positioner_set_gravity,
	.set_constraint_adjustment = positioner_set_constraint_adjustment,
	.set_offset = positioner_set_offset,
};

/* ---------------------------------------------------------- xdg_wm_base */

static void base_res_destroy(struct wl_resource *r)
{
	struct wm_base *base = wl_resource_get_user_data(r);
	struct shell_surface *x, *tmp;
	wl_list_for_each_safe(x, tmp, &base->surfaces, base_link) {
		x->base = NULL;
		wl_list_remove(&x->base_link);
		wl_list_init(&x->base_link);
	}
	free(base);
}

static void base_destroy(struct wl_client *c, struct wl_resource *r)
{
	(void)c;
	struct wm_base *base = wl_resource_get_user_data(r);
	if (!wl_list_empty(&base->surfaces)) {
		post_error(r, XDG_WM_BASE_ERROR_DEFUNCT_SURFACES, "xdg_wm_base destroyed before its %d xdg_surfaces",
			   wl_list_length(&base->surfaces));
		return;
	}
	wl_resource_destroy(r);
}

static void base_create_positioner(struct wl_client *c, struct wl_resource *r, uint32_t id)
{
	struct positioner *p = calloc(1, sizeof *p);
	struct wl_resource *pr = p ? wl_resource_create(c, &xdg_positioner_interface, wl_resource_get_version(r), id)
				   : NULL;
	if (!pr) {
		free(p);
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(pr, &positioner_impl, p, positioner_res_destroy);
}

static void base_get_xdg_surface(struct wl_client *c, struct wl_resource *r, uint32_t id,
				 struct wl_resource *surface_res)
{
	struct wm_base *base = wl_resource_get_user_data(r);
	struct surface *s = wl_resource_get_user_data(surface_res);
	if (s->xdg || (s->role != ROLE_NONE && s->role != ROLE_TOPLEVEL && s->role != ROLE_POPUP)) {
		post_error(r, XDG_WM_BASE_ERROR_ROLE, "wl_surface@%u already has %s", wl_resource_get_id(surface_res),
			   s->xdg ? "an xdg_surface" : role_name(s->role));
		return;
	}
	if (s->current.pix || s->has_cached || ((s->pending.committed & ST_BUFFER) && s->pending.buffer)) {
		post_error(r, XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE, "wl_surface@%u has a buffer attached or committed",
			   wl_resource_get_id(surface_res));
		return;
	}
	struct shell_surface *x = calloc(1, sizeof *x);
	if (!x) {
		wl_client_post_no_memory(c);
		return;
	}
	x->resource = wl_resource_create(c, &xdg_surface_interface, wl_resource_get_version(r), id);
	if (!x->resource) {
		free(x);
		wl_client_post_no_memory(c);
		return;
	}
	x->surface = s;
	x->base = base;
	wl_list_insert(base->surfaces.prev, &x->base_link);
	s->xdg = x;
	wl_resource_set_implementation(x->resource, &xsurface_impl, x, xsurface_res_destroy);
}

static void base_pong(struct wl_client *c, struct wl_resource *r, uint32_t serial)
{
	(void)r;
	struct tc_client *tc = client_of(c);
	struct jbuf b;
	ev_begin(&b, "pong");
	jb_kint(&b, "client", tc ? tc->index : -1);
	jb_kint(&b, "serial", serial);
	ev_end(&b);
}

static const struct xdg_wm_base_interface base_impl = {
	.destroy = base_destroy,
	.create_positioner = base_create_positioner,
	.get_xdg_surface = base_get_xdg_surface,
	.pong = base_pong,
};

static struct wl_list bases; /* wm_base resources (links), for ping */

static void base_unlink(struct wl_resource *r)
{
	wl_list_remove(wl_resource_get_link(r));
	base_res_destroy(r);
}

static void bind_wm_base(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wm_base *base = calloc(1, sizeof *base);
	struct wl_resource *r = base ? wl_resource_create(c, &xdg_wm_base_interface, version, id) : NULL;
	if (!r) {
		free(base);
		wl_client_post_no_memory(c);
		return;
	}
	base->resource = r;
	wl_list_init(&base->surfaces);
	wl_resource_set_implementation(r, &base_impl, base, base_unlink);
	wl_list_insert(bases.prev, wl_resource_get_link(r));
	struct tc_client *tc = client_of(c);
	struct jbuf b;
	ev_begin(&b, "bind");
	jb_kint(&b, "client", tc ? tc->index : -1);
	jb_kstr(&b, "interface", "xdg_wm_base");
	jb_kint(&b, "version", version);
	ev_end(&b);
}

int xdg_ping_all(void)
{
	int n = 0;
	struct wl_resource *r;
	wl_resource_for_each(r, &bases) {
		xdg_wm_base_send_ping(r, wl_display_next_serial(S.display));
		n++;
	}
	return n;
}

void xdg_init(void)
{
	wl_list_init(&bases);
	wl_global_create(S.display, &xdg_wm_base_interface, 1, NULL, bind_wm_base);
}

/* ------------------------------------------------------------ JSON dump */

void xdg_json(struct jbuf *b, struct surface *s)
{
	struct shell_surface *x = s->xdg;
	if (s->role == ROLE_POPUP) {
		jb_key(b, "popup");
		jb_obj_begin(b);
		jb_kbool(b, "dismissed", true);
		jb_obj_end(b);
		return;
	}
	if (s->role != ROLE_TOPLEVEL) return;
	jb_key(b, "toplevel");
	if (!x) {
		jb_null(b);
		return;
	}
	jb_obj_begin(b);
	jb_kstr(b, "title", x->title ? x->title : "");
	jb_kstr(b, "app_id", x->app_id ? x->app_id : "");
	jb_kbool(b, "alive", x->role_resource != NULL);
	jb_key(b, "configured_size");
	jb_arr_begin(b);
	jb_int(b, x->conf_w);
	jb_int(b, x->conf_h);
	jb_arr_end(b);
	jb_kint(b, "last_serial", x->last_serial);
	jb_kint(b, "acked_serial", x->acked_serial);
	jb_kbool(b, "configured", x->configured);
	jb_kint(b, "unacked", x->n_serials);
	jb_kbool(b, "maximized", x->want_maximized);
	jb_kbool(b, "fullscreen", x->want_fullscreen);
	jb_key(b, "geometry");
	if (x->geometry_set) {
		jb_arr_begin(b);
		jb_int(b, x->geom_x);
		jb_int(b, x->geom_y);
		jb_int(b, x->geom_w);
		jb_int(b, x->geom_h);
		jb_arr_end(b);
	} else {
		jb_null(b);
	}
	struct output *o = toplevel_output(s);
	jb_key(b, "output");
	if (o) jb_str(b, o->name);
	else jb_null(b);
	jb_obj_end(b);
}
