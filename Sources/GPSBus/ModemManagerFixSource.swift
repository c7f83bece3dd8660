#if canImport(Glibc)
import Glibc
#endif
import DeskDaysCore
import Foundation
import GPSAdapter
import Logging
import NMEA
import SystemBus

/// Fixes from ModemManager: the GNSS of a WWAN modem (ThinkPads, Latitudes),
/// read from the `Location` property of its
/// `org.freedesktop.ModemManager1.Modem.Location` interface and followed
/// through `PropertiesChanged` signals, on the system bus.
///
/// The NMEA source (`MM_MODEM_LOCATION_SOURCE_GPS_NMEA`, 4) is what is
/// read: its GGA carries the HDOP the geofence needs, and its RMC the date.
/// (The "GPS raw" dictionary has time and position but no accuracy, which
/// the geofence cannot trust.) The modem's set-up is never changed here:
/// when its NMEA source is off or it does not signal location changes, one
/// line says so and how to change it (`deskdays enroll gps --source
/// modemmanager` does, after asking). ModemManager is never started by
/// bus activation: every call is made with auto-start off.
///
/// Modems coming and going (`InterfacesAdded`/`Removed`) and ModemManager
/// restarting (`NameOwnerChanged`) make it look again; it follows the first
/// usable modem (by object path). Between fixes the thread sleeps in `poll()`.
public struct ModemManagerFixSource: FixSource {
    public let address: String
    private let backoff: Backoff
    private let logger: Logger

    public init(address: String, backoff: Backoff = Backoff(initialSeconds: 5, maximumSeconds: 300),
                logger: Logger = Logger(label: "deskdays.gps")) {
        self.address = address
        self.backoff = backoff
        self.logger = logger
    }

    public func events() -> AsyncStream<GPSEvent> {
        let logger = self.logger
        return BusFixThread.events(name: "ModemManager", address: address, backoff: backoff, logger: logger) { bus, stop, report in
            withoutActuallyEscaping(report) { report in
                let context = Context(logger: logger, report: { report($0) })
                let service = ModemManagerBus.service
                let rescan: (OpaquePointer) -> Void = { _ in context.needsScan = true }
                let matches = [
                    BusSupport.matchSignal(bus, sender: service, path: nil, interface: "org.freedesktop.DBus.Properties",
                                           member: "PropertiesChanged", synchronous: true) { context.propertiesChanged($0) },
                    BusSupport.matchSignal(bus, sender: service, path: ModemManagerBus.rootPath, interface: "org.freedesktop.DBus.ObjectManager",
                                           member: "InterfacesAdded", synchronous: true, rescan),
                    BusSupport.matchSignal(bus, sender: service, path: ModemManagerBus.rootPath, interface: "org.freedesktop.DBus.ObjectManager",
                                           member: "InterfacesRemoved", synchronous: true, rescan),
                    BusSupport.addMatch(bus, rule: "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                                        + "member='NameOwnerChanged',arg0='\(service)'", synchronous: true, rescan),
                ]
                var subscriptions: [BusSubscription] = []
                for match in matches {
                    switch match {
                    case .success(let subscription): subscriptions.append(subscription)
                    case .failure(let failure): return .lost("cannot ask for ModemManager's signals: " + failure.reason)
                    }
                }
                defer { withExtendedLifetime(subscriptions) {} }
                report(.connected)
                while true {
                    if context.needsScan {
                        context.needsScan = false
                        context.scan(bus)
                    }
                    switch BusSupport.dispatch(bus, stop: stop.descriptor, done: { context.needsScan }) {
                    case .done: continue
                    case .stopped, .timedOut: return .stopped
                    case .lost(let reason): return .lost(reason)
                    }
                }
            }
        }
    }

    /// The signal callbacks' state; touched only on the source's thread.
    private final class Context {
        let logger: Logger
        let report: (GPSEvent) -> Void
        var needsScan = true
        var modems: [String: ModemManagerBus.Modem] = [:]
        /// The modem followed now.
        var followed: String?
        /// The last situation logged, so each is logged once.
        var said: String?

        init(logger: Logger, report: @escaping (GPSEvent) -> Void) {
            self.logger = logger
            self.report = report
        }

        func say(_ text: String, warning: Bool = false) {
            guard text != said else { return }
            said = text
            if warning { logger.warning("\(text)") } else { logger.info("\(text)") }
        }

        func scan(_ bus: OpaquePointer) {
            guard ModemManagerBus.isRunning(bus) else {
                modems = [:]
                choose()
                return
            }
            switch ModemManagerBus.modems(bus) {
            case .success(let found):
                modems = Dictionary(uniqueKeysWithValues: found.map { ($0.path, $0) })
                choose()
                // The current Location, when there is one (a fix at start rather than at the next change).
                if let followed, let text = modems[followed]?.nmea { deliver(text) }
            case .failure(let failure):
                say("cannot ask ModemManager for its modems (\(failure.reason)); waiting for it to change", warning: true)
            }
        }

        /// Picks the first usable modem, and says why when there is none.
        func choose() {
            let sorted = modems.values.sorted { $0.path < $1.path }
            followed = sorted.first { $0.isUsable }?.path
            if let followed, let modem = modems[followed] {
                say("GPS source ModemManager: following the GPS NMEA location of modem \(modem.number)")
            } else if modems.isEmpty {
                say("GPS source ModemManager: no modem with a Location interface (is ModemManager running, the modem enabled, its SIM unlocked?); waiting for one")
            } else if let capable = sorted.first(where: { $0.hasGPS }), let problem = capable.problem {
                say("GPS source ModemManager: \(problem)", warning: true)
            } else {
                say("GPS source ModemManager: no modem can give GPS locations; waiting for one")
            }
        }

        func propertiesChanged(_ message: OpaquePointer) {
            guard let path = BusSupport.path(message),
                  BusSupport.readString(message) == ModemManagerBus.locationInterface else { return }
            var modem = modems[path] ?? ModemManagerBus.Modem(path: path)
            let before = modem.isUsable
            modem.nmea = nil
            ModemManagerBus.readProperties(message, into: &modem)
            modems[path] = modem
            if modem.isUsable != before || followed == nil { choose() }
            if path == followed, let text = modem.nmea { deliver(text) }
        }

        func deliver(_ text: String) {
            if let fix = ModemManagerBus.fix(fromNMEA: text) { report(.fix(fix)) }
        }
    }
}
