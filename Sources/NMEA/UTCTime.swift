/// A UTC time of day as receivers send it (`hhmmss.sss`), to the
/// millisecond. Receivers send no more precision than that in practice.
public struct UTCTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 00:00:00 UTC; below 86 401 000 (a leap second
    /// is `60` in the seconds field).
    public let milliseconds: Int

    public init?(hour: Int, minute: Int, second: Int, millisecond: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (0...999).contains(millisecond) else { return nil }
        milliseconds = ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
    }

    /// Parses `hhmmss` with an optional fraction of any length.
    init?(_ field: ArraySlice<UInt8>) {
        guard field.count >= 6 else { return nil }
        let start = field.startIndex
        func digit(_ offset: Int) -> Int? {
            let value = field[start + offset] &- 48
            return value < 10 ? Int(value) : nil
        }
        guard let h1 = digit(0), let h2 = digit(1), let m1 = digit(2), let m2 = digit(3),
              let s1 = digit(4), let s2 = digit(5) else { return nil }
        var millisecond = 0
        if field.count > 6 {
            guard field[start + 6] == UInt8(ascii: ".") else { return nil }
            var scale = 100
            for byte in field[(start + 7)...] {
                let value = byte &- 48
                guard value < 10 else { return nil }
                millisecond += Int(value) * scale
                scale /= 10
            }
        }
        self.init(hour: h1 * 10 + h2, minute: m1 * 10 + m2, second: s1 * 10 + s2, millisecond: millisecond)
    }

    public var hour: Int { milliseconds / 3_600_000 }
    public var minute: Int { milliseconds / 60_000 % 60 }
    public var second: Int { milliseconds / 1000 % 60 + (milliseconds >= 86_400_000 ? 60 : 0) }
    public var millisecond: Int { milliseconds % 1000 }

    /// Seconds since midnight.
    public var secondsOfDay: Double { Double(milliseconds) / 1000 }

    /// `hh:mm:ss.sss`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let hour = min(self.hour, 23)
        let second = milliseconds >= 86_400_000 ? 60 : self.second
        return "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millisecond, 3))"
    }

    public static func < (lhs: UTCTime, rhs: UTCTime) -> Bool { lhs.milliseconds < rhs.milliseconds }
}

/// A UTC calendar date from RMC (`ddmmyy`) or ZDA (`dd,mm,yyyy`).
///
/// NMEA depends on nothing, not even DeskDaysCore, so the fuzz target
/// builds from this module's sources alone; hence its own small date type.
public struct UTCDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1980...2200).contains(year), (1...12).contains(month), day >= 1 else { return nil }
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        guard day <= lengths[month - 1] + (month == 2 && leap ? 1 : 0) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yoe = y - era * 400
        let doy = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `dayNumber` days after 1970-01-01 (civil_from_days).
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// `yyyy-mm-dd`.
    public var description: String {
        let y = String(year), m = month < 10 ? "0\(month)" : "\(month)", d = day < 10 ? "0\(day)" : "\(day)"
        return "\(y)-\(m)-\(d)"
    }

    public static func < (lhs: UTCDate, rhs: UTCDate) -> Bool { lhs.dayNumber < rhs.dayNumber }
}
