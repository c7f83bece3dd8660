import Localization
import DeskDaysCore
import Foundation
import GRDB

extension AttendanceStore {
    /// Removes the entries of `date` with one of `origins` (`.automatic`:
    /// its check-ins; the others: records of that origin) and writes a
    /// removal row for each, in one transaction. Returns what was removed.
    public func remove(on date: LocalDate, origins: Set<Origin>, at instant: Date) throws -> [Removal] {
        try write { db in
            var day = try DayRows.load(db, date)
            var sequence = 0
            let removed = day.clear(origins, at: instant, sequence: &sequence)
            try day.save(db)
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
