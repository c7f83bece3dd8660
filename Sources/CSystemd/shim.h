#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
// Only sd-bus, and only for the agent's sleep watcher (logind's PrepareForSleep).
#include <systemd/sd-bus.h>
#endif
