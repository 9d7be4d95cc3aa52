#include "CPerchBus.h"

// Each trampoline only finds the Swift function for its method; the work,
// and every decision about the arguments, happens in Swift (DunstBus).

#define TRAMPOLINE(name) \
    static int method_##name(sd_bus_message *m, void *userdata, sd_bus_error *error) { \
        const struct perch_dunst_methods *methods = userdata; \
        return methods->name(m, methods->owner, error); \
    }

TRAMPOLINE(context_menu_call)
TRAMPOLINE(notification_action)
TRAMPOLINE(notification_clear_history)
TRAMPOLINE(notification_close_last)
TRAMPOLINE(notification_close_all)
TRAMPOLINE(notification_list_history)
TRAMPOLINE(notification_pop_history)
TRAMPOLINE(notification_remove_from_history)
TRAMPOLINE(notification_show)
TRAMPOLINE(rule_enable)
TRAMPOLINE(rule_list)
TRAMPOLINE(config_reload)
TRAMPOLINE(ping)

static int property_get(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    const struct perch_dunst_methods *methods = userdata;
    return methods->get(property, reply, methods->owner, error);
}

static int property_set(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *value, void *userdata, sd_bus_error *error) {
    const struct perch_dunst_methods *methods = userdata;
    return methods->set(property, value, methods->owner, error);
}

// dunst's own table (src/dbus.c), 1.12's: 1.9's dunstctl calls a subset.
// UNPRIVILEGED as for Notifications: any peer of the session bus may call.
// The lengths change with every notification and are not announced by
// sd-bus: DunstBus sends PropertiesChanged for them itself, held like
// the other signals until the turn's state is saved.
static const sd_bus_vtable dunst_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("ContextMenuCall", "", "", method_context_menu_call, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("NotificationAction", SD_BUS_ARGS("u", number), SD_BUS_NO_RESULT,
        method_notification_action, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("NotificationClearHistory", "", "", method_notification_clear_history, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("NotificationCloseLast", "", "", method_notification_close_last, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("NotificationCloseAll", "", "", method_notification_close_all, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("NotificationListHistory", SD_BUS_NO_ARGS, SD_BUS_RESULT("aa{sv}", notifications),
        method_notification_list_history, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("NotificationPopHistory", SD_BUS_ARGS("u", id), SD_BUS_NO_RESULT,
        method_notification_pop_history, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("NotificationRemoveFromHistory", SD_BUS_ARGS("u", id), SD_BUS_NO_RESULT,
        method_notification_remove_from_history, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("NotificationShow", "", "", method_notification_show, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("RuleEnable", SD_BUS_ARGS("s", name, "i", state), SD_BUS_NO_RESULT,
        method_rule_enable, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("RuleList", SD_BUS_NO_ARGS, SD_BUS_RESULT("aa{sv}", rules),
        method_rule_list, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD_WITH_ARGS("ConfigReload", SD_BUS_ARGS("as", configs), SD_BUS_NO_RESULT,
        method_config_reload, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Ping", "", "", method_ping, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_WRITABLE_PROPERTY("paused", "b", property_get, property_set, 0,
        SD_BUS_VTABLE_UNPRIVILEGED | SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_WRITABLE_PROPERTY("pauseLevel", "u", property_get, property_set, 0,
        SD_BUS_VTABLE_UNPRIVILEGED | SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("displayedLength", "u", property_get, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("historyLength", "u", property_get, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("waitingLength", "u", property_get, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_SIGNAL_WITH_ARGS("NotificationHistoryRemoved", SD_BUS_ARGS("u", id), 0),
    SD_BUS_SIGNAL_WITH_ARGS("NotificationHistoryCleared", SD_BUS_ARGS("u", count), 0),
    SD_BUS_SIGNAL_WITH_ARGS("ConfigReloaded", SD_BUS_ARGS("as", configs), 0),
    SD_BUS_VTABLE_END
};

int perch_dunst_add(sd_bus *bus, sd_bus_slot **slot, struct perch_dunst_methods *methods) {
    return sd_bus_add_object_vtable(bus, slot, PERCH_NOTIFICATIONS_PATH, PERCH_DUNST_INTERFACE, dunst_vtable,
                                    methods);
}

int perch_dunst_new_signal(sd_bus *bus, sd_bus_message **message, const char *member) {
    return sd_bus_message_new_signal(bus, message, PERCH_NOTIFICATIONS_PATH, PERCH_DUNST_INTERFACE, member);
}

int perch_dunst_new_properties_changed(sd_bus *bus, sd_bus_message **message) {
    return sd_bus_message_new_signal(bus, message, PERCH_NOTIFICATIONS_PATH, "org.freedesktop.DBus.Properties",
                                     "PropertiesChanged");
}
