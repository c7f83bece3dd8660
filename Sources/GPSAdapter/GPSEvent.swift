import NMEA

/// What a GPS source reports: its receiver or daemon coming and going, and fixes.
public enum GPSEvent: Sendable, Hashable {
    /// The device was opened, or the bus subscription made (first time, or again after a loss).
    case connected
    /// The device vanished or the bus was lost; the source is retrying.
    case disconnected
    case fix(Fix)
}

/// Where fixes come from: a serial receiver (`NMEASerialReader`), gpsd's
/// or ModemManager's D-Bus exports (module GPSBus). The geofence does not
/// know which: every source feeds the same `GeofenceMonitor` in
/// `GPSAdapter`, with the fixes' own time.
public protocol FixSource: Sendable {
    /// Starts the source; it stops when the stream's consumer stops
    /// iterating (task cancelled, stream dropped).
    func events() -> AsyncStream<GPSEvent>
}
