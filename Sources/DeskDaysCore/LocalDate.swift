import Localization
/// A calendar date with no time and no zone: the unit of all attendance
/// arithmetic.
///
/// Arithmetic is on the proleptic Gregorian calendar by day numbers, never
/// on 24-hour steps, so DST days (23 or 25 hours) cannot shift a date.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a date; returns nil when the triple is not a real date.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1,
              day <= LocalDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` exactly (four-digit year, two-digit month and day).
    public init?(_ text: some StringProtocol) {
        // In place when the text is contiguous (a native string always is):
        // a merge or a report parses one per row.
        let parsed = text.utf8.withContiguousStorageIfAvailable(Self.parse) ?? Array(text.utf8).withUnsafeBufferPointer(Self.parse)
        guard let (y, m, d) = parsed else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Parses `YYYY-MM-DD` from UTF-8 bytes (a column's text, read in place).
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let (y, m, d) = Self.parse(bytes) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int, Int)? {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        return (y, m, d)
    }

    /// Days since 1970-01-01 (negative before it).
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `dayNumber` days after 1970-01-01.
    public init(dayNumber z0: Int) {
        // Howard Hinnant's civil_from_days.
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.month = m
        self.day = d
    }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    /// Whole days from `self` to `other` (positive when `other` is later).
    public func days(to other: LocalDate) -> Int { other.dayNumber - dayNumber }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        let index = ((dayNumber % 7) + 7 + 3) % 7 // 0 = Monday
        return Weekday(rawValue: index + 1)!
    }

    /// The first day of this date's month.
    public var firstOfMonth: LocalDate { LocalDate(year: year, month: month, day: 1)! }

    /// The date `count` months later, on the 1st.
    public func addingMonths(_ count: Int) -> LocalDate {
        let index = year * 12 + (month - 1) + count
        return LocalDate(year: index >= 0 ? index / 12 : (index - 11) / 12,
                         month: ((index % 12) + 12) % 12 + 1, day: 1)!
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Every `LocalDate` is a valid date, so field order is day order
    /// (cheaper than comparing day numbers: reports compare dates a lot).
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not a YYYY-MM-DD date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A closed range of dates, iterable day by day.
public struct DateSpan: Hashable, Sendable, Sequence {
    public let start: LocalDate
    public let end: LocalDate

    public init(_ start: LocalDate, _ end: LocalDate) {
        self.start = start
        self.end = end
    }

    public func contains(_ date: LocalDate) -> Bool { start <= date && date <= end }
    public var count: Int { Swift.max(0, start.days(to: end) + 1) }

    public func makeIterator() -> Iterator { Iterator(coming: start.dayNumber, last: end.dayNumber) }

    /// The span's days in order.
    public struct Iterator: IteratorProtocol, Sendable {
        var coming: Int
        let last: Int

        public mutating func next() -> LocalDate? {
            guard coming <= last else { return nil }
            defer { coming += 1 }
            return LocalDate(dayNumber: coming)
        }
    }
}

/// In a message, a date is written in the language's digits and isolated.
extension LocalDate: Figure {
    public var figures: String { description }
}
