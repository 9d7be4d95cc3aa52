/*
 * perch-test-compositor — the control side: commands read as lines on
 * stdin, one JSON reply line each on stdout (see main.c for the reference),
 * and pixel dumps / screenshots.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "testcomp.h"

static struct {
	char **lines;
	int n, cap, head;
	long long seq;
	bool sync_pending;
	long long sync_seq;
	int64_t sync_start;
	int sync_quiet;
} C;

/* ----------------------------------------------------------------- queue */

void control_push_line(const char *line)
{
	if (C.n == C.cap) {
		int cap = C.cap ? C.cap * 2 : 16;
		char **l = realloc(C.lines, (size_t)cap * sizeof *l);
		if (!l) return;
		C.lines = l;
		C.cap = cap;
	}
	C.lines[C.n++] = strdup(line);
}

bool control_idle(void) { return C.head >= C.n && !C.sync_pending; }

bool control_sync_pending(void) { return C.sync_pending; }

/* --------------------------------------------------------------- replies */

static void reply_begin(struct jbuf *b, const char *cmd)
{
	jb_init(b);
	jb_obj_begin(b);
	jb_kstr(b, "reply", cmd);
	jb_kint(b, "seq", C.seq);
}

static void reply_end(struct jbuf *b, bool ok)
{
	jb_kbool(b, "ok", ok);
	jb_obj_end(b);
	jb_emit(b);
}

static void reply_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reply_error(const char *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	struct jbuf b;
	reply_begin(&b, cmd);
	jb_kstr(&b, "error", msg);
	reply_end(&b, false);
}

static void reply_ok(const char *cmd)
{
	struct jbuf b;
	reply_begin(&b, cmd);
	reply_end(&b, true);
}

/* ---------------------------------------------------------------- parsing */

static bool parse_int(const char *s, long *out)
{
	if (!s) return false;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 0);
	if (errno || end == s || *end) return false;
	*out = v;
	return true;
}

static bool parse_num(const char *s, double *out)
{
	if (!s) return false;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v)) return false;
	*out = v;
	return true;
}

static bool parse_color(const char *s, uint8_t rgb[3])
{
	if (!s) return false;
	if (*s == '#') s++;
	if (strlen(s) != 6) return false;
	char *end;
	unsigned long v = strtoul(s, &end, 16);
	if (*end) return false;
	rgb[0] = (uint8_t)(v >> 16);
	rgb[1] = (uint8_t)(v >> 8);
	rgb[2] = (uint8_t)v;
	return true;
}

/* Surface ID argument. */
static struct surface *arg_surface(const char *cmd, const char *s)
{
	long id;
	if (!parse_int(s, &id)) {
		reply_error(cmd, "expected a surface id, got %s", s ? s : "nothing");
		return NULL;
	}
	struct surface *surf = surface_by_id((uint32_t)id);
	if (!surf) reply_error(cmd, "no surface %ld", id);
	return surf;
}

/* ------------------------------------------------------------ dump/shots */

static int write_file(const char *path, const char *header, const uint8_t *data, size_t len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	bool ok = fputs(header, f) >= 0 && fwrite(data, 1, len, f) == len;
	ok = (fclose(f) == 0) && ok;
	if (!ok) {
		snprintf(err, errlen, "cannot write %s", path);
		return -1;
	}
	return 0;
}

/* Premultiplied ARGB over an opaque colour. */
static inline void blend(uint8_t *dst, uint32_t px)
{
	uint32_t a = px >> 24;
	uint32_t r = (px >> 16) & 0xff, g = (px >> 8) & 0xff, b = px & 0xff;
	dst[0] = (uint8_t)(r + (dst[0] * (255 - a) + 127) / 255);
	dst[1] = (uint8_t)(g + (dst[1] * (255 - a) + 127) / 255);
	dst[2] = (uint8_t)(b + (dst[2] * (255 - a) + 127) / 255);
}

