#include <pipewire/pipewire.h>
