#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
// Only sd-bus, and only for the agent: the sleep watcher (logind's PrepareForSleep on the system bus)
// and the desktop notifier (org.freedesktop.Notifications.Notify on the session bus).
#include <systemd/sd-bus.h>
#endif
