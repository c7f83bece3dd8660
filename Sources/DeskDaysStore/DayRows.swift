import DeskDaysCore
import Foundation
import GRDB

/// One date's rows as a journal line changes them: the one place a line's
/// effect is decided (`apply`), whether the line is this device's own
/// write, another device's merged line, or a date replayed from its lines.
/// `load` reads a date's rows, `save` writes back what `apply` changed;
/// `Batch` holds many dates that held nothing before a long merge and
/// writes their rows at once, in the order line-by-line writing would have
/// given them ids.
///
/// Times are compared as the stored texts (fixed-width UTC to the
/// millisecond), as the SQL they replace compared them.
struct DayRows {
    struct RecordRowState {
        var row: RecordRow
        var sequence: Int
    }

    struct CheckInState {
        var id: Int64?
        var source: Source
        var rule: String?
        var at: String
        var sequence: Int
        var changed = false
    }

    struct SignState {
        var id: Int64?
        var source: Source
        var at: String
        var kind: CheckInEvent.Kind
        var sequence: Int
        var changed = false
    }

    struct RemovalState {
        var origin: Origin
        var entry: String
        var at: String
        var sequence: Int
    }

    let date: LocalDate
    let text: String
    private(set) var records: [RecordRowState] = []
    private(set) var checkIns: [CheckInState] = []
    private(set) var signs: [SignState] = []
    /// Removals this date gained (a date's earlier removals never change).
    private(set) var removals: [RemovalState] = []
    private var deletedRecords: [Int64] = [], deletedCheckIns: [Int64] = [], deletedSigns: [Int64] = []

    init(_ date: LocalDate) {
        self.date = date
        text = date.description
    }

    /// Applies one line's change as of clock time `wall` (milliseconds since
    /// 1970: a line's HLC wall). `sequence` counts the rows made, across
    /// dates, so that rows written together keep the order line-by-line
    /// writing would have given them.
    mutating func apply(_ change: JournalChange, wall: Int64, sequence: inout Int) -> JournalOutcome {
        let time = Date(timeIntervalSince1970: Double(wall) / 1000)
        switch change {
        case .sign(let sign, let rule):
            let at = UTCTimestamp.string(from: sign.at)
            // An arrival is the check-in when it is the first or the earliest.
            let added = sign.kind == .arrival && checkIn(sign.source, rule: rule, at: at, sequence: &sequence) == .inserted
            // Any sign is the latest when none is later.
            if let index = signs.firstIndex(where: { $0.source == sign.source }) {
                if at >= signs[index].at {
                    signs[index].at = at
                    signs[index].kind = sign.kind
                    signs[index].changed = true
                }
            } else {
                signs.append(SignState(source: sign.source, at: at, kind: sign.kind, sequence: next(&sequence)))
            }
            return .sign(addedCheckIn: added)
        case .checkIn(let checkIn):
            let outcome = self.checkIn(checkIn.source, rule: checkIn.rule, at: UTCTimestamp.string(from: checkIn.at),
                                       sequence: &sequence)
            return .sign(addedCheckIn: outcome != .unchanged)
        case .record(_, let status, let origin, let note, let ifEmpty, let plan):
            // A fallback only on a date with no record and no check-in.
            if ifEmpty, !records.isEmpty || !checkIns.isEmpty { return .record(written: false) }
            records.append(RecordRowState(row: RecordRow(DayRecord(date: date, status: status, origin: origin, note: note,
                                                                   recordedAt: time, plan: plan)),
                                          sequence: next(&sequence)))
            return .record(written: true)
        case .clear(_, let origins):
            return .clear(clear(origins, at: time, sequence: &sequence))
        case .removed(_, let origin, let entry):
            removals.append(RemovalState(origin: origin, entry: entry, at: UTCTimestamp.string(from: time),
                                         sequence: next(&sequence)))
            return .removed
        }
    }

    private enum CheckInOutcome { case inserted, earlier, unchanged }

    /// The (date, source)'s check-in: this one when it is the first, or
    /// earlier than the one held (then with its rule).
    private mutating func checkIn(_ source: Source, rule: String?, at: String, sequence: inout Int) -> CheckInOutcome {
        guard let index = checkIns.firstIndex(where: { $0.source == source }) else {
            checkIns.append(CheckInState(source: source, rule: rule, at: at, sequence: next(&sequence)))
            return .inserted
        }
        guard at < checkIns[index].at else { return .unchanged }
        checkIns[index].at = at
        checkIns[index].rule = rule
        checkIns[index].changed = true
        return .earlier
    }

