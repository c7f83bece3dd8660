import Localization
import DeskDaysCore
import Foundation
import GRDB
import Synchronization

/// The attendance database: day records and automatic check-ins in SQLite.
///
/// Opening follows docs/design.md "Storage": the file is first inspected through
/// a read-only connection (not SQLite, not ours, from a newer DeskDays,
/// damaged → a `StoreError` and the file is left exactly as it was); only
/// then is it opened for writing, copied with the SQLite backup API if a
/// migration is about to run on existing data, and migrated. Writes use WAL
/// with `synchronous = FULL`, so a call that returned has reached the disk.
///
/// The store only stores: precedence is `Resolver`'s job (DeskDaysCore) and
/// deduplication policy is the pipeline's, backed here by the UNIQUE index
/// on (date, source).
public final class AttendanceStore: Sendable {
    /// The schema version this build writes: the number of migrations, and `PRAGMA user_version`.
    public static let schemaVersion = 11

    /// The database file, or `:memory:`.
    public let path: String
    let dbQueue: DatabaseQueue
    /// `whenReplaced`'s action.
    let replacedAction = Mutex<(@Sendable () -> Void)?>(nil)

    /// Opens (creating if missing) the database at `path`, migrating it to
    /// `schemaVersion`; `PRAGMA quick_check` runs first, since it is about to be written.
    ///
    /// - Throws: `StoreError` only.
    public convenience init(path: String) throws {
        try self.init(path: path, migrator: Self.migrator, busyTimeout: 5, now: Date.init)
    }

    /// Opens an existing, up-to-date database for reading only: one
    /// read-only connection that never writes the file (no WAL switch, no
    /// checkpoint on close). A file that is empty or needs a migration is
    /// opened as `init(path:)` does, since it must be migrated first.
    /// No `quick_check` here (it costs more than a report on a long history):
    /// damage on the pages a read touches still surfaces as `SQLITE_CORRUPT`,
    /// and every open for writing, and `doctor`, run the check.
    ///
    /// - Throws: `StoreError` only.
    public convenience init(readingFrom path: String) throws {
        let migrator = Self.migrator
        guard let reader = try Self.openReader(path: path, busyTimeout: 5) else {
            try self.init(path: path, migrator: migrator, busyTimeout: 5, now: Date.init)
            return
        }
        let state: Inspection
        do {
            state = try Self.inspect(reader, path: path, migrator: migrator, knownVersion: migrator.migrations.count,
                                     quickCheck: false)
        } catch {
            try? reader.close()
            throw error
        }
        if state.isEmpty || state.pendingMigrations {
            try? reader.close()
            try self.init(path: path, migrator: migrator, busyTimeout: 5, now: Date.init)
            return
        }
        self.init(path: path, queue: reader)
    }

    /// Wraps an opened queue.
    private init(path: String, queue: DatabaseQueue) {
        self.path = path
        dbQueue = queue
    }

    /// An empty, migrated database in memory (for tests and dry runs).
    public convenience init(inMemory: Void = ()) throws {
        try self.init(inMemoryWith: Self.migrator)
    }

    /// An empty, migrated database in memory (for tests and dry runs).
    public static func inMemory() throws -> AttendanceStore {
        try AttendanceStore(inMemory: ())
    }

