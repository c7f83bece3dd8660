import Localization
import DeskDaysCore
import Foundation

/// A CSV import's columns, found in its header, and the reading of each
/// row after it (`Exchange.parseCSV`): a date and a status, a list of
/// dates of `--status`, or a time clock's arrival and departure.
struct CSVImport {
    static let needs = tr("the CSV header needs a date column and a status column (as `deskdays export --format csv` writes: date,status,…); name others with --date-column and --status-column, or give --status S for a list of dates")

    let file: String
    let options: ImportOptions
    let header: CSVRows.Row
    let dateColumn: Int
    let statusColumn: Int?
    let noteColumn: Int?
    /// A time clock's arrival and departure columns: a row with a time is a check-in.
    let inColumn: Int?
    let outColumn: Int?
    var timed: Bool { inColumn != nil || outColumn != nil }

    init(header: CSVRows.Row, file: String, options: ImportOptions) throws(ImportError) {
        self.file = file
        self.options = options
        self.header = header
        let names = header.fields.map { $0.trimmingBlanks.lowercased() }
        func column(_ name: String?, defaults: [String]) throws(ImportError) -> Int? {
            if let name {
                guard let index = names.firstIndex(of: name.trimmingBlanks.lowercased()) else {
                    throw ImportError(file: file, line: header.line, message: tr("no column named \"\(name)\" in the header (\(header.fields.joined(separator: ", ")))"))
                }
                return index
            }
            return defaults.lazy.compactMap { names.firstIndex(of: $0) }.first
        }
        guard let dateColumn = try column(options.dateColumn, defaults: ["date", "datum"]) else {
            throw ImportError(file: file, line: header.line, message: Self.needs)
        }
        self.dateColumn = dateColumn
        inColumn = try options.inColumn.flatMap { name throws(ImportError) in try column(name, defaults: []) }
        outColumn = try options.outColumn.flatMap { name throws(ImportError) in try column(name, defaults: []) }
        // A file without a status column is a list of dates, all of `--status`.
        statusColumn = options.status == nil || options.statusColumn != nil
            ? try column(options.statusColumn, defaults: ["status"]) : nil
        guard statusColumn != nil || options.status != nil || inColumn != nil || outColumn != nil else {
            throw ImportError(file: file, line: header.line, message: Self.needs)
        }
        noteColumn = names.firstIndex(of: "note")
    }

    /// One row after the header, into `imported`.
    func read(_ row: CSVRows.Row, into imported: inout ImportedFile) throws(ImportError) {
        let fields = row.fields, line = row.line
        guard fields.count > max(dateColumn, statusColumn ?? 0) else {
            throw ImportError(file: file, line: line, message: tr("the row has \(fields.count) fields; expected \(header.fields.count)"))
        }
        let dateText = fields[dateColumn].trimmingBlanks
        guard let cell = DateFormat.cell(dateText, format: options.dateFormat) else {
            let shape = options.dateFormat?.rawValue ?? "YYYY-MM-DD"
            throw ImportError(file: file, line: line, message: tr("date \"\(dateText)\" is not \(shape); name the file's date format with --date-format (\(DateFormat.allCases.map(\.rawValue).joined(separator: ", ")))"))
        }
        let policy = options.policy
        // A date-time belongs to its day through `day_starts_at`, as our own check-ins do.
        let date = cell.day(policy)
        guard date.isSupported, cell.date.isSupported else {
            throw ImportError(file: file, line: line, message: tr("date \(dateText) is \(LocalDate.unsupportedPhrase)"))
        }
        func instant(_ index: Int?, after arrival: Date?) throws(ImportError) -> Date? {
            guard let index, index < fields.count else { return nil }
            return try cell.clockCell(fields[index], column: header.fields[index], after: arrival, format: options.dateFormat,
                                      policy: policy, file: file, line: line)
        }
        let arrival = try instant(inColumn, after: nil)
        let departure = try instant(outColumn, after: arrival)
        // A row is one shift: its departure counts for its arrival's date.
        let shift = arrival.map(policy.localDate(of:))
        if let arrival, let shift { imported.add(ImportedSign(line: line, kind: .arrival, at: arrival, date: shift)) }
        if let departure {
            imported.add(ImportedSign(line: line, kind: .departure, at: departure, date: shift ?? policy.localDate(of: departure)))
        }
        // Any other row is a record of its status (the status column's, or `--status`).
        if arrival != nil || departure != nil { return }
        // A time clock's row without times that says something ("Urlaub",
        // "krank") but has no status column to say it in is named, never dropped.
        if timed, statusColumn == nil, options.status == nil,
           fields.indices.contains(where: { $0 != dateColumn && !fields[$0].trimmingBlanks.isEmpty }) {
            imported.skip(ImportError(file: file, line: line, message: tr("a row without an arrival or departure time; skipped (a status it gives, such as Urlaub or krank, is read with --status-column COLUMN)")))
            return
        }
        let status: AttendanceStatus
        if let statusColumn {
            let name = statusColumn < fields.count ? fields[statusColumn].trimmingBlanks : ""
            if name.isEmpty { return }
            guard let named = AttendanceStatus(named: name) else {
                imported.skip(ImportError(file: file, line: line, message: Exchange.unknownStatus(name)))
                return
            }
            status = named
        } else if let given = options.status {
            status = given
        } else {
            return
        }
        let note = noteColumn.flatMap { $0 < fields.count ? fields[$0] : nil }.flatMap { $0.isEmpty ? nil : $0 }
        imported.add(ImportedRecord(date: date, status: status, note: note))
    }
}
