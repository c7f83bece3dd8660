import DeskDaysCore
import GRDB

/// The dates this store's own writes touched, for a reader that keeps what
/// it computed and re-reads only those dates (the agent's current answer,
/// `HistoryCache`).
///
/// Temporary triggers on this connection note the date of every row
/// inserted, updated or deleted in `record` and `checkin` into a temporary
/// table, inside the writing transaction itself: a write that has committed
/// has its dates noted. Other processes' writes are not seen here (SQLite's
/// `data_version` tells that they happened; the reader then reads everything).
extension AttendanceStore {
    /// More changed dates than this since the last look: read everything instead.
    public static let changedDatesLimit = 512

    /// Starts noting the dates that this connection's writes touch. Idempotent.
    public func trackChangedDates() throws {
        try writeStatement { db in
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS changed_date (date TEXT NOT NULL)")
            for table in ["record", "checkin"] {
                for (event, rows) in [("INSERT", ["NEW"]), ("DELETE", ["OLD"]), ("UPDATE", ["OLD", "NEW"])] {
                    let inserts = rows.map { "INSERT INTO changed_date (date) VALUES (\($0).date);" }.joined(separator: " ")
                    try db.execute(sql: """
                        CREATE TEMP TRIGGER IF NOT EXISTS changed_\(table)_\(event.lowercased())
                        AFTER \(event) ON main.\(table) BEGIN \(inserts) END
                        """)
                }
            }
        }
    }

    /// The dates touched since the last call (and forgets them); nil when
    /// there were more than `changedDatesLimit`, or one is not a date:
    /// the caller reads everything.
    public func takeChangedDates() throws -> Set<LocalDate>? {
        try takeChangedDatesAndVersion().dates
    }

    /// `takeChangedDates` and `dataVersion` in one turn of the connection.
    public func takeChangedDatesAndVersion() throws -> (dates: Set<LocalDate>?, dataVersion: Int) {
        try write { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
            let texts = try String.fetchAll(db, sql: "SELECT DISTINCT date FROM changed_date LIMIT \(Self.changedDatesLimit + 1)")
            try db.execute(sql: "DELETE FROM changed_date")
            guard texts.count <= Self.changedDatesLimit else { return (nil, version) }
            var dates: Set<LocalDate> = []
            for text in texts {
                guard let date = LocalDate(text) else { return (nil, version) }
                dates.insert(date)
            }
            return (dates, version)
        }
    }
}
