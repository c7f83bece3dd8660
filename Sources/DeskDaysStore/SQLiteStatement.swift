import GRDB
import GRDBSQLite

/// A prepared statement run many times on the hot path of a long merge,
/// through SQLite's C API: GRDB's arguments (an array of values per run,
/// each converted and checked) cost more than SQLite's own work there.
///
/// It bypasses GRDB's change tracking: a caller that writes observed tables
/// with it calls `Database.notifyChanges(in:)` afterwards.
struct SQLiteStatement {
    private let statement: Statement
    private let handle: OpaquePointer
    private let connection: OpaquePointer

    init(_ db: Database, sql: String) throws {
        // GRDB keeps the statement alive and finalizes it.
        statement = try db.makeStatement(sql: sql)
        handle = statement.sqliteStatement
        connection = db.sqliteConnection!
    }

    /// Inserts `count` rows of `width` columns, many per statement:
    /// `sql` is `INSERT INTO table (columns)`, and `bind` binds row `row`'s
    /// values from parameter `first` on. One run of a statement costs SQLite
    /// a set-up (a CHECK's `IN` list, for one, becomes a temporary b-tree each
    /// run) that a row alone does not; the rows keep their order.
    static func insert(_ db: Database, _ sql: String, width: Int, count: Int,
                       bind: (_ statement: SQLiteStatement, _ row: Int, _ first: Int32) -> Void) throws {
        // Within 999 bound values, the limit of SQLite builds before 3.32.
        let batch = max(1, 999 / width)
        let values = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        var full: SQLiteStatement?
        var start = 0
        while start < count {
            let rows = min(batch, count - start)
            let statement: SQLiteStatement
            if rows == batch, let full {
                statement = full
            } else {
                statement = try SQLiteStatement(db, sql: sql + " VALUES " + Array(repeating: values, count: rows).joined(separator: ", "))
                if rows == batch { full = statement }
            }
            for row in 0..<rows { bind(statement, start + row, Int32(row * width + 1)) }
            try statement.run()
            start += rows
        }
    }

    /// SQLite copies the bytes before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func bind(_ index: Int32, _ value: String?) {
        guard var value else {
            sqlite3_bind_null(handle, index)
            return
        }
        value.withUTF8 { bytes in
            // An empty string is text, not NULL: never pass a nil pointer.
            if let base = bytes.baseAddress, bytes.count > 0 {
                _ = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(bytes.count), Self.transient)
                }
            } else {
                sqlite3_bind_text(handle, index, "", 0, Self.transient)
            }
        }
    }

    func bind(_ index: Int32, _ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// A Bool is stored as GRDB stores it: the integer 0 or 1.
    func bind(_ index: Int32, _ value: Bool?) {
        bind(index, value.map { $0 ? 1 : 0 })
    }

    /// Runs a statement that returns no row; true when it changed one.
    @discardableResult
    func run() throws -> Bool {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else { throw failure(code) }
        return sqlite3_changes(connection) > 0
    }

    private func failure(_ code: Int32) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: statement.sql)
    }
}