int control_dump(struct surface *s, const char *path, const char *bg, char *err, size_t errlen)
{
	struct pixels *p = s->current.pix;
	if (!p) {
		snprintf(err, errlen, "surface %u has no buffer", s->id);
		return -1;
	}
	size_t n = (size_t)p->width * (size_t)p->height;
	char header[160];
	uint8_t *out;
	size_t len;
	if (bg && strcmp(bg, "rgba") == 0) {
		/* PAM, straight (not premultiplied) alpha. */
		len = n * 4;
		out = malloc(len + 1);
		if (!out) return -1;
		for (size_t i = 0; i < n; i++) {
			uint32_t px = p->data[i], a = px >> 24;
			uint32_t c[3] = { (px >> 16) & 0xff, (px >> 8) & 0xff, px & 0xff };
			for (int k = 0; k < 3; k++) {
				uint32_t v = a ? (c[k] * 255 + a / 2) / a : 0;
				out[i * 4 + (size_t)k] = (uint8_t)(v > 255 ? 255 : v);
			}
			out[i * 4 + 3] = (uint8_t)a;
		}
		snprintf(header, sizeof header, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n",
			 p->width, p->height);
	} else {
		uint8_t rgb[3] = { 0x33, 0x66, 0x99 };
		if (bg && !parse_color(bg, rgb)) {
			snprintf(err, errlen, "bad background %s (RRGGBB or rgba)", bg);
			return -1;
		}
		len = n * 3;
		out = malloc(len + 1);
		if (!out) return -1;
		for (size_t i = 0; i < n; i++) {
			memcpy(out + i * 3, rgb, 3);
			blend(out + i * 3, p->data[i]);
		}
		snprintf(header, sizeof header, "P6\n%d %d\n255\n", p->width, p->height);
	}
	int rc = write_file(path, header, out, len, err, errlen);
	free(out);
	return rc;
}

struct canvas {
	uint8_t *data;
	int32_t w, h, scale, ox, oy; /* ox, oy: output's layout position */
};

static void draw_surface(struct canvas *cv, struct surface *s, int32_t gx, int32_t gy)
{
	struct pixels *p = s->current.pix;
	int32_t sw, sh;
	surface_size(s, &sw, &sh);
	if (!p || sw <= 0 || sh <= 0) return;
	struct surface_state *c = &s->current;
	double bscale = c->scale > 0 ? c->scale : 1;
	double sx0 = 0, sy0 = 0, sw0 = p->width / bscale, sh0 = p->height / bscale;
	if (c->src_set) {
		sx0 = c->src_x; sy0 = c->src_y; sw0 = c->src_w; sh0 = c->src_h;
	}
	int32_t x0 = (gx - cv->ox) * cv->scale, y0 = (gy - cv->oy) * cv->scale;
	int32_t x1 = x0 + sw * cv->scale, y1 = y0 + sh * cv->scale;
	for (int32_t py = y0 < 0 ? 0 : y0; py < y1 && py < cv->h; py++) {
		double ly = (py + 0.5) / cv->scale - (gy - cv->oy);
		int32_t by = (int32_t)floor((sy0 + ly / sh * sh0) * bscale);
		if (by < 0) by = 0;
		if (by >= p->height) by = p->height - 1;
		for (int32_t px = x0 < 0 ? 0 : x0; px < x1 && px < cv->w; px++) {
			double lx = (px + 0.5) / cv->scale - (gx - cv->ox);
			int32_t bx = (int32_t)floor((sx0 + lx / sw * sw0) * bscale);
			if (bx < 0) bx = 0;
			if (bx >= p->width) bx = p->width - 1;
			blend(cv->data + ((size_t)py * (size_t)cv->w + (size_t)px) * 3, p->data[(size_t)by * (size_t)p->width + (size_t)bx]);
		}
	}
}

static void draw_tree(struct canvas *cv, struct surface *s, int32_t gx, int32_t gy)
{
	struct stack_node *n;
	wl_list_for_each(n, &s->stack, link) {
		if (!n->sub) {
			draw_surface(cv, s, gx, gy);
		} else if (n->sub->surface && surface_mapped(n->sub->surface)) {
			draw_tree(cv, n->sub->surface, gx + n->sub->x, gy + n->sub->y);
		}
	}
}

