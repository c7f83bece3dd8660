import Localization
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
    /// night shift's swipes as to our own check-ins). With a time clock's
    /// `inColumn`/`outColumn`, a row's arrival (or departure) time decides its day.
    public static func parse(_ text: String, file: String, dateColumn: String?, dateFormat: DateFormat? = nil,
                             inColumn: String? = nil, outColumn: String? = nil, policy: Policy) throws(ImportError) -> EmployerExport {
        let trimmed = String(text.drop { $0 == "\u{FEFF}" })
        guard !trimmed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ImportError(file: file, line: 1, message: tr("the file is empty; reconcile needs a CSV export with a header row (Date, …)"))
        }
        let rows: [CSVRows.Row]
        do {
            rows = try CSVRows.parse(trimmed).filter { !CSVRows.isBlank($0) }
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
        func named(_ name: String?) throws(ImportError) -> Int? {
            guard let name else { return nil }
            guard let found = keys.firstIndex(of: key(name)) else {
                throw ImportError(file: file, line: headerLine, message: tr("no column named \"\(name)\" in the header (\(header.joined(separator: ", ")))"))
            }
            return found
        }
        let inIndex = try named(inColumn), outIndex = try named(outColumn)
        var dates: [LocalDate: Int] = [:]
        for row in rows.dropFirst() {
            let line = row.line, row = row.fields
            let value = index < row.count ? row[index].trimmingBlanks : ""
            guard !value.isEmpty else {
                throw ImportError(file: file, line: line, message: tr("the \"\(header[index])\" column is empty; every row needs a date"))
            }
            // A date, or a date and time (its day through `day_starts_at`); a
            // date followed by words without digits (a weekday) is that date.
            let first = value.prefix { !$0.isWhitespace }
            let cell = DateFormat.cell(value, format: dateFormat)
                ?? (value.dropFirst(first.count).contains(where: \.isNumber) ? nil
                    : DateFormat.date(String(first), format: dateFormat).map { DateCell(date: $0, time: nil) })
            guard let cell else {
                throw ImportError(file: file, line: line, message: tr("\"\(value)\" in column \"\(header[index])\" is not a date; dates are YYYY-MM-DD, date-times YYYY-MM-DD HH:MM[:SS] with an optional offset (Z, +01:00), or name the file's format with --date-format (\(DateFormat.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
            // A time clock's row: its day is its arrival's (or departure's); a row with neither is not in.
            func instant(_ index: Int?, after arrival: Date?) throws(ImportError) -> Date? {
                guard let index, index < row.count else { return nil }
                return try cell.clockCell(row[index], column: header[index], after: arrival, format: dateFormat,
                                          policy: policy, file: file, line: line)
            }
            let date: LocalDate
            if inIndex != nil || outIndex != nil {
                let arrival = try instant(inIndex, after: nil)
                let departure = try instant(outIndex, after: arrival)
                guard let at = arrival ?? departure else { continue }
                date = policy.localDate(of: at)
            } else {
                date = cell.day(policy)
            }
            guard date.isSupported, cell.date.isSupported else {
                throw ImportError(file: file, line: line, message: tr("\(value) is \(LocalDate.unsupportedPhrase)"))
            }
            dates[date, default: 0] += 1
        }
        return EmployerExport(column: header[index], rows: dates)
    }
}
