#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
// Only sd-bus, reached through module SystemBus (BusSupport): the agent's sleep watcher (logind's
// PrepareForSleep on the system bus) and desktop notifier (org.freedesktop.Notifications.Notify on the
// session bus), and the GPS sources of module GPSBus (gpsd's fix signal, ModemManager's Location).
#include <systemd/sd-bus.h>
#endif