    /// The opener, with the migrator and busy timeout open for tests.
    ///
    /// `migrator` must name its migrations `v1`…`vN` in order; its count is
    /// the schema version it knows. `now` stamps backup file names.
    init(path: String, migrator: DatabaseMigrator, busyTimeout: TimeInterval, now: () -> Date) throws {
        self.path = path
        let knownVersion = migrator.migrations.count
        do {
            try FileAccess.makeParentFolders(of: path)
            try FileAccess.createPrivateFile(path)
            guard try FileAccess.size(of: path) != nil else {
                throw FileAccess.Failure(description: tr("it vanished while being opened"))
            }
        } catch let failure as FileAccess.Failure {
            throw StoreError.cannotOpen(path: path, detail: failure.description)
        } catch {
            throw StoreError.cannotOpen(path: path, detail: String(describing: error))
        }

        let state = try Self.inspect(path: path, migrator: migrator, knownVersion: knownVersion,
                                     busyTimeout: busyTimeout)
        // SQLite would open a file it cannot write read-only without a word,
        // and every later write (an acknowledged tap) would fail: refuse now.
        let folder = (path as NSString).deletingLastPathComponent
        for (what, target) in [(tr("the file"), path), (tr("its folder"), folder.isEmpty ? "." : folder)] where access(target, W_OK) != 0 {
            throw StoreError.readOnly(path: path, detail: "\(what): \(String(cString: strerror(errno)))")
        }

        var config = Self.baseConfiguration(busyTimeout: busyTimeout)
        config.prepareDatabase { db in
            // Set here rather than with GRDB's `journalMode = .wal`, which
            // would lower `synchronous` to NORMAL: an acknowledged check-in
            // must survive a power cut, so every commit is synced.
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode == "wal" else {
                throw DatabaseError(message: tr("SQLite could not switch the file to WAL mode"))
            }
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            dbQueue = try DatabaseQueue(path: path, configuration: config)
        } catch {
            throw Self.openingError(error, path: path)
        }

        // An up-to-date file is not written at all on open, so reading
        // works while another process holds the write lock.
        guard state.pendingMigrations else { return }
        if !state.isEmpty {
            try Self.backUp(dbQueue, path: path, version: state.version, now: now())
        }
        // GRDB commits each migration in its own transaction: a failing one
        // is rolled back whole. Should several be pending and a later one
        // fail, the earlier ones stay (the file is then at a version this
        // build knows), and the backup holds the file as it was before.
        do {
            try migrator.migrate(dbQueue)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw StoreError.locked(path: path)
        } catch let error as DatabaseError {
            throw StoreError.migrationFailed(path: path, detail: error.plainMessage)
        } catch {
            throw StoreError.migrationFailed(path: path, detail: String(describing: error))
        }
    }

    /// An in-memory database migrated by `migrator`.
    init(inMemoryWith migrator: DatabaseMigrator) throws {
        path = ":memory:"
        do {
            dbQueue = try DatabaseQueue(configuration: Self.baseConfiguration(busyTimeout: 0))
            try migrator.migrate(dbQueue)
        } catch {
            throw StoreError.migrationFailed(path: path, detail: String(describing: error))
        }
    }

    // MARK: - Opening

    /// What the read-only look at an existing file found.
    struct Inspection {
        /// No tables of anyone's: a new file (or one whose first migration never committed).
        var isEmpty: Bool
        /// `PRAGMA user_version`: the schema version the file is at.
        var version: Int
        /// Some migration this build knows has not been applied yet.
        var pendingMigrations: Bool
    }

    static func baseConfiguration(busyTimeout: TimeInterval) -> Configuration {
        var config = Configuration()
        config.label = "DeskDays"
        // Statement arguments (dates, rule names, notes) never reach error
        // messages or logs.
        config.publicStatementArguments = false
        config.busyMode = .timeout(busyTimeout)
        return config
    }

    /// What `doctor` reports of a database file.
    public enum Health: Equatable, Sendable {
        /// No file yet, or an empty one: the first write creates it.
        case absent
        /// Ours, passes `quick_check`; at this schema version, with migrations pending or not.
        case healthy(version: Int, needsMigration: Bool)
    }

    /// Checks the database at `path` as every open for writing does (not
    /// ours, newer, damaged log, `quick_check`), through a read-only
    /// connection that never modifies the file.
    ///
    /// - Throws: `StoreError` naming what is wrong.
    public static func health(path: String) throws -> Health {
        if (try? FileAccess.size(of: path)) == nil, !FileManager.default.fileExists(atPath: path) { return .absent }
        let migrator = Self.migrator
        let state = try inspect(path: path, migrator: migrator, knownVersion: migrator.migrations.count, busyTimeout: 5)
        return state.isEmpty ? .absent : .healthy(version: state.version, needsMigration: state.pendingMigrations)
    }

    /// Looks at `path` through a read-only connection and refuses it when it
    /// must not be written; never modifies the file.
    static func inspect(path: String, migrator: DatabaseMigrator, knownVersion: Int,
                        busyTimeout: TimeInterval, quickCheck: Bool = true) throws -> Inspection {
        guard let reader = try openReader(path: path, busyTimeout: busyTimeout) else {
            return Inspection(isEmpty: true, version: 0, pendingMigrations: true)
        }
        defer { try? reader.close() }
        return try inspect(reader, path: path, migrator: migrator, knownVersion: knownVersion, quickCheck: quickCheck)
    }

