// Wayland protocol glue for Perch's Swift code.
//
// Swift cannot take the address of a C global like `wl_seat_interface`
// (`&` is not allowed, and `withUnsafePointer(to:)` hands out a pointer to a
// copy that dangles outside the closure — in release builds libwayland then
// reads garbage). These getters return the real addresses.
#ifndef PERCH_SUPPORT_H
#define PERCH_SUPPORT_H

#include <wayland-client.h>
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "fractional-scale-v1-client-protocol.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "ext-idle-notify-v1-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"
#include "wp-alpha-modifier-v1-client-protocol.h"
#include "wp-cursor-shape-v1-client-protocol.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include "wlr-output-power-management-unstable-v1-client-protocol.h"
#include "wlr-data-control-unstable-v1-client-protocol.h"
#include "ext-data-control-v1-client-protocol.h"

#define PERCH_INTERFACE_GETTER(name) \
    static inline const struct wl_interface *perch_##name##_interface(void) { \
        return &name##_interface; \
    }

PERCH_INTERFACE_GETTER(wl_compositor)
PERCH_INTERFACE_GETTER(wl_subcompositor)
PERCH_INTERFACE_GETTER(wl_shm)
PERCH_INTERFACE_GETTER(wl_output)
PERCH_INTERFACE_GETTER(wl_seat)
PERCH_INTERFACE_GETTER(zwlr_layer_shell_v1)
PERCH_INTERFACE_GETTER(wp_viewporter)
PERCH_INTERFACE_GETTER(wp_fractional_scale_manager_v1)
PERCH_INTERFACE_GETTER(zwlr_virtual_pointer_manager_v1)
PERCH_INTERFACE_GETTER(zxdg_output_manager_v1)
PERCH_INTERFACE_GETTER(ext_idle_notifier_v1)
PERCH_INTERFACE_GETTER(xdg_activation_v1)
PERCH_INTERFACE_GETTER(wp_alpha_modifier_v1)
PERCH_INTERFACE_GETTER(wp_cursor_shape_manager_v1)
PERCH_INTERFACE_GETTER(zwlr_foreign_toplevel_manager_v1)
PERCH_INTERFACE_GETTER(zwlr_output_power_manager_v1)
PERCH_INTERFACE_GETTER(zwlr_data_control_manager_v1)
PERCH_INTERFACE_GETTER(ext_data_control_manager_v1)

#undef PERCH_INTERFACE_GETTER

#endif
