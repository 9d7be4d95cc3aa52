/*
 * perch-test-compositor — wl_compositor, wl_region, wl_surface,
 * wl_subcompositor/wl_subsurface, wp_viewporter/wp_viewport,
 * zwlr_layer_shell_v1/zwlr_layer_surface_v1, buffer copies and releases.
 * (xdg-shell's roles are in xdg.c.)
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "testcomp.h"

/* ------------------------------------------------------------- utilities */

void post_error(struct wl_resource *r, uint32_t code, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	/* The protocol logger reports it on stdout (protocol_error event). */
	wl_resource_post_error(r, code, "%s", msg);
}

const char *role_name(enum surface_role r)
{
	switch (r) {
	case ROLE_SUBSURFACE: return "subsurface";
	case ROLE_LAYER: return "layer";
	case ROLE_TOPLEVEL: return "toplevel";
	case ROLE_POPUP: return "popup";
	default: return "none";
	}
}

void region_init(struct region *r) { r->ops = NULL; r->n = r->cap = 0; }
void region_fini(struct region *r) { free(r->ops); region_init(r); }

void region_push(struct region *r, enum rect_op op, int32_t x, int32_t y, int32_t w, int32_t h)
{
	if (r->n == r->cap) {
		int cap = r->cap ? r->cap * 2 : 4;
		struct region_op *ops = realloc(r->ops, (size_t)cap * sizeof *ops);
		if (!ops) return;
		r->ops = ops;
		r->cap = cap;
	}
	r->ops[r->n++] = (struct region_op){ op, x, y, w, h };
}

void region_copy(struct region *dst, const struct region *src)
{
	dst->n = 0;
	for (int i = 0; i < src->n; i++)
		region_push(dst, src->ops[i].op, src->ops[i].x, src->ops[i].y, src->ops[i].w, src->ops[i].h);
}

bool region_contains(const struct region *r, double x, double y)
{
	bool in = false;
	for (int i = 0; i < r->n; i++) {
		const struct region_op *o = &r->ops[i];
		if (o->w <= 0 || o->h <= 0) continue;
		if (x >= o->x && x < (double)o->x + o->w && y >= o->y && y < (double)o->y + o->h)
			in = (o->op == RECT_ADD);
	}
	return in;
}

void pixels_free(struct pixels *p)
{
	if (!p) return;
	free(p->data);
	free(p);
}

static struct tc_client *client_of(struct wl_client *c)
{
	struct tc_client *tc;
	wl_list_for_each(tc, &S.clients, link)
		if (tc->client == c && !tc->gone) return tc;
	return NULL;
}

/* ------------------------------------------------------------- wl_region */

static void region_res_destroy(struct wl_resource *r)
{
	struct region *reg = wl_resource_get_user_data(r);
	region_fini(reg);
	free(reg);
}

