import DeskDaysCore
import Foundation

/// An employer's attendance export as `deskdays reconcile` reads it
/// (docs/cli.md): a CSV with a header row; the column holding the date is
/// found by its name; each row says the person was in on that date. One row
/// per swipe (with times) or one row per day: only the dates count.
public struct EmployerExport: Sendable, Equatable {
    /// The header of the date column, as written in the file.
    public var column: String
    /// Rows per date: the dates the employer has the person in.
    public var rows: [LocalDate: Int]

    /// Column names tried in this order (case and spaces ignored), then any
    /// name containing "date", then "swipe", "day", "time".
    public static let dateColumnNames = ["date", "day", "swipe time", "swipe date", "swipe", "date time", "datetime",
                                         "date/time", "timestamp", "time", "badge time", "entry time", "access time",
                                         "event time", "clock in", "check in", "in", "datum", "tag", "kommen", "fecha", "data"]

    /// Reads `text` (the file `file`); `dateColumn` names the column
    /// (`--date-column`), else it is found by name. Date-times without an
    /// offset are local to `policy.timeZone`; each one belongs to the date
    /// `policy.localDate(of:)` gives it (so `day_starts_at` applies to a
    /// night shift's swipes as to our own check-ins).
    public static func parse(_ text: String, file: String, dateColumn: String?, dateFormat: DateFormat? = nil,
                             policy: Policy) throws(ImportError) -> EmployerExport {
        let trimmed = String(text.drop { $0 == "\u{FEFF}" })
        guard !trimmed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ImportError(file: file, line: 1, message: tr("the file is empty; reconcile needs a CSV export with a header row (Date, …)"))
        }
        let rows: [CSVRows.Row]
        do {
            rows = try CSVRows.parse(trimmed).filter { !$0.fields.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } }
        } catch {
            throw error.importError(file: file)
        }
        let header = rows.first?.fields ?? []
        let headerLine = rows.first?.line ?? 1
        func key(_ name: String) -> String {
            name.lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "_" || $0 == "-" }).joined(separator: " ")
        }
        let keys = header.map(key)
        let index: Int
        if let dateColumn {
            guard let found = keys.firstIndex(of: key(dateColumn)) else {
                throw ImportError(file: file, line: headerLine, message: tr("no column named \"\(dateColumn)\" in the header (\(header.joined(separator: ", "))); give --date-column one of those"))
            }
            index = found
        } else if let found = dateColumnNames.lazy.compactMap({ keys.firstIndex(of: $0) }).first
                    ?? ["date", "swipe", "day", "time"].lazy.compactMap({ word in keys.firstIndex { $0.contains(word) } }).first {
            index = found
        } else {
            throw ImportError(file: file, line: headerLine, message: tr("no date column in the header (\(header.joined(separator: ", "))); name it with --date-column NAME"))
        }
        var dates: [LocalDate: Int] = [:]
        for row in rows.dropFirst() {
            let line = row.line, row = row.fields
            let value = index < row.count ? row[index].trimmingCharacters(in: .whitespaces) : ""
            guard !value.isEmpty else {
                throw ImportError(file: file, line: line, message: tr("the \"\(header[index])\" column is empty; every row needs a date"))
            }
            // ISO dates and date-times, else the day in the file's own format (a time after it is the same day).
            let dayText = String(value.prefix { !$0.isWhitespace })
            let local = dateFormat == nil || dateFormat == .iso ? nil : dateFormat?.date(dayText)
            guard let date = local ?? Self.date(of: value, policy: policy) ?? (dateFormat == nil ? DateFormat.dottedShort.date(dayText) : nil) else {
                throw ImportError(file: file, line: line, message: tr("\"\(value)\" in column \"\(header[index])\" is not a date; dates are YYYY-MM-DD, date-times YYYY-MM-DD HH:MM[:SS] with an optional offset (Z, +01:00), or name the file's format with --date-format (\(DateFormat.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
            guard date.isSupported else {
                throw ImportError(file: file, line: line, message: tr("\(value) is \(LocalDate.unsupportedPhrase)"))
            }
            dates[date, default: 0] += 1
        }
        return EmployerExport(column: header[index], rows: dates)
    }

    /// The date of a cell: `YYYY-MM-DD` alone, or followed (after `T` or a
    /// space) by `HH:MM`, optional `:SS` and fraction, and an optional
    /// offset `Z`, `±HH:MM` or `±HHMM`; nil otherwise.
    public static func date(of text: String, policy: Policy) -> LocalDate? {
        let chars = Array(text.utf8)
        guard chars.count >= 10, let day = LocalDate(String(decoding: chars[0..<10], as: UTF8.self)) else { return nil }
        if chars.count == 10 { return day }
        guard chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: " ") || chars[10] == UInt8(ascii: "t") else { return nil }
        var rest = Substring(String(decoding: chars[11...], as: UTF8.self)).trimmingCharacters(in: .whitespaces)[...]
        func digits(_ count: Int) -> Int? {
            let head = rest.prefix(count)
            guard head.count == count, head.allSatisfy(\.isASCII), let value = Int(head) else { return nil }
            rest = rest.dropFirst(count)
            return value
        }
        guard let hour = digits(2), hour < 24, rest.first == ":" else { return nil }
        rest = rest.dropFirst()
        guard let minute = digits(2), minute < 60 else { return nil }
        var second = 0
        if rest.first == ":" {
            rest = rest.dropFirst()
            guard let value = digits(2), value < 61 else { return nil }
            second = value
            if rest.first == "." || rest.first == "," {
                rest = rest.dropFirst()
                rest = rest.drop(while: \.isNumber)
            }
        }
        rest = rest.drop(while: { $0 == " " })[...]
        var offset: Int?
        if rest.isEmpty {
            offset = nil
        } else if rest == "Z" || rest == "z" || rest == "UTC" {
            offset = 0
        } else if let sign = rest.first, sign == "+" || sign == "-" {
            rest = rest.dropFirst()
            guard let h = digits(2) else { return nil }
            if rest.first == ":" { rest = rest.dropFirst() }
            guard let m = digits(2), rest.isEmpty, h < 24, m < 60 else { return nil }
            offset = (sign == "+" ? 1 : -1) * (h * 3600 + m * 60)
        } else {
            return nil
        }
        let instant: Date
        if let offset {
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            guard let base = utc.date(from: DateComponents(year: day.year, month: day.month, day: day.day,
                                                           hour: hour, minute: minute, second: second)) else { return nil }
            instant = base.addingTimeInterval(TimeInterval(-offset))
        } else {
            instant = policy.instant(of: day, hour: hour, minute: minute).addingTimeInterval(TimeInterval(second))
        }
        return policy.localDate(of: instant)
    }
}
