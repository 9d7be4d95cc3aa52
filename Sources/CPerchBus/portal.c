#include "perch-portal.h"

static int portal_add(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const struct perch_portal_handlers *handlers = userdata;
    return handlers->add(m, handlers->owner, error);
}

static int portal_remove(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const struct perch_portal_handlers *handlers = userdata;
    return handlers->remove(m, handlers->owner, error);
}

static int portal_supported_options(sd_bus *bus, const char *path, const char *interface, const char *property,
                                    sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    const struct perch_portal_handlers *handlers = userdata;
    return handlers->get_supported_options(reply, handlers->owner, error);
}

static int portal_version(sd_bus *bus, const char *path, const char *interface, const char *property,
                          sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    return sd_bus_message_append(reply, "u", (uint32_t)PERCH_PORTAL_VERSION);
}

// UNPRIVILEGED: the front end runs as the user, not as root. Any peer may
// call, as any peer may call org.freedesktop.Notifications directly; the
// app ids it passes are the front end's word, and a notification's
// (app_id, id) pair is only ever matched against the same pair.
static const sd_bus_vtable portal_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD_WITH_ARGS("AddNotification",
        SD_BUS_ARGS("s", app_id, "s", id, "a{sv}", notification), SD_BUS_NO_RESULT,
        portal_add, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("RemoveNotification",
        SD_BUS_ARGS("s", app_id, "s", id), SD_BUS_NO_RESULT,
        portal_remove, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("SupportedOptions", "a{sv}", portal_supported_options, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("version", "u", portal_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_SIGNAL_WITH_ARGS("ActionInvoked",
        SD_BUS_ARGS("s", app_id, "s", id, "s", action, "av", parameter), 0),
    SD_BUS_VTABLE_END
};

int perch_portal_add(sd_bus *bus, sd_bus_slot **slot, struct perch_portal_handlers *handlers) {
    return sd_bus_add_object_vtable(bus, slot, PERCH_PORTAL_PATH, PERCH_PORTAL_INTERFACE, portal_vtable, handlers);
}

int perch_portal_new_action_invoked(sd_bus *bus, sd_bus_message **message) {
    return sd_bus_message_new_signal(bus, message, PERCH_PORTAL_PATH, PERCH_PORTAL_INTERFACE, "ActionInvoked");
}