static int screenshot(struct output *o, const char *path, const char *bg, char *err, size_t errlen)
{
	uint8_t rgb[3] = { 0x33, 0x66, 0x99 };
	if (bg && !parse_color(bg, rgb)) {
		snprintf(err, errlen, "bad background %s (RRGGBB)", bg);
		return -1;
	}
	struct canvas cv = { NULL, o->width, o->height, o->scale, o->x, o->y };
	size_t len = (size_t)cv.w * (size_t)cv.h * 3;
	cv.data = malloc(len + 1);
	if (!cv.data) return -1;
	for (size_t i = 0; i < len; i += 3) memcpy(cv.data + i, rgb, 3);
	for (uint32_t layer = 0; layer < 4; layer++) {
		struct surface *s;
		if (layer == 2) {
			/* Windows: above the bottom layer, below the top one. */
			wl_list_for_each(s, &S.surfaces, link) {
				int32_t gx, gy;
				if (s->role != ROLE_TOPLEVEL || toplevel_output(s) != o || !surface_mapped(s)) continue;
				if (toplevel_global_pos(s, &gx, &gy)) draw_tree(&cv, s, gx, gy);
			}
		}
		wl_list_for_each(s, &S.surfaces, link) {
			if (s->role != ROLE_LAYER || !s->layer || s->layer->output != o || !surface_mapped(s)) continue;
			if (s->layer->current.layer != layer) continue;
			int32_t gx, gy;
			if (!layer_global_pos(s->layer, &gx, &gy, NULL, NULL)) continue;
			draw_tree(&cv, s, gx, gy);
		}
	}
	char header[64];
	snprintf(header, sizeof header, "P6\n%d %d\n255\n", cv.w, cv.h);
	int rc = write_file(path, header, cv.data, len, err, errlen);
	free(cv.data);
	return rc;
}

/* -------------------------------------------------------------- commands */

static int autoframe_fire(void *data)
{
	(void)data;
	int n = fire_frames(time_ms32());
	if (n > 0) {
		struct jbuf b;
		ev_begin(&b, "frame_done");
		jb_kint(&b, "fired", n);
		ev_end(&b);
	}
	wl_event_source_timer_update(S.autoframe, S.autoframe_ms);
	return 0;
}

static void output_json(struct jbuf *b, struct output *o)
{
	jb_obj_begin(b);
	jb_kstr(b, "name", o->name);
	jb_kint(b, "width", o->width);
	jb_kint(b, "height", o->height);
	jb_kint(b, "scale", o->scale);
	jb_kint(b, "x", o->x);
	jb_kint(b, "y", o->y);
	jb_kint(b, "bound", wl_list_length(&o->resources));
	jb_obj_end(b);
}

static uint32_t button_code(const char *s, bool *ok)
{
	*ok = true;
	if (strcasecmp(s, "left") == 0) return 0x110;
	if (strcasecmp(s, "right") == 0) return 0x111;
	if (strcasecmp(s, "middle") == 0) return 0x112;
	if (strcasecmp(s, "side") == 0) return 0x113;
	if (strcasecmp(s, "extra") == 0) return 0x114;
	long v;
	if (parse_int(s, &v) && v > 0) return (uint32_t)v;
	*ok = false;
	return 0;
}

static void focus_reply(struct jbuf *b, const char *key, struct surface *s)
{
	jb_key(b, key);
	if (s) jb_int(b, s->id);
	else jb_null(b);
}

static void cmd_pointer(char **a, int n)
{
	const char *cmd = "pointer";
	char err[256] = "";
	if (n >= 4 && strcmp(a[1], "motion") == 0) {
		double x, y;
		if (!parse_num(a[2], &x) || !parse_num(a[3], &y)) {
			reply_error(cmd, "usage: pointer motion X Y");
			return;
		}
		pointer_motion(x, y);
	} else if (n >= 4 && strcmp(a[1], "button") == 0) {
		bool ok;
		uint32_t code = button_code(a[2], &ok);
		bool press = strcmp(a[3], "press") == 0;
		if (!ok || (!press && strcmp(a[3], "release") != 0)) {
			reply_error(cmd, "usage: pointer button left|right|middle|CODE press|release");
			return;
		}
		if (pointer_button(code, press, err, sizeof err) < 0) {
			reply_error(cmd, "%s", err);
			return;
		}
	} else if (n >= 3 && strcmp(a[1], "click") == 0) {
		bool ok;
		uint32_t code = button_code(a[2], &ok);
		if (!ok) {
			reply_error(cmd, "usage: pointer click left|right|middle|CODE");
			return;
		}
		if (pointer_button(code, true, err, sizeof err) < 0 || pointer_button(code, false, err, sizeof err) < 0) {
			reply_error(cmd, "%s", err);
			return;
		}
	} else {
		reply_error(cmd, "usage: pointer motion X Y | pointer button B press|release | pointer click B");
		return;
	}
	struct jbuf b;
	reply_begin(&b, cmd);
	focus_reply(&b, "surface", S.pointer_focus);
	if (S.pointer_focus) {
		jb_knum(&b, "x", S.pointer_lx);
		jb_knum(&b, "y", S.pointer_ly);
	}
	reply_end(&b, true);
}

