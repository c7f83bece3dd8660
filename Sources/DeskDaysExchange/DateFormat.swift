import Localization
import DeskDaysCore
import Foundation

/// How a file writes its dates (`import`/`reconcile --date-format`): the
/// five shapes spreadsheets and time clocks write (docs/cli.md `import`).
/// Without the flag a file may use ISO dates or `D.M.YYYY` with dots (always
/// day first); slashes are ambiguous (13/10 or 10/13), so they need the flag.
public enum DateFormat: String, CaseIterable, Sendable {
    case iso = "YYYY-MM-DD"
    case dotted = "DD.MM.YYYY"
    case dayMonthSlashed = "DD/MM/YYYY"
    case monthDaySlashed = "MM/DD/YYYY"
    case dottedShort = "D.M.YYYY"

    /// The date `text` writes in this shape, or nil.
    public func date(_ text: String) -> LocalDate? {
        let separator: Character = switch self {
        case .iso: "-"
        case .dotted, .dottedShort: "."
        case .dayMonthSlashed, .monthDaySlashed: "/"
        }
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            return nil
        }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == 3 else { return nil }
        let (year, month, day): (Int, Int, Int)
        switch self {
        case .iso:
            guard parts[0].count == 4, parts[1].count == 2, parts[2].count == 2 else { return nil }
            (year, month, day) = (numbers[0], numbers[1], numbers[2])
        case .dotted, .dayMonthSlashed:
            guard parts[0].count == 2, parts[1].count == 2, parts[2].count == 4 else { return nil }
            (year, month, day) = (numbers[2], numbers[1], numbers[0])
        case .monthDaySlashed:
            guard parts[0].count == 2, parts[1].count == 2, parts[2].count == 4 else { return nil }
            (year, month, day) = (numbers[2], numbers[0], numbers[1])
        case .dottedShort:
            guard parts[0].count <= 2, parts[1].count <= 2, parts[2].count == 4 else { return nil }
            (year, month, day) = (numbers[2], numbers[1], numbers[0])
        }
        guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year) else { return nil }
        return LocalDate(year: year, month: month, day: day)
    }

    /// `text` in `format`, or (no format given) ISO or day-first with dots.
    public static func date(_ text: String, format: DateFormat?) -> LocalDate? {
        if let format { return format.date(text) }
        return DateFormat.iso.date(text) ?? DateFormat.dottedShort.date(text)
    }

    /// A `--date-format` value: one of the shapes, optionally followed by
    /// the time a time clock writes after the date (`"DD.MM.YYYY HH:mm"`,
    /// `HH:mm:ss`, ISO's `T`); a cell's time is read whether or not it is named.
    public init?(named text: String) {
        var name = text.trimmingBlanks
        for suffix in [" HH:mm:ss", " HH:mm", "THH:mm:ss", "THH:mm"] where name.uppercased().hasSuffix(suffix.uppercased()) {
            name = String(name.dropLast(suffix.count))
            break
        }
        self.init(rawValue: name.uppercased())
    }

    /// A date cell: a date in `format` (without one, ISO or day-first with
    /// dots), alone or followed by a time of day (after spaces, or a `T`
    /// after an ISO date); nil when it is neither.
    public static func cell(_ text: String, format: DateFormat?) -> DateCell? {
        let value = text.trimmingBlanks
        let split: String.Index
        if value.count > 10, value.utf8.count > 10,
           [UInt8(ascii: "T"), UInt8(ascii: "t")].contains(Array(value.utf8)[10]), format == nil || format == .iso {
            split = value.utf8.index(value.startIndex, offsetBy: 10)
        } else {
            split = value.firstIndex(where: \.isWhitespace) ?? value.endIndex
        }
        guard let date = Self.date(String(value[..<split]), format: format) else { return nil }
        let rest = value[split...].drop { $0.isWhitespace || $0 == "T" || $0 == "t" }
        if rest.isEmpty { return DateCell(date: date, time: nil) }
        guard let time = ClockTime(rest) else { return nil }
        return DateCell(date: date, time: time)
    }
}

/// A time of day as time clocks write it: `H:MM` or `HH:MM`, optionally
/// `:SS` (and a fraction, ignored), `AM`/`PM`, optionally an offset (`Z`, `UTC`,
/// `±HH:MM`, `±HHMM`); without one it is local to `[policy] timezone`.
public struct ClockTime: Sendable, Equatable {
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Seconds east of UTC, when the cell names an offset.
    public var offset: Int?

