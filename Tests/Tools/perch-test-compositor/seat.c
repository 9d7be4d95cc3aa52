/*
 * perch-test-compositor — wl_seat v5 with wl_pointer, wl_keyboard (a real
 * xkb keymap) and wl_touch, driven by control commands.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testcomp.h"

#define BTN_LEFT 0x110

static struct tc_client *client_of(struct wl_client *c)
{
	struct tc_client *tc;
	wl_list_for_each(tc, &S.clients, link)
		if (tc->client == c && !tc->gone) return tc;
	return NULL;
}

static struct wl_client *surface_client(struct surface *s)
{
	return s ? wl_resource_get_client(s->resource) : NULL;
}

#define for_each_client_res(r, list, cl) \
	wl_resource_for_each(r, list) if (wl_resource_get_client(r) == (cl))

static void emit_focus(const char *name, struct surface *s, bool with_pos, double x, double y)
{
	struct jbuf b;
	ev_begin(&b, name);
	jb_kint(&b, "surface", s->id);
	if (with_pos) {
		jb_knum(&b, "x", x);
		jb_knum(&b, "y", y);
	}
	ev_end(&b);
}

/* ---------------------------------------------------------------- pointer */

static void pointer_frame(struct wl_client *c)
{
	struct wl_resource *r;
	for_each_client_res(r, &S.pointers, c)
		if (wl_resource_get_version(r) >= WL_POINTER_FRAME_SINCE_VERSION) wl_pointer_send_frame(r);
}

static void pointer_leave(void)
{
	struct surface *s = S.pointer_focus;
	if (!s) return;
	S.pointer_focus = NULL;
	struct wl_client *c = (s->client && s->client->gone) ? NULL : surface_client(s);
	uint32_t serial = wl_display_next_serial(S.display);
	struct wl_resource *r;
	for_each_client_res(r, &S.pointers, c)
		wl_pointer_send_leave(r, serial, s->resource);
	pointer_frame(c);
	emit_focus("pointer_leave", s, false, 0, 0);
}

static void pointer_enter(struct surface *s, double lx, double ly)
{
	S.pointer_focus = s;
	S.pointer_lx = lx;
	S.pointer_ly = ly;
	struct wl_client *c = surface_client(s);
	uint32_t serial = wl_display_next_serial(S.display);
	struct wl_resource *r;
	for_each_client_res(r, &S.pointers, c)
		wl_pointer_send_enter(r, serial, s->resource, wl_fixed_from_double(lx), wl_fixed_from_double(ly));
	pointer_frame(c);
	emit_focus("pointer_enter", s, true, lx, ly);
}

static void pointer_update(bool motion)
{
	if (!(S.caps & WL_SEAT_CAPABILITY_POINTER) || !S.pointer_placed) {
		pointer_leave();
		return;
	}
	double lx = 0, ly = 0;
	struct surface *hit;
	if (S.n_buttons > 0 && S.pointer_focus) {
		/* Implicit grab: the focus stays while a button is held. */
		int32_t gx, gy;
		hit = S.pointer_focus;
		if (surface_mapped(hit) && surface_global_pos(hit, &gx, &gy)) {
			lx = S.px - gx;
			ly = S.py - gy;
		} else {
			hit = surface_at(S.px, S.py, &lx, &ly);
		}
	} else {
		hit = surface_at(S.px, S.py, &lx, &ly);
	}
	if (hit != S.pointer_focus) {
		pointer_leave();
		if (hit) pointer_enter(hit, lx, ly);
	} else if (hit && motion) {
		S.pointer_lx = lx;
		S.pointer_ly = ly;
		struct wl_client *c = surface_client(hit);
		struct wl_resource *r;
		for_each_client_res(r, &S.pointers, c)
			wl_pointer_send_motion(r, time_ms32(), wl_fixed_from_double(lx), wl_fixed_from_double(ly));
		pointer_frame(c);
	}
}

void pointer_motion(double x, double y)
{
	S.px = x;
	S.py = y;
	S.pointer_placed = true;
	pointer_update(true);
}

