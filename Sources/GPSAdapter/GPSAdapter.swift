import DeskDaysConfig
import DeskDaysCore
import Foundation
import Logging
import NMEA

/// The GPS check-in adapter: a source of fixes (a serial NMEA receiver by
/// default; gpsd or ModemManager over the system bus, module GPSBus) and the
/// configured geofences. It reports one check-in per arrival, named after
/// the fence, stamped with the agent's clock (`now`) when the dwell
/// completes (docs/design.md), and one departure when a good fix is beyond
/// the fence's leave radius; the fixes' own time only measures the dwell.
/// It never stores or logs a position, and does not know which source it reads.
public struct GPSAdapter: CheckInAdapter {
    public let source = Source.gps
    public let fixes: any FixSource
    public let fences: [Geofence]
    private let logger: Logger
    private let observe: (@Sendable (GPSEvent) -> Void)?
    private let now: @Sendable () -> Date

    /// Builds the adapter from `[gps]` and `fixes` (default: the serial
    /// receiver of `device` and `baud`). `observe` sees every source event
    /// (for tests); it gets fixes, so it must not log them.
    public init(settings: GPSSettings, fixes: (any FixSource)? = nil, backoff: Backoff = .standard,
                logger: Logger = Logger(label: "deskdays.gps"),
                observe: (@Sendable (GPSEvent) -> Void)? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.fixes = fixes ?? NMEASerialReader(path: settings.device, baud: settings.baud, backoff: backoff, logger: logger)
        fences = settings.geofences.map(Geofence.init(_:))
        self.logger = logger
        self.observe = observe
        self.now = now
    }

    public func run(emit: @escaping @Sendable (CheckInEvent) async -> Void) async throws {
        if let serial = fixes as? NMEASerialReader, SerialPort.speed(for: serial.baud) == nil {
            throw SerialError.unsupportedBaud(serial.baud)
        }
        var monitor = GeofenceMonitor(fences: fences)
        for await event in fixes.events() {
            observe?(event)
            guard case .fix(let fix) = event else { continue }
            for change in monitor.update(fix) {
                switch change.kind {
                case .entered:
                    logger.info("GPS: arrived at geofence \(change.name)")
                    await emit(CheckInEvent(source: .gps, rule: change.name, time: now()))
                case .left:
                    logger.info("GPS: left geofence \(change.name)")
                    await emit(CheckInEvent(source: .gps, rule: change.name, time: now(), kind: .departure))
                }
            }
        }
    }
}

extension Geofence {
    /// The pure geofence for a configured `[[gps.geofences]]` entry.
    public init(_ settings: GPSSettings.Geofence) {
        self.init(name: settings.name, latitude: settings.latitude, longitude: settings.longitude,
                  radiusM: settings.radiusM, dwellS: settings.dwellS, leaveRadiusM: settings.leaveRadiusM)
    }
}