static void cmd_touch(char **a, int n)
{
	const char *cmd = "touch";
	char err[256] = "";
	bool frame = !(n > 1 && strcmp(a[n - 1], "noframe") == 0);
	if (!frame) n--;
	long id;
	double x, y;
	struct jbuf b;
	if (n >= 5 && strcmp(a[1], "down") == 0 && parse_int(a[2], &id) && parse_num(a[3], &x) && parse_num(a[4], &y)) {
		struct surface *hit;
		if (touch_down((int32_t)id, x, y, frame, &hit, err, sizeof err) < 0) {
			reply_error(cmd, "%s", err);
			return;
		}
		reply_begin(&b, cmd);
		focus_reply(&b, "surface", hit);
		reply_end(&b, true);
	} else if (n >= 5 && strcmp(a[1], "motion") == 0 && parse_int(a[2], &id) && parse_num(a[3], &x) &&
		   parse_num(a[4], &y)) {
		if (touch_motion((int32_t)id, x, y, frame, err, sizeof err) < 0) {
			reply_error(cmd, "%s", err);
			return;
		}
		double lx = 0, ly = 0;
		sscanf(err, "%lg %lg", &lx, &ly);
		reply_begin(&b, cmd);
		jb_knum(&b, "x", lx);
		jb_knum(&b, "y", ly);
		reply_end(&b, true);
	} else if (n >= 3 && strcmp(a[1], "up") == 0 && parse_int(a[2], &id)) {
		if (touch_up((int32_t)id, frame, err, sizeof err) < 0) {
			reply_error(cmd, "%s", err);
			return;
		}
		reply_ok(cmd);
	} else if (n >= 2 && strcmp(a[1], "frame") == 0) {
		touch_frame();
		reply_ok(cmd);
	} else if (n >= 2 && strcmp(a[1], "cancel") == 0) {
		touch_cancel();
		reply_ok(cmd);
	} else {
		reply_error(cmd, "usage: touch down ID X Y | motion ID X Y | up ID [noframe] | frame | cancel");
	}
}

static void cmd_key(char **a, int n)
{
	const char *cmd = "key";
	char err[256] = "";
	if (n < 3) {
		reply_error(cmd, "usage: key press|release|tap KEYNAME");
		return;
	}
	bool tap = strcasecmp(a[1], "tap") == 0;
	bool press = strcasecmp(a[1], "press") == 0;
	if (!tap && !press && strcasecmp(a[1], "release") != 0) {
		reply_error(cmd, "usage: key press|release|tap KEYNAME");
		return;
	}
	if (keyboard_key(a[2], tap || press, err, sizeof err) < 0 ||
	    (tap && keyboard_key(a[2], false, err, sizeof err) < 0)) {
		reply_error(cmd, "%s", err);
		return;
	}
	struct jbuf b;
	reply_begin(&b, cmd);
	jb_kint(&b, "code", strtol(err, NULL, 10));
	focus_reply(&b, "focus", S.kb_focus);
	jb_kint(&b, "mods_depressed", S.mods_depressed);
	reply_end(&b, true);
}

static void cmd_output(char **a, int n)
{
	const char *cmd = "output";
	long w, h, scale = 1;
	if (n >= 5 && strcmp(a[1], "add") == 0 && parse_int(a[3], &w) && parse_int(a[4], &h) &&
	    (n < 6 || parse_int(a[5], &scale))) {
		if (output_by_name(a[2])) {
			reply_error(cmd, "output %s exists", a[2]);
			return;
		}
		if (w <= 0 || h <= 0 || scale <= 0) {
			reply_error(cmd, "bad size or scale");
			return;
		}
		output_add(a[2], (int32_t)w, (int32_t)h, (int32_t)scale);
		reply_ok(cmd);
	} else if (n >= 3 && strcmp(a[1], "remove") == 0) {
		struct output *o = output_by_name(a[2]);
		if (!o) {
			reply_error(cmd, "no output %s", a[2]);
			return;
		}
		output_remove(o);
		reply_ok(cmd);
	} else if (n >= 5 && strcmp(a[1], "mode") == 0 && parse_int(a[3], &w) && parse_int(a[4], &h) &&
		   (n < 6 || parse_int(a[5], &scale))) {
		struct output *o = output_by_name(a[2]);
		if (!o) {
			reply_error(cmd, "no output %s", a[2]);
			return;
		}
		if (w <= 0 || h <= 0 || scale <= 0) {
			reply_error(cmd, "bad size or scale");
			return;
		}
		output_set_mode(o, (int32_t)w, (int32_t)h, n >= 6 ? (int32_t)scale : 0);
		reply_ok(cmd);
	} else {
		reply_error(cmd, "usage: output add NAME W H [SCALE] | remove NAME | mode NAME W H [SCALE]");
	}
}

