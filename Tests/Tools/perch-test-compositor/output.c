/*
 * perch-test-compositor — wl_output globals, laid out left to right.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "testcomp.h"

int32_t output_lw(struct output *o) { return o->width / (o->scale > 0 ? o->scale : 1); }
int32_t output_lh(struct output *o) { return o->height / (o->scale > 0 ? o->scale : 1); }

void outputs_layout(void)
{
	int32_t x = 0;
	struct output *o;
	wl_list_for_each(o, &S.outputs, link) {
		if (o->removed) continue;
		o->x = x;
		o->y = 0;
		x += output_lw(o);
	}
}

struct output *output_by_name(const char *name)
{
	struct output *o;
	wl_list_for_each(o, &S.outputs, link)
		if (!o->removed && strcmp(o->name, name) == 0) return o;
	return NULL;
}

struct output *output_first(void)
{
	struct output *o;
	wl_list_for_each(o, &S.outputs, link)
		if (!o->removed) return o;
	return NULL;
}

struct wl_resource *output_resource_for(struct output *o, struct wl_client *c)
{
	struct wl_resource *r;
	wl_resource_for_each(r, &o->resources)
		if (wl_resource_get_client(r) == c) return r;
	return NULL;
}

static void send_state(struct output *o, struct wl_resource *r, bool geometry)
{
	uint32_t v = wl_resource_get_version(r);
	if (geometry)
		wl_output_send_geometry(r, o->x, o->y, 0, 0, WL_OUTPUT_SUBPIXEL_UNKNOWN, "perch", "test-output",
					WL_OUTPUT_TRANSFORM_NORMAL);
	wl_output_send_mode(r, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED, o->width, o->height, 60000);
	if (v >= WL_OUTPUT_SCALE_SINCE_VERSION) wl_output_send_scale(r, o->scale);
	if (geometry && v >= WL_OUTPUT_NAME_SINCE_VERSION) {
		wl_output_send_name(r, o->name);
		char desc[128];
		snprintf(desc, sizeof desc, "perch-test-compositor output %s", o->name);
		wl_output_send_description(r, desc);
	}
	if (v >= WL_OUTPUT_DONE_SINCE_VERSION) wl_output_send_done(r);
}

static void output_res_destroy(struct wl_resource *r) { wl_list_remove(wl_resource_get_link(r)); }

static void output_release(struct wl_client *c, struct wl_resource *r) { (void)c; wl_resource_destroy(r); }

static const struct wl_output_interface output_impl = { .release = output_release };

static void bind_output(struct wl_client *c, void *data, uint32_t version, uint32_t id)
{
	struct output *o = data;
	struct wl_resource *r = wl_resource_create(c, &wl_output_interface, version, id);
	if (!r) {
		wl_client_post_no_memory(c);
		return;
	}
	if (o->removed) {
		/* Bound after global_remove: an inert object. */
		wl_resource_set_implementation(r, &output_impl, NULL, output_res_destroy);
		wl_list_init(wl_resource_get_link(r));
		return;
	}
	wl_resource_set_implementation(r, &output_impl, o, output_res_destroy);
	wl_list_insert(o->resources.prev, wl_resource_get_link(r));
	send_state(o, r, true);
	struct jbuf b;
	ev_begin(&b, "bind");
	struct tc_client *tc;
	int index = -1;
	wl_list_for_each(tc, &S.clients, link)
		if (tc->client == c && !tc->gone) index = tc->index;
	jb_kint(&b, "client", index);
	jb_kstr(&b, "interface", "wl_output");
	jb_kint(&b, "version", version);
	jb_kstr(&b, "output", o->name);
	ev_end(&b);
}

struct output *output_add(const char *name, int32_t w, int32_t h, int32_t scale)
{
	struct output *o = calloc(1, sizeof *o);
	if (!o) return NULL;
	snprintf(o->name, sizeof o->name, "%s", name);
	o->width = w;
	o->height = h;
	o->scale = scale > 0 ? scale : 1;
	wl_list_init(&o->resources);
	wl_list_insert(S.outputs.prev, &o->link);
	outputs_layout();
	o->global = wl_global_create(S.display, &wl_output_interface, 4, o, bind_output);
	toplevels_output_changed();
	return o;
}

static int destroy_later(void *data)
{
	struct output *o = data;
	wl_global_destroy(o->global);
	wl_event_source_remove(o->destroy_timer);
	wl_list_remove(&o->link);
	free(o);
	return 0;
}

void output_remove(struct output *o)
{
	output_going(o); /* leaves, closes layer surfaces */
	o->removed = true;
	wl_global_remove(o->global);
	struct wl_resource *r, *tmp;
	wl_resource_for_each_safe(r, tmp, &o->resources) {
		wl_resource_set_user_data(r, NULL);
		wl_list_remove(wl_resource_get_link(r));
		wl_list_init(wl_resource_get_link(r));
	}
	outputs_layout();
	/* Clients may still bind the name for a while: destroy the global later. */
	o->destroy_timer = wl_event_loop_add_timer(S.loop, destroy_later, o);
	wl_event_source_timer_update(o->destroy_timer, 1000);
	struct output *other;
	wl_list_for_each(other, &S.outputs, link)
		if (!other->removed) layer_output_changed(other);
	toplevels_output_changed();
}

void output_set_mode(struct output *o, int32_t w, int32_t h, int32_t scale)
{
	o->width = w;
	o->height = h;
	if (scale > 0) o->scale = scale;
	outputs_layout();
	struct wl_resource *r;
	wl_resource_for_each(r, &o->resources)
		send_state(o, r, false);
	struct output *other;
	wl_list_for_each(other, &S.outputs, link)
		if (!other->removed) layer_output_changed(other);
	toplevels_output_changed();
}

void outputs_fini(void)
{
	struct output *o, *tmp;
	wl_list_for_each_safe(o, tmp, &S.outputs, link) {
		struct wl_resource *r, *rt;
		wl_resource_for_each_safe(r, rt, &o->resources) {
			wl_resource_set_user_data(r, NULL);
			wl_list_remove(wl_resource_get_link(r));
			wl_list_init(wl_resource_get_link(r));
		}
		if (o->destroy_timer) wl_event_source_remove(o->destroy_timer);
		wl_global_destroy(o->global);
		wl_list_remove(&o->link);
		free(o);
	}
}
