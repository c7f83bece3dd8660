import DeskDaysCore
import Foundation

/// How instants are stored: UTC text `YYYY-MM-DDTHH:MM:SS.mmmZ`.
///
/// Text rather than a number so that the file stays readable with the
/// `sqlite3` tool and sorts in time order as plain strings; milliseconds are
/// enough for "latest record wins" and keep the value exact. Formatting is by
/// day numbers, not `DateFormatter`, so it is cheap on the write path and does
/// not depend on the locale or the time zone of the process.
enum UTCTimestamp {
    /// The text for `date`, rounded to the nearest millisecond.
    static func string(from date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, msOfDay) = floorDivide(millis, 86_400_000)
        let day = LocalDate(dayNumber: Int(days))
        let ms = Int(msOfDay)
        let hour = ms / 3_600_000, minute = ms / 60_000 % 60, second = ms / 1000 % 60, milli = ms % 1000
        return "\(day)T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(milli, 3))Z"
    }

    /// Parses exactly the format `string(from:)` writes; nil for anything else.
    static func date(from text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
              bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z"),
              let day = LocalDate(text.prefix(10)),
              let hour = number(bytes, 11..<13), let minute = number(bytes, 14..<16),
              let second = number(bytes, 17..<19), let milli = number(bytes, 20..<23),
              hour < 24, minute < 60, second < 60 else { return nil }
        let millis = ((Int64(day.dayNumber) * 24 + Int64(hour)) * 60 + Int64(minute)) * 60_000
            + Int64(second) * 1000 + Int64(milli)
        return Date(timeIntervalSince1970: Double(millis) / 1000)
    }

    private static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            guard (48...57).contains(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] - 48)
        }
        return value
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let remainder = ((a % b) + b) % b
        return ((a - remainder) / b, remainder)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