void pointer_rebase(void)
{
	if (S.pointer_focus && !surface_mapped(S.pointer_focus)) pointer_leave();
	if (S.kb_focus && !surface_mapped(S.kb_focus)) keyboard_focus(NULL);
	if (S.n_buttons == 0 || !S.pointer_focus) pointer_update(false);
}

int pointer_button(uint32_t button, bool pressed, char *err, size_t errlen)
{
	if (!(S.caps & WL_SEAT_CAPABILITY_POINTER)) {
		snprintf(err, errlen, "the seat has no pointer capability");
		return -1;
	}
	int idx = -1;
	for (int i = 0; i < S.n_buttons; i++)
		if (S.buttons[i] == button) idx = i;
	if (pressed && idx < 0 && S.n_buttons < 8) S.buttons[S.n_buttons++] = button;
	if (!pressed && idx >= 0) S.buttons[idx] = S.buttons[--S.n_buttons];
	struct surface *s = S.pointer_focus;
	if (s) {
		struct wl_client *c = surface_client(s);
		uint32_t serial = wl_display_next_serial(S.display);
		struct wl_resource *r;
		for_each_client_res(r, &S.pointers, c)
			wl_pointer_send_button(r, serial, time_ms32(), button,
					       pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED);
		pointer_frame(c);
	}
	if (pressed) seat_focus_on_press(s);
	if (!pressed && S.n_buttons == 0) pointer_update(false);
	return 0;
}

/* --------------------------------------------------------------- keyboard */

static void keyboard_send_modifiers(struct wl_client *c)
{
	uint32_t serial = wl_display_next_serial(S.display);
	struct wl_resource *r;
	for_each_client_res(r, &S.keyboards, c)
		wl_keyboard_send_modifiers(r, serial, S.mods_depressed, S.mods_latched, S.mods_locked, S.group);
}

static void keyboard_send_enter(struct wl_resource *r, struct surface *s, uint32_t serial)
{
	struct wl_array keys;
	wl_array_init(&keys);
	for (int i = 0; i < S.n_keys; i++) {
		uint32_t *k = wl_array_add(&keys, sizeof *k);
		if (k) *k = S.keys[i];
	}
	wl_keyboard_send_enter(r, serial, s->resource, &keys);
	wl_array_release(&keys);
}

void keyboard_focus(struct surface *s)
{
	if (s == S.kb_focus) return;
	if (S.kb_focus) {
		struct surface *old = S.kb_focus;
		S.kb_focus = NULL;
		struct wl_client *c = (old->client && old->client->gone) ? NULL : surface_client(old);
		uint32_t serial = wl_display_next_serial(S.display);
		struct wl_resource *r;
		for_each_client_res(r, &S.keyboards, c)
			wl_keyboard_send_leave(r, serial, old->resource);
		emit_focus("keyboard_leave", old, false, 0, 0);
	}
	if (s && (S.caps & WL_SEAT_CAPABILITY_KEYBOARD)) {
		S.kb_focus = s;
		struct wl_client *c = surface_client(s);
		uint32_t serial = wl_display_next_serial(S.display);
		struct wl_resource *r;
		for_each_client_res(r, &S.keyboards, c)
			keyboard_send_enter(r, s, serial);
		keyboard_send_modifiers(c);
		emit_focus("keyboard_enter", s, false, 0, 0);
	}
}

static xkb_keycode_t find_keycode(xkb_keysym_t sym)
{
	xkb_keycode_t min = xkb_keymap_min_keycode(S.keymap), max = xkb_keymap_max_keycode(S.keymap);
	for (xkb_level_index_t level = 0; level < 2; level++) {
		for (xkb_keycode_t kc = min; kc <= max; kc++) {
			const xkb_keysym_t *syms;
			int n = xkb_keymap_key_get_syms_by_level(S.keymap, kc, 0, level, &syms);
			for (int i = 0; i < n; i++)
				if (syms[i] == sym) return kc;
		}
	}
	return XKB_KEYCODE_INVALID;
}