static void run_command(char *line)
{
	char *a[24];
	int n = 0;
	for (char *save = NULL, *t = strtok_r(line, " \t\r", &save); t && n < 24; t = strtok_r(NULL, " \t\r", &save))
		a[n++] = t;
	if (n == 0 || a[0][0] == '#') return;
	C.seq++;
	const char *cmd = a[0];
	char err[512] = "";
	struct jbuf b;

	if (strcmp(cmd, "frame") == 0) {
		long t;
		uint32_t time = time_ms32();
		if (n >= 2) {
			if (!parse_int(a[1], &t)) {
				reply_error(cmd, "usage: frame [MS]");
				return;
			}
			time = (uint32_t)t;
		}
		int fired = fire_frames(time);
		reply_begin(&b, cmd);
		jb_kint(&b, "fired", fired);
		jb_kint(&b, "time", time);
		reply_end(&b, true);
	} else if (strcmp(cmd, "autoframe") == 0) {
		long ms;
		if (n >= 2 && strcmp(a[1], "off") == 0) {
			if (S.autoframe) wl_event_source_remove(S.autoframe);
			S.autoframe = NULL;
			reply_ok(cmd);
		} else if (n >= 2 && parse_int(a[1], &ms) && ms > 0) {
			S.autoframe_ms = (int)ms;
			if (!S.autoframe) S.autoframe = wl_event_loop_add_timer(S.loop, autoframe_fire, NULL);
			wl_event_source_timer_update(S.autoframe, S.autoframe_ms);
			reply_ok(cmd);
		} else {
			reply_error(cmd, "usage: autoframe MS|off");
		}
	} else if (strcmp(cmd, "surfaces") == 0) {
		reply_begin(&b, cmd);
		jb_key(&b, "surfaces");
		surfaces_json(&b);
		reply_end(&b, true);
	} else if (strcmp(cmd, "surface") == 0) {
		struct surface *s = arg_surface(cmd, n >= 2 ? a[1] : NULL);
		if (!s) return;
		reply_begin(&b, cmd);
		jb_key(&b, "surface");
		surface_one_json(&b, s);
		reply_end(&b, true);
	} else if (strcmp(cmd, "dump") == 0) {
		if (n < 3) {
			reply_error(cmd, "usage: dump SURFACE_ID PATH [RRGGBB|rgba]");
			return;
		}
		struct surface *s = arg_surface(cmd, a[1]);
		if (!s) return;
		if (control_dump(s, a[2], n >= 4 ? a[3] : NULL, err, sizeof err) < 0) {
			reply_error(cmd, "%s", err);
			return;
		}
		reply_begin(&b, cmd);
		jb_kstr(&b, "path", a[2]);
		jb_kint(&b, "width", s->current.pix->width);
		jb_kint(&b, "height", s->current.pix->height);
		reply_end(&b, true);
	} else if (strcmp(cmd, "screenshot") == 0) {
		if (n < 2) {
			reply_error(cmd, "usage: screenshot PATH [RRGGBB [OUTPUT]]");
			return;
		}
		struct output *o = n >= 4 ? output_by_name(a[3]) : output_first();
		if (!o) {
			reply_error(cmd, "no such output");
			return;
		}
		if (screenshot(o, a[1], n >= 3 ? a[2] : NULL, err, sizeof err) < 0) {
			reply_error(cmd, "%s", err);
			return;
		}
		reply_begin(&b, cmd);
		jb_kstr(&b, "path", a[1]);
		jb_kstr(&b, "output", o->name);
		jb_kint(&b, "width", o->width);
		jb_kint(&b, "height", o->height);
		reply_end(&b, true);
	} else if (strcmp(cmd, "pointer") == 0) {
		cmd_pointer(a, n);
	} else if (strcmp(cmd, "touch") == 0) {
		cmd_touch(a, n);
	} else if (strcmp(cmd, "key") == 0) {
		cmd_key(a, n);
	} else if (strcmp(cmd, "keyboard") == 0) {
		if (n < 3 || strcmp(a[1], "focus") != 0) {
			reply_error(cmd, "usage: keyboard focus SURFACE_ID|none");
			return;
		}
		struct surface *s = NULL;
		if (strcmp(a[2], "none") != 0 && !(s = arg_surface(cmd, a[2]))) return;
		if (s && !(S.caps & WL_SEAT_CAPABILITY_KEYBOARD)) {
			reply_error(cmd, "the seat has no keyboard capability");
			return;
		}
		keyboard_focus(s);
		reply_begin(&b, cmd);
		focus_reply(&b, "focus", S.kb_focus);
		reply_end(&b, true);
	} else if (strcmp(cmd, "seat") == 0) {
		if (n < 2 || strcmp(a[1], "caps") != 0) {
			reply_error(cmd, "usage: seat caps [pointer] [keyboard] [touch] | seat caps none");
			return;
		}
		uint32_t caps = 0;
		for (int i = 2; i < n; i++) {
			if (strcmp(a[i], "pointer") == 0) caps |= WL_SEAT_CAPABILITY_POINTER;
			else if (strcmp(a[i], "keyboard") == 0) caps |= WL_SEAT_CAPABILITY_KEYBOARD;
			else if (strcmp(a[i], "touch") == 0) caps |= WL_SEAT_CAPABILITY_TOUCH;
			else if (strcmp(a[i], "none") != 0) {
				reply_error(cmd, "unknown capability %s", a[i]);
				return;
			}
		}
		seat_set_caps(caps);
		reply_ok(cmd);
	} else if (strcmp(cmd, "output") == 0) {
		cmd_output(a, n);
	} else if (strcmp(cmd, "outputs") == 0) {
		reply_begin(&b, cmd);
		jb_key(&b, "outputs");
		jb_arr_begin(&b);
		struct output *o;
		wl_list_for_each(o, &S.outputs, link)
			if (!o->removed) output_json(&b, o);
		jb_arr_end(&b);
		reply_end(&b, true);
	} else if (strcmp(cmd, "closed") == 0) {
		struct surface *s = arg_surface(cmd, n >= 2 ? a[1] : NULL);
		if (!s) return;
		if (s->role != ROLE_LAYER || !s->layer) {
			reply_error(cmd, "surface %u is not a layer surface", s->id);
			return;
		}
		layer_close(s->layer);
		reply_ok(cmd);
	} else if (strcmp(cmd, "configure") == 0) {
		long w, h;
		struct surface *s = arg_surface(cmd, n >= 2 ? a[1] : NULL);
		if (!s) return;
		if (n < 4 || !parse_int(a[2], &w) || !parse_int(a[3], &h) || w < 0 || h < 0) {
			reply_error(cmd, "usage: configure SURFACE_ID W H");
			return;
		}
		uint32_t serial;
		if (s->role == ROLE_TOPLEVEL) {
			if (toplevel_configure(s, (int32_t)w, (int32_t)h, err, sizeof err) < 0) {
				reply_error(cmd, "%s", err);
				return;
			}
			serial = toplevel_of(s)->last_serial;
		} else if (s->role == ROLE_LAYER && s->layer && !s->layer->closed) {
			layer_send_configure(s->layer, (int32_t)w, (int32_t)h);
			serial = s->layer->last_serial;
		} else {
			reply_error(cmd, "surface %u is neither an open layer surface nor a toplevel", s->id);
			return;
		}
		reply_begin(&b, cmd);
		jb_kint(&b, "serial", serial);
		reply_end(&b, true);
	} else if (strcmp(cmd, "close") == 0) {
		struct surface *s = arg_surface(cmd, n >= 2 ? a[1] : NULL);
		if (!s) return;
		if (toplevel_close(s, err, sizeof err) < 0) {
			reply_error(cmd, "%s", err);
			return;
		}
		reply_ok(cmd);
	} else if (strcmp(cmd, "ping") == 0) {
		reply_begin(&b, cmd);
		jb_kint(&b, "pinged", xdg_ping_all());
		reply_end(&b, true);
	} else if (strcmp(cmd, "release") == 0) {
		const char *m = n >= 2 ? a[1] : "";
		if (strcmp(m, "now") == 0) {
			release_held(true, 0);
		} else if (strcmp(m, "commit") == 0) {
			S.release_mode = RELEASE_COMMIT;
			release_held(true, 0);
		} else if (strcmp(m, "apply") == 0) {
			S.release_mode = RELEASE_APPLY;
		} else if (strcmp(m, "replace") == 0) {
			S.release_mode = RELEASE_REPLACE;
		} else if (strcmp(m, "never") == 0) {
			S.release_mode = RELEASE_NEVER;
		} else {
			reply_error(cmd, "usage: release commit|apply|replace|never|now");
			return;
		}
		reply_begin(&b, cmd);
		jb_kint(&b, "held", wl_list_length(&S.held));
		reply_end(&b, true);
	} else if (strcmp(cmd, "sync") == 0) {
		long q = 50;
		if (n >= 2 && (!parse_int(a[1], &q) || q < 0)) {
			reply_error(cmd, "usage: sync [QUIET_MS]");
			return;
		}
		wl_display_flush_clients(S.display);
		C.sync_pending = true;
		C.sync_seq = C.seq;
		C.sync_start = now_ms();
		C.sync_quiet = (int)q;
	} else if (strcmp(cmd, "clients") == 0) {
		reply_begin(&b, cmd);
		jb_key(&b, "clients");
		jb_arr_begin(&b);
		struct tc_client *tc;
		wl_list_for_each(tc, &S.clients, link) {
			if (tc->gone) continue;
			jb_obj_begin(&b);
			jb_kint(&b, "client", tc->index);
			jb_kint(&b, "pid", tc->pid);
			jb_obj_end(&b);
		}
		jb_arr_end(&b);
		reply_end(&b, true);
	} else if (strcmp(cmd, "disconnect") == 0) {
		long idx = -1;
		bool all = n >= 2 && strcmp(a[1], "all") == 0;
		if (!all && (n < 2 || !parse_int(a[1], &idx))) {
			reply_error(cmd, "usage: disconnect CLIENT|all");
			return;
		}
		int count = 0;
		struct tc_client *tc, *tmp;
		wl_list_for_each_safe(tc, tmp, &S.clients, link) {
			if (tc->gone || (!all && tc->index != idx)) continue;
			wl_client_destroy(tc->client);
			count++;
		}
		reply_begin(&b, cmd);
		jb_kint(&b, "disconnected", count);
		reply_end(&b, true);
	} else if (strcmp(cmd, "echo") == 0) {
		reply_begin(&b, cmd);
		jb_key(&b, "args");
		jb_arr_begin(&b);
		for (int i = 1; i < n; i++) jb_str(&b, a[i]);
		jb_arr_end(&b);
		reply_end(&b, true);
	} else if (strcmp(cmd, "quit") == 0) {
		reply_ok(cmd);
		S.quit = true;
	} else {
		reply_error(cmd, "unknown command %s", cmd);
	}
}

