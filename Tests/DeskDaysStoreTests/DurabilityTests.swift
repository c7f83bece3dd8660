@testable import DeskDaysStore
import DeskDaysCore
import Foundation
import GRDB
import Testing

/// docs/design.md "Storage": WAL with `synchronous = FULL`, so an acknowledged
/// write survives a power cut.
@Suite struct DurabilityTests {
    @Test func fileStoreRunsWALWithFullSync() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = try AttendanceStore(path: folder.file("deskdays.sqlite"))
        let (journal, synchronous) = try store.dbQueue.read { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(journal == "wal")
        #expect(synchronous == 2, "2 is FULL; GRDB's own WAL set-up would leave NORMAL (1)")
    }

    @Test func reopeningAnUpToDateFileWritesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: AttendanceStore.schemaVersion, to: path)
        let before = try contents(path)
        do {
            let store = try AttendanceStore(path: path)
            #expect(try store.records(in: nil).count == 4)
        }
        #expect(try contents(path) == before)
    }
}