int keyboard_key(const char *name, bool pressed, char *err, size_t errlen)
{
	if (!(S.caps & WL_SEAT_CAPABILITY_KEYBOARD)) {
		snprintf(err, errlen, "the seat has no keyboard capability");
		return -1;
	}
	xkb_keysym_t sym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS);
	if (sym == XKB_KEY_NoSymbol) sym = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE);
	if (sym == XKB_KEY_NoSymbol) {
		snprintf(err, errlen, "unknown key name %s", name);
		return -1;
	}
	xkb_keycode_t kc = find_keycode(sym);
	if (kc == XKB_KEYCODE_INVALID) {
		snprintf(err, errlen, "key %s is not on the keymap", name);
		return -1;
	}
	uint32_t evdev = kc - 8;
	int idx = -1;
	for (int i = 0; i < S.n_keys; i++)
		if (S.keys[i] == evdev) idx = i;
	if (pressed && idx < 0 && S.n_keys < TC_MAX_KEYS) S.keys[S.n_keys++] = evdev;
	if (!pressed && idx >= 0) S.keys[idx] = S.keys[--S.n_keys];
	xkb_state_update_key(S.xkb_state, kc, pressed ? XKB_KEY_DOWN : XKB_KEY_UP);
	struct wl_client *c = surface_client(S.kb_focus);
	if (c) {
		uint32_t serial = wl_display_next_serial(S.display);
		struct wl_resource *r;
		for_each_client_res(r, &S.keyboards, c)
			wl_keyboard_send_key(r, serial, time_ms32(), evdev,
					     pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
	}
	uint32_t dep = xkb_state_serialize_mods(S.xkb_state, XKB_STATE_MODS_DEPRESSED);
	uint32_t lat = xkb_state_serialize_mods(S.xkb_state, XKB_STATE_MODS_LATCHED);
	uint32_t loc = xkb_state_serialize_mods(S.xkb_state, XKB_STATE_MODS_LOCKED);
	uint32_t grp = xkb_state_serialize_layout(S.xkb_state, XKB_STATE_LAYOUT_EFFECTIVE);
	if (dep != S.mods_depressed || lat != S.mods_latched || loc != S.mods_locked || grp != S.group) {
		S.mods_depressed = dep;
		S.mods_latched = lat;
		S.mods_locked = loc;
		S.group = grp;
		if (c) keyboard_send_modifiers(c);
	}
	snprintf(err, errlen, "%u", evdev); /* the caller reports the code */
	return 0;
}

/* An exclusive layer surface (top or overlay) keeps the keyboard. */
static bool exclusive_focus(void)
{
	struct surface *f = S.kb_focus;
	return f && f->role == ROLE_LAYER && f->layer && f->layer->current.keyboard_interactivity == 1 &&
	       f->layer->current.layer >= 2;
}

/* A press (pointer or touch) on s: focus its layer surface like sway, or
 * its window. */
void seat_focus_on_press(struct surface *s)
{
	struct surface *root = surface_root(s);
	if (!root) {
		/* Pressing on nothing takes on-demand focus away. */
		if (S.kb_focus && S.kb_focus->layer && S.kb_focus->layer->current.keyboard_interactivity == 2)
			keyboard_focus(NULL);
		return;
	}
	if (root->role == ROLE_LAYER && root->layer && root->layer->current.keyboard_interactivity != 0)
		keyboard_focus(root);
	else if (root->role == ROLE_TOPLEVEL && !exclusive_focus()) keyboard_focus(root);
}

/* A window that maps is activated, as in any desktop, unless a layer
 * surface holds the keyboard exclusively. */
void seat_toplevel_mapped(struct surface *s)
{
	if (!exclusive_focus()) keyboard_focus(s);
}

void layer_keyboard_changed(struct layer_surface *l)
{
	struct surface *s = l->surface;
	if (!s) return;
	uint32_t ki = l->current.keyboard_interactivity;
	if (ki == 0 && S.kb_focus == s) keyboard_focus(NULL);
	else if (ki == 1 && l->current.layer >= 2 && surface_mapped(s) && S.kb_focus != s) keyboard_focus(s);
}

/* ------------------------------------------------------------------ touch */

static struct touch_point *touch_find(int32_t id)
{
	for (int i = 0; i < TC_MAX_TOUCH; i++)
		if (S.touch[i].active && S.touch[i].id == id) return &S.touch[i];
	return NULL;
}

static bool touch_clients_pending[64];