/* Runs queued commands; called from the main loop. */
void control_tick(void)
{
	if (C.sync_pending) {
		int64_t now = now_ms();
		int64_t since = now - (S.last_request_ms > C.sync_start ? S.last_request_ms : C.sync_start);
		if (since < C.sync_quiet) return;
		C.sync_pending = false;
		struct jbuf b;
		jb_init(&b);
		jb_obj_begin(&b);
		jb_kstr(&b, "reply", "sync");
		jb_kint(&b, "seq", C.sync_seq);
		jb_kint(&b, "waited_ms", now - C.sync_start);
		jb_kbool(&b, "ok", true);
		jb_obj_end(&b);
		jb_emit(&b);
	}
	while (C.head < C.n && !C.sync_pending && !S.quit) {
		char *line = C.lines[C.head];
		C.lines[C.head++] = NULL;
		run_command(line);
		free(line);
		wl_display_flush_clients(S.display);
	}
	if (C.head == C.n) C.head = C.n = 0;
}

void control_init(void) { memset(&C, 0, sizeof C); }

void control_fini(void)
{
	for (int i = C.head; i < C.n; i++) free(C.lines[i]);
	free(C.lines);
	if (S.autoframe) wl_event_source_remove(S.autoframe);
	S.autoframe = NULL;
}
