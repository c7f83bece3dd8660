import DeskDaysCore
import Foundation

/// How instants are stored: UTC text `YYYY-MM-DDTHH:MM:SS.mmmZ`.
///
/// Text rather than a number so that the file stays readable with the
/// `sqlite3` tool and sorts in time order as plain strings; milliseconds are
/// enough for "latest record wins" and keep the value exact. Formatting is by
/// day numbers, not `DateFormatter`, so it is cheap on the write path and does
/// not depend on the locale or the time zone of the process.
public enum UTCTimestamp {
    /// The text for `date`, rounded to the nearest millisecond.
    public static func string(from date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, msOfDay) = floorDivide(millis, 86_400_000)
        let day = LocalDate(dayNumber: Int(days))
        let ms = Int(msOfDay)
        let hour = ms / 3_600_000, minute = ms / 60_000 % 60, second = ms / 1000 % 60, milli = ms % 1000
        guard (0...9999).contains(day.year) else {
            return "\(day)T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(milli, 3))Z"
        }
        // The same 24 bytes written in place: a merge formats one per row
        // it writes, and the interpolation above costs ten times more.
        return String(unsafeUninitializedCapacity: 24) { text in
            func put(_ value: Int, _ width: Int, at offset: Int) {
                var rest = value
                for index in stride(from: offset + width - 1, through: offset, by: -1) {
                    text[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                    rest /= 10
                }
            }
            put(day.year, 4, at: 0)
            text[4] = UInt8(ascii: "-")
            put(day.month, 2, at: 5)
            text[7] = UInt8(ascii: "-")
            put(day.day, 2, at: 8)
            text[10] = UInt8(ascii: "T")
            put(hour, 2, at: 11)
            text[13] = UInt8(ascii: ":")
            put(minute, 2, at: 14)
            text[16] = UInt8(ascii: ":")
            put(second, 2, at: 17)
            text[19] = UInt8(ascii: ".")
            put(milli, 3, at: 20)
            text[23] = UInt8(ascii: "Z")
            return 24
        }
    }

    /// Parses exactly the format `string(from:)` writes; nil for anything else.
    public static func date(from text: String) -> Date? {
        // In place when the text is contiguous (always, for a native string):
        // a merge reads one per line.
        if let parsed = text.utf8.withContiguousStorageIfAvailable({ date(from: $0) }) { return parsed }
        return Array(text.utf8).withUnsafeBufferPointer { date(from: $0) }
    }

    /// Milliseconds since 1970 of a text in exactly the format `string(from:)`
    /// writes (so the text comes back from them unchanged); nil for anything else.
    public static func milliseconds(from text: String) -> Int64? {
        if let parsed = text.utf8.withContiguousStorageIfAvailable({ milliseconds(from: $0) }) { return parsed }
        return Array(text.utf8).withUnsafeBufferPointer { milliseconds(from: $0) }
    }

    /// Milliseconds since 1970 of `date`, to the nearest.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    /// The text for `milliseconds` since 1970.
    public static func string(milliseconds: Int64) -> String {
        string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    private static func date(from bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        milliseconds(from: bytes).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    private static func milliseconds(from bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "."),
              bytes[23] == UInt8(ascii: "Z"),
              let year = number(bytes, 0..<4), let month = number(bytes, 5..<7), let dayOfMonth = number(bytes, 8..<10),
              let day = LocalDate(year: year, month: month, day: dayOfMonth),
              let hour = number(bytes, 11..<13), let minute = number(bytes, 14..<16),
              let second = number(bytes, 17..<19), let milli = number(bytes, 20..<23),
              hour < 24, minute < 60, second < 60 else { return nil }
        return ((Int64(day.dayNumber) * 24 + Int64(hour)) * 60 + Int64(minute)) * 60_000
            + Int64(second) * 1000 + Int64(milli)
    }

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
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
