#include "perch-mako.h"

// One trampoline for every method: Swift reads the member's name
// (sd_bus_message_get_member) and its arguments.
static int mako_method(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const struct perch_mako_handlers *handlers = userdata;
    return handlers->method(m, handlers->owner, error);
}

static int mako_get_modes(sd_bus *bus, const char *path, const char *interface, const char *property,
                          sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    const struct perch_mako_handlers *handlers = userdata;
    return handlers->get_modes(bus, path, interface, property, reply, handlers->owner, error);
}

// The union of what mako 1.7 and mako 1.10 serve, with their signatures:
// 1.7's makoctl calls DismissNotification(ub), DismissAllNotifications,
// ListNotifications, ListModes and SetModes (and SetMode for its
// deprecated set-mode); 1.10's calls DismissNotifications(a{sv}),
// ListHistory and the rest. DismissGroupNotifications and
// DismissLastNotification are 1.7's too, though its makoctl no longer
// calls them (scripts may). UNPRIVILEGED: any peer on the bus may call,
// as for the Notifications object.
static const sd_bus_vtable mako_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("DismissAllNotifications", "", "", mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("DismissGroupNotifications", "", "", mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("DismissLastNotification", "", "", mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("DismissNotification", SD_BUS_ARGS("u", id, "b", group), SD_BUS_NO_RESULT,
                            mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("DismissNotifications", SD_BUS_ARGS("a{sv}", options), SD_BUS_NO_RESULT,
                            mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("InvokeAction", SD_BUS_ARGS("u", id, "s", action_key), SD_BUS_NO_RESULT,
                            mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("RestoreNotification", "", "", mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("ListNotifications", SD_BUS_NO_ARGS, SD_BUS_RESULT("aa{sv}", notifications),
                            mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("ListHistory", SD_BUS_NO_ARGS, SD_BUS_RESULT("aa{sv}", notifications),
                            mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Reload", "", "", mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("SetMode", SD_BUS_ARGS("s", mode), SD_BUS_NO_RESULT,
                            mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("ListModes", SD_BUS_NO_ARGS, SD_BUS_RESULT("as", modes),
                            mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("SetModes", SD_BUS_ARGS("as", modes), SD_BUS_NO_RESULT,
                            mako_method, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Modes", "as", mako_get_modes, 0, SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION),
    SD_BUS_VTABLE_END
};

int perch_mako_add(sd_bus *bus, sd_bus_slot **slot, struct perch_mako_handlers *handlers) {
    return sd_bus_add_object_vtable(bus, slot, PERCH_MAKO_PATH, PERCH_MAKO_INTERFACE, mako_vtable, handlers);
}

int perch_mako_new_modes_changed(sd_bus *bus, sd_bus_message **message) {
    int result = sd_bus_message_new_signal(bus, message, PERCH_MAKO_PATH, "org.freedesktop.DBus.Properties",
                                           "PropertiesChanged");
    if (result < 0) return result;
    // (interface, changed values: none, invalidated: Modes)
    result = sd_bus_message_append(*message, "sa{sv}as", PERCH_MAKO_INTERFACE, 0, 1, "Modes");
    if (result < 0) {
        *message = sd_bus_message_unref(*message);
        return result;
    }
    return 0;
}
