// dunst's control interface, org.dunstproject.cmd0, on the Notifications
// object: what dunstctl (1.9 to 1.12) calls. Like CPerchBus.h, this shim
// owns the sd-bus vtable (C macros Swift cannot spell) and its
// trampolines; reading arguments and replying happen in Swift.
#ifndef PERCH_DUNST_H
#define PERCH_DUNST_H

#include <systemd/sd-bus.h>

#define PERCH_DUNST_INTERFACE "org.dunstproject.cmd0"

// Where the interface's calls go, allocated once by the owner at a stable
// address and passed as the vtable's userdata. Each method function is an
// sd-bus method handler (1 once it replied or took the reply upon itself,
// or a negative errno with `error` set). `get` answers a property's value
// into `reply`, `set` reads the new value from `value`; both return what
// sd-bus property callbacks return.
struct perch_dunst_methods {
    void *owner;  // Unmanaged DunstBus, not retained
    sd_bus_message_handler_t context_menu_call;
    sd_bus_message_handler_t notification_action;
    sd_bus_message_handler_t notification_clear_history;
    sd_bus_message_handler_t notification_close_last;
    sd_bus_message_handler_t notification_close_all;
    sd_bus_message_handler_t notification_list_history;
    sd_bus_message_handler_t notification_pop_history;
    sd_bus_message_handler_t notification_remove_from_history;
    sd_bus_message_handler_t notification_show;
    sd_bus_message_handler_t rule_enable;
    sd_bus_message_handler_t rule_list;
    sd_bus_message_handler_t config_reload;
    sd_bus_message_handler_t ping;
    int (*get)(const char *property, sd_bus_message *reply, void *owner, sd_bus_error *error);
    int (*set)(const char *property, sd_bus_message *value, void *owner, sd_bus_error *error);
};

// Registers org.dunstproject.cmd0 at the Notifications path on `bus`
// (beside org.freedesktop.Notifications), routing to `methods`, which must
// outlive the slot. sd-bus checks signatures and answers Introspect and
// org.freedesktop.DBus.Properties (Get, Set, GetAll) through `get`/`set`.
int perch_dunst_add(sd_bus *bus, sd_bus_slot **slot, struct perch_dunst_methods *methods);

// A signal of org.dunstproject.cmd0 (`member`), or, with `properties`,
// org.freedesktop.DBus.Properties.PropertiesChanged, from the
// Notifications object.
int perch_dunst_new_signal(sd_bus *bus, sd_bus_message **message, const char *member);
int perch_dunst_new_properties_changed(sd_bus *bus, sd_bus_message **message);

#endif
