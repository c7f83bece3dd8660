@testable import DeskDaysStore
import DeskDaysCore
import Foundation
import GRDB
import Testing

/// docs/design.md "Storage": migrations in order, every released version has a
/// fixture that migrates to the current version with nothing lost, and a
/// copy is taken before a migration touches existing data.
@Suite struct MigrationTests {
    @Test func migrationsAreNamedInOrderAndMatchTheSchemaVersion() {
        let names = AttendanceStore.migrator.migrations
        #expect(names == (1...names.count).map { "v\($0)" })
        #expect(names.count == AttendanceStore.schemaVersion)
    }

    @Test func inMemoryMigrationUpToEveryVersion() throws {
        for (index, identifier) in AttendanceStore.migrator.migrations.enumerated() {
            let queue = try DatabaseQueue()
            try AttendanceStore.migrator.migrate(queue, upTo: identifier)
            let (version, applied, applicationID) = try queue.read { db in
                (try Int.fetchOne(db, sql: "PRAGMA user_version"), try AttendanceStore.migrator.appliedMigrations(db),
                 try Int32.fetchOne(db, sql: "PRAGMA application_id"))
            }
            #expect(version == index + 1)
            #expect(applied == Array(AttendanceStore.migrator.migrations.prefix(index + 1)))
            #expect(applicationID == AttendanceStore.applicationID)
        }
    }

    @Test func everyReleasedVersionHasAFixture() {
        for version in 1...AttendanceStore.schemaVersion {
            let url = Fixtures.url(version: version)
            #expect(url.map { FileManager.default.fileExists(atPath: $0.path) } == true, "missing Fixtures/v\(version).sqlite")
        }
    }

    /// The fixture script must use the migration's exact SQL; this catches either drifting.
    @Test(arguments: 1...AttendanceStore.schemaVersion)
    func fixtureSchemaMatchesMigration(version: Int) throws {
        func schema(_ db: Database) throws -> [String] {
            try String.fetchAll(db, sql: """
                SELECT type || ' ' || name || ': ' || IFNULL(sql, '') FROM sqlite_master ORDER BY type, name
                """).map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        }
        func header(_ db: Database) throws -> [Int?] {
            [try Int.fetchOne(db, sql: "PRAGMA user_version"), try Int.fetchOne(db, sql: "PRAGMA application_id")]
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("fixture.sqlite")
        try Fixtures.copy(version: version, to: path)
        var config = Configuration()
        config.readonly = true
        let fixture = try DatabaseQueue(path: path, configuration: config)
        let migrated = try DatabaseQueue()
        try AttendanceStore.migrator.migrate(migrated, upTo: "v\(version)")
        #expect(try fixture.read(schema) == migrated.read(schema))
        #expect(try fixture.read(header) == migrated.read(header))
    }

    @Test func fixtureV1OpensWithEveryRowIntact() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: 1, to: path)