static void touch_send_frame_to(struct wl_client *c)
{
	struct wl_resource *r;
	for_each_client_res(r, &S.touches, c)
		wl_touch_send_frame(r);
}

int touch_down(int32_t id, double x, double y, bool frame, struct surface **hit_out, char *err, size_t errlen)
{
	*hit_out = NULL;
	if (!(S.caps & WL_SEAT_CAPABILITY_TOUCH)) {
		snprintf(err, errlen, "the seat has no touch capability");
		return -1;
	}
	if (touch_find(id)) {
		snprintf(err, errlen, "touch point %d is already down", id);
		return -1;
	}
	struct touch_point *tp = NULL;
	for (int i = 0; i < TC_MAX_TOUCH; i++)
		if (!S.touch[i].active) { tp = &S.touch[i]; break; }
	if (!tp) {
		snprintf(err, errlen, "too many touch points");
		return -1;
	}
	double lx, ly;
	struct surface *hit = surface_at(x, y, &lx, &ly);
	*hit_out = hit;
	if (!hit) {
		seat_focus_on_press(NULL);
		return 0;
	}
	tp->active = true;
	tp->id = id;
	tp->surface = hit;
	tp->client = client_of(surface_client(hit));
	struct wl_client *c = surface_client(hit);
	uint32_t serial = wl_display_next_serial(S.display);
	struct wl_resource *r;
	for_each_client_res(r, &S.touches, c)
		wl_touch_send_down(r, serial, time_ms32(), hit->resource, id, wl_fixed_from_double(lx),
				   wl_fixed_from_double(ly));
	if (frame) touch_send_frame_to(c);
	else if (tp->client && tp->client->index < 64) touch_clients_pending[tp->client->index] = true;
	struct jbuf b;
	ev_begin(&b, "touch_down");
	jb_kint(&b, "surface", hit->id);
	jb_kint(&b, "id", id);
	jb_knum(&b, "x", lx);
	jb_knum(&b, "y", ly);
	ev_end(&b);
	seat_focus_on_press(hit);
	return 0;
}

static struct wl_client *touch_point_client(struct touch_point *tp)
{
	if (tp->surface) return surface_client(tp->surface);
	return tp->client && !tp->client->gone ? tp->client->client : NULL;
}

int touch_motion(int32_t id, double x, double y, bool frame, char *err, size_t errlen)
{
	struct touch_point *tp = touch_find(id);
	if (!tp) {
		snprintf(err, errlen, "touch point %d is not down", id);
		return -1;
	}
	if (!tp->surface) {
		snprintf(err, errlen, "the surface touch point %d started on is gone", id);
		return -1;
	}
	int32_t gx = 0, gy = 0;
	surface_global_pos(tp->surface, &gx, &gy);
	double lx = x - gx, ly = y - gy;
	struct wl_client *c = surface_client(tp->surface);
	struct wl_resource *r;
	for_each_client_res(r, &S.touches, c)
		wl_touch_send_motion(r, time_ms32(), id, wl_fixed_from_double(lx), wl_fixed_from_double(ly));
	if (frame) touch_send_frame_to(c);
	else if (tp->client && tp->client->index < 64) touch_clients_pending[tp->client->index] = true;
	snprintf(err, errlen, "%g %g", lx, ly);
	return 0;
}

int touch_up(int32_t id, bool frame, char *err, size_t errlen)
{
	struct touch_point *tp = touch_find(id);
	if (!tp) {
		snprintf(err, errlen, "touch point %d is not down", id);
		return -1;
	}
	struct wl_client *c = touch_point_client(tp);
	if (c) {
		uint32_t serial = wl_display_next_serial(S.display);
		struct wl_resource *r;
		for_each_client_res(r, &S.touches, c)
			wl_touch_send_up(r, serial, time_ms32(), id);
		if (frame) touch_send_frame_to(c);
		else if (tp->client && tp->client->index < 64) touch_clients_pending[tp->client->index] = true;
	}
	tp->active = false;
	tp->surface = NULL;
	return 0;
}

