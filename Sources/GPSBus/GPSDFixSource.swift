#if canImport(Glibc)
import Glibc
#endif
import DeskDaysCore
import Foundation
import GPSAdapter
import Logging
import NMEA
import SystemBus

/// Fixes from gpsd's D-Bus export: the `fix` signal of interface `org.gpsd`
/// on object `/org/gpsd`, which Debian's gpsd (built with `dbus_export`)
/// broadcasts on the system bus for every fix of every device it reads.
/// gpsd's TCP port 2947 is never used: the system bus is a unix socket.
///
/// The signal's arguments (gpsd's `dbusexport.c`), signature
/// `didddddddddddds`: time (seconds since 1970, 0 or NaN while unknown),
/// mode (0 unseen, 1 no fix, 2 2D, 3 3D), ept, latitude, longitude, eph
/// (horizontal error estimate, metres), altitude, epv, track, epd, speed,
/// eps, climb, epc, device path. DeskDays uses time, mode, latitude,
/// longitude and eph (`Fix.horizontalErrorM`), nothing else.
///
/// gpsd owns no bus name, so the match names no sender and follows gpsd
/// across stops and restarts without doing anything: a restarted gpsd
/// simply sends from a new connection. Because any local program could send
/// such a signal, a sender is believed only when its connection belongs to
/// root or to gpsd's own system user (asked of the bus daemon once per
/// sender); others are ignored and logged once.
public struct GPSDFixSource: FixSource {
    public static let objectPath = "/org/gpsd"
    public static let interface = "org.gpsd"
    public static let member = "fix"
    public static let signature = "didddddddddddds"

    public let address: String
    private let backoff: Backoff
    private let logger: Logger
    /// Whether subscribing is logged as the GPS source (false while `auto` only watches for gpsd).
    private let announce: Bool

    public init(address: String, backoff: Backoff = Backoff(initialSeconds: 5, maximumSeconds: 300),
                logger: Logger = Logger(label: "deskdays.gps"), announce: Bool = true) {
        self.address = address
        self.backoff = backoff
        self.logger = logger
        self.announce = announce
    }

    public func events() -> AsyncStream<GPSEvent> {
        let logger = self.logger, announce = self.announce
        return BusFixThread.events(name: "gpsd", address: address, backoff: backoff, logger: logger) { bus, stop, report in
            let context = Context(logger: logger, bus: bus)
            let match = BusSupport.matchSignal(bus, sender: nil, path: Self.objectPath, interface: Self.interface, member: Self.member,
                                               synchronous: true) { context.received($0) }
            let subscription: BusSubscription
            switch match {
            case .success(let made): subscription = made
            case .failure(let failure): return .lost("cannot ask for gpsd's fix signal: " + failure.reason)
            }
            defer { withExtendedLifetime(subscription) {} }
            if announce { logger.info("GPS source gpsd: following gpsd's fix signal on the system bus") }
            report(.connected)
            return withoutActuallyEscaping(report) { report in
                context.report = { report($0) }
                defer { context.report = nil }
                switch BusSupport.dispatch(bus, stop: stop.descriptor) {
                case .stopped, .done, .timedOut: return .stopped
                case .lost(let reason): return .lost(reason)
                }
            }
        }
    }

    /// The signal callback's state; touched only on the source's thread.
    private final class Context {
        let logger: Logger
        let bus: OpaquePointer
        var report: ((GPSEvent) -> Void)?
        /// Senders seen, and whether they are believed.
        var senders: [String: Bool] = [:]

        init(logger: Logger, bus: OpaquePointer) {
            self.logger = logger
            self.bus = bus
        }

        func received(_ message: OpaquePointer) {
            guard let sender = BusSupport.sender(message) else { return }
            if senders[sender] == nil {
                let uid = GPSDFixSource.unixUser(of: sender, on: bus)
                let trusted = uid.map(GPSDFixSource.isTrusted) ?? false
                senders[sender] = trusted
                if trusted {
                    logger.info("gpsd is sending fixes (bus connection \(sender))")
                } else {
                    logger.warning("ignoring gpsd fix signals from \(sender): it is not gpsd (user \(uid.map(String.init) ?? "unknown"), neither root nor gpsd)")
                }
            }
            guard senders[sender] == true, let fix = GPSDFixSource.fix(from: message) else { return }
            report?(.fix(fix))
        }
    }

    /// The `fix` signal as a `Fix`; nil when the signature is not gpsd's or the time is unknown.
    static func fix(from message: OpaquePointer) -> Fix? {
        guard BusSupport.hasSignature(message, signature) else { return nil }
        var doubles = [Double](repeating: .nan, count: 13)
        var mode: Int32 = 0
        guard let time = BusSupport.read(message, "d", as: Double.self, zero: .nan),
              let read = BusSupport.read(message, "i", as: Int32.self, zero: 0) else { return nil }
        mode = read
        for index in 0..<12 {
            guard let value = BusSupport.read(message, "d", as: Double.self, zero: .nan) else { return nil }
            doubles[index] = value
        }
        // doubles: ept, lat, lon, eph, alt, epv, track, epd, speed, eps, climb, epc
        let latitude = doubles[1], longitude = doubles[2], eph = doubles[3]
        let hasPosition = mode >= 2 && latitude.isFinite && longitude.isFinite
        return Fix(unixSeconds: time, mode: hasPosition ? (mode >= 3 ? .threeD : .twoD) : .noFix,
                   latitude: hasPosition ? latitude : nil, longitude: hasPosition ? longitude : nil,
                   horizontalErrorM: eph.isFinite && eph > 0 ? eph : nil)
    }

    /// The unix user owning a bus connection, from the bus daemon.
    static func unixUser(of name: String, on bus: OpaquePointer) -> UInt32? {
        let answer = BusSupport.call(bus, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus", member: "GetConnectionUnixUser") {
            BusSupport.append($0, string: name)
        }
        guard case .success(let reply) = answer else { return nil }
        defer { BusSupport.release(reply) }
        return BusSupport.read(reply, "u", as: UInt32.self, zero: 0)
    }

    /// Root, or the system user gpsd drops its privileges to (Debian: `gpsd`; older builds: `nobody`).
    static func isTrusted(_ uid: UInt32) -> Bool {
        if uid == 0 { return true }
        for name in ["gpsd", "_gpsd"] where getpwnam(name).map({ $0.pointee.pw_uid == uid }) ?? false { return true }
        return false
    }
}