    public init?<S: StringProtocol>(_ text: S) {
        var rest = Substring(text.trimmingBlanks)
        func number(_ counts: ClosedRange<Int>) -> Int? {
            let head = rest.prefix { $0.isASCII && $0.isNumber }
            guard counts.contains(head.count), let value = Int(head) else { return nil }
            rest = rest.dropFirst(head.count)
            return value
        }
        guard var hour = number(1...2), hour < 24, rest.first == ":" else { return nil }
        rest = rest.dropFirst()
        guard let minute = number(2...2), minute < 60 else { return nil }
        var second = 0
        if rest.first == ":" {
            rest = rest.dropFirst()
            guard let value = number(2...2), value < 60 else { return nil }
            second = value
            if rest.first == "." || rest.first == "," {
                rest = rest.dropFirst()
                guard number(1...9) != nil else { return nil }
            }
        }
        rest = rest.drop { $0 == " " }
        // A 12-hour clock's AM/PM (US exports: "11/13/2026 2:29 PM").
        if ["AM", "PM"].contains(rest.prefix(2).uppercased()) {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (rest.prefix(2).uppercased() == "PM" ? 12 : 0)
            rest = rest.dropFirst(2).drop { $0 == " " }
        }
        var offset: Int?
        if rest == "Z" || rest == "z" || rest == "UTC" {
            offset = 0
        } else if let sign = rest.first, sign == "+" || sign == "-" {
            rest = rest.dropFirst()
            guard let h = number(2...2) else { return nil }
            if rest.first == ":" { rest = rest.dropFirst() }
            guard let m = number(2...2), rest.isEmpty, h < 24, m < 60 else { return nil }
            offset = (sign == "+" ? 1 : -1) * (h * 3600 + m * 60)
        } else if !rest.isEmpty {
            return nil
        }
        (self.hour, self.minute, self.second, self.offset) = (hour, minute, second, offset)
    }

    /// This time on `date`: at its offset, else local to the policy's timezone.
    public func instant(on date: LocalDate, policy: Policy) -> Date {
        guard let offset else {
            return policy.instant(of: date, hour: hour, minute: minute).addingTimeInterval(TimeInterval(second))
        }
        let midnight = TimeInterval(date.dayNumber) * 86_400
        return Date(timeIntervalSince1970: midnight + TimeInterval(hour * 3600 + minute * 60 + second - offset))
    }
}

/// A date column's cell: its date and, when written, its time of day.
public struct DateCell: Sendable, Equatable {
    public var date: LocalDate
    public var time: ClockTime?

    /// The instant it names, when it has a time.
    public func instant(_ policy: Policy) -> Date? { time?.instant(on: date, policy: policy) }

    /// A time clock's arrival or departure cell on this row (`column` its
    /// header): a time on the row's date (a departure at or before the
    /// arrival is the next morning's: a night shift), or a date and time as
    /// the date column writes them; nil when empty.
    public func clockCell(_ value: String, column: String, after arrival: Date?, format: DateFormat?, policy: Policy,
                          file: String, line: Int) throws(ImportError) -> Date? {
        let text = value.trimmingBlanks
        if text.isEmpty { return nil }
        if let time = ClockTime(text) {
            let at = time.instant(on: date, policy: policy)
            guard let arrival, at <= arrival else { return at }
            return time.instant(on: date.adding(days: 1), policy: policy)
        }
        guard let at = DateFormat.cell(text, format: format)?.instant(policy) else {
            throw ImportError(file: file, line: line, message: tr("\"\(text)\" in column \"\(column)\" is not a time; write HH:MM or HH:MM:SS, or a date and time as in the date column"))
        }
        if let arrival, at <= arrival {
            throw ImportError(file: file, line: line, message: tr("the departure \(text) is not after the arrival"))
        }
        return at
    }

    /// The day it belongs to: a date-time's through `day_starts_at` (a night
    /// shift's 02:29 is the evening before's, as our own check-ins are), a date's itself.
    public func day(_ policy: Policy) -> LocalDate { instant(policy).map(policy.localDate(of:)) ?? date }
}

/// What `import` is told about a CSV that is not DeskDays' own export.
public struct ImportOptions: Sendable {
    /// The header of the date column (default: `date`, or `datum`).
    public var dateColumn: String?
    /// The header of the status column (default: `status`).
    public var statusColumn: String?
    public var dateFormat: DateFormat?
    /// The status of every row, for a file that has no status column (a list of office dates).
    public var status: AttendanceStatus?
    /// A time clock's arrival and departure columns (`--in-column`, `--out-column`).
    public var inColumn: String?
    public var outColumn: String?
    /// Whose timezone and `day_starts_at` a time without an offset is read in.
    public var policy: Policy

    public init(dateColumn: String? = nil, statusColumn: String? = nil, dateFormat: DateFormat? = nil, status: AttendanceStatus? = nil,
                inColumn: String? = nil, outColumn: String? = nil, policy: Policy = Policy(timeZone: TimeZone(identifier: "UTC")!)) {
        self.dateColumn = dateColumn
        self.statusColumn = statusColumn
        self.dateFormat = dateFormat
        self.status = status
        self.inColumn = inColumn
        self.outColumn = outColumn
        self.policy = policy
    }
}
