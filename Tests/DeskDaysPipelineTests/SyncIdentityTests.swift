import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import DeskDaysSync
import Foundation
import Testing

/// Identity that survives restores and clones: a database that
/// finds lines of its id in its own file that it did not write (restored
/// from a backup, copied to another machine), or a copy `backUp` made, goes
/// on as a new device and keeps the old one's lines as history; lines only
/// in a synchroniser's conflict copy are merged, never lost; the devices
/// converge.
@Suite struct SyncIdentityTests {
    typealias Folder = SyncFolderTests.Folder
    static let utc = SyncFolderTests.utc

    /// What every device must hold alike once merged.
    static func rows(_ store: AttendanceStore) throws -> [String] {
        try store.records(in: nil).map { "\($0.date) \($0.status) \($0.origin) \($0.note ?? "-") \($0.recordedAt.timeIntervalSince1970)" }
    }

    static func write(_ store: AttendanceStore, _ sync: Synchronizer, _ date: String, _ status: AttendanceStatus, at now: String) async throws {
        let pipeline = CheckInPipeline(store: store, policy: utc, now: { ClockTime(reading: instant(now)) }, journal: sync)
        try await pipeline.recordManual(dates: [day(date)], status: status, note: nil)
    }

    /// The synchroniser's work: each file of `from` that `to` lacks or holds less of (journals only grow) copied there.
    static func carry(_ from: String, _ to: String) throws {
        func size(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1 }
        for name in try FileManager.default.contentsOfDirectory(atPath: from) where size(from + "/" + name) > size(to + "/" + name) {
            try? FileManager.default.removeItem(atPath: to + "/" + name)
            try FileManager.default.copyItem(atPath: from + "/" + name, toPath: to + "/" + name)
        }
    }

