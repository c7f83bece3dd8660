import Localization
import CSV
import DeskDaysCore
import Foundation
import ICal

/// One exported day: what `export` writes and `import` reads back.
public struct ExchangeDay: Sendable, Equatable, Codable {
    public var date: LocalDate
    public var workday: Bool
    public var status: AttendanceStatus?
    public var origin: Origin?
    public var sources: [Source]
    public var note: String?
    /// What the date holds, in the order it was written (JSON export only):
    /// `import` of this file writes the same entries again, so an empty
    /// database answers as the exported one did.
    public var entries: [ExchangeEntry]?

    public init(date: LocalDate, workday: Bool, status: AttendanceStatus?, origin: Origin?,
                sources: [Source], note: String? = nil) {
        self.date = date
        self.workday = workday
        self.status = status
        self.origin = origin
        self.sources = sources
        self.note = note
    }

    enum CodingKeys: String, CodingKey { case date, workday, status, origin, sources, note, entries }

    public func encode(to encoder: Encoder) throws {
        // `status` and `origin` are always present (null when the date has no record), as docs/cli.md fixes for `days --json`.
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(date, forKey: .date)
        try container.encode(workday, forKey: .workday)
        try container.encode(status, forKey: .status)
        try container.encode(origin, forKey: .origin)
        try container.encode(sources, forKey: .sources)
        try container.encodeIfPresent(note, forKey: .note)
        try container.encodeIfPresent(entries, forKey: .entries)
    }
}

/// One stored entry of a date in a JSON export: a record (its origin,
/// status and note) or an automatic sign (its source, kind and instant,
/// UTC; the first arrival of each source and its latest sign). Rule names
/// are not exported.
public struct ExchangeEntry: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case record, arrival, departure }
    public var kind: Kind
    public var origin: Origin?
    public var status: AttendanceStatus?
    public var note: String?
    public var source: Source?
    public var at: String?

    public static func record(_ origin: Origin, _ status: AttendanceStatus, note: String?) -> Self {
        ExchangeEntry(kind: .record, origin: origin, status: status, note: note)
    }

    public static func sign(_ kind: CheckInEvent.Kind, _ source: Source, at: Date) -> Self {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return ExchangeEntry(kind: kind == .arrival ? .arrival : .departure, source: source, at: formatter.string(from: at))
    }

    /// The instant of a sign (RFC 3339, as inbox lines are read), when it is one.
    public var instant: Date? { at.flatMap { InboxLine.time(Substring($0)) } }
}

/// A record read from an import file.
public struct ImportedRecord: Sendable, Equatable {
    public var date: LocalDate
    public var status: AttendanceStatus
    public var note: String?
}

/// An entry of a JSON export read back, with its date.
public struct ImportedEntry: Sendable, Equatable {
    public var date: LocalDate
    public var entry: ExchangeEntry
}

/// What an import file gives: its records, and the rows (or events) left
/// out because their status is not a known word, each named by its file
/// and line as an error would be; `import` prints them and goes on.
public struct ImportedFile: Sendable {
    public var records: [ImportedRecord] = []
    /// A JSON export's entries (origins, signs and their times): written as
    /// they were, instead of `records`, when the file has them.
    public var entries: [ImportedEntry] = []
    /// The first `namedSkips` rows left out, named; `skippedCount` counts them all.
    public private(set) var skipped: [ImportError] = []
    public private(set) var skippedCount = 0
    /// How many skipped rows are named one by one; the rest are counted.
    public static let namedSkips = 20
    /// An iCalendar file's timed events (with a time of day): not days, skipped.
    public var timedEvents = 0
    /// A time clock's arrivals and departures (`--in-column`, `--out-column`)
    /// that decide what is stored, by date (see `add(_:)`).
    public private(set) var signs: [ImportedSign] = []
    /// How many dates have a time (the signs' dates).
    public var signDates: Int { Set(signs.map(\.date)).count }

    /// A time clock's rows while they are read: per date, the earliest
    /// arrival and the latest sign, and the date's last record.
    private var deciding: [LocalDate: (arrival: ImportedSign?, latest: ImportedSign)] = [:]
    private var lastRecord: [LocalDate: ImportedRecord] = [:]

    mutating func skip(_ error: ImportError) {
        if skipped.count < Self.namedSkips { skipped.append(error) }
        skippedCount += 1
    }

    /// A time clock's sign. Of one source's signs on one date the store
    /// keeps the earliest arrival (the check-in) and the latest sign (one
    /// as late replaces it), docs/policy.md "Time on site"; only those two
    /// are kept here, so a file of a million swipes is as many dates, and
    /// applying them leaves the store as applying every row would.
    mutating func add(_ sign: ImportedSign) {
        guard var known = deciding[sign.date] else {
            deciding[sign.date] = (sign.kind == .arrival ? sign : nil, sign)
            return
        }
        if sign.kind == .arrival, known.arrival.map({ sign.at < $0.at }) ?? true { known.arrival = sign }
        if sign.at >= known.latest.at { known.latest = sign }
        deciding[sign.date] = known
    }