    /// `deskdays clear`: the records of `origins` (oldest first), and with
    /// `automatic` every check-in (earliest first) and latest sign (with
    /// `import`, those of source `import`), each leaving a removal that names it.
    mutating func clear(_ origins: Set<Origin>, at instant: Date, sequence: inout Int) -> [Removal] {
        var removed: [Removal] = []
        let recordOrigins = Set(origins.subtracting([.automatic]).map(\.rawValue))
        // Stored rows first by id, then new ones in the order made.
        let goneRecords = records.filter { recordOrigins.contains($0.row.origin) }
            .sorted { ($0.row.id ?? .max, $0.sequence) < ($1.row.id ?? .max, $1.sequence) }
        for record in goneRecords {
            removed.append(Removal(date: date, origin: Origin(rawValue: record.row.origin) ?? .manual,
                                   entry: "\(record.row.status) record", removedAt: instant))
            if let id = record.row.id { deletedRecords.append(id) }
        }
        records.removeAll { recordOrigins.contains($0.row.origin) }
        // Check-ins go with `automatic`; those of a time clock (source `import`) with `import` too.
        let goes: (Source) -> Bool = { origins.contains(.automatic) || (origins.contains(.import) && $0 == .import) }
        for checkIn in checkIns.filter({ goes($0.source) })
            .sorted(by: { ($0.at, $0.id ?? .max, $0.sequence) < ($1.at, $1.id ?? .max, $1.sequence) }) {
            removed.append(Removal(date: date, origin: checkIn.source == .import ? .import : .automatic,
                                   entry: "\(checkIn.source.rawValue) check-in" + (checkIn.rule.map { ", rule \"\($0)\"" } ?? ""),
                                   removedAt: instant))
        }
        deletedCheckIns += checkIns.filter { goes($0.source) }.compactMap(\.id)
        checkIns.removeAll { goes($0.source) }
        // Their latest signs go with them: time on site comes from check-ins.
        deletedSigns += signs.filter { goes($0.source) }.compactMap(\.id)
        signs.removeAll { goes($0.source) }
        let at = UTCTimestamp.string(from: instant)
        for removal in removed {
            removals.append(RemovalState(origin: removal.origin, entry: removal.entry, at: at, sequence: next(&sequence)))
        }
        return removed
    }

    private func next(_ sequence: inout Int) -> Int {
        defer { sequence += 1 }
        return sequence
    }

    // MARK: - The database

    /// The date's stored records, check-ins and latest signs.
    static func load(_ db: Database, _ date: LocalDate) throws -> DayRows {
        var day = DayRows(date)
        day.records = try RecordRow.fetchAll(db.cachedStatement(sql: """
            SELECT id, date, status, origin, note, recordedAt, plan FROM record WHERE date = ? ORDER BY id
            """), arguments: [day.text]).map { RecordRowState(row: $0, sequence: 0) }
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, source, rule, at FROM checkin WHERE date = ? ORDER BY id"),
                                    arguments: [day.text]) {
            guard let source = Source(rawValue: row[1]) else { continue }
            day.checkIns.append(CheckInState(id: row[0], source: source, rule: row[2], at: row[3], sequence: 0))
        }
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, source, at, kind FROM sign WHERE date = ? ORDER BY id"),
                                    arguments: [day.text]) {
            guard let source = Source(rawValue: row[1]), let kind = CheckInEvent.Kind(rawValue: row[3]) else { continue }
            day.signs.append(SignState(id: row[0], source: source, at: row[2], kind: kind, sequence: 0))
        }
        return day
    }

    /// Writes what `apply` changed since `load`: deleted rows, changed
    /// check-ins and signs, and new rows in the order they were made.
    func save(_ db: Database) throws {
        for (table, ids) in [("record", deletedRecords), ("checkin", deletedCheckIns), ("sign", deletedSigns)] where !ids.isEmpty {
            try db.execute(sql: "DELETE FROM \(table) WHERE id IN (\(ids.map(String.init).joined(separator: ",")))")
        }
        for checkIn in checkIns where checkIn.changed && checkIn.id != nil {
            try db.cachedStatement(sql: "UPDATE checkin SET at = ?, rule = ? WHERE id = ?")
                .execute(arguments: [checkIn.at, checkIn.rule, checkIn.id])
        }
        for sign in signs where sign.changed && sign.id != nil {
            try db.cachedStatement(sql: "UPDATE sign SET at = ?, kind = ? WHERE id = ?")
                .execute(arguments: [sign.at, sign.kind.rawValue, sign.id])
        }
        for checkIn in checkIns where checkIn.id == nil {
            try db.cachedStatement(sql: "INSERT INTO checkin (date, source, rule, at) VALUES (?, ?, ?, ?)")
                .execute(arguments: [text, checkIn.source.rawValue, checkIn.rule, checkIn.at])
        }
        for sign in signs where sign.id == nil {
            try db.cachedStatement(sql: "INSERT INTO sign (date, source, at, kind) VALUES (?, ?, ?, ?)")
                .execute(arguments: [text, sign.source.rawValue, sign.at, sign.kind.rawValue])
        }
        for record in records where record.row.id == nil {
            var row = record.row
            try row.insert(db)
        }
        for removal in removals {
            try db.cachedStatement(sql: "INSERT INTO removal (date, origin, entry, removedAt) VALUES (?, ?, ?, ?)")
                .execute(arguments: [text, removal.origin.rawValue, removal.entry, removal.at])
        }
    }
}