    /// A copy of the database file as `cp` makes it (with its write-ahead log), the database open but idle.
    static func copyFile(_ from: String, _ to: String) throws {
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: from + suffix) {
            try FileManager.default.copyItem(atPath: from + suffix, toPath: to + suffix)
        }
    }

    /// A restored database, as `deskdays backup` made it or as a copy of
    /// the file: its next change is a new device's, which the other device
    /// takes (before, it reused a seq the other held, and was dropped).
    @Test(arguments: [true, false])
    func aRestoredDatabaseGoesOnAsANewDevice(fromBackup: Bool) async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder.path + "/laptop.sqlite", saved = folder.path + "/saved.sqlite", journal = folder.path + "/sync"
        try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true)
        let desk = try AttendanceStore.inMemory()
        let deskSync = try Synchronizer(store: desk, folder: journal, deviceName: "desk")
        let old: String
        do {
            let store = try AttendanceStore(path: path)
            let sync = try Synchronizer(store: store, folder: journal, deviceName: "laptop")
            old = sync.deviceID
            try await Self.write(store, sync, "2026-05-04", .office, at: "2026-05-04T08:00:00Z")
            if fromBackup {
                try store.backUp(to: saved)
            } else {
                try Self.copyFile(path, saved)
            }
            let again = try AttendanceStore(path: path)
            let sync2 = try Synchronizer(store: again, folder: journal, deviceName: "laptop")
            try await Self.write(again, sync2, "2026-05-05", .sick, at: "2026-05-05T08:00:00Z")
        }
        #expect(try deskSync.merge().merged == 2)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try Self.copyFile(saved, path)

        let store = try AttendanceStore(path: path)
        let sync = try Synchronizer(store: store, folder: journal, deviceName: "laptop")
        #expect(sync.deviceID != old)
        try await Self.write(store, sync, "2026-05-06", .remote, at: "2026-05-06T08:00:00Z")
        let report = try sync.merge()
        #expect(report.notes.count == 1 && report.notes[0].contains(old) && report.notes[0].contains(sync.deviceID), "\(report.notes)")
        #expect(try sync.merge().notes.isEmpty)
        #expect(try deskSync.merge().merged == 1)
        #expect(try Self.rows(store).map { $0.split(separator: " ")[1] } == ["office", "sick", "remote"])
        #expect(try Self.rows(store) == Self.rows(desk))
        // The old id's file is left as it was; the new one starts at 1.
        #expect(try SyncFolderTests().lines(journal + "/" + Synchronizer.fileName(old)).count == 2 + 1)
        let seqs = try SyncFolderTests().lines(sync.ownFile).dropLast().compactMap { JournalEntry.decode(Data($0.utf8))?.seq }
        #expect(seqs == [1])
        // The next command on it writes as the new device, and says nothing more.
        let next = try Synchronizer(store: store, folder: journal, deviceName: "laptop")
        #expect(next.deviceID == sync.deviceID)
        #expect(try next.merge().notes.isEmpty)
    }

    /// A database copied to a second laptop, each syncing through its own
    /// folder (the synchroniser carries the files): both write under the
    /// same id, the synchroniser keeps the first laptop's file and makes a
    /// conflict copy of the second's. The second goes on as a new device
    /// with its line; the first merges that line from the conflict copy at
    /// once (it exists nowhere else yet); both end with the same rows, and
    /// the copy is declared deletable only once another file holds it.
    @Test func aCopiedDatabaseGoesOnAsANewDeviceAndTheConflictCopyIsMerged() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (folderA, folderB) = (folder.path + "/a", folder.path + "/b")
        for path in [folderA, folderB] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        let pathA = folder.path + "/a.sqlite", pathB = folder.path + "/b.sqlite"
        let a = try AttendanceStore(path: pathA)
        let syncA = try Synchronizer(store: a, folder: folderA, deviceName: "laptop")
        let id = syncA.deviceID
        try await Self.write(a, syncA, "2026-05-04", .office, at: "2026-05-04T08:00:00Z")
        try Self.carry(folderA, folderB)
        try Self.copyFile(pathA, pathB)

        let b = try AttendanceStore(path: pathB)
        let syncB1 = try Synchronizer(store: b, folder: folderB, deviceName: "laptop")
        #expect(syncB1.deviceID == id)
        try await Self.write(a, syncA, "2026-05-05", .office, at: "2026-05-05T08:00:00Z")
        try await Self.write(b, syncB1, "2026-05-06", .remote, at: "2026-05-06T08:00:00Z")
        // The synchroniser: laptop A's version wins, laptop B's becomes a conflict copy, on both.
        let file = Synchronizer.fileName(id), copy = "deskdays-\(id).sync-conflict-20260506-080000-ABCDEFG.jsonl"
        try FileManager.default.copyItem(atPath: folderB + "/" + file, toPath: folderA + "/" + copy)
        try FileManager.default.removeItem(atPath: folderB + "/" + file)
        try FileManager.default.copyItem(atPath: folderA + "/" + file, toPath: folderB + "/" + file)
        try FileManager.default.copyItem(atPath: folderA + "/" + copy, toPath: folderB + "/" + copy)

        // Laptop A first: the line only in the conflict copy is merged.
        let reportA = try syncA.merge()
        #expect(reportA.merged == 1)
        #expect(reportA.warnings.count == 1 && reportA.warnings[0].contains("keep the copy"), "\(reportA.warnings)")
        #expect(try Self.rows(a).map { $0.split(separator: " ")[1] } == ["office", "office", "remote"])

        // Laptop B's next command: a new device, named as the conflict copy's lines are.
        let syncB = try Synchronizer(store: b, folder: folderB, deviceName: "laptop")
        #expect(syncB.deviceID != id)
        try syncB.publish()
        let reportB = try syncB.merge()
        #expect(reportB.notes.count == 1)
        #expect(try Self.rows(b) == Self.rows(a))
        try await Self.write(b, syncB, "2026-05-07", .office, at: "2026-05-07T08:00:00Z")
        try await Self.write(a, syncA, "2026-05-08", .sick, at: "2026-05-08T08:00:00Z")
        try Self.carry(folderB, folderA)
        try Self.carry(folderA, folderB)
        let again = try syncA.merge()
        #expect(again.merged == 1, "the line of the conflict copy is not taken twice")
        #expect(again.warnings.count == 1 && again.warnings[0].contains("delete it"), "\(again.warnings)")
        _ = try syncB.merge()
        let (rowsA, rowsB) = (try Self.rows(a), try Self.rows(b))
        #expect(rowsB == rowsA, "\(rowsB) \(rowsA)")
        #expect(try a.syncDevices().map(\.id).sorted() == [id, syncB.deviceID].sorted())
        #expect(try b.syncDevices().map(\.id).sorted() == [id, syncB.deviceID].sorted())
        // Laptop A never moved.
        #expect(syncA.deviceID == id)
    }
}
