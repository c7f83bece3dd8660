import DeskDaysCore

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

    public init(dateColumn: String? = nil, statusColumn: String? = nil, dateFormat: DateFormat? = nil, status: AttendanceStatus? = nil) {
        self.dateColumn = dateColumn
        self.statusColumn = statusColumn
        self.dateFormat = dateFormat
        self.status = status
    }
}
