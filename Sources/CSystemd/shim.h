#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
// Only sd-bus, reached through module SystemBus (BusSupport): the agent's sleep watcher (logind's
// PrepareForSleep on the system bus), desktop notifier and desktop service (the session bus), and the
// GPS sources of module GPSBus (gpsd's fix signal, ModemManager's Location).
#include <string.h>
#include <systemd/sd-bus.h>

// sd-bus's vtable entries are built by C macros (designated initialisers) that Swift cannot import:
// these return one entry each, so Swift can fill an array (SystemBus' BusVTable). The macros leave the
// unused parts of the union unset; each entry is zeroed first, as sd-bus-vtable.h asks for arrays on the heap.
static inline sd_bus_vtable deskdays_vtable_start(uint64_t flags) {
    sd_bus_vtable entry; memset(&entry, 0, sizeof entry);
    sd_bus_vtable start = SD_BUS_VTABLE_START(flags);
    entry.type = start.type; entry.flags = start.flags; entry.x.start = start.x.start;
    return entry;
}

// `names` holds the input then the output parameter names, each followed by a NUL.
static inline sd_bus_vtable deskdays_vtable_method(const char *member, const char *signature, const char *result,
                                                   const char *names, sd_bus_message_handler_t handler, uint64_t flags) {
    sd_bus_vtable entry; memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_METHOD; entry.flags = flags;
    entry.x.method.member = member; entry.x.method.signature = signature; entry.x.method.result = result;
    entry.x.method.handler = handler; entry.x.method.offset = 0; entry.x.method.names = names;
    return entry;
}

static inline sd_bus_vtable deskdays_vtable_signal(const char *member, const char *signature, const char *names) {
    sd_bus_vtable entry; memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_SIGNAL; entry.flags = 0;
    entry.x.signal.member = member; entry.x.signal.signature = signature; entry.x.signal.names = names;
    return entry;
}

static inline sd_bus_vtable deskdays_vtable_property(const char *member, const char *signature,
                                                     sd_bus_property_get_t get, uint64_t flags) {
    sd_bus_vtable entry; memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_PROPERTY; entry.flags = flags;
    entry.x.property.member = member; entry.x.property.signature = signature; entry.x.property.get = get;
    return entry;
}

static inline sd_bus_vtable deskdays_vtable_end(void) {
    sd_bus_vtable entry; memset(&entry, 0, sizeof entry);
    entry.type = _SD_BUS_VTABLE_END;
    return entry;
}

// The flags Swift needs (an anonymous enum of 64-bit values).
static const uint64_t DESKDAYS_PROPERTY_CONST = SD_BUS_VTABLE_PROPERTY_CONST;
static const uint64_t DESKDAYS_PROPERTY_EMITS_CHANGE = SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE;
static const uint64_t DESKDAYS_PROPERTY_EMITS_INVALIDATION = SD_BUS_VTABLE_PROPERTY_EMITS_INVALIDATION;
// Every member may be called by any peer the bus lets in (a session bus: the user); without it sd-bus
// marks each method org.freedesktop.systemd1.Privileged in its introspection, which is not true here.
static const uint64_t DESKDAYS_UNPRIVILEGED = SD_BUS_VTABLE_UNPRIVILEGED;
#endif