static void region_destroy(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static void region_add(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h)
{
	(void)c;
	region_push(wl_resource_get_user_data(r), RECT_ADD, x, y, w, h);
}

static void region_subtract(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h)
{
	(void)c;
	region_push(wl_resource_get_user_data(r), RECT_SUB, x, y, w, h);
}

static const struct wl_region_interface region_impl = {
	.destroy = region_destroy,
	.add = region_add,
	.subtract = region_subtract,
};

/* ---------------------------------------------------------- surface state */

static void state_init(struct surface_state *st)
{
	memset(st, 0, sizeof *st);
	st->scale = 1;
	st->input_infinite = true;
	region_init(&st->input);
	wl_list_init(&st->frames);
	wl_list_init(&st->buffer_destroy.link);
}

static void state_fini(struct surface_state *st)
{
	pixels_free(st->pix);
	st->pix = NULL;
	region_fini(&st->input);
	struct wl_resource *cb, *tmp;
	wl_resource_for_each_safe(cb, tmp, &st->frames)
		wl_resource_destroy(cb);
	wl_list_remove(&st->buffer_destroy.link);
	wl_list_init(&st->buffer_destroy.link);
	st->buffer = NULL;
}

/* Moves what src committed into dst (src -> dst, src is emptied). */
static void state_move(struct surface_state *dst, struct surface_state *src)
{
	uint32_t c = src->committed;
	if (c & ST_BUFFER) {
		pixels_free(dst->pix);
		dst->pix = src->pix;
		src->pix = NULL;
		dst->buffer_seq = src->buffer_seq;
		dst->dx = src->dx;
		dst->dy = src->dy;
	}
	if (c & ST_INPUT) {
		dst->input_infinite = src->input_infinite;
		region_copy(&dst->input, &src->input);
	}
	if (c & ST_SCALE) dst->scale = src->scale;
	if (c & ST_TRANSFORM) dst->transform = src->transform;
	if (c & ST_VP_SRC) {
		dst->src_set = src->src_set;
		dst->src_x = src->src_x; dst->src_y = src->src_y;
		dst->src_w = src->src_w; dst->src_h = src->src_h;
	}
	if (c & ST_VP_DST) {
		dst->dst_set = src->dst_set;
		dst->dst_w = src->dst_w; dst->dst_h = src->dst_h;
	}
	dst->damage_count += src->damage_count;
	src->damage_count = 0;
	wl_list_insert_list(dst->frames.prev, &src->frames);
	wl_list_init(&src->frames);
	dst->committed |= c;
	src->committed = 0;
}

/* --------------------------------------------------------- held buffers */

static void held_free(struct held_buffer *h)
{
	wl_list_remove(&h->destroy.link);
	wl_list_remove(&h->link);
	free(h);
}

static void held_buffer_destroyed(struct wl_listener *l, void *data)
{
	(void)data;
	struct held_buffer *h = wl_container_of(l, h, destroy);
	held_free(h);
}

static void held_release(struct held_buffer *h)
{
	struct jbuf b;
	ev_begin(&b, "release");
	jb_kint(&b, "surface", h->surface_id);
	jb_kint(&b, "buffer", wl_resource_get_id(h->buffer));
	ev_end(&b);
	wl_buffer_send_release(h->buffer);
	held_free(h);
}

static void hold_buffer(struct wl_resource *buffer, uint32_t surface_id, uint64_t seq)
{
	struct held_buffer *h = calloc(1, sizeof *h);
	if (!h) return;
	h->buffer = buffer;
	h->surface_id = surface_id;
	h->seq = seq;
	h->destroy.notify = held_buffer_destroyed;
	wl_resource_add_destroy_listener(buffer, &h->destroy);
	wl_list_insert(S.held.prev, &h->link);
}

void release_held(bool all, uint32_t surface_id)
{
	struct held_buffer *h, *tmp;
	wl_list_for_each_safe(h, tmp, &S.held, link)
		if (all || h->surface_id == surface_id) held_release(h);
}

/* A surface's state with buffer `seq` was applied. */
static void held_applied(struct surface *s, uint64_t seq, bool new_buffer)
{
	struct held_buffer *h, *tmp;
	wl_list_for_each_safe(h, tmp, &S.held, link) {
		if (h->surface_id != s->id) continue;
		if (S.release_mode == RELEASE_APPLY && h->seq <= seq) held_release(h);
		else if (S.release_mode == RELEASE_REPLACE && new_buffer && h->seq < seq) held_release(h);
	}
}

/* ---------------------------------------------------------------- queries */

struct surface *surface_by_id(uint32_t id)
{
	struct surface *s;
	wl_list_for_each(s, &S.surfaces, link)
		if (s->id == id) return s;
	return NULL;
}

static const struct wl_surface_interface surface_impl;

struct surface *surface_from_resource(struct wl_resource *r)
{
	if (!r || !wl_resource_instance_of(r, &wl_surface_interface, &surface_impl)) return NULL;
	return wl_resource_get_user_data(r);
}

bool surface_mapped(struct surface *s)
{
	if (!s || !s->current.pix) return false;
	if (s->client && s->client->gone) return false; /* being torn down */
	switch (s->role) {
	case ROLE_LAYER: {
		struct layer_surface *l = s->layer;
		return l && !l->closed && l->configured && l->output && !l->output->removed;
	}
	case ROLE_SUBSURFACE:
		return s->sub && s->sub->parent && surface_mapped(s->sub->parent);
	case ROLE_TOPLEVEL:
		return toplevel_mapped(s);
	default: /* popups are dismissed before they can map */
		return false;
	}
}

void surface_size(struct surface *s, int32_t *w, int32_t *h)
{
	struct surface_state *c = &s->current;
	*w = *h = 0;
	if (!c->pix) return;
	if (c->dst_set) {
		*w = c->dst_w;
		*h = c->dst_h;
	} else if (c->src_set) {
		*w = (int32_t)c->src_w;
		*h = (int32_t)c->src_h;
	} else {
		int32_t bw = c->pix->width, bh = c->pix->height;
		if (c->transform & 1) { int32_t t = bw; bw = bh; bh = t; }
		*w = bw / (c->scale > 0 ? c->scale : 1);
		*h = bh / (c->scale > 0 ? c->scale : 1);
	}
}

struct surface *surface_root(struct surface *s)
{
	int guard = 0;
	while (s && s->role == ROLE_SUBSURFACE && s->sub && s->sub->parent && guard++ < 1000)
		s = s->sub->parent;
	return s;
}

/* Sway's arrange_layer, without exclusive zones of other surfaces. */
bool layer_global_pos(struct layer_surface *l, int32_t *x, int32_t *y, int32_t *w, int32_t *h)
{
	struct output *o = l->output;
	if (!o || o->removed) return false;
	const struct layer_state *st = &l->current;
	int32_t bx = o->x, by = o->y, bw = output_lw(o), bh = output_lh(o);
	int32_t boxw = (int32_t)st->width, boxh = (int32_t)st->height;
	int32_t bxp, byp;
	const uint32_t L = ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT, R = ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;
	const uint32_t T = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP, B = ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM;
	if (boxw == 0) bxp = bx;
	else if ((st->anchor & (L | R)) == (L | R)) bxp = bx + bw / 2 - boxw / 2;
	else if (st->anchor & L) bxp = bx;
	else if (st->anchor & R) bxp = bx + (bw - boxw);
	else bxp = bx + bw / 2 - boxw / 2;
	if (boxh == 0) byp = by;
	else if ((st->anchor & (T | B)) == (T | B)) byp = by + bh / 2 - boxh / 2;
	else if (st->anchor & T) byp = by;
	else if (st->anchor & B) byp = by + (bh - boxh);
	else byp = by + bh / 2 - boxh / 2;
	if (boxw == 0) {
		bxp += st->margin_left;
		boxw = bw - (st->margin_left + st->margin_right);
	} else if ((st->anchor & (L | R)) == (L | R)) {
		/* centred, margins ignored */
	} else if (st->anchor & L) {
		bxp += st->margin_left;
	} else if (st->anchor & R) {
		bxp -= st->margin_right;
	}
	if (boxh == 0) {
		byp += st->margin_top;
		boxh = bh - (st->margin_top + st->margin_bottom);
	} else if ((st->anchor & (T | B)) == (T | B)) {
	} else if (st->anchor & T) {
		byp += st->margin_top;
	} else if (st->anchor & B) {
		byp -= st->margin_bottom;
	}
	if (x) *x = bxp;
	if (y) *y = byp;
	if (w) *w = boxw;
	if (h) *h = boxh;
	return true;
}

bool surface_global_pos(struct surface *s, int32_t *x, int32_t *y)
{
	int32_t ax = 0, ay = 0;
	int guard = 0;
	while (s && s->role == ROLE_SUBSURFACE && guard++ < 1000) {
		if (!s->sub || !s->sub->parent) return false;
		ax += s->sub->x;
		ay += s->sub->y;
		s = s->sub->parent;
	}
	int32_t lx, ly;
	if (s && s->role == ROLE_TOPLEVEL) {
		if (!toplevel_global_pos(s, &lx, &ly)) return false;
		*x = ax + lx;
		*y = ay + ly;
		return true;
	}
	if (!s || s->role != ROLE_LAYER || !s->layer) return false;
	if (!layer_global_pos(s->layer, &lx, &ly, NULL, NULL)) return false;
	*x = ax + lx;
	*y = ay + ly;
	return true;
}

static bool surface_accepts(struct surface *s, double x, double y)
{
	int32_t w, h;
	surface_size(s, &w, &h);
	if (x < 0 || y < 0 || x >= w || y >= h) return false;
	if (s->current.input_infinite) return true;
	return region_contains(&s->current.input, x, y);
}

static struct surface *tree_at(struct surface *s, double x, double y, double *lx, double *ly)
{
	struct stack_node *n;
	wl_list_for_each_reverse(n, &s->stack, link) {
		if (n->sub) {
			struct surface *c = n->sub->surface;
			if (!c || !surface_mapped(c)) continue;
			struct surface *hit = tree_at(c, x - n->sub->x, y - n->sub->y, lx, ly);
			if (hit) return hit;
		} else if (surface_accepts(s, x, y)) {
			*lx = x;
			*ly = y;
			return s;
		}
	}
	return NULL;
}

static struct surface *toplevel_at(double gx, double gy, double *lx, double *ly)
{
	struct surface *s;
	wl_list_for_each_reverse(s, &S.surfaces, link) {
		if (s->role != ROLE_TOPLEVEL || !surface_mapped(s)) continue;
		int32_t ox, oy;
		if (!toplevel_global_pos(s, &ox, &oy)) continue;
		struct surface *hit = tree_at(s, gx - ox, gy - oy, lx, ly);
		if (hit) return hit;
	}
	return NULL;
}

/* Top to bottom: overlay and top layers, toplevels (newest first), then
 * the bottom and background layers, as sway stacks them. */
struct surface *surface_at(double gx, double gy, double *lx, double *ly)
{
	for (int layer = 3; layer >= 0; layer--) {
		if (layer == 1) {
			struct surface *hit = toplevel_at(gx, gy, lx, ly);
			if (hit) return hit;
		}
		struct surface *s;
		wl_list_for_each_reverse(s, &S.surfaces, link) {
			if (s->role != ROLE_LAYER || !s->layer || !surface_mapped(s)) continue;
			if ((int)s->layer->current.layer != layer) continue;
			int32_t ox, oy;
			if (!layer_global_pos(s->layer, &ox, &oy, NULL, NULL)) continue;
			struct surface *hit = tree_at(s, gx - ox, gy - oy, lx, ly);
			if (hit) return hit;
		}
	}
	return NULL;
}

/* ------------------------------------------------------- output tracking */

static void surface_send_enter_leave(struct surface *s, struct output *o, bool enter)
{
	if (s->client && s->client->gone) return;
	struct wl_resource *r;
	wl_resource_for_each(r, &o->resources) {
		if (wl_resource_get_client(r) != wl_resource_get_client(s->resource)) continue;
		if (enter) wl_surface_send_enter(s->resource, r);
		else wl_surface_send_leave(s->resource, r);
	}
	struct jbuf b;
	ev_begin(&b, enter ? "surface_enter" : "surface_leave");
	jb_kint(&b, "surface", s->id);
	jb_kstr(&b, "output", o->name);
	ev_end(&b);
}

static void surface_update_outputs(struct surface *s)
{
	struct output *want = NULL;
	if (surface_mapped(s)) {
		struct surface *root = surface_root(s);
		if (root && root->layer) want = root->layer->output;
		else if (root && root->role == ROLE_TOPLEVEL) want = toplevel_output(root);
	}
	for (int i = 0; i < s->n_entered;) {
		if (s->entered[i] != want) {
			surface_send_enter_leave(s, s->entered[i], false);
			s->entered[i] = s->entered[--s->n_entered];
		} else {
			i++;
		}
	}
	if (want && s->n_entered == 0) {
		s->entered[s->n_entered++] = want;
		surface_send_enter_leave(s, want, true);
	}
}

void refresh_all(void)
{
	struct surface *s;
	wl_list_for_each(s, &S.surfaces, link) {
		surface_update_outputs(s);
		bool m = surface_mapped(s);
		if (m != s->was_mapped) {
			s->was_mapped = m;
			struct jbuf b;
			ev_begin(&b, m ? "map" : "unmap");
			jb_kint(&b, "surface", s->id);
			jb_kstr(&b, "role", role_name(s->role));
			ev_end(&b);
			if (m && s->role == ROLE_TOPLEVEL) seat_toplevel_mapped(s);
		}
	}
	pointer_rebase();
}

/* An output goes away: leave it everywhere, close its layer surfaces. */
void output_going(struct output *o)
{
	struct surface *s;
	wl_list_for_each(s, &S.surfaces, link) {
		for (int i = 0; i < s->n_entered; i++) {
			if (s->entered[i] == o) {
				surface_send_enter_leave(s, o, false);
				s->entered[i] = s->entered[--s->n_entered];
				break;
			}
		}
	}
	wl_list_for_each(s, &S.surfaces, link) {
		if (s->role == ROLE_LAYER && s->layer && s->layer->output == o) {
			s->layer->output = NULL;
			layer_close(s->layer);
		}
	}
	refresh_all();
}

/* ------------------------------------------------------------- wl_surface */

static void surface_res_destroy(struct wl_resource *r)
{
	struct surface *s = wl_resource_get_user_data(r);
	struct jbuf b;
	ev_begin(&b, "surface_destroyed");
	jb_kint(&b, "surface", s->id);
	jb_kstr(&b, "role", role_name(s->role));
	ev_end(&b);

	seat_surface_gone(s);
	if (s->sub) {
		struct subsurface *sub = s->sub;
		sub->surface = NULL;
		if (sub->parent) {
			wl_list_remove(&sub->node.link);
			wl_list_init(&sub->node.link);
		}
	}
	if (s->layer) s->layer->surface = NULL;
	xdg_surface_gone(s);
	struct stack_node *n, *tmp;
	wl_list_for_each_safe(n, tmp, &s->stack, link) {
		if (!n->sub) continue;
		n->sub->parent = NULL;
		wl_list_remove(&n->link);
		wl_list_init(&n->link);
	}
	if (s->viewport) wl_resource_set_user_data(s->viewport, NULL);
	if (S.release_mode != RELEASE_NEVER) release_held(false, s->id);
	state_fini(&s->pending);
	state_fini(&s->cached);
	state_fini(&s->current);
	wl_list_remove(&s->link);
	free(s);
	refresh_all();
}

static void surface_destroy(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static void pending_buffer_destroyed(struct wl_listener *l, void *data)
{
	(void)data;
	struct surface_state *st = wl_container_of(l, st, buffer_destroy);
	wl_list_remove(&l->link);
	wl_list_init(&l->link);
	st->buffer = NULL;
}

static void surface_attach(struct wl_client *c, struct wl_resource *r, struct wl_resource *buffer,
			   int32_t x, int32_t y)
{
	(void)c;
	struct surface *s = wl_resource_get_user_data(r);
	struct surface_state *p = &s->pending;
	wl_list_remove(&p->buffer_destroy.link);
	wl_list_init(&p->buffer_destroy.link);
	p->buffer = buffer;
	if (buffer) {
		p->buffer_destroy.notify = pending_buffer_destroyed;
		wl_resource_add_destroy_listener(buffer, &p->buffer_destroy);
	}
	p->dx = x;
	p->dy = y;
	p->committed |= ST_BUFFER;
}

static void surface_damage(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h)
{
	(void)c; (void)x; (void)y; (void)w; (void)h;
	struct surface *s = wl_resource_get_user_data(r);
	s->pending.damage_count++;
}

static void callback_res_destroy(struct wl_resource *r) { wl_list_remove(wl_resource_get_link(r)); }

static void surface_frame(struct wl_client *c, struct wl_resource *r, uint32_t id)
{
	struct surface *s = wl_resource_get_user_data(r);
	struct wl_resource *cb = wl_resource_create(c, &wl_callback_interface, 1, id);
	if (!cb) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(cb, NULL, s, callback_res_destroy);
	wl_list_insert(s->pending.frames.prev, wl_resource_get_link(cb));
}

static void surface_set_opaque_region(struct wl_client *c, struct wl_resource *r, struct wl_resource *region)
{
	(void)c; (void)region;
	struct surface *s = wl_resource_get_user_data(r);
	s->pending.committed |= ST_OPAQUE;
}

static void surface_set_input_region(struct wl_client *c, struct wl_resource *r, struct wl_resource *region)
{
	(void)c;
	struct surface *s = wl_resource_get_user_data(r);
	if (region) {
		s->pending.input_infinite = false;
		region_copy(&s->pending.input, wl_resource_get_user_data(region));
	} else {
		s->pending.input_infinite = true;
		s->pending.input.n = 0;
	}
	s->pending.committed |= ST_INPUT;
}

static void surface_set_buffer_transform(struct wl_client *c, struct wl_resource *r, int32_t transform)
{
	(void)c;
	struct surface *s = wl_resource_get_user_data(r);
	if (transform < 0 || transform > 7) {
		post_error(r, WL_SURFACE_ERROR_INVALID_TRANSFORM, "buffer transform %d is not valid", transform);
		return;
	}
	s->pending.transform = transform;
	s->pending.committed |= ST_TRANSFORM;
}

static void surface_set_buffer_scale(struct wl_client *c, struct wl_resource *r, int32_t scale)
{
	(void)c;
	struct surface *s = wl_resource_get_user_data(r);
	if (scale < 1) {
		post_error(r, WL_SURFACE_ERROR_INVALID_SCALE, "buffer scale %d is not positive", scale);
		return;
	}
	s->pending.scale = scale;
	s->pending.committed |= ST_SCALE;
}

static void surface_damage_buffer(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w,
				  int32_t h)
{
	surface_damage(c, r, x, y, w, h);
}

static bool subsurface_is_sync(struct subsurface *sub)
{
	int guard = 0;
	while (sub && guard++ < 1000) {
		if (sub->sync) return true;
		struct surface *p = sub->parent;
		if (!p || p->role != ROLE_SUBSURFACE) return false;
		sub = p->sub;
	}
	return false;
}

/* Copies the pending wl_buffer; false after a protocol error. */
static bool copy_pending_buffer(struct surface *s)
{
	struct surface_state *p = &s->pending;
	if (!(p->committed & ST_BUFFER)) return true;
	pixels_free(p->pix);
	p->pix = NULL;
	struct wl_resource *buffer = p->buffer;
	wl_list_remove(&p->buffer_destroy.link);
	wl_list_init(&p->buffer_destroy.link);
	p->buffer = NULL;
	if (!buffer) return true;
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
	if (!shm) {
		post_error(s->resource, WL_SURFACE_ERROR_INVALID_SIZE, "attached buffer is not a wl_shm buffer");
		return false;
	}
	int32_t w = wl_shm_buffer_get_width(shm), h = wl_shm_buffer_get_height(shm);
	int32_t stride = wl_shm_buffer_get_stride(shm);
	uint32_t format = wl_shm_buffer_get_format(shm);
	struct pixels *pix = calloc(1, sizeof *pix);
	if (!pix) return true;
	pix->width = w;
	pix->height = h;
	pix->format = format;
	pix->data = malloc((size_t)w * (size_t)h * 4 + 1);
	if (!pix->data) {
		free(pix);
		return true;
	}
	wl_shm_buffer_begin_access(shm);
	const uint8_t *src = wl_shm_buffer_get_data(shm);
	for (int32_t y = 0; y < h; y++) {
		const uint32_t *row = (const uint32_t *)(const void *)(src + (size_t)y * (size_t)stride);
		uint32_t *out = pix->data + (size_t)y * (size_t)w;
		if (format == WL_SHM_FORMAT_XRGB8888) {
			for (int32_t x = 0; x < w; x++) out[x] = row[x] | 0xff000000u;
		} else {
			memcpy(out, row, (size_t)w * 4);
		}
	}
	wl_shm_buffer_end_access(shm);
	p->pix = pix;
	p->buffer_seq = S.commit_seq;
	s->has_buffer_ever = true;
	if (S.release_mode == RELEASE_COMMIT) {
		struct jbuf b;
		ev_begin(&b, "release");
		jb_kint(&b, "surface", s->id);
		jb_kint(&b, "buffer", wl_resource_get_id(buffer));
		ev_end(&b);
		wl_buffer_send_release(buffer);
	} else {
		hold_buffer(buffer, s->id, S.commit_seq);
	}
	return true;
}

/* Checks that need the applied state; false after a protocol error. */
static bool surface_check_current(struct surface *s)
{
	struct surface_state *c = &s->current;
	if (!c->pix) return true;
	int32_t bw = c->pix->width, bh = c->pix->height;
	if (c->transform & 1) { int32_t t = bw; bw = bh; bh = t; }
	if (S.strict_scale && !c->dst_set && (bw % c->scale != 0 || bh % c->scale != 0)) {
		post_error(s->resource, WL_SURFACE_ERROR_INVALID_SIZE,
			   "buffer size (%dx%d) is not divisible by the buffer scale (%d)", bw, bh, c->scale);
		return false;
	}
	if (c->src_set && s->viewport) {
		if (!c->dst_set && (c->src_w != (int32_t)c->src_w || c->src_h != (int32_t)c->src_h)) {
			post_error(s->viewport, WP_VIEWPORT_ERROR_BAD_SIZE,
				   "source size %gx%g is not integer and no destination is set", c->src_w, c->src_h);
			return false;
		}
		double sw = (double)bw / c->scale, sh = (double)bh / c->scale;
		if (c->src_x + c->src_w > sw || c->src_y + c->src_h > sh) {
			post_error(s->viewport, WP_VIEWPORT_ERROR_OUT_OF_BUFFER,
				   "source rectangle %g,%g %gx%g extends outside the buffer (%gx%g)",
				   c->src_x, c->src_y, c->src_w, c->src_h, sw, sh);
			return false;
		}
	}
	return true;
}

static void layer_postcommit(struct layer_surface *l);
static bool layer_precommit(struct layer_surface *l);

static void children_json(struct jbuf *b, struct surface *s)
{
	jb_key(b, "children");
	jb_arr_begin(b);
	struct stack_node *n;
	wl_list_for_each(n, &s->stack, link) {
		if (!n->sub || !n->sub->surface) continue;
		jb_obj_begin(b);
		jb_kint(b, "surface", n->sub->surface->id);
		jb_kint(b, "x", n->sub->x);
		jb_kint(b, "y", n->sub->y);
		jb_kbool(b, "mapped", surface_mapped(n->sub->surface));
		jb_obj_end(b);
	}
	jb_arr_end(b);
}

static bool surface_apply(struct surface *s, uint32_t committed);

/* A parent's state was applied: positions and cached child states follow. */
static bool apply_children(struct surface *s)
{
	struct stack_node *n, *tmp;
	wl_list_for_each_safe(n, tmp, &s->stack, link) {
		struct subsurface *sub = n->sub;
		if (!sub) continue;
		if (sub->pos_pending) {
			sub->x = sub->px;
			sub->y = sub->py;
			sub->pos_pending = false;
		}
		struct surface *c = sub->surface;
		if (c && c->has_cached && subsurface_is_sync(sub)) {
			uint32_t committed = c->cached.committed;
			state_move(&c->current, &c->cached);
			c->has_cached = false;
			struct jbuf b;
			ev_begin(&b, "apply");
			jb_kint(&b, "surface", c->id);
			jb_kint(&b, "parent", s->id);
			if (committed & ST_BUFFER) {
				jb_key(&b, "buffer");
				if (c->current.pix) {
					jb_arr_begin(&b);
					jb_int(&b, c->current.pix->width);
					jb_int(&b, c->current.pix->height);
					jb_arr_end(&b);
				} else {
					jb_null(&b);
				}
			}
			ev_end(&b);
			if (!surface_apply(c, committed)) return false;
		} else if (c) {
			if (!apply_children(c)) return false;
		}
	}
	return true;
}

/* The current state was just updated with `committed` bits. */
static bool surface_apply(struct surface *s, uint32_t committed)
{
	if (!surface_check_current(s)) return false;
	held_applied(s, s->current.buffer_seq, committed & ST_BUFFER);
	if (!apply_children(s)) return false;
	if (s->role == ROLE_LAYER && s->layer) layer_postcommit(s->layer);
	if (s->xdg) xdg_postcommit(s);
	return true;
}

static void surface_commit(struct wl_client *c, struct wl_resource *r)
{
	(void)c;
	struct surface *s = wl_resource_get_user_data(r);
	S.commit_seq++;
	s->commits++;
	bool had_frames = !wl_list_empty(&s->pending.frames);
	bool attached = s->pending.committed & ST_BUFFER;
	uint32_t buffer_object = attached && s->pending.buffer ? wl_resource_get_id(s->pending.buffer) : 0;
	if (!copy_pending_buffer(s)) return;
	if (s->role == ROLE_LAYER && s->layer && !layer_precommit(s->layer)) return;
	if (s->xdg && !xdg_precommit(s)) return;

	bool cached = s->role == ROLE_SUBSURFACE && s->sub && subsurface_is_sync(s->sub);
	uint32_t committed;
	if (cached) {
		state_move(&s->cached, &s->pending);
		s->has_cached = true;
		committed = 0;
	} else {
		if (s->has_cached) {
			state_move(&s->cached, &s->pending);
			s->has_cached = false;
			committed = s->cached.committed;
			state_move(&s->current, &s->cached);
		} else {
			committed = s->pending.committed;
			state_move(&s->current, &s->pending);
		}
	}

	struct jbuf b;
	ev_begin(&b, "commit");
	jb_kint(&b, "surface", s->id);
	jb_kstr(&b, "role", role_name(s->role));
	jb_kint(&b, "seq", (long long)S.commit_seq);
	jb_kbool(&b, "cached", cached);
	if (attached) {
		struct pixels *p = cached ? s->cached.pix : s->current.pix;
		jb_key(&b, "buffer");
		if (p) {
			jb_arr_begin(&b);
			jb_int(&b, p->width);
			jb_int(&b, p->height);
			jb_arr_end(&b);
		} else {
			jb_null(&b);
		}
		if (buffer_object) jb_kint(&b, "buffer_object", buffer_object);
	}
	jb_kint(&b, "scale", cached ? s->cached.scale : s->current.scale);
	jb_kbool(&b, "frame", had_frames);
	bool ok = true;
	if (!cached) {
		ok = surface_apply(s, committed);
		if (!wl_list_empty(&s->stack) && s->stack.next != s->stack.prev) children_json(&b, s);
	}
	ev_end(&b);
	if (had_frames && !cached) {
		ev_begin(&b, "frame_requested");
		jb_kint(&b, "surface", s->id);
		ev_end(&b);
	}
	(void)ok;
	refresh_all();
}

static const struct wl_surface_interface surface_impl = {
	.destroy = surface_destroy,
	.attach = surface_attach,
	.damage = surface_damage,
	.frame = surface_frame,
	.set_opaque_region = surface_set_opaque_region,
	.set_input_region = surface_set_input_region,
	.commit = surface_commit,
	.set_buffer_transform = surface_set_buffer_transform,
	.set_buffer_scale = surface_set_buffer_scale,
	.damage_buffer = surface_damage_buffer,
};

/* Fires the frame callbacks of every applied state. */
int fire_frames(uint32_t time)
{
	int n = 0;
	struct surface *s;
	wl_list_for_each(s, &S.surfaces, link) {
		struct wl_resource *cb, *tmp;
		wl_resource_for_each_safe(cb, tmp, &s->current.frames) {
			wl_callback_send_done(cb, time);
			wl_resource_destroy(cb);
			n++;
		}
	}
	return n;
}

/* ---------------------------------------------------------- wl_compositor */

static void compositor_create_surface(struct wl_client *c, struct wl_resource *r, uint32_t id)
{
	struct surface *s = calloc(1, sizeof *s);
	if (!s) {
		wl_client_post_no_memory(c);
		return;
	}
	s->resource = wl_resource_create(c, &wl_surface_interface, wl_resource_get_version(r), id);
	if (!s->resource) {
		free(s);
		wl_client_post_no_memory(c);
		return;
	}
	s->client = client_of(c);
	s->id = ++S.next_surface_id;
	state_init(&s->pending);
	state_init(&s->cached);
	state_init(&s->current);
	wl_list_init(&s->stack);
	s->self_node.sub = NULL;
	wl_list_insert(&s->stack, &s->self_node.link);
	wl_list_insert(S.surfaces.prev, &s->link);
	wl_resource_set_implementation(s->resource, &surface_impl, s, surface_res_destroy);
	struct jbuf b;
	ev_begin(&b, "surface_created");
	jb_kint(&b, "surface", s->id);
	jb_kint(&b, "client", s->client ? s->client->index : -1);
	jb_kint(&b, "object", id);
	ev_end(&b);
}

static void compositor_create_region(struct wl_client *c, struct wl_resource *r, uint32_t id)
{
	struct region *reg = calloc(1, sizeof *reg);
	struct wl_resource *res = reg ? wl_resource_create(c, &wl_region_interface, wl_resource_get_version(r), id)
				      : NULL;
	if (!res) {
		free(reg);
		wl_client_post_no_memory(c);
		return;
	}
	region_init(reg);
	wl_resource_set_implementation(res, &region_impl, reg, region_res_destroy);
}

static const struct wl_compositor_interface compositor_impl = {
	.create_surface = compositor_create_surface,
	.create_region = compositor_create_region,
};

static void emit_bind(struct wl_client *c, const char *iface, uint32_t version)
{
	struct tc_client *tc = client_of(c);
	struct jbuf b;
	ev_begin(&b, "bind");
	jb_kint(&b, "client", tc ? tc->index : -1);
	jb_kstr(&b, "interface", iface);
	jb_kint(&b, "version", version);
	ev_end(&b);
}

static void bind_compositor(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *r = wl_resource_create(c, &wl_compositor_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(r, &compositor_impl, NULL, NULL);
	emit_bind(c, "wl_compositor", version);
}

/* ------------------------------------------------------- wl_subcompositor */

static void subsurface_res_destroy(struct wl_resource *r)
{
	struct subsurface *sub = wl_resource_get_user_data(r);
	if (sub->surface) {
		sub->surface->sub = NULL;
		struct jbuf b;
		ev_begin(&b, "subsurface_destroyed");
		jb_kint(&b, "surface", sub->surface->id);
		ev_end(&b);
	}
	wl_list_remove(&sub->node.link);
	free(sub);
	refresh_all();
}

static void subsurface_destroy(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static void subsurface_set_position(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y)
{
	(void)c;
	struct subsurface *sub = wl_resource_get_user_data(r);
	if (!sub->surface) return;
	sub->px = x;
	sub->py = y;
	sub->pos_pending = true;
}

static struct stack_node *sibling_node(struct subsurface *sub, struct wl_resource *sibling_res, const char *req)
{
	struct surface *sib = surface_from_resource(sibling_res);
	if (!sub->surface || !sub->parent) return NULL;
	if (sib == sub->parent) return &sub->parent->self_node;
	if (!sib || sib == sub->surface || sib->role != ROLE_SUBSURFACE || !sib->sub || sib->sub->parent != sub->parent) {
		post_error(sub->resource, WL_SUBSURFACE_ERROR_BAD_SURFACE, "%s: wl_surface is not a sibling or the parent",
			   req);
		return NULL;
	}
	return &sib->sub->node;
}

/* Simplification: restacking applies at once, not on the parent's commit. */
static void subsurface_place_above(struct wl_client *c, struct wl_resource *r, struct wl_resource *sibling)
{
	(void)c;
	struct subsurface *sub = wl_resource_get_user_data(r);
	struct stack_node *n = sibling_node(sub, sibling, "place_above");
	if (!n) return;
	wl_list_remove(&sub->node.link);
	wl_list_insert(&n->link, &sub->node.link);
}

static void subsurface_place_below(struct wl_client *c, struct wl_resource *r, struct wl_resource *sibling)
{
	(void)c;
	struct subsurface *sub = wl_resource_get_user_data(r);
	struct stack_node *n = sibling_node(sub, sibling, "place_below");
	if (!n) return;
	wl_list_remove(&sub->node.link);
	wl_list_insert(n->link.prev, &sub->node.link);
}

static void subsurface_set_sync(struct wl_client *c, struct wl_resource *r)
{
	(void)c;
	struct subsurface *sub = wl_resource_get_user_data(r);
	sub->sync = true;
}

static void subsurface_set_desync(struct wl_client *c, struct wl_resource *r)
{
	(void)c;
	struct subsurface *sub = wl_resource_get_user_data(r);
	if (!sub->sync) return;
	sub->sync = false;
	/* Becoming effectively desynchronized applies the cached state. */
	struct surface *s = sub->surface;
	if (s && s->has_cached && !subsurface_is_sync(sub)) {
		uint32_t committed = s->cached.committed;
		state_move(&s->current, &s->cached);
		s->has_cached = false;
		surface_apply(s, committed);
		refresh_all();
	}
}

static const struct wl_subsurface_interface subsurface_impl = {
	.destroy = subsurface_destroy,
	.set_position = subsurface_set_position,
	.place_above = subsurface_place_above,
	.place_below = subsurface_place_below,
	.set_sync = subsurface_set_sync,
	.set_desync = subsurface_set_desync,
};

static void subcompositor_destroy(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static void subcompositor_get_subsurface(struct wl_client *c, struct wl_resource *r, uint32_t id,
					 struct wl_resource *surface_res, struct wl_resource *parent_res)
{
	struct surface *s = wl_resource_get_user_data(surface_res);
	struct surface *parent = wl_resource_get_user_data(parent_res);
	if (s == parent) {
		post_error(r, WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE, "wl_surface@%u cannot be its own parent",
			   wl_resource_get_id(surface_res));
		return;
	}
	if ((s->role != ROLE_NONE && s->role != ROLE_SUBSURFACE) || s->xdg) {
		post_error(r, WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE, "wl_surface@%u already has the %s role",
			   wl_resource_get_id(surface_res), s->xdg ? "xdg_surface" : role_name(s->role));
		return;
	}
	if (s->sub) {
		post_error(r, WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE, "wl_surface@%u already is a subsurface",
			   wl_resource_get_id(surface_res));
		return;
	}
	for (struct surface *p = parent; p; p = (p->role == ROLE_SUBSURFACE && p->sub) ? p->sub->parent : NULL) {
		if (p == s) {
			post_error(r, WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE,
				   "wl_surface@%u is an ancestor of its would-be parent", wl_resource_get_id(surface_res));
			return;
		}
	}
	struct subsurface *sub = calloc(1, sizeof *sub);
	if (!sub) {
		wl_client_post_no_memory(c);
		return;
	}
	sub->resource = wl_resource_create(c, &wl_subsurface_interface, wl_resource_get_version(r), id);
	if (!sub->resource) {
		free(sub);
		wl_client_post_no_memory(c);
		return;
	}
	sub->surface = s;
	sub->parent = parent;
	sub->sync = true;
	sub->node.sub = sub;
	wl_list_insert(parent->stack.prev, &sub->node.link); /* top-most */
	s->role = ROLE_SUBSURFACE;
	s->sub = sub;
	wl_resource_set_implementation(sub->resource, &subsurface_impl, sub, subsurface_res_destroy);
	struct jbuf b;
	ev_begin(&b, "role");
	jb_kint(&b, "surface", s->id);
	jb_kstr(&b, "role", "subsurface");
	jb_kint(&b, "parent", parent->id);
	ev_end(&b);
}

static const struct wl_subcompositor_interface subcompositor_impl = {
	.destroy = subcompositor_destroy,
	.get_subsurface = subcompositor_get_subsurface,
};

static void bind_subcompositor(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *r = wl_resource_create(c, &wl_subcompositor_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(r, &subcompositor_impl, NULL, NULL);
	emit_bind(c, "wl_subcompositor", version);
}

/* ---------------------------------------------------------- wp_viewporter */

static void viewport_res_destroy(struct wl_resource *r)
{
	struct surface *s = wl_resource_get_user_data(r);
	if (!s) return;
	s->viewport = NULL;
	s->pending.src_set = false;
	s->pending.dst_set = false;
	s->pending.committed |= ST_VP_SRC | ST_VP_DST;
}

static void viewport_destroy(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static void viewport_set_source(struct wl_client *c, struct wl_resource *r, wl_fixed_t x, wl_fixed_t y,
				wl_fixed_t w, wl_fixed_t h)
{
	(void)c;
	struct surface *s = wl_resource_get_user_data(r);
	if (!s) {
		post_error(r, WP_VIEWPORT_ERROR_NO_SURFACE, "the wl_surface was destroyed");
		return;
	}
	double dx = wl_fixed_to_double(x), dy = wl_fixed_to_double(y);
	double dw = wl_fixed_to_double(w), dh = wl_fixed_to_double(h);
	if (dx == -1 && dy == -1 && dw == -1 && dh == -1) {
		s->pending.src_set = false;
	} else if (dx < 0 || dy < 0 || dw <= 0 || dh <= 0) {
		post_error(r, WP_VIEWPORT_ERROR_BAD_VALUE, "invalid source rectangle %g,%g %gx%g", dx, dy, dw, dh);
		return;
	} else {
		s->pending.src_set = true;
		s->pending.src_x = dx; s->pending.src_y = dy;
		s->pending.src_w = dw; s->pending.src_h = dh;
	}
	s->pending.committed |= ST_VP_SRC;
}

static void viewport_set_destination(struct wl_client *c, struct wl_resource *r, int32_t w, int32_t h)
{
	(void)c;
	struct surface *s = wl_resource_get_user_data(r);
	if (!s) {
		post_error(r, WP_VIEWPORT_ERROR_NO_SURFACE, "the wl_surface was destroyed");
		return;
	}
	if (w == -1 && h == -1) {
		s->pending.dst_set = false;
	} else if (w <= 0 || h <= 0) {
		post_error(r, WP_VIEWPORT_ERROR_BAD_VALUE, "invalid destination size %dx%d", w, h);
		return;
	} else {
		s->pending.dst_set = true;
		s->pending.dst_w = w;
		s->pending.dst_h = h;
	}
	s->pending.committed |= ST_VP_DST;
}

static const struct wp_viewport_interface viewport_impl = {
	.destroy = viewport_destroy,
	.set_source = viewport_set_source,
	.set_destination = viewport_set_destination,
};

static void viewporter_destroy(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static void viewporter_get_viewport(struct wl_client *c, struct wl_resource *r, uint32_t id,
				    struct wl_resource *surface_res)
{
	struct surface *s = wl_resource_get_user_data(surface_res);
	if (s->viewport) {
		post_error(r, WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS, "wl_surface@%u already has a viewport",
			   wl_resource_get_id(surface_res));
		return;
	}
	struct wl_resource *vp = wl_resource_create(c, &wp_viewport_interface, wl_resource_get_version(r), id);
	if (!vp) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(vp, &viewport_impl, s, viewport_res_destroy);
	s->viewport = vp;
}

static const struct wp_viewporter_interface viewporter_impl = {
	.destroy = viewporter_destroy,
	.get_viewport = viewporter_get_viewport,
};

static void bind_viewporter(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *r = wl_resource_create(c, &wp_viewporter_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(r, &viewporter_impl, NULL, NULL);
	emit_bind(c, "wp_viewporter", version);
}

/* ------------------------------------------------------------ layer shell */

static void layer_size(struct layer_surface *l, int32_t *w, int32_t *h)
{
	struct output *o = l->output;
	int32_t ow = o ? output_lw(o) : 0, oh = o ? output_lh(o) : 0;
	const struct layer_state *st = &l->current;
	*w = st->width ? (int32_t)st->width : ow - st->margin_left - st->margin_right;
	*h = st->height ? (int32_t)st->height : oh - st->margin_top - st->margin_bottom;
	if (*w < 0) *w = 0;
	if (*h < 0) *h = 0;
}

void layer_send_configure(struct layer_surface *l, int32_t w, int32_t h)
{
	if (l->closed) return;
	uint32_t serial = wl_display_next_serial(S.display);
	if (l->n_serials == TC_MAX_SERIALS) {
		memmove(l->serials, l->serials + 1, sizeof l->serials[0] * (TC_MAX_SERIALS - 1));
		l->n_serials--;
	}
	l->serials[l->n_serials++] = serial;
	l->last_serial = serial;
	l->conf_w = w;
	l->conf_h = h;
	zwlr_layer_surface_v1_send_configure(l->resource, serial, (uint32_t)w, (uint32_t)h);
	struct jbuf b;
	ev_begin(&b, "configure");
	jb_kint(&b, "surface", l->surface ? (long long)l->surface->id : -1);
	jb_kint(&b, "serial", serial);
	jb_kint(&b, "width", w);
	jb_kint(&b, "height", h);
	ev_end(&b);
}

void layer_close(struct layer_surface *l)
{
	if (l->closed) return;
	l->closed = true;
	zwlr_layer_surface_v1_send_closed(l->resource);
	struct jbuf b;
	ev_begin(&b, "closed");
	jb_kint(&b, "surface", l->surface ? (long long)l->surface->id : -1);
	ev_end(&b);
	refresh_all();
}

void layer_output_changed(struct output *o)
{
	struct surface *s;
	wl_list_for_each(s, &S.surfaces, link) {
		struct layer_surface *l = s->layer;
		if (s->role != ROLE_LAYER || !l || l->closed || l->output != o || !l->initial_done) continue;
		int32_t w, h;
		layer_size(l, &w, &h);
		if (w != l->natural_w || h != l->natural_h) {
			l->natural_w = w;
			l->natural_h = h;
			layer_send_configure(l, w, h);
		}
	}
	refresh_all();
}

static bool layer_precommit(struct layer_surface *l)
{
	struct surface *s = l->surface;
	if (l->closed) return true;
	const uint32_t L = ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT, R = ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;
	const uint32_t T = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP, B = ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM;
	if (l->pending.width == 0 && (l->pending.anchor & (L | R)) != (L | R)) {
		post_error(l->resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE,
			   "width 0 requested without setting left and right anchors");
		return false;
	}
	if (l->pending.height == 0 && (l->pending.anchor & (T | B)) != (T | B)) {
		post_error(l->resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE,
			   "height 0 requested without setting top and bottom anchors");
		return false;
	}
	if ((s->pending.committed & ST_BUFFER) && s->pending.pix && !l->configured) {
		post_error(l->resource, ZWLR_LAYER_SHELL_V1_ERROR_ALREADY_CONSTRUCTED,
			   "layer_surface has never been configured (buffer attached before ack_configure)");
		return false;
	}
	l->current = l->pending;
	return true;
}

static void layer_postcommit(struct layer_surface *l)
{
	struct surface *s = l->surface;
	if (l->closed || !s) return;
	if (!l->initial_done) {
		l->initial_done = true;
		if (!l->output_given || !l->output) l->output = l->output_given ? NULL : output_first();
		if (!l->output) {
			layer_close(l);
			return;
		}
		int32_t w, h;
		layer_size(l, &w, &h);
		l->natural_w = w;
		l->natural_h = h;
		layer_send_configure(l, w, h);
		return;
	}
	if (!s->current.pix && s->was_mapped) {
		/* Unmapped with a null buffer: the next commit is an initial one. */
		l->initial_done = false;
		l->configured = false;
		l->n_serials = 0;
		return;
	}
	/* Reconfigure when the client's state changed the size we compute (a
	 * `configure` command's size stays until then). */
	int32_t w, h;
	layer_size(l, &w, &h);
	if (w != l->natural_w || h != l->natural_h) {
		l->natural_w = w;
		l->natural_h = h;
		layer_send_configure(l, w, h);
	}
	layer_keyboard_changed(l);
}

static void layer_res_destroy(struct wl_resource *r)
{
	struct layer_surface *l = wl_resource_get_user_data(r);
	if (l->surface) {
		l->surface->layer = NULL;
		struct jbuf b;
		ev_begin(&b, "layer_surface_destroyed");
		jb_kint(&b, "surface", l->surface->id);
		ev_end(&b);
	}
	free(l->namespace);
	free(l);
	refresh_all();
}

static void layer_destroy(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static void layer_set_size(struct wl_client *c, struct wl_resource *r, uint32_t w, uint32_t h)
{
	(void)c;
	struct layer_surface *l = wl_resource_get_user_data(r);
	l->pending.width = w;
	l->pending.height = h;
}

static void layer_set_anchor(struct wl_client *c, struct wl_resource *r, uint32_t anchor)
{
	(void)c;
	struct layer_surface *l = wl_resource_get_user_data(r);
	if (anchor > 15) {
		post_error(r, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_ANCHOR, "invalid anchor %u", anchor);
		return;
	}
	l->pending.anchor = anchor;
}

static void layer_set_exclusive_zone(struct wl_client *c, struct wl_resource *r, int32_t zone)
{
	(void)c;
	struct layer_surface *l = wl_resource_get_user_data(r);
	l->pending.exclusive_zone = zone;
}

static void layer_set_margin(struct wl_client *c, struct wl_resource *r, int32_t top, int32_t right,
			     int32_t bottom, int32_t left)
{
	(void)c;
	struct layer_surface *l = wl_resource_get_user_data(r);
	l->pending.margin_top = top;
	l->pending.margin_right = right;
	l->pending.margin_bottom = bottom;
	l->pending.margin_left = left;
}

static void layer_set_keyboard_interactivity(struct wl_client *c, struct wl_resource *r, uint32_t ki)
{
	(void)c;
	struct layer_surface *l = wl_resource_get_user_data(r);
	uint32_t max = wl_resource_get_version(r) >= 4 ? 2 : 1;
	if (ki > max) {
		post_error(r, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_KEYBOARD_INTERACTIVITY,
			   "invalid keyboard interactivity %u", ki);
		return;
	}
	l->pending.keyboard_interactivity = ki;
}

static void layer_get_popup(struct wl_client *c, struct wl_resource *r, struct wl_resource *popup)
{
	(void)c; (void)r; (void)popup; /* popups are dismissed as they are made (xdg.c) */
}

static void layer_ack_configure(struct wl_client *c, struct wl_resource *r, uint32_t serial)
{
	(void)c;
	struct layer_surface *l = wl_resource_get_user_data(r);
	if (l->closed) return;
	int found = -1;
	for (int i = 0; i < l->n_serials; i++)
		if (l->serials[i] == serial) found = i;
	if (found < 0) {
		post_error(r, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE, "wrong configure serial: %u", serial);
		return;
	}
	memmove(l->serials, l->serials + found + 1, sizeof l->serials[0] * (size_t)(l->n_serials - found - 1));
	l->n_serials -= found + 1;
	l->configured = true;
	l->acked_serial = serial;
	struct jbuf b;
	ev_begin(&b, "ack_configure");
	jb_kint(&b, "surface", l->surface ? (long long)l->surface->id : -1);
	jb_kint(&b, "serial", serial);
	ev_end(&b);
}

static void layer_set_layer(struct wl_client *c, struct wl_resource *r, uint32_t layer)
{
	(void)c;
	struct layer_surface *l = wl_resource_get_user_data(r);
	if (layer > 3) {
		post_error(r, ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER, "invalid layer %u", layer);
		return;
	}
	l->pending.layer = layer;
}

static const struct zwlr_layer_surface_v1_interface layer_impl = {
	.set_size = layer_set_size,
	.set_anchor = layer_set_anchor,
	.set_exclusive_zone = layer_set_exclusive_zone,
	.set_margin = layer_set_margin,
	.set_keyboard_interactivity = layer_set_keyboard_interactivity,
	.get_popup = layer_get_popup,
	.ack_configure = layer_ack_configure,
	.destroy = layer_destroy,
	.set_layer = layer_set_layer,
};

static void layer_shell_get_layer_surface(struct wl_client *c, struct wl_resource *r, uint32_t id,
					  struct wl_resource *surface_res, struct wl_resource *output_res,
					  uint32_t layer, const char *namespace)
{
	struct surface *s = wl_resource_get_user_data(surface_res);
	if (layer > 3) {
		post_error(r, ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER, "invalid layer %u", layer);
		return;
	}
	if ((s->role != ROLE_NONE && s->role != ROLE_LAYER) || s->xdg) {
		post_error(r, ZWLR_LAYER_SHELL_V1_ERROR_ROLE, "wl_surface@%u already has the %s role",
			   wl_resource_get_id(surface_res), s->xdg ? "xdg_surface" : role_name(s->role));
		return;
	}
	if (s->layer) {
		post_error(r, ZWLR_LAYER_SHELL_V1_ERROR_ALREADY_CONSTRUCTED, "wl_surface@%u already has a layer surface",
			   wl_resource_get_id(surface_res));
		return;
	}
	if (s->current.pix || s->has_cached || ((s->pending.committed & ST_BUFFER) && s->pending.buffer)) {
		post_error(r, ZWLR_LAYER_SHELL_V1_ERROR_ALREADY_CONSTRUCTED, "wl_surface@%u has a buffer attached",
			   wl_resource_get_id(surface_res));
		return;
	}
	struct layer_surface *l = calloc(1, sizeof *l);
	if (!l) {
		wl_client_post_no_memory(c);
		return;
	}
	l->resource = wl_resource_create(c, &zwlr_layer_surface_v1_interface, wl_resource_get_version(r), id);
	if (!l->resource) {
		free(l);
		wl_client_post_no_memory(c);
		return;
	}
	l->surface = s;
	l->namespace = strdup(namespace ? namespace : "");
	l->pending.layer = layer;
	l->current.layer = layer;
	l->output_given = output_res != NULL;
	l->output = output_res ? wl_resource_get_user_data(output_res) : NULL;
	l->created_seq = ++S.layer_seq;
	s->role = ROLE_LAYER;
	s->layer = l;
	wl_resource_set_implementation(l->resource, &layer_impl, l, layer_res_destroy);
	struct jbuf b;
	ev_begin(&b, "role");
	jb_kint(&b, "surface", s->id);
	jb_kstr(&b, "role", "layer");
	jb_kstr(&b, "namespace", l->namespace);
	jb_kint(&b, "layer", layer);
	jb_key(&b, "output");
	if (l->output) jb_str(&b, l->output->name);
	else jb_null(&b);
	ev_end(&b);
}

static void layer_shell_destroy(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static const struct zwlr_layer_shell_v1_interface layer_shell_impl = {
	.get_layer_surface = layer_shell_get_layer_surface,
	.destroy = layer_shell_destroy,
};

static void bind_layer_shell(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *r = wl_resource_create(c, &zwlr_layer_shell_v1_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(r, &layer_shell_impl, NULL, NULL);
	emit_bind(c, "zwlr_layer_shell_v1", version);
}

/* ------------------------------------------------------------ JSON dump */

static const char *kb_name(uint32_t k)
{
	switch (k) {
	case 0: return "none";
	case 1: return "exclusive";
	case 2: return "on_demand";
	default: return "?";
	}
}

static void surface_json(struct jbuf *b, struct surface *s)
{
	jb_obj_begin(b);
	jb_kint(b, "id", s->id);
	jb_kint(b, "client", s->client ? s->client->index : -1);
	jb_kint(b, "object", wl_resource_get_id(s->resource));
	jb_kstr(b, "role", role_name(s->role));
	jb_key(b, "parent");
	if (s->role == ROLE_SUBSURFACE && s->sub && s->sub->parent) jb_int(b, s->sub->parent->id);
	else jb_null(b);
	int32_t w, h, gx, gy;
	surface_size(s, &w, &h);
	bool placed = surface_global_pos(s, &gx, &gy);
	jb_key(b, "position");
	if (s->role == ROLE_SUBSURFACE && s->sub) {
		jb_arr_begin(b);
		jb_int(b, s->sub->x);
		jb_int(b, s->sub->y);
		jb_arr_end(b);
	} else if (placed) {
		jb_arr_begin(b);
		jb_int(b, gx);
		jb_int(b, gy);
		jb_arr_end(b);
	} else {
		jb_null(b);
	}
	jb_key(b, "global");
	if (placed) {
		jb_arr_begin(b);
		jb_int(b, gx);
		jb_int(b, gy);
		jb_arr_end(b);
	} else {
		jb_null(b);
	}
	jb_key(b, "size");
	jb_arr_begin(b);
	jb_int(b, w);
	jb_int(b, h);
	jb_arr_end(b);
	jb_key(b, "buffer");
	if (s->current.pix) {
		jb_arr_begin(b);
		jb_int(b, s->current.pix->width);
		jb_int(b, s->current.pix->height);
		jb_arr_end(b);
	} else {
		jb_null(b);
	}
	jb_kint(b, "scale", s->current.scale);
	jb_kbool(b, "mapped", surface_mapped(s));
	jb_kint(b, "commits", (long long)s->commits);
	jb_kbool(b, "has_cached", s->has_cached);
	jb_kint(b, "frame_callbacks", (long long)wl_list_length(&s->current.frames));
	jb_key(b, "input");
	if (s->current.input_infinite) {
		jb_str(b, "infinite");
	} else {
		jb_arr_begin(b);
		for (int i = 0; i < s->current.input.n; i++) {
			struct region_op *o = &s->current.input.ops[i];
			jb_arr_begin(b);
			jb_str(b, o->op == RECT_ADD ? "add" : "subtract");
			jb_int(b, o->x);
			jb_int(b, o->y);
			jb_int(b, o->w);
			jb_int(b, o->h);
			jb_arr_end(b);
		}
		jb_arr_end(b);
	}
	jb_key(b, "viewport");
	if (s->viewport) {
		jb_obj_begin(b);
		jb_key(b, "destination");
		if (s->current.dst_set) {
			jb_arr_begin(b);
			jb_int(b, s->current.dst_w);
			jb_int(b, s->current.dst_h);
			jb_arr_end(b);
		} else {
			jb_null(b);
		}
		jb_key(b, "source");
		if (s->current.src_set) {
			jb_arr_begin(b);
			jb_num(b, s->current.src_x);
			jb_num(b, s->current.src_y);
			jb_num(b, s->current.src_w);
			jb_num(b, s->current.src_h);
			jb_arr_end(b);
		} else {
			jb_null(b);
		}
		jb_obj_end(b);
	} else {
		jb_null(b);
	}
	jb_key(b, "outputs");
	jb_arr_begin(b);
	for (int i = 0; i < s->n_entered; i++) jb_str(b, s->entered[i]->name);
	jb_arr_end(b);
	if (s->role == ROLE_SUBSURFACE) {
		jb_key(b, "sync");
		if (s->sub) jb_bool(b, s->sub->sync);
		else jb_null(b);
	}
	jb_key(b, "children");
	jb_arr_begin(b);
	struct stack_node *n;
	wl_list_for_each(n, &s->stack, link)
		if (n->sub && n->sub->surface) jb_int(b, n->sub->surface->id);
	jb_arr_end(b);
	xdg_json(b, s);
	if (s->role == ROLE_LAYER) {
		struct layer_surface *l = s->layer;
		jb_key(b, "layer");
		if (!l) {
			jb_null(b);
		} else {
			jb_obj_begin(b);
			jb_kstr(b, "namespace", l->namespace);
			jb_kint(b, "layer", l->current.layer);
			jb_key(b, "output");
			if (l->output) jb_str(b, l->output->name);
			else jb_null(b);
			jb_kint(b, "anchor", l->current.anchor);
			jb_key(b, "anchors");
			jb_arr_begin(b);
			if (l->current.anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP) jb_str(b, "top");
			if (l->current.anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM) jb_str(b, "bottom");
			if (l->current.anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT) jb_str(b, "left");
			if (l->current.anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT) jb_str(b, "right");
			jb_arr_end(b);
			jb_key(b, "requested_size");
			jb_arr_begin(b);
			jb_int(b, l->current.width);
			jb_int(b, l->current.height);
			jb_arr_end(b);
			jb_key(b, "margins");
			jb_obj_begin(b);
			jb_kint(b, "top", l->current.margin_top);
			jb_kint(b, "right", l->current.margin_right);
			jb_kint(b, "bottom", l->current.margin_bottom);
			jb_kint(b, "left", l->current.margin_left);
			jb_obj_end(b);
			jb_kint(b, "exclusive_zone", l->current.exclusive_zone);
			jb_kint(b, "keyboard_interactivity", l->current.keyboard_interactivity);
			jb_kstr(b, "keyboard", kb_name(l->current.keyboard_interactivity));
			jb_key(b, "configured_size");
			jb_arr_begin(b);
			jb_int(b, l->conf_w);
			jb_int(b, l->conf_h);
			jb_arr_end(b);
			jb_kint(b, "last_serial", l->last_serial);
			jb_kint(b, "acked_serial", l->acked_serial);
			jb_kbool(b, "configured", l->configured);
			jb_kint(b, "unacked", l->n_serials);
			jb_kbool(b, "closed", l->closed);
			int32_t lx, ly, lw, lh;
			jb_key(b, "box");
			if (layer_global_pos(l, &lx, &ly, &lw, &lh)) {
				jb_arr_begin(b);
				jb_int(b, lx);
				jb_int(b, ly);
				jb_int(b, lw);
				jb_int(b, lh);
				jb_arr_end(b);
			} else {
				jb_null(b);
			}
			jb_obj_end(b);
		}
	}
	jb_obj_end(b);
}

void surfaces_json(struct jbuf *b)
{
	jb_arr_begin(b);
	struct surface *s;
	wl_list_for_each(s, &S.surfaces, link)
		surface_json(b, s);
	jb_arr_end(b);
}

void surface_one_json(struct jbuf *b, struct surface *s) { surface_json(b, s); }

/* ----------------------------------------------------------------- setup */

void compositor_init(void)
{
	wl_global_create(S.display, &wl_compositor_interface, 4, NULL, bind_compositor);
	wl_global_create(S.display, &wl_subcompositor_interface, 1, NULL, bind_subcompositor);
	wl_global_create(S.display, &zwlr_layer_shell_v1_interface, S.layer_shell_version, NULL, bind_layer_shell);
	wl_global_create(S.display, &wp_viewporter_interface, 1, NULL, bind_viewporter);
	xdg_init();
	/* wl_shm v1 with argb8888 and xrgb8888 (always announced by libwayland). */
	wl_display_init_shm(S.display);
}

void compositor_fini(void)
{
	struct held_buffer *h, *tmp;
	wl_list_for_each_safe(h, tmp, &S.held, link)
		held_free(h);
}
