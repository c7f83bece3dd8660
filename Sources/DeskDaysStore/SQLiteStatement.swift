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
    private let texts: TextArena

    init(_ db: Database, sql: String, texts: TextArena) throws {
        // GRDB keeps the statement alive and finalizes it.
        statement = try db.makeStatement(sql: sql)
        handle = statement.sqliteStatement
        connection = db.sqliteConnection!
        self.texts = texts
    }

    /// Inserts `count` rows of `width` columns, many per statement:
    /// `sql` is `INSERT OR FAIL INTO table (columns)`, and `bind` binds row `row`'s
    /// values from parameter `first` on. One run of a statement costs SQLite
    /// a set-up (a CHECK's `IN` list, for one, becomes a temporary b-tree each
    /// run) that a row alone does not; the rows keep their order. (`OR FAIL`:
    /// a failing row fails the caller's transaction all the same, and SQLite
    /// need not keep each statement's changes aside to undo it alone.)
    static func insert(_ db: Database, _ sql: String, width: Int, count: Int,
                       bind: (_ statement: SQLiteStatement, _ row: Int, _ first: Int32) -> Void) throws {
        // Within 999 bound values, the limit of SQLite builds before 3.32.
        let batch = max(1, 999 / width)
        let values = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        // Declared first: the statements, which point into it, go before it.
        let texts = TextArena()
        var full: SQLiteStatement?
        var start = 0
        while start < count {
            let rows = min(batch, count - start)
            let statement: SQLiteStatement
            if rows == batch, let full {
                statement = full
            } else {
                statement = try SQLiteStatement(db, sql: sql + " VALUES " + Array(repeating: values, count: rows).joined(separator: ", "),
                                                texts: texts)
                if rows == batch { full = statement }
            }
            // Every parameter is bound again before this run.
            texts.reset()
            for row in 0..<rows { bind(statement, start + row, Int32(row * width + 1)) }
            try statement.run()
            start += rows
        }
        withExtendedLifetime(texts) {}
    }

    /// Runs a query through SQLite's C API and hands `row` each row, whose
    /// columns it reads as UTF-8 bytes in place (`text`, valid during the
    /// call only): the history every computed `status` reads (thousands of
    /// rows), where GRDB's row cursor and a String per value cost about as
    /// much as SQLite's own work.
    static func forEachRow(_ db: Database, _ sql: String, arguments: StatementArguments,
                           _ row: (_ text: (Int32) -> UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let statement = try db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        let text = { (column: Int32) in
            UnsafeBufferPointer(start: sqlite3_column_text(handle, column), count: Int(sqlite3_column_bytes(handle, column)))
        }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code),
                                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            try row(text)
        }
    }

    /// SQLite copies the bytes before `bind` returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// A text, copied into `texts`, where it stays until the run is over:
    /// SQLite's own copy would cost a malloc and a free per value.
    func bind(_ index: Int32, _ value: String?) {
        guard var value else {
            sqlite3_bind_null(handle, index)
            return
        }
        value.withUTF8 { bytes in
            if let copy = texts.copy(bytes) {
                // An empty string is text, not NULL: never a nil pointer.
                sqlite3_bind_text(handle, index, copy, Int32(bytes.count), nil)
            } else {
                // Long (8 KiB or more), so never empty.
                _ = bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(bytes.count), Self.transient)
                }
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

/// Memory for the texts of one run of an insert (`SQLiteStatement.bind`),
/// bound as static: SQLite reads them during the run only. Chunks are kept
/// and reused from one run to the next; they are freed with the arena,
/// after the statements pointing into it.
final class TextArena {
    private static let chunkSize = 1 << 16
    private var chunks: [UnsafeMutableRawPointer] = []
    private var chunk = 0, used = 0

    /// The next run overwrites what this one holds.
    func reset() {
        chunk = 0
        used = 0
    }

    /// `bytes` copied and NUL-terminated; nil for a text too long for a
    /// chunk (bound as SQLite's own copy instead).
    func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar>? {
        let size = bytes.count + 1
        guard size <= Self.chunkSize / 8 else { return nil }
        if used + size > Self.chunkSize {
            chunk += 1
            used = 0
        }
        if chunk == chunks.count { chunks.append(.allocate(byteCount: Self.chunkSize, alignment: 1)) }
        let target = chunks[chunk] + used
        if let base = bytes.baseAddress { target.copyMemory(from: base, byteCount: bytes.count) }
        target.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
        used += size
        return UnsafePointer(target.assumingMemoryBound(to: CChar.self))
    }

    deinit {
        for chunk in chunks { chunk.deallocate() }
    }
}