        let store = try AttendanceStore(path: path)
        let records = try store.records(in: nil).map { [$0.date.description, $0.status.rawValue, $0.origin.rawValue,
                                                         $0.note ?? "-", UTCTimestamp.string(from: $0.recordedAt)] }
        #expect(records == [
            ["2026-03-02", "office", "manual", "client visit", "2026-03-02T08:15:00.000Z"],
            ["2026-03-03", "remote", "import", "-", "2026-03-10T12:00:00.250Z"],
            ["2026-03-04", "remote", "fallback", "-", "2026-03-04T19:00:00.000Z"],
            ["2026-03-04", "sick", "manual", "-", "2026-03-05T07:30:00.000Z"],
        ])
        let checkIns = try store.checkIns(in: nil).map { [$0.date.description, $0.source.rawValue, $0.rule ?? "-",
                                                          UTCTimestamp.string(from: $0.at)] }
        #expect(checkIns == [
            ["2026-03-02", "wifi", "-", "2026-03-02T07:58:00.000Z"],
            ["2026-03-02", "nfc", "desk", "2026-03-02T08:01:02.345Z"],
            ["2026-03-30", "gps", "hq", "2026-03-29T23:30:00.000Z"],
            ["2026-03-31", "external", "script", "2026-03-31T09:00:00.000Z"],
        ])
        #expect(try store.dateRange() == DateSpan(day("2026-03-02"), day("2026-03-31")))
        #expect(try store.integrityCheck())
        #expect(try store.dbQueue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == AttendanceStore.schemaVersion)
        // Opening it migrated it, after taking a copy of the v1 file.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("backup-v1-") }.count == 1)
        #expect(try store.removals(in: nil) == [])
    }

    @Test func fixtureV2KeepsItsRemovals() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: 2, to: path)
        let store = try AttendanceStore(path: path)
        #expect(try store.removals(in: nil).map { "\($0.date) \($0.origin.rawValue) \($0.entry)" } == [
            "2026-03-05 manual office record", "2026-03-06 automatic wifi check-in, rule \"hq\"",
        ])
        #expect(try store.records(in: nil).count == 4)
    }

    @Test func fixtureV3KeepsItsLatestSigns() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: 3, to: path)
        let store = try AttendanceStore(path: path)
        #expect(try store.latestSigns(in: nil).map { "\($0.date) \($0.source.rawValue) \($0.kind.rawValue) \(UTCTimestamp.string(from: $0.at))" } == [
            "2026-03-02 nfc arrival 2026-03-02T16:40:00.000Z", "2026-03-02 wifi departure 2026-03-02T17:10:00.000Z",
        ])
        #expect(try store.checkIns(in: nil).count == 4)
    }

    /// v2 → v3 keeps every check-in and adds no sign: an old check-in's time on site is its arrival alone.
    @Test func fixtureV2MigratesWithNoSigns() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: 2, to: path)
        let store = try AttendanceStore(path: path)
        #expect(try store.latestSigns(in: nil) == [])
        #expect(try store.checkIns(in: nil).count == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("backup-v2-") }.count == 1)
    }

    @Test func fixtureV4KeepsItsWiredCheckIn() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: 4, to: path)
        let store = try AttendanceStore(path: path)
        let wired = try store.checkIns(in: nil).filter { $0.source == .wired }
        #expect(wired.map { "\($0.date) \($0.rule ?? "-")" } == ["2026-03-03 hq"])
        #expect(try store.checkIns(in: nil).count == 5)
        #expect(try store.latestSigns(in: nil).count == 2)
        #expect(try store.removals(in: nil).count == 2)
    }

    /// v4 rebuilt the checkin table: a v3 file keeps every row and id, and takes wired check-ins afterwards.
    @Test func aV3DatabaseTakesWiredCheckInsOnceMigrated() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: 3, to: path)
        let before = try DatabaseQueue(path: path).read { try Row.fetchAll($0, sql: "SELECT * FROM checkin ORDER BY id") }
        let store = try AttendanceStore(path: path)
        let after = try store.dbQueue.read { try Row.fetchAll($0, sql: "SELECT * FROM checkin ORDER BY id") }
        #expect(before == after)
        let stored = try store.insertCheckIn(AutomaticCheckIn(date: day("2026-03-03"), source: .wired, rule: "hq",
                                                              at: instant("2026-03-03T08:40:00Z")))
        #expect(stored)
        #expect(try store.checkIns(in: nil).contains { $0.source == .wired && $0.rule == "hq" })
        #expect(try store.integrityCheck())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("backup-v3-") }.count == 1)
    }

    @Test func existingDatabaseIsCopiedBeforeAMigration() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        let current = AttendanceStore.schemaVersion
        try Fixtures.copy(version: current, to: path)
        let original = try AttendanceStore(path: path).records(in: nil)

        let migrator = migratorWithNext { db in try db.execute(sql: "ALTER TABLE record ADD COLUMN place TEXT") }
        let store = try AttendanceStore(path: path, migrator: migrator, busyTimeout: 1,
                                        now: { instant("2026-04-01T12:00:00Z") })
        #expect(try store.records(in: nil) == original)
        #expect(try store.dbQueue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == current + 1)

        let backupPath = path + ".backup-v\(current)-20260401T120000Z"
        #expect(FileManager.default.fileExists(atPath: backupPath))
        #expect(try mode(backupPath) == 0o600)
        // The copy is the database as it was, openable by this build.
        let backup = try AttendanceStore(path: backupPath)
        #expect(try backup.records(in: nil) == original)
        #expect(try backup.dbQueue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == current)
    }

    @Test func newDatabaseIsNotBackedUp() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        _ = try AttendanceStore(path: path)
        _ = try AttendanceStore(path: path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("backup") } == [])
    }

    @Test func failedMigrationIsRolledBackAndLeavesTheFileAsItWas() throws {
        struct Boom: Error {}
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: AttendanceStore.schemaVersion, to: path)
        let before = try contents(path)

        let migrator = migratorWithNext { db in
            try db.execute(sql: "CREATE TABLE place (id INTEGER PRIMARY KEY); DELETE FROM record")
            throw Boom()
        }
        let error = #expect(throws: StoreError.self) {
            _ = try AttendanceStore(path: path, migrator: migrator, busyTimeout: 1, now: Date.init)
        }
        guard case .migrationFailed(path, _) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(error?.exitCode == 2)
        #expect(try contents(path) == before)
        // Still a good database for this build.
        #expect(try AttendanceStore(path: path).records(in: nil).count == 4)
    }
}