    /// A CSV row's record: a date's last row is the one that counts (docs/policy.md).
    mutating func add(_ record: ImportedRecord) { lastRecord[record.date] = record }

    /// The rows read, by date: each date's deciding signs (the arrival
    /// first) and last record.
    mutating func finish() {
        for (_, known) in deciding.sorted(by: { $0.key < $1.key }) {
            if let arrival = known.arrival, arrival != known.latest { signs.append(arrival) }
            signs.append(known.latest)
        }
        records += lastRecord.values.sorted { $0.date < $1.date }
        deciding = [:]
        lastRecord = [:]
    }
}

/// An arrival or departure a time clock's row gives, with the row's line
/// and the date it counts for: a row is one shift, so its departure
/// belongs to its arrival's date whatever `day_starts_at` says.
public struct ImportedSign: Sendable, Equatable {
    public var line: Int
    public var kind: CheckInEvent.Kind
    public var at: Date
    public var date: LocalDate
}

/// An import file that cannot be used; nothing of it is written.
public struct ImportError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public var description: String {
        line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)"
    }
}

/// The formats of `deskdays export` and `deskdays import`.
public enum Exchange {
    public enum Format: String, CaseIterable, Sendable { case csv, json, ics }

    static let csvHeader = ["date", "workday", "status", "origin", "sources", "note"]

    /// An import file's text: UTF-8, an iCalendar file folded inside a
    /// character mended first (`ICalendar.text`); nil when it is not UTF-8.
    public static func text(of data: Data) -> String? { ICalendar.text(of: data) }

    // MARK: - Export

