import DeskDaysCore
import Foundation
import GRDB

/// An entry the user removed with `deskdays clear`: what it was (in words,
/// no identifiers: a status or a source and rule name) and when it went.
/// Kept so that nothing leaves the history silently (docs/design.md, "Storage").
public struct Removal: Sendable, Equatable {
    public var date: LocalDate
    public var origin: Origin
    /// "office record", "gps check-in, rule \"hq\"".
    public var entry: String
    public var removedAt: Date
}

extension AttendanceStore {
    /// Removes the entries of `date` with one of `origins` (`.automatic`:
    /// its check-ins; the others: records of that origin) and writes a
    /// removal row for each, in one transaction. Returns what was removed.
    public func remove(on date: LocalDate, origins: Set<Origin>, at instant: Date) throws -> [Removal] {
        try write { db in try Self.applyClear(db, date: date, origins: origins, at: instant) }
    }

    /// `remove`'s statements, inside a transaction (also a journal line's, AttendanceStore+Sync).
    static func applyClear(_ db: Database, date: LocalDate, origins: Set<Origin>, at instant: Date) throws -> [Removal] {
        do {
            var removed: [Removal] = []
            let day = date.description
            let recordOrigins = origins.subtracting([.automatic]).map(\.rawValue)
            if !recordOrigins.isEmpty {
                let rows = try RecordRow.fetchAll(db, sql: """
                    SELECT id, date, status, origin, note, recordedAt FROM record
                    WHERE date = ? AND origin IN (\(databaseQuestionMarks(count: recordOrigins.count))) ORDER BY recordedAt, id
                    """, arguments: StatementArguments([day] + recordOrigins))
                for row in rows {
                    removed.append(Removal(date: date, origin: Origin(rawValue: row.origin) ?? .manual,
                                           entry: "\(row.status) record", removedAt: instant))
                }
                try db.execute(sql: "DELETE FROM record WHERE date = ? AND origin IN (\(databaseQuestionMarks(count: recordOrigins.count)))",
                               arguments: StatementArguments([day] + recordOrigins))
            }
            if origins.contains(.automatic) {
                let rows = try CheckInRow.fetchAll(db, sql: "SELECT id, date, source, rule, at FROM checkin WHERE date = ? ORDER BY at, id",
                                                   arguments: [day])
                for row in rows {
                    removed.append(Removal(date: date, origin: .automatic,
                                           entry: "\(row.source) check-in" + (row.rule.map { ", rule \"\($0)\"" } ?? ""), removedAt: instant))
                }
                try db.execute(sql: "DELETE FROM checkin WHERE date = ?", arguments: [day])
                // Their latest signs go with them: time on site comes from check-ins.
                try db.execute(sql: "DELETE FROM sign WHERE date = ?", arguments: [day])
            }
            for removal in removed {
                try db.execute(sql: "INSERT INTO removal (date, origin, entry, removedAt) VALUES (?, ?, ?, ?)",
                               arguments: [day, removal.origin.rawValue, removal.entry, UTCTimestamp.string(from: instant)])
            }
            return removed
        }
    }

    /// The removals of the dates in `span` (nil: all), oldest first.
    public func removals(in span: DateSpan?) throws -> [Removal] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT date, origin, entry, removedAt FROM removal WHERE date BETWEEN ? AND ? ORDER BY date, removedAt, id
                """, arguments: Self.bounds(span))
            return try rows.map { row in
                guard let date = LocalDate(row[0] as String), let origin = Origin(rawValue: row[1]),
                      let removedAt = UTCTimestamp.date(from: row[3]) else {
                    throw StoreError.corrupt(path: path, detail: tr("a removal row holds a value this build cannot read"))
                }
                return Removal(date: date, origin: origin, entry: row[2], removedAt: removedAt)
            }
        }
    }
}
