// The part of librsvg's and GLib's API that rsvg.c uses, declared here so
// that Perch builds without librsvg's headers (librsvg2-dev pulls in the
// GLib, gdk-pixbuf and Cairo development trees) and never links it.
//
// The names, struct tags and types are those of librsvg 2.54 and GLib
// 2.74. The guards let the real headers take precedence, so compiling
// rsvg.c with them included first checks every prototype here:
//
//   cc -fsyntax-only $(pkg-config --cflags librsvg-2.0) -include librsvg/rsvg.h
//      -ISources/CRsvg/include Sources/CRsvg/rsvg.c
//
// These functions are only ever called through pointers from dlsym; the
// prototypes give those pointers their types.
#ifndef PERCH_RSVG_API_H
#define PERCH_RSVG_API_H

#include <stddef.h>
#include <stdint.h>

#ifndef __G_ERROR_H__
typedef struct _GError {
    uint32_t domain;  // GQuark
    int code;
    char *message;
} GError;
#endif

#ifndef RSVG_H
typedef struct _RsvgHandle RsvgHandle;
typedef struct _RsvgRectangle {
    double x, y, width, height;
} RsvgRectangle;
typedef enum {
    RSVG_UNIT_PERCENT, RSVG_UNIT_PX, RSVG_UNIT_EM, RSVG_UNIT_EX, RSVG_UNIT_IN,
    RSVG_UNIT_CM, RSVG_UNIT_MM, RSVG_UNIT_PT, RSVG_UNIT_PC
} RsvgUnit;
typedef struct {
    double length;
    RsvgUnit unit;
} RsvgLength;
#endif

// gboolean is int, gsize unsigned long, guint8 unsigned char on every
// platform GLib supports.
RsvgHandle *rsvg_handle_new_from_data(const unsigned char *data, unsigned long data_len, GError **error);
void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle,
                                          int *out_has_width, RsvgLength *out_width,
                                          int *out_has_height, RsvgLength *out_height,
                                          int *out_has_viewbox, RsvgRectangle *out_viewbox);
int rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *out_width, double *out_height);
int rsvg_handle_render_document(RsvgHandle *handle, struct _cairo *cr, const RsvgRectangle *viewport,
                                GError **error);
void g_object_unref(void *object);
void g_error_free(GError *error);

#endif
