/// One navigation cycle's result: what the receiver said about where it was
/// at one UTC instant, merged from that cycle's sentences.
public struct Fix: Sendable, Hashable {
    /// gpsd's numbering, which `nmea decode` prints: 1 no fix, 2 2D, 3 3D.
    public enum Mode: Int, Sendable, Hashable, Comparable {
        case noFix = 1, twoD = 2, threeD = 3

        public static func < (lhs: Mode, rhs: Mode) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The UTC date, from this cycle's RMC or ZDA or carried from earlier.
    public var date: UTCDate?
    public var time: UTCTime?
    public var mode: Mode
    /// Degrees, north positive; nil unless `mode` is 2D or 3D.
    public var latitude: Double?
    /// Degrees, east positive; nil unless `mode` is 2D or 3D.
    public var longitude: Double?
    public var hdop: Double?
    /// Satellites used in the solution (GGA or GNS).
    public var satellites: Int?
    /// The source's own estimate of the horizontal error, in metres (gpsd's
    /// `eph`); nil from NMEA, where the geofence uses HDOP × a typical
    /// range error instead (`GeofenceMonitor.uereM`).
    public var horizontalErrorM: Double?

    public init(date: UTCDate? = nil, time: UTCTime? = nil, mode: Mode, latitude: Double? = nil,
                longitude: Double? = nil, hdop: Double? = nil, satellites: Int? = nil,
                horizontalErrorM: Double? = nil) {
        self.date = date
        self.time = time
        self.mode = mode
        self.latitude = latitude
        self.longitude = longitude
        self.hdop = hdop
        self.satellites = satellites
        self.horizontalErrorM = horizontalErrorM
    }

    /// The fix for an instant given as seconds since 1970-01-01 UTC (gpsd's
    /// time), to the millisecond; nil for a time before 1970 or not finite.
    public init?(unixSeconds: Double, mode: Mode, latitude: Double?, longitude: Double?,
                 horizontalErrorM: Double?) {
        guard unixSeconds.isFinite, unixSeconds > 0 else { return nil }
        let milliseconds = Int((unixSeconds * 1000).rounded())
        let day = milliseconds / 86_400_000, within = milliseconds % 86_400_000
        self.init(date: UTCDate(dayNumber: day),
                  time: UTCTime(hour: within / 3_600_000, minute: within / 60_000 % 60,
                                second: within / 1000 % 60, millisecond: within % 1000),
                  mode: mode, latitude: latitude, longitude: longitude, horizontalErrorM: horizontalErrorM)
    }

    /// True when the fix has a usable position (2D or 3D).
    public var hasPosition: Bool { mode >= .twoD && latitude != nil && longitude != nil }

    /// Receiver time as seconds since 1970-01-01 UTC, when the date is known.
    public var receiverSeconds: Double? {
        guard let date, let time else { return nil }
        return Double(date.dayNumber) * 86_400 + time.secondsOfDay
    }
}