void touch_frame(void)
{
	struct tc_client *tc;
	wl_list_for_each(tc, &S.clients, link) {
		bool want = tc->index < 64 && touch_clients_pending[tc->index];
		for (int i = 0; i < TC_MAX_TOUCH; i++)
			if (S.touch[i].active && S.touch[i].client == tc) want = true;
		if (want && !tc->gone) touch_send_frame_to(tc->client);
		if (tc->index < 64) touch_clients_pending[tc->index] = false;
	}
}

void touch_cancel(void)
{
	struct tc_client *tc;
	wl_list_for_each(tc, &S.clients, link) {
		bool want = false;
		for (int i = 0; i < TC_MAX_TOUCH; i++)
			if (S.touch[i].active && S.touch[i].client == tc) want = true;
		if (!want || tc->gone) continue;
		struct wl_resource *r;
		for_each_client_res(r, &S.touches, tc->client)
			wl_touch_send_cancel(r);
	}
	for (int i = 0; i < TC_MAX_TOUCH; i++) {
		S.touch[i].active = false;
		S.touch[i].surface = NULL;
	}
}

/* ------------------------------------------------------------------- seat */

void seat_surface_gone(struct surface *s)
{
	if (S.pointer_focus == s) S.pointer_focus = NULL;
	if (S.kb_focus == s) S.kb_focus = NULL;
	for (int i = 0; i < TC_MAX_TOUCH; i++)
		if (S.touch[i].surface == s) S.touch[i].surface = NULL;
}

static void device_res_destroy(struct wl_resource *r) { wl_list_remove(wl_resource_get_link(r)); }