    /// A read-only connection to `path`; nil for an empty file (a new database).
    /// A damaged write-ahead log is refused first: SQLite would silently drop it.
    static func openReader(path: String, busyTimeout: TimeInterval) throws -> DatabaseQueue? {
        if let damage = WriteAheadLog.damage(at: path + "-wal") {
            throw StoreError.damagedLog(path: path, detail: damage)
        }
        let size: UInt64?
        do {
            size = try FileAccess.size(of: path)
        } catch let failure as FileAccess.Failure {
            throw StoreError.cannotOpen(path: path, detail: failure.description)
        }
        if size == 0 { return nil }
        var config = baseConfiguration(busyTimeout: busyTimeout)
        config.readonly = true
        do {
            return try DatabaseQueue(path: path, configuration: config)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError.notADatabase(path: path)
        } catch {
            throw openingError(error, path: path)
        }
    }

    /// Refuses what `reader` shows when it must not be used: not ours, from
    /// a newer DeskDays, damaged (`quick_check`, when asked).
    static func inspect(_ reader: DatabaseQueue, path: String, migrator: DatabaseMigrator, knownVersion: Int,
                        quickCheck: Bool) throws -> Inspection {
        do {
            return try reader.read { db in
                let tables = try Set(String.fetchAll(db, sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                    """))
                let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                let applied = try migrator.appliedIdentifiers(db)
                let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                guard applicationID == 0 || applicationID == Self.applicationID else {
                    throw StoreError.notADatabase(path: path)
                }
                // GRDB creates `grdb_migrations` outside the transaction of
                // the first migration: alone and empty, it means a new file.
                let isEmpty = tables.isEmpty || (tables == ["grdb_migrations"] && applied.isEmpty)
                if !isEmpty, tables.isDisjoint(with: ["record", "checkin"]) {
                    throw StoreError.notADatabase(path: path)
                }
                let unknown = applied.subtracting(migrator.migrations)
                if !unknown.isEmpty {
                    throw StoreError.newerVersion(
                        path: path, detail: tr("it records migration \(unknown.sorted().joined(separator: ", ")), unknown to this build"))
                }
                if version > knownVersion {
                    throw StoreError.newerVersion(path: path, detail: tr("schema v\(version)"))
                }
                if quickCheck {
                    let problems = try String.fetchAll(db, sql: "PRAGMA quick_check")
                    if problems != ["ok"] {
                        throw StoreError.corrupt(path: path, detail: "quick_check: " + problems.prefix(3).joined(separator: "; "))
                    }
                }
                let pending = migrator.migrations.contains { !applied.contains($0) }
                return Inspection(isEmpty: isEmpty, version: version, pendingMigrations: pending)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError.notADatabase(path: path)
        } catch {
            throw openingError(error, path: path)
        }
    }

    /// Copies the database beside itself as `<path>.backup-v<version>-<UTC time>` (mode 0600).
    static func backUp(_ source: DatabaseQueue, path: String, version: Int, now: Date) throws {
        // 2026-03-29T23:30:00.000Z → 20260329T233000Z: sortable, no colons.
        let stamp = UTCTimestamp.string(from: now).prefix(19)
            .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "") + "Z"
        var backupPath = "\(path).backup-v\(version)-\(stamp)"
        do {
            var attempt = 1
            while try !FileAccess.createPrivateFile(backupPath) {
                attempt += 1
                backupPath = "\(path).backup-v\(version)-\(stamp)-\(attempt)"
            }
            let destination = try DatabaseQueue(path: backupPath, configuration: baseConfiguration(busyTimeout: 0))
            try source.backup(to: destination)
            try destination.close()
        } catch {
            throw StoreError.cannotOpen(path: path, detail: tr("the backup \(backupPath) before upgrading could not be written: \(error)"))
        }
    }

    /// Classifies an error met while opening: SQLite's code decides.
    static func openingError(_ error: Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_CORRUPT {
            return .corrupt(path: path, detail: error.plainMessage)
        }
        if let error = error as? DatabaseError, error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            return .locked(path: path)
        }
        if let error = error as? DatabaseError {
            return .cannotOpen(path: path, detail: error.plainMessage)
        }
        return .cannotOpen(path: path, detail: String(describing: error))
    }
}
