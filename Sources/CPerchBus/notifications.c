#include "CPerchBus.h"

// Each trampoline only finds the Swift function for its method; the work,
// and every decision about the arguments, happens in Swift.

static int method_notify(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const struct perch_bus_methods *methods = userdata;
    return methods->notify(m, methods->owner, error);
}

static int method_close_notification(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const struct perch_bus_methods *methods = userdata;
    return methods->close_notification(m, methods->owner, error);
}

static int method_get_capabilities(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const struct perch_bus_methods *methods = userdata;
    return methods->get_capabilities(m, methods->owner, error);
}

static int method_get_server_information(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const struct perch_bus_methods *methods = userdata;
    return methods->get_server_information(m, methods->owner, error);
}

static int method_inhibit(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const struct perch_bus_methods *methods = userdata;
    return methods->inhibit(m, methods->owner, error);
}

static int method_un_inhibit(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const struct perch_bus_methods *methods = userdata;
    return methods->un_inhibit(m, methods->owner, error);
}

static int property_inhibited(sd_bus *bus, const char *path, const char *interface, const char *property,
                              sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    const struct perch_bus_methods *methods = userdata;
    return methods->get_inhibited(reply, methods->owner, error);
}

// UNPRIVILEGED: any peer on the bus may call; without it sd-bus would ask
// for CAP_SYS_ADMIN on buses it does not consider trusted.
static const sd_bus_vtable notifications_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD_WITH_ARGS("Notify",
        SD_BUS_ARGS("s", app_name, "u", replaces_id, "s", app_icon, "s", summary, "s", body,
                    "as", actions, "a{sv}", hints, "i", expire_timeout),
        SD_BUS_RESULT("u", id),
        method_notify, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("CloseNotification",
        SD_BUS_ARGS("u", id), SD_BUS_NO_RESULT,
        method_close_notification, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("GetCapabilities",
        SD_BUS_NO_ARGS, SD_BUS_RESULT("as", capabilities),
        method_get_capabilities, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("GetServerInformation",
        SD_BUS_NO_ARGS, SD_BUS_RESULT("s", name, "s", vendor, "s", version, "s", spec_version),
        method_get_server_information, SD_BUS_VTABLE_UNPRIVILEGED),
    // KDE's inhibitions, with the signatures of plasma-workspace's
    // org.freedesktop.Notifications.xml. `Inhibited` is announced
    // (EMITS_CHANGE) but sent by NotificationsBus, which holds it with the
    // turn's signals; sd-bus only answers Get and GetAll.
    SD_BUS_METHOD_WITH_ARGS("Inhibit",
        SD_BUS_ARGS("s", desktop_entry, "s", reason, "a{sv}", hints), SD_BUS_RESULT("u", cookie),
        method_inhibit, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("UnInhibit",
        SD_BUS_ARGS("u", cookie), SD_BUS_NO_RESULT,
        method_un_inhibit, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_PROPERTY("Inhibited", "b", property_inhibited, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_SIGNAL_WITH_ARGS("NotificationClosed", SD_BUS_ARGS("u", id, "u", reason), 0),
    SD_BUS_SIGNAL_WITH_ARGS("ActionInvoked", SD_BUS_ARGS("u", id, "s", action_key), 0),
    SD_BUS_SIGNAL_WITH_ARGS("ActivationToken", SD_BUS_ARGS("u", id, "s", activation_token), 0),
    SD_BUS_SIGNAL_WITH_ARGS("NotificationReplied", SD_BUS_ARGS("u", id, "s", text), 0),
    SD_BUS_VTABLE_END
};

int perch_bus_add_notifications(sd_bus *bus, sd_bus_slot **slot, struct perch_bus_methods *methods) {
    return sd_bus_add_object_vtable(bus, slot, PERCH_NOTIFICATIONS_PATH, PERCH_NOTIFICATIONS_INTERFACE,
                                    notifications_vtable, methods);
}

const char *perch_bus_signal_name(enum perch_bus_signal signal) {
    switch (signal) {
    case PERCH_BUS_NOTIFICATION_CLOSED: return "NotificationClosed";
    case PERCH_BUS_ACTION_INVOKED: return "ActionInvoked";
    case PERCH_BUS_ACTIVATION_TOKEN: return "ActivationToken";
    case PERCH_BUS_NOTIFICATION_REPLIED: return "NotificationReplied";
    }
    return "?";
}

int perch_bus_new_signal(sd_bus *bus, sd_bus_message **message, enum perch_bus_signal signal) {
    return sd_bus_message_new_signal(bus, message, PERCH_NOTIFICATIONS_PATH, PERCH_NOTIFICATIONS_INTERFACE,
                                     perch_bus_signal_name(signal));
}

int perch_bus_new_properties_changed(sd_bus *bus, sd_bus_message **message) {
    return sd_bus_message_new_signal(bus, message, PERCH_NOTIFICATIONS_PATH, "org.freedesktop.DBus.Properties",
                                     "PropertiesChanged");
}
