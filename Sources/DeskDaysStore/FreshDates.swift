import DeskDaysCore
import Foundation
import GRDB

/// A merge's lines on dates this database holds nothing of (no line, no
/// row), applied in memory: the rows `AttendanceStore.apply` would leave,
/// in the order it would insert them (so with the same ids), written at
/// once. A ten-year journal of another device is fifty thousand lines and
/// a quarter as many rows: one insert per row instead of two or three
/// statements per line.
///
/// The rules are `apply`'s, line by line in clock order: keep them in step
/// with `applySign` and `apply` (SyncTests' interleavings merge through
/// both and compare the rows). A clear is never given here (a date with
/// one is applied by `apply`).
struct FreshDates: Sendable {
    private struct Day {
        /// The date as stored.
        var text: String
        /// Its check-in and latest sign per source: indexes into the rows.
        var checkIns: [(source: Source, row: Int)] = []
        var signs: [(source: Source, row: Int)] = []
        var hasRecord = false
    }

    private var days: [LocalDate: Day] = [:]
    /// The date the last line changed, held out of `days` until a line of
    /// another date comes (a journal's lines come date by date).
    private var current: (date: LocalDate, day: Day)?
    private var checkIns: [(date: String, source: Source, rule: String?, at: Date)] = []
    private var signs: [(date: String, source: Source, at: Date, kind: CheckInEvent.Kind)] = []
    private var records: [RecordRow] = []
    private var removals: [(date: String, origin: Origin, entry: String, at: Date)] = []

    /// Applies one line's change as of clock time `time`.
    // Times are compared as dates: the stored text is fixed-width UTC to the
    // millisecond, and these dates are whole milliseconds, so both orders agree.
    mutating func apply(_ change: JournalChange, time: HLC) {
        let date = change.date
        // Taken out while it changes, so its lists are not copied on write.
        var day: Day
        if let current, current.date == date {
            day = current.day
            self.current = nil
        } else {
            if let current { days[current.date] = current.day }
            self.current = nil
            day = days.removeValue(forKey: date) ?? Day(text: date.description)
        }
        switch change {
        case .sign(let sign, let rule):
            // `applySign`: an arrival is the check-in when it is the first
            // or the earliest; any sign is the latest when none is later.
            if sign.kind == .arrival { checkIn(&day, source: sign.source, rule: rule, at: sign.at) }
            if let slot = day.signs.first(where: { $0.source == sign.source }) {
                if sign.at >= signs[slot.row].at {
                    signs[slot.row].at = sign.at
                    signs[slot.row].kind = sign.kind
                }
            } else {
                day.signs.append((sign.source, signs.count))
                signs.append((day.text, sign.source, sign.at, sign.kind))
            }
        case .checkIn(let checkIn):
            self.checkIn(&day, source: checkIn.source, rule: checkIn.rule, at: checkIn.at)
        case .record(_, let status, let origin, let note, let ifEmpty):
            // A fallback only on a date with no record and no check-in.
            if ifEmpty, day.hasRecord || !day.checkIns.isEmpty { break }
            records.append(RecordRow(DayRecord(date: date, status: status, origin: origin, note: note, recordedAt: time.date)))
            day.hasRecord = true
        case .removed(_, let origin, let entry):
            removals.append((day.text, origin, entry, time.date))
        case .clear:
            preconditionFailure("a clear is applied by AttendanceStore.apply")
        }
        current = (date, day)
    }

    /// The (date, source)'s check-in: this one when it is the first, or
    /// earlier than the one held (then with its rule).
    private mutating func checkIn(_ day: inout Day, source: Source, rule: String?, at: Date) {
        if let slot = day.checkIns.first(where: { $0.source == source }) {
            if checkIns[slot.row].at > at {
                checkIns[slot.row].at = at
                checkIns[slot.row].rule = rule
            }
        } else {
            day.checkIns.append((source, checkIns.count))
            checkIns.append((day.text, source, rule, at))
        }
    }

    /// Inserts the rows, each table's in the order `apply` would have.
    func write(_ db: Database) throws {
        // Their values come from DeskDays' own types (a date, a source, a
        // kind, a status, an origin), which the tables' CHECKs restate:
        // checking them again, an IN list per row of a many-row statement,
        // cost SQLite as much as storing them.
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        defer { try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF") }
        if !checkIns.isEmpty {
            try SQLiteStatement.insert(db, "INSERT OR FAIL INTO checkin (date, source, rule, at)", width: 4, count: checkIns.count) { statement, index, first in
                let row = checkIns[index]
                statement.bind(first, row.date)
                statement.bind(first + 1, row.source.rawValue)
                statement.bind(first + 2, row.rule)
                statement.bind(first + 3, UTCTimestamp.string(from: row.at))
            }
            try db.notifyChanges(in: Table("checkin"))
        }
        if !signs.isEmpty {
            try SQLiteStatement.insert(db, "INSERT OR FAIL INTO sign (date, source, at, kind)", width: 4, count: signs.count) { statement, index, first in
                let row = signs[index]
                statement.bind(first, row.date)
                statement.bind(first + 1, row.source.rawValue)
                statement.bind(first + 2, UTCTimestamp.string(from: row.at))
                statement.bind(first + 3, row.kind.rawValue)
            }
            try db.notifyChanges(in: Table("sign"))
        }
        if !records.isEmpty {
            try SQLiteStatement.insert(db, "INSERT OR FAIL INTO record (date, status, origin, note, recordedAt)", width: 5,
                                       count: records.count) { statement, index, first in
                let row = records[index]
                statement.bind(first, row.date)
                statement.bind(first + 1, row.status)
                statement.bind(first + 2, row.origin)
                statement.bind(first + 3, row.note)
                statement.bind(first + 4, row.recordedAt)
            }
            try db.notifyChanges(in: Table("record"))
        }
        if !removals.isEmpty {
            try SQLiteStatement.insert(db, "INSERT OR FAIL INTO removal (date, origin, entry, removedAt)", width: 4,
                                       count: removals.count) { statement, index, first in
                let row = removals[index]
                statement.bind(first, row.date)
                statement.bind(first + 1, row.origin.rawValue)
                statement.bind(first + 2, row.entry)
                statement.bind(first + 3, UTCTimestamp.string(from: row.at))
            }
            try db.notifyChanges(in: Table("removal"))
        }
    }
}
