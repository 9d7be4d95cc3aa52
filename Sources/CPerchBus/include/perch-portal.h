// The Notification portal's backend interface,
// org.freedesktop.impl.portal.Notification (version 2), for sd-bus.
//
// xdg-desktop-portal (the front end) checks a sandboxed app's
// notification, turns its icon and sound into sealed file descriptors,
// and calls the backend chosen in portals.conf; the backend owns
// org.freedesktop.impl.portal.desktop.<name>. As for the Notifications
// object, the shim owns only the table; each method goes to one Swift
// function.
#ifndef PERCH_PORTAL_H
#define PERCH_PORTAL_H

#include <systemd/sd-bus.h>

// Where the object's calls go. Allocated once by the owner at a stable
// address and passed as the vtable's userdata. `add` and `remove` answer
// their methods (they return what an sd-bus method handler returns);
// `get_supported_options` fills the SupportedOptions property (0, or a
// negative errno).
struct perch_portal_handlers {
    void *owner;  // Unmanaged PortalBus, not retained
    sd_bus_message_handler_t add;
    sd_bus_message_handler_t remove;
    int (*get_supported_options)(sd_bus_message *reply, void *owner, sd_bus_error *error);
};

// The bus name, object path and interface a portal backend serves
// (xdg-desktop-portal's data/org.freedesktop.impl.portal.Notification.xml).
#define PERCH_PORTAL_NAME "org.freedesktop.impl.portal.desktop.perch"
#define PERCH_PORTAL_PATH "/org/freedesktop/portal/desktop"
#define PERCH_PORTAL_INTERFACE "org.freedesktop.impl.portal.Notification"
// The interface version served: 2 (markup, sounds, purposes, categories,
// display hints). A front end of version 1 (xdg-desktop-portal before
// 1.19) does not read it and sends version 1's keys, which are a subset.
#define PERCH_PORTAL_VERSION 2

// Registers the interface at its path on `bus`, routing its calls to
// `handlers` (which must outlive the slot). sd-bus checks each call's
// signature against the table (InvalidArgs otherwise) and answers
// Introspect and Properties (`version` from the table, SupportedOptions
// through `get_supported_options`). Returns sd_bus_add_object_vtable's
// result; unref `*slot` to unregister.
int perch_portal_add(sd_bus *bus, sd_bus_slot **slot, struct perch_portal_handlers *handlers);

// An empty ActionInvoked(s app_id, s id, s action, av parameter) signal of
// the backend's object, for the caller to fill.
int perch_portal_new_action_invoked(sd_bus *bus, sd_bus_message **message);

#endif