/// The dates a long merge finds holding nothing: their lines applied in
/// memory by `DayRows.apply` (off the database: a merge plan builds them
/// while SQLite keeps the lines), their rows written at once by the merge,
/// many per statement (`SQLiteStatement`: a ten-year journal's 50,000 lines
/// make about 12,000 rows; docs/performance.md, "Merging").
public struct FreshDays: Sendable {
    private var days: [LocalDate: DayRows] = [:]
    private var sequence = 0

    public init() {}

    /// Applies a change as of clock time `wall` (milliseconds).
    public mutating func apply(_ change: JournalChange, wall: Int64) {
        _ = days[change.date, default: DayRows(change.date)].apply(change, wall: wall, sequence: &sequence)
    }

    /// Inserts the rows, each table's in the order they were made.
    func write(_ db: Database) throws {
        var checkIns: [(text: String, row: DayRows.CheckInState)] = [], signs: [(text: String, row: DayRows.SignState)] = []
        var records: [DayRows.RecordRowState] = [], removals: [(text: String, row: DayRows.RemovalState)] = []
        for day in days.values {
            checkIns += day.checkIns.map { (day.text, $0) }
            signs += day.signs.map { (day.text, $0) }
            records += day.records
            removals += day.removals.map { (day.text, $0) }
        }
        checkIns.sort { $0.row.sequence < $1.row.sequence }
        signs.sort { $0.row.sequence < $1.row.sequence }
        records.sort { $0.sequence < $1.sequence }
        removals.sort { $0.row.sequence < $1.row.sequence }
        // Their values come from DeskDays' own types (a date, a source, a
        // kind, a status, an origin), which the tables' CHECKs restate:
        // checking them again, an IN list per row of a many-row statement,
        // cost SQLite as much as storing them.
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        defer { try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF") }
        if !checkIns.isEmpty {
            try SQLiteStatement.insert(db, "INSERT OR FAIL INTO checkin (date, source, rule, at)", width: 4, count: checkIns.count) { statement, index, first in
                let (text, row) = checkIns[index]
                statement.bind(first, text)
                statement.bind(first + 1, row.source.rawValue)
                statement.bind(first + 2, row.rule)
                statement.bind(first + 3, row.at)
            }
            try db.notifyChanges(in: Table("checkin"))
        }
        if !signs.isEmpty {
            try SQLiteStatement.insert(db, "INSERT OR FAIL INTO sign (date, source, at, kind)", width: 4, count: signs.count) { statement, index, first in
                let (text, row) = signs[index]
                statement.bind(first, text)
                statement.bind(first + 1, row.source.rawValue)
                statement.bind(first + 2, row.at)
                statement.bind(first + 3, row.kind.rawValue)
            }
            try db.notifyChanges(in: Table("sign"))
        }
        if !records.isEmpty {
            try SQLiteStatement.insert(db, "INSERT OR FAIL INTO record (date, status, origin, note, recordedAt, plan)", width: 6,
                                       count: records.count) { statement, index, first in
                let row = records[index].row
                statement.bind(first, row.date)
                statement.bind(first + 1, row.status)
                statement.bind(first + 2, row.origin)
                statement.bind(first + 3, row.note)
                statement.bind(first + 4, row.recordedAt)
                statement.bind(first + 5, row.plan)
            }
            try db.notifyChanges(in: Table("record"))
        }
        if !removals.isEmpty {
            try SQLiteStatement.insert(db, "INSERT OR FAIL INTO removal (date, origin, entry, removedAt)", width: 4,
                                       count: removals.count) { statement, index, first in
                let (text, row) = removals[index]
                statement.bind(first, text)
                statement.bind(first + 1, row.origin.rawValue)
                statement.bind(first + 2, row.entry)
                statement.bind(first + 3, row.at)
            }
            try db.notifyChanges(in: Table("removal"))
        }
    }
}
