// The org.freedesktop.Notifications object for sd-bus.
//
// sd-bus describes an object with a vtable built from C macros (a static
// array of unions), which Swift cannot spell; this shim owns that table and
// its method trampolines. Everything else (reading arguments, replying,
// emitting signals) uses sd-bus's non-variadic calls directly from Swift.
#ifndef PERCH_BUS_H
#define PERCH_BUS_H

#include <systemd/sd-bus.h>

// Where the object's method calls go. Allocated once by the owner at a
// stable address and passed as the vtable's userdata; each trampoline
// forwards (message, owner, error) to the matching function. A function
// returns what an sd-bus method handler returns: 1 once it has sent the
// reply, or a negative errno (with `error` set by sd_bus_error_set) for
// sd-bus to send as an error reply.
struct perch_bus_methods {
    void *owner;  // Unmanaged NotificationsBus, not retained
    sd_bus_message_handler_t notify;
    sd_bus_message_handler_t close_notification;
    sd_bus_message_handler_t get_capabilities;
    sd_bus_message_handler_t get_server_information;
    // KDE's inhibitions (plasma-workspace's notification server).
    sd_bus_message_handler_t inhibit;
    sd_bus_message_handler_t un_inhibit;
    // The `Inhibited` property's value into `reply` (0, or a negative errno).
    int (*get_inhibited)(sd_bus_message *reply, void *owner, sd_bus_error *error);
};

// The object path, interface and bus name of the Desktop Notifications
// Specification (version 1.2).
#define PERCH_NOTIFICATIONS_PATH "/org/freedesktop/Notifications"
#define PERCH_NOTIFICATIONS_INTERFACE "org.freedesktop.Notifications"
#define PERCH_NOTIFICATIONS_NAME "org.freedesktop.Notifications"

// Registers the Notifications interface at its path on `bus`, routing the
// methods to `methods` (which must outlive the slot). sd-bus checks each
// call's signature against the table and answers a mismatch with
// org.freedesktop.DBus.Error.InvalidArgs before any handler runs; it also
// answers Introspect, Peer and Properties (Get and GetAll of `Inhibited`
// through `get_inhibited`). Returns sd_bus_add_object_vtable's result;
// unref `*slot` to unregister.
int perch_bus_add_notifications(sd_bus *bus, sd_bus_slot **slot, struct perch_bus_methods *methods);

// The object's signals, by number: emitting one hands sd-bus the path,
// interface and member as C constants, with no string made per signal.
enum perch_bus_signal {
    PERCH_BUS_NOTIFICATION_CLOSED,
    PERCH_BUS_ACTION_INVOKED,
    PERCH_BUS_ACTIVATION_TOKEN,
    PERCH_BUS_NOTIFICATION_REPLIED,
};

// The member name of `signal` ("NotificationClosed"…).
const char *perch_bus_signal_name(enum perch_bus_signal signal);

// sd_bus_message_new_signal for `signal` of the Notifications object.
int perch_bus_new_signal(sd_bus *bus, sd_bus_message **message, enum perch_bus_signal signal);

// An empty org.freedesktop.DBus.Properties.PropertiesChanged signal from
// the Notifications object, for the caller to fill (interface, changed
// values, invalidated names): sd-bus does not emit it for `Inhibited`,
// whose changes are told with the turn's other signals.
int perch_bus_new_properties_changed(sd_bus *bus, sd_bus_message **message);

// dunst's control interface on the same object.
#include "CPerchDunst.h"
// mako's interface on the same connection (perch-mako.h).
#include "perch-mako.h"
// The Notification portal's backend (perch-portal.h).
#include "perch-portal.h"

#endif
