@testable import DeskDaysStore
import DeskDaysCore
import Foundation
import GRDB
import Testing

/// docs/design.md "Storage": a database from a newer version, a file that is not
/// ours, a damaged file or a held lock make the store refuse, with a clear
/// error and the file left byte for byte as it was.
@Suite struct RefusalTests {
    /// Opens `path` expecting a refusal; checks the file did not change.
    func refusal(_ path: String, busyTimeout: TimeInterval = 1) throws -> StoreError? {
        let before = try contents(path)
        let error = #expect(throws: StoreError.self) {
            _ = try AttendanceStore(path: path, migrator: AttendanceStore.migrator, busyTimeout: busyTimeout, now: Date.init)
        }
        #expect(try contents(path) == before, "the refused file was modified")
        return error
    }

    @Test func unknownMigrationMeansNewerVersion() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: 1, to: path)
        try withRawDatabase(path) { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99')") }

        let error = try refusal(path)
        #expect(error == .newerVersion(path: path, detail: "it records migration v99, unknown to this build"))
        #expect(error?.exitCode == 2)
        #expect(error?.description.contains("upgrade DeskDays") == true)
    }

    @Test func higherUserVersionMeansNewerVersion() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: 1, to: path)
        try withRawDatabase(path) { try $0.execute(sql: "PRAGMA user_version = 99") }

        let error = try refusal(path)
        #expect(error == .newerVersion(path: path, detail: "schema v99"))
        #expect(error?.description == "The database \(path) was written by a newer DeskDays (schema v99); this build knows up to schema v\(AttendanceStore.schemaVersion) — upgrade DeskDays or point --database at another file.")
    }

    @Test func textFileIsNotADatabase() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("notes.txt")
        try Data(String(repeating: "Monday: office. Tuesday: remote.\n", count: 40).utf8)
            .write(to: URL(fileURLWithPath: path))

        let error = try refusal(path)
        #expect(error == .notADatabase(path: path))
        #expect(error?.exitCode == 2)
    }

    @Test func anotherProgramsDatabaseIsNotOurs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("other.sqlite")
        try withRawDatabase(path) { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player VALUES (1, 'x')")
        }
        #expect(try refusal(path) == .notADatabase(path: path))
    }

    @Test func foreignApplicationIDIsNotOurs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("other.sqlite")
        try withRawDatabase(path) { try $0.execute(sql: "PRAGMA application_id = 42") }
        #expect(try refusal(path) == .notADatabase(path: path))
    }

    /// Two thousand imported records: enough pages that one in the middle belongs to the record table.
    func fillWithRecords(_ path: String) throws {
        let store = try AttendanceStore(path: path)
        let start = day("2020-01-01")
        try store.addRecords((0..<2000).map {
            DayRecord(date: start.adding(days: $0), status: .remote, origin: .import,
                      note: "imported from the badge history export, row \($0)", recordedAt: Date(timeIntervalSince1970: 0))
        })
    }

    /// Scribbles over the header of a page in the middle of the file (the record table).
    func scribbleOverAMiddlePage(_ path: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let pageCount = try handle.seekToEnd() / 4096
        try handle.seek(toOffset: (pageCount / 2) * 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()
    }

    @Test func damagedPageFailsQuickCheck() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try fillWithRecords(path)
        try scribbleOverAMiddlePage(path)

        let error = try refusal(path)
        guard case .corrupt(path, _) = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(error?.exitCode == 2)
    }

    @Test func emptyFileIsInitialised() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let store = try AttendanceStore(path: path)
        #expect(try store.dbQueue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == AttendanceStore.schemaVersion)
    }

    @Test func folderInPlaceOfTheFileCannotBeOpened() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let error = #expect(throws: StoreError.self) { _ = try AttendanceStore(path: folder.path) }
        guard case .cannotOpen(folder.path, _) = error else {
            Issue.record("expected cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(error?.exitCode == 1)
    }

    /// Holds `BEGIN EXCLUSIVE` on `path` from another connection while `body` runs.
    func whileLocked(_ path: String, _ body: () throws -> Void) throws {
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let locker = try DatabaseQueue(path: path, configuration: config)
        try locker.writeWithoutTransaction { try $0.execute(sql: "BEGIN EXCLUSIVE") }
        defer {
            try? locker.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
            try? locker.close()
        }
        try body()
    }

    @Test func lockedDatabaseRefusesWritesAfterTheBusyTimeout() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: AttendanceStore.schemaVersion, to: path)
        let before = try contents(path)
        try whileLocked(path) {
            let store = try AttendanceStore(path: path, migrator: AttendanceStore.migrator, busyTimeout: 0.1, now: Date.init)
            // WAL: readers are not blocked by the writer.
            #expect(try store.records(in: nil).count == 4)
            let error = #expect(throws: StoreError.self) {
                try store.insertCheckIn(AutomaticCheckIn(date: day("2026-04-01"), source: .nfc, rule: "desk",
                                                         at: instant("2026-04-01T08:00:00Z")))
            }
            #expect(error == .locked(path: path))
            #expect(error?.exitCode == 1)
        }
        #expect(try contents(path) == before)
    }

    @Test func lockedDatabaseBlocksAMigration() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: AttendanceStore.schemaVersion, to: path)
        let before = try contents(path)
        try whileLocked(path) {
            let migrator = migratorWithNext { db in try db.execute(sql: "ALTER TABLE record ADD COLUMN place TEXT") }
            let error = #expect(throws: StoreError.self) {
                _ = try AttendanceStore(path: path, migrator: migrator, busyTimeout: 0.1, now: Date.init)
            }
            #expect(error == .locked(path: path))
        }
        #expect(try contents(path) == before)
    }
}
