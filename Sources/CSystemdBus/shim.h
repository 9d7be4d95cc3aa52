// libsystemd's D-Bus client library (sd-bus). Found through pkg-config
// ("libsystemd"); the vtable macros are used by CPerchBus, the functions
// by PerchBus.
#include <systemd/sd-bus.h>
