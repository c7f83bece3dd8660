import DeskDaysConfig
import DeskDaysCore
import Foundation
import Logging
import NMEA

/// The GPS check-in adapter: a serial NMEA receiver and the configured
/// geofences. It reports one check-in per arrival, named after the fence,
/// stamped with the agent's clock (`now`) when the dwell completes (docs/design.md);
/// receiver time only measures the dwell. It never stores or logs a
/// position.
public struct GPSAdapter: CheckInAdapter {
    public let source = Source.gps
    public let reader: NMEASerialReader
    public let fences: [Geofence]
    private let logger: Logger
    private let observe: (@Sendable (SerialEvent) -> Void)?
    private let now: @Sendable () -> Date

    /// Builds the adapter from `[gps]`. `observe` sees every reader event
    /// (for `doctor` and tests); it gets fixes, so it must not log them.
    public init(settings: GPSSettings, backoff: Backoff = .standard,
                logger: Logger = Logger(label: "deskdays.gps"),
                observe: (@Sendable (SerialEvent) -> Void)? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        reader = NMEASerialReader(path: settings.device, baud: settings.baud, backoff: backoff, logger: logger)
        fences = settings.geofences.map(Geofence.init(_:))
        self.logger = logger
        self.observe = observe
        self.now = now
    }

    public func run(emit: @escaping @Sendable (CheckInEvent) async -> Void) async throws {
        guard SerialPort.speed(for: reader.baud) != nil else { throw SerialError.unsupportedBaud(reader.baud) }
        var monitor = GeofenceMonitor(fences: fences)
        for await event in reader.events() {
            observe?(event)
            guard case .fix(let fix) = event else { continue }
            let inside = Set(monitor.insideFences)
            let entries = monitor.update(fix)
            // Leaving a fence (past its leave radius) is a departure (docs/policy.md "Time on site").
            for name in inside.subtracting(monitor.insideFences).sorted() {
                logger.info("GPS: left geofence \(name)")
                await emit(CheckInEvent(source: .gps, rule: name, time: now(), kind: .departure))
            }
            for entry in entries {
                logger.info("GPS: arrived at geofence \(entry.name)")
                await emit(CheckInEvent(source: .gps, rule: entry.name, time: now()))
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