    /// The days in `format`; `now` stamps an iCalendar document (DTSTAMP).
    /// The same days give the same bytes (JSON keys sorted).
    public static func export(_ days: [ExchangeDay], format: Format, now: Date) throws -> String {
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes, .sortedKeys]
            return String(decoding: try encoder.encode(days), as: UTF8.self) + "\n"
        case .csv:
            let stream = OutputStream(toMemory: ())
            let writer = try CSVWriter(stream: stream)
            try writer.write(row: csvHeader)
            for day in days {
                try writer.write(row: [day.date.description, day.workday ? "true" : "false",
                                       day.status?.rawValue ?? "", day.origin?.rawValue ?? "",
                                       day.sources.map(\.rawValue).joined(separator: " "), day.note ?? ""])
            }
            writer.stream.close()
            let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data ?? Data()
            return String(decoding: data, as: UTF8.self) + "\n"
        case .ics:
            let events = days.compactMap { day -> ICalendar.ExportedEvent? in
                guard let status = day.status else { return nil }
                return ICalendar.ExportedEvent(date: day.date, summary: status.rawValue.capitalized,
                                               uid: "\(day.date)-\(status.rawValue)@deskdays", description: day.note)
            }
            return ICalendar.document(events, productID: "-//DeskDays//DeskDays//EN", stamp: now)
        }
    }

    // MARK: - Import

    /// Reads records from an export file (CSV or JSON) or an iCalendar file,
    /// chosen by content. Rows without a status are skipped; a row or event
    /// whose status is not a known word (docs/cli.md, "Status words") is
    /// skipped and named in `skipped`; anything else unreadable is an error
    /// naming the line, and nothing is imported.
    public static func parseImport(_ text: String, file: String, horizon: LocalDate,
                                   options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportedFile {
        // Only a byte order mark goes: blank lines before the content still count as lines.
        let content = text.first == "\u{FEFF}" ? String(text.dropFirst()) : text
        let trimmed = content.drop { $0.isWhitespace }
        if trimmed.hasPrefix("[") || trimmed.hasPrefix("{") { return try parseJSON(String(trimmed), file: file) }
        if trimmed.uppercased().hasPrefix("BEGIN:VCALENDAR") { return try parseICS(content, file: file, horizon: horizon) }
        return try parseCSV(content, file: file, options: options)
    }

    static func parseJSON(_ text: String, file: String) throws(ImportError) -> ImportedFile {
        struct Row: Decodable {
            var date: String
            var status: String?
            var note: String?
            var entries: [ExchangeEntry]?
            /// Whether the object has a `status` key at all (an export writes
            /// `null` for a date without a record).
            var hasStatus: Bool

            enum CodingKeys: String, CodingKey { case date, status, note, entries }

            init(from decoder: Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                date = try container.decode(String.self, forKey: .date)
                status = try container.decodeIfPresent(String.self, forKey: .status)
                note = try container.decodeIfPresent(String.self, forKey: .note)
                entries = try container.decodeIfPresent([ExchangeEntry].self, forKey: .entries)
                hasStatus = container.contains(.status)
            }
        }
        let rows: [Row]
        do {
            guard text.hasPrefix("[") else { throw ImportError(file: file, line: nil, message: "") }
            rows = try JSONDecoder().decode([Row].self, from: Data(text.utf8))
        } catch {
            throw ImportError(file: file, line: nil, message: tr("not a DeskDays JSON export (a list of {\"date\", \"status\"} objects); export again with --format json"))
        }
        // A list of other objects (no entry says a status) is not an export
        // whose days happen to be empty: refused, rather than "0 records".
        if !rows.isEmpty, !rows.contains(where: \.hasStatus) {
            throw ImportError(file: file, line: nil, message: tr("no entry has a \"status\": not a DeskDays JSON export (a list of {\"date\", \"status\"} objects); export again with --format json"))
        }
        var imported = ImportedFile()
        for (index, row) in rows.enumerated() {
            guard let date = LocalDate(row.date) else {
                throw ImportError(file: file, line: nil, message: tr("entry \(index + 1) has date \"\(row.date)\", which is not YYYY-MM-DD"))
            }
            guard date.isSupported else {
                throw ImportError(file: file, line: nil, message: tr("entry \(index + 1) has date \(row.date), \(LocalDate.unsupportedPhrase)"))
            }
            if let entries = row.entries {
                // Every field of a sign checked as any other input's: a source that
                // signs (not manual), a time of the date's range.
                for (place, entry) in entries.enumerated() {
                    let valid: Bool
                    switch entry.kind {
                    case .record: valid = entry.status != nil && [.manual, .import, .fallback].contains(entry.origin)
                    case .arrival, .departure:
                        valid = entry.source?.isAutomatic == true && entry.instant.map { Validation.signProblem($0, date: date) == nil } == true
                    }
                    guard valid else {
                        throw ImportError(file: file, line: nil, message: tr("entry \(index + 1) (\(row.date)): its entry \(place + 1) is not a record or a sign DeskDays writes; export again with --format json"))
                    }
                    imported.entries.append(ImportedEntry(date: date, entry: entry))
                }
                continue
            }
            guard let name = row.status else { continue }
            guard let status = AttendanceStatus(named: name) else {
                imported.skip(ImportError(file: file, line: nil, message: tr("entry \(index + 1): unknown status \"\(name)\"; skipped (use office, remote, travel, sick, vacation, leave or a word docs/cli.md lists)")))
                continue
            }
            imported.records.append(ImportedRecord(date: date, status: status, note: row.note))
        }
        return imported
    }

    static func parseCSV(_ text: String, file: String, options: ImportOptions) throws(ImportError) -> ImportedFile {
        var reader: CSVImport?
        var imported = ImportedFile()
        try CSVRows.scan(text, malformed: { $0.importError(file: file) }) { (row: CSVRows.Row) throws(ImportError) in
            if CSVRows.isBlank(row) { return }
            if let reader {
                try reader.read(row, into: &imported)
            } else {
                reader = try CSVImport(header: row, file: file, options: options)
            }
        }
        guard reader != nil else { throw ImportError(file: file, line: 1, message: CSVImport.needs) }
        imported.finish()
        return imported
    }

    /// An iCalendar file's all-day events (ICal, on libical) up to `horizon`;
    /// dates outside those DeskDays keeps are not read.
    static func parseICS(_ text: String, file: String, horizon: LocalDate) throws(ImportError) -> ImportedFile {
        let document: ICalendar.Document
        do {
            document = try ICalendar.read(text, through: horizon)
        } catch {
            throw ImportError(file: file, line: error.line, message: error.reason)
        }
        var imported = ImportedFile()
        imported.timedEvents = document.timedEvents
        for event in document.events where !event.starts.isEmpty {
            // Once per event, however many days it covers.
            guard let status = status(forSummary: event.summary) else {
                imported.skip(ImportError(file: file, line: event.line == 0 ? nil : event.line, message: unknownStatus(event.summary)))
                continue
            }
            // The DESCRIPTION comes back as the note (`export --format ics` writes the note there).
            for date in event.dates where date.isSupported {
                imported.records.append(ImportedRecord(date: date, status: status, note: event.description))
            }
        }
        return imported
    }

    /// Why a row or an event was skipped: its status is no known word.
    static func unknownStatus(_ name: String) -> String {
        tr("unknown status \"\(name)\"; skipped (use office, remote, travel, sick, vacation, leave or a word docs/cli.md lists)")
    }

    /// The status an event title names: the whole title must be a status
    /// word or one of its synonyms (`AttendanceStatus(named:)`), so "Out of
    /// office" or "Office closed" name none.
    public static func status(forSummary summary: String) -> AttendanceStatus? {
        AttendanceStatus(named: summary)
    }
}
