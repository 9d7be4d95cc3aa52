// mako's own control interface, fr.emersion.Mako, for sd-bus.
//
// makoctl talks to the notification daemon through it rather than through
// the freedesktop interface: mako 1.7's makoctl (a shell script over
// busctl) and mako 1.10's (a C program) call different methods, and the
// table holds both sets, so that either makoctl works against Perch as it
// works against mako. As for the Notifications object, the shim owns only
// the table; every method goes to one Swift function, which reads the
// member's name and arguments.
#ifndef PERCH_MAKO_H
#define PERCH_MAKO_H

#include <systemd/sd-bus.h>

// Where the object's calls go. Allocated once by the owner at a stable
// address and passed as the vtable's userdata. `method` answers every
// method (it returns what an sd-bus method handler returns); `get_modes`
// fills the Modes property (it returns 0, or a negative errno).
struct perch_mako_handlers {
    void *owner;  // Unmanaged MakoBus, not retained
    sd_bus_message_handler_t method;
    sd_bus_property_get_t get_modes;
};

// mako's object path and interface (mako's dbus/mako.c), reached through
// the bus name org.freedesktop.Notifications.
#define PERCH_MAKO_PATH "/fr/emersion/Mako"
#define PERCH_MAKO_INTERFACE "fr.emersion.Mako"

// Registers fr.emersion.Mako at its path on `bus`, routing its calls to
// `handlers` (which must outlive the slot). sd-bus checks each call's
// signature against the table and answers a mismatch itself
// (InvalidArgs), and answers Introspect and Properties. Returns
// sd_bus_add_object_vtable's result; unref `*slot` to unregister.
int perch_mako_add(sd_bus *bus, sd_bus_slot **slot, struct perch_mako_handlers *handlers);

// A PropertiesChanged signal of the Mako object that says `Modes` changed
// without carrying the value (mako's EMITS_INVALIDATION), made but not
// sent: the caller sends it once the change is on disk.
int perch_mako_new_modes_changed(sd_bus *bus, sd_bus_message **message);

#endif
