#if canImport(Glibc)
import Localization
import Glibc
#endif
import DeskDaysCore
import NMEA
import SystemBus

/// ModemManager's Location interface as DeskDays reads it (ModemManager's
/// published introspection, org.freedesktop.ModemManager1.Modem.Location):
/// the modems that have it, their location sources, and the NMEA traces of
/// the `Location` property.
public enum ModemManagerBus {
    public static let service = "org.freedesktop.ModemManager1"
    public static let rootPath = "/org/freedesktop/ModemManager1"
    public static let locationInterface = "org.freedesktop.ModemManager1.Modem.Location"

    /// `MMModemLocationSource` bits DeskDays cares about.
    public static let gpsRaw: UInt32 = 1 << 1
    public static let gpsNMEA: UInt32 = 1 << 2

    /// One modem's Location interface.
    public struct Modem: Sendable, Equatable {
        public var path: String
        /// Supported sources (`Capabilities`).
        public var capabilities: UInt32 = 0
        /// Enabled sources (`Enabled`).
        public var enabled: UInt32 = 0
        /// Whether `Location` changes are signalled (`SignalsLocation`).
        public var signalsLocation = false
        /// The NMEA traces of `Location`, when present.
        public var nmea: String?

        public init(path: String) {
            self.path = path
        }

        /// The modem's number, as `mmcli -m N` takes it.
        public var number: String { path.split(separator: "/").last.map(String.init) ?? path }
        /// It can give GPS positions at all.
        public var hasGPS: Bool { capabilities & (ModemManagerBus.gpsRaw | ModemManagerBus.gpsNMEA) != 0 }
        /// It gives what the geofence needs: NMEA traces (with HDOP) through signalled property changes.
        public var isUsable: Bool { enabled & ModemManagerBus.gpsNMEA != 0 && signalsLocation }

        /// What stands between this modem and usable fixes, with the command that fixes it; nil when usable.
        public var problem: String? {
            if capabilities & ModemManagerBus.gpsNMEA == 0 {
                return tr("modem \(number) gives GPS positions only without an accuracy estimate (no NMEA source), which the geofence cannot trust")
            }
            if enabled & ModemManagerBus.gpsNMEA == 0 {
                return tr("the GPS NMEA source of modem \(number) is not enabled: `deskdays enroll gps --source modemmanager` or `mmcli -m \(number) --location-enable-gps-nmea --location-set-enable-signal` enables it")
            }
            if !signalsLocation {
                return tr("modem \(number) does not signal location changes: `mmcli -m \(number) --location-set-enable-signal` turns that on")
            }
            return nil
        }
    }

    /// Whether ModemManager owns its name on this bus (nothing is started).
    public static func isRunning(_ bus: OpaquePointer) -> Bool {
        let answer = BusSupport.call(bus, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus", member: "NameHasOwner") {
            BusSupport.append($0, string: service)
        }
        guard case .success(let reply) = answer else { return false }
        defer { BusSupport.release(reply) }
        return (BusSupport.read(reply, "b", as: Int32.self, zero: 0) ?? 0) != 0
    }

    /// The modems with a Location interface (ObjectManager.GetManagedObjects), or why not.
    public static func modems(_ bus: OpaquePointer) -> Result<[Modem], BusFailure> {
        let answer = BusSupport.call(bus, destination: service, path: rootPath,
                                     interface: "org.freedesktop.DBus.ObjectManager", member: "GetManagedObjects")
        let reply: OpaquePointer
        switch answer {
        case .success(let message): reply = message
        case .failure(let failure): return .failure(failure)
        }
        defer { BusSupport.release(reply) }
        var modems: [Modem] = []
        let read = BusSupport.forEachEntry(reply, "oa{sa{sv}}") {
            guard let path = BusSupport.readString(reply, "o") else { return }
            BusSupport.forEachEntry(reply, "sa{sv}") {
                if BusSupport.readString(reply) == locationInterface {
                    var modem = Modem(path: path)
                    readProperties(reply, into: &modem)
                    modems.append(modem)
                } else {
                    BusSupport.skip(reply, "a{sv}")
                }
            }
        }
        guard read else { return .failure(BusFailure(reason: tr("GetManagedObjects answered with another signature"))) }
        return .success(modems.sorted { $0.path < $1.path })
    }

    /// Reads an `a{sv}` of Location properties (GetManagedObjects, PropertiesChanged) into `modem`.
    static func readProperties(_ message: OpaquePointer, into modem: inout Modem) {
        BusSupport.forEachEntry(message, "sv") {
            switch BusSupport.readString(message) {
            case "Capabilities": if let value = variant(message, "u", { BusSupport.read($0, "u", as: UInt32.self, zero: 0) }) { modem.capabilities = value }
            case "Enabled": if let value = variant(message, "u", { BusSupport.read($0, "u", as: UInt32.self, zero: 0) }) { modem.enabled = value }
            case "SignalsLocation": if let value = variant(message, "b", { BusSupport.read($0, "b", as: Int32.self, zero: 0) }) { modem.signalsLocation = value != 0 }
            case "Location": if let value = variant(message, "a{uv}", readLocation) { modem.nmea = value }
            default: BusSupport.skip(message, "v")
            }
        }
    }

    /// Reads an `a{uv}` Location dictionary; returns its NMEA traces (source 4), if any.
    static func readLocation(_ message: OpaquePointer) -> String? {
        var nmea: String?
        let read = BusSupport.forEachEntry(message, "uv") {
            let source = BusSupport.read(message, "u", as: UInt32.self, zero: 0)
            if source == gpsNMEA, let text = variant(message, "s", { BusSupport.readString($0) }) {
                nmea = text
            } else if source != gpsNMEA {
                BusSupport.skip(message, "v")
            }
        }
        return read ? nmea : nil
    }

    /// Reads a variant holding `contents` with `read`; a variant holding anything else is skipped.
    static func variant<T>(_ message: OpaquePointer, _ contents: String, _ read: (OpaquePointer) -> T?) -> T? {
        BusSupport.variant(message, contents, read)
    }

    /// The newest fix in a `Location` NMEA string (ModemManager keeps the
    /// latest sentence of each type, so one string can mix cycles): the
    /// last cycle with a position and an HDOP, else the last one.
    public static func fix(fromNMEA text: String) -> Fix? {
        var decoder = NMEAStreamDecoder()
        var fixes: [Fix] = []
        decoder.feed(Array(text.utf8) + [13, 10]) { fixes.append($0) }
        decoder.finish { fixes.append($0) }
        return fixes.last { $0.hasPosition && $0.hdop != nil } ?? fixes.last
    }

    /// Asks the modem to gather GPS NMEA (keeping its other enabled sources) and to signal location changes.
    public static func enableNMEA(_ bus: OpaquePointer, modem: Modem) -> BusFailure? {
        let answer = BusSupport.call(bus, destination: service, path: modem.path, interface: locationInterface,
                                     member: "Setup", timeoutMicroseconds: 60_000_000) { message in
            let result = BusSupport.append(message, "u", modem.enabled | gpsNMEA)
            return result < 0 ? result : BusSupport.append(message, "b", Int32(1))
        }
        switch answer {
        case .success(let reply):
            BusSupport.release(reply)
            return nil
        case .failure(let failure):
            return failure
        }
    }

}