static void generic_release(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static void pointer_set_cursor(struct wl_client *c, struct wl_resource *r, uint32_t serial,
			       struct wl_resource *surface, int32_t hx, int32_t hy)
{
	(void)c; (void)r; (void)serial; (void)surface; (void)hx; (void)hy;
}

static const struct wl_pointer_interface pointer_impl = {
	.set_cursor = pointer_set_cursor,
	.release = generic_release,
};
static const struct wl_keyboard_interface keyboard_impl = { .release = generic_release };
static const struct wl_touch_interface touch_impl = { .release = generic_release };

static void emit_device(struct wl_client *c, const char *kind)
{
	struct tc_client *tc = client_of(c);
	struct jbuf b;
	ev_begin(&b, kind);
	jb_kint(&b, "client", tc ? tc->index : -1);
	ev_end(&b);
}

static void seat_get_pointer(struct wl_client *c, struct wl_resource *seat, uint32_t id)
{
	struct wl_resource *r = wl_resource_create(c, &wl_pointer_interface, wl_resource_get_version(seat), id);
	if (!r) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(r, &pointer_impl, NULL, device_res_destroy);
	wl_list_insert(S.pointers.prev, wl_resource_get_link(r));
	emit_device(c, "get_pointer");
	if (S.pointer_focus && surface_client(S.pointer_focus) == c) {
		uint32_t serial = wl_display_next_serial(S.display);
		wl_pointer_send_enter(r, serial, S.pointer_focus->resource, wl_fixed_from_double(S.pointer_lx),
				      wl_fixed_from_double(S.pointer_ly));
		if (wl_resource_get_version(r) >= WL_POINTER_FRAME_SINCE_VERSION) wl_pointer_send_frame(r);
	}
}

static void seat_get_keyboard(struct wl_client *c, struct wl_resource *seat, uint32_t id)
{
	struct wl_resource *r = wl_resource_create(c, &wl_keyboard_interface, wl_resource_get_version(seat), id);
	if (!r) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(r, &keyboard_impl, NULL, device_res_destroy);
	wl_list_insert(S.keyboards.prev, wl_resource_get_link(r));
	wl_keyboard_send_keymap(r, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, S.keymap_fd, S.keymap_size);
	if (wl_resource_get_version(r) >= WL_KEYBOARD_REPEAT_INFO_SINCE_VERSION)
		wl_keyboard_send_repeat_info(r, 25, 600);
	emit_device(c, "get_keyboard");
	if (S.kb_focus && surface_client(S.kb_focus) == c) {
		uint32_t serial = wl_display_next_serial(S.display);
		keyboard_send_enter(r, S.kb_focus, serial);
		wl_keyboard_send_modifiers(r, wl_display_next_serial(S.display), S.mods_depressed, S.mods_latched,
					   S.mods_locked, S.group);
	}
}

static void seat_get_touch(struct wl_client *c, struct wl_resource *seat, uint32_t id)
{
	struct wl_resource *r = wl_resource_create(c, &wl_touch_interface, wl_resource_get_version(seat), id);
	if (!r) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(r, &touch_impl, NULL, device_res_destroy);
	wl_list_insert(S.touches.prev, wl_resource_get_link(r));
	emit_device(c, "get_touch");
}

static const struct wl_seat_interface seat_impl = {
	.get_pointer = seat_get_pointer,
	.get_keyboard = seat_get_keyboard,
	.get_touch = seat_get_touch,
	.release = generic_release,
};

static void bind_seat(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	(void)data;
	struct wl_resource *r = wl_resource_create(c, &wl_seat_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(c);
		return;
	}
	wl_resource_set_implementation(r, &seat_impl, NULL, device_res_destroy);
	wl_list_insert(S.seat_resources.prev, wl_resource_get_link(r));
	wl_seat_send_capabilities(r, S.caps);
	if (version >= WL_SEAT_NAME_SINCE_VERSION) wl_seat_send_name(r, "seat0");
	struct tc_client *tc = client_of(c);
	struct jbuf b;
	ev_begin(&b, "bind");
	jb_kint(&b, "client", tc ? tc->index : -1);
	jb_kstr(&b, "interface", "wl_seat");
	jb_kint(&b, "version", version);
	ev_end(&b);
}

void seat_set_caps(uint32_t caps)
{
	if (!(caps & WL_SEAT_CAPABILITY_POINTER)) pointer_leave();
	if (!(caps & WL_SEAT_CAPABILITY_KEYBOARD)) keyboard_focus(NULL);
	if (!(caps & WL_SEAT_CAPABILITY_TOUCH)) touch_cancel();
	S.caps = caps;
	struct wl_resource *r;
	wl_resource_for_each(r, &S.seat_resources)
		wl_seat_send_capabilities(r, caps);
	if (caps & WL_SEAT_CAPABILITY_POINTER) pointer_update(false);
}

int seat_init(void)
{
	wl_list_init(&S.seat_resources);
	wl_list_init(&S.pointers);
	wl_list_init(&S.keyboards);
	wl_list_init(&S.touches);
	S.caps = WL_SEAT_CAPABILITY_POINTER | WL_SEAT_CAPABILITY_KEYBOARD | WL_SEAT_CAPABILITY_TOUCH;
	S.keymap_fd = -1;
	S.xkb_ctx = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
	if (!S.xkb_ctx) {
		fprintf(stderr, "perch-test-compositor: xkb_context_new failed\n");
		return -1;
	}
	struct xkb_rule_names names = { .rules = "evdev", .model = "pc105", .layout = "us" };
	S.keymap = xkb_keymap_new_from_names(S.xkb_ctx, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (!S.keymap) {
		fprintf(stderr, "perch-test-compositor: cannot compile the us keymap (is xkb-data installed?)\n");
		return -1;
	}
	S.xkb_state = xkb_state_new(S.keymap);
	char *text = xkb_keymap_get_as_string(S.keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
	if (!text) return -1;
	size_t size = strlen(text) + 1;
	int fd = memfd_create("perch-test-keymap", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) {
		free(text);
		return -1;
	}
	size_t off = 0;
	while (off < size) {
		ssize_t n = write(fd, text + off, size - off);
		if (n < 0 && errno == EINTR) continue;
		if (n <= 0) {
			close(fd);
			free(text);
			return -1;
		}
		off += (size_t)n;
	}
	free(text);
	/* Clients may map it, never change it. */
	fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
	S.keymap_fd = fd;
	S.keymap_size = (uint32_t)size;
	S.seat_global = wl_global_create(S.display, &wl_seat_interface, 5, NULL, bind_seat);
	return 0;
}

void seat_fini(void)
{
	if (S.xkb_state) xkb_state_unref(S.xkb_state);
	if (S.keymap) xkb_keymap_unref(S.keymap);
	if (S.xkb_ctx) xkb_context_unref(S.xkb_ctx);
	if (S.keymap_fd >= 0) close(S.keymap_fd);
}
