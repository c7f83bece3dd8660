import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import DeskDaysSync
import Foundation
import Synchronization
import Testing

/// Issue 53's sync cases, device against device in one process: a home
/// restore (database and journal together) forks nothing; the inbox is a
/// journal's source (a phone rewriting its file loses nothing) and its
/// lines ahead of this clock are held; temporary and unknown files of the
/// folder are no devices.
@Suite struct SyncRestoreTests {
    typealias Folder = SyncFolderTests.Folder
    static let utc = SyncFolderTests.utc

    /// A machine clock a test moves.
    final class Clock: Sendable {
        let time: Mutex<Date>
        init(_ text: String) { time = Mutex(instant(text)) }
        func set(_ text: String) { time.withLock { $0 = instant(text) } }
        var now: @Sendable () -> ClockTime { { ClockTime(reading: self.time.withLock { $0 }) } }
    }

    /// Every line a store holds, as (device, seq, line), and its rows.
    static func held(_ store: AttendanceStore) throws -> [String] {
        try store.syncDevices().flatMap { device in try store.lines(of: device.id).map { "\(device.id) \($0.seq) \($0.hlc) \($0.op) \($0.date) \($0.status ?? $0.kind ?? "")" } }.sorted()
    }

    static func rows(_ store: AttendanceStore) throws -> [String] {
        try SyncIdentityTests.rows(store) + store.latestSigns(in: nil).map { "\($0.date) \($0.source) \($0.kind) \($0.at.timeIntervalSince1970)" }
    }

    /// A whole home restored: the laptop's database and its journal file go
    /// back to a backup, then it writes a new line 2 while the desk holds
    /// the old one. Before, each ignored the other's line 2 for good.
    @Test func aHomeRestoreOfDatabaseAndJournalForksNothing() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let path = folder.path + "/laptop.sqlite", saved = folder.path + "/saved.sqlite", journal = folder.path + "/sync"
        try FileManager.default.createDirectory(atPath: journal, withIntermediateDirectories: true)
        let desk = try AttendanceStore.inMemory()
        let deskSync = try Synchronizer(store: desk, folder: journal, deviceName: "desk")
        let old: String, file: String
        do {
            let store = try AttendanceStore(path: path)
            let sync = try Synchronizer(store: store, folder: journal, deviceName: "laptop")
            old = sync.deviceID
            file = sync.ownFile
            try await SyncIdentityTests.write(store, sync, "2026-05-04", .office, at: "2026-05-04T08:00:00Z")
            // A file-level backup of the home folder (restic, rsync): the database as a copy of its file.
            try SyncIdentityTests.copyFile(path, saved)
            try FileManager.default.copyItem(atPath: file, toPath: saved + ".jsonl")
            // Line 2, which the restore takes back; the desk merged it.
            try await SyncIdentityTests.write(store, sync, "2026-05-05", .sick, at: "2026-05-05T08:00:00Z")
        }
        #expect(try deskSync.merge().merged == 2)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try SyncIdentityTests.copyFile(saved, path)
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.copyItem(atPath: saved + ".jsonl", toPath: file)

        // Its database and journal agree: it goes on as itself and writes another line 2.
        let store = try AttendanceStore(path: path)
        let sync = try Synchronizer(store: store, folder: journal, deviceName: "laptop")
        #expect(sync.deviceID == old)
        try await SyncIdentityTests.write(store, sync, "2026-05-05", .remote, at: "2026-05-06T08:00:00Z")
        try await SyncIdentityTests.write(desk, deskSync, "2026-05-07", .office, at: "2026-05-07T08:00:00Z")

        // The desk finds the other line 2: the laptop's continuation; it relays its own line 2.
        let deskReport = try deskSync.merge()
        #expect(deskReport.notes.contains { $0.contains("restored from a backup") }, "\(deskReport.notes)")
        let fork = try #require(Synchronizer.fork(of: try desk.syncDevices().first { $0.id == old }))
        #expect(fork.seq == 2)
        // The laptop learns its database went back and goes on as that continuation.
        let report = try sync.merge()
        #expect(sync.deviceID == fork.branch, "\(report.notes)")
        #expect(report.notes.contains { $0.contains(old) }, "\(report.notes)")
        try sync.publish()
        for _ in 0..<2 {
            _ = try sync.merge()
            _ = try deskSync.merge()
        }
        // Every line either holds reaches both, and both hold the same days.
        #expect(try Self.held(store) == Self.held(desk))
        #expect(try Self.held(desk).filter { $0.hasPrefix(old) }.count == 2)
        #expect(try Self.rows(store) == Self.rows(desk))
        let records = try store.records(in: nil).map { "\($0.date) \($0.status)" }
        #expect(records == ["2026-05-04 office", "2026-05-05 sick", "2026-05-05 remote", "2026-05-07 office"], "\(records)")
    }

    /// A file replaced by a copy holding the lines merged (read again from
    /// its start) is no fork: no continuation, nothing new.
    @Test func aLineWrittenAnotherWayIsTheSameLine() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = try AttendanceStore.inMemory()
        let sync = try Synchronizer(store: store, folder: folder.path, deviceName: "desk")
        let id = String(repeating: "5e", count: 16), path = folder.path + "/deskdays-\(id).jsonl"
        let line = #"{"at":"2026-05-04T08:00:00.000Z","date":"2026-05-04","device":"\#(id)","hlc":1777881600000,"kind":"arrival","n":0,"name":"phone","op":"sign","rule":"hq","seq":1,"source":"gps","v":1}"#
        try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let first = try sync.merge()
        let journals = try sync.scan().journals.map(\.path), skipped = try sync.skippedLines()
        #expect(first.merged == 1, "\(first.problems) \(journals) \(skipped)")
        // Replaced by a copy with a blank line first: read again from its start.
        try Data(("\n" + line + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let report = try sync.merge()
        #expect(report.merged == 0 && report.notes.isEmpty, "\(report.notes)")
        #expect(Synchronizer.fork(of: try store.syncDevices().first { $0.id == id }) == nil)
        #expect(try store.syncDevices().count == 2)
    }

    /// Two laptops and a phone: the phone rewrites its file (a new day's
    /// line only) before the desk read the old one; the laptop that read
    /// it published it, so the desk has it too.
    @Test func anInboxLineReachesEveryDeviceWhateverThePhoneDoesWithItsFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/inbox", withIntermediateDirectories: true)
        let clock = Clock("2026-05-05T09:00:00Z")
        let rules = Synchronizer.InboxRules(policy: Self.utc, ruleProblem: { _ in nil })
        let laptop = try AttendanceStore.inMemory(), desk = try AttendanceStore.inMemory()
        let laptopSync = try Synchronizer(store: laptop, folder: folder.path, deviceName: "laptop", now: clock.now, inbox: rules)
        let deskSync = try Synchronizer(store: desk, folder: folder.path, deviceName: "desk", now: clock.now, inbox: rules)
        let phone = folder.path + "/inbox/phone.txt"
        try "2026-05-04T08:00:00Z arrive hq\n".write(toFile: phone, atomically: true, encoding: .utf8)
        #expect(try laptopSync.merge().merged == 1)
        try "2026-05-05T08:00:00Z arrive hq\n".write(toFile: phone, atomically: true, encoding: .utf8)
        _ = try deskSync.merge()
        _ = try laptopSync.merge()
        _ = try deskSync.merge()
        #expect(try desk.latestSigns(in: nil).map(\.date) == [day("2026-05-04"), day("2026-05-05")])
        #expect(try Self.rows(desk) == Self.rows(laptop))
        // Neither a temporary file nor an unknown file of the folder becomes a device.
        try "2026-05-05T08:10:00Z leave hq\n".write(toFile: folder.path + "/inbox/phone.tmp.txt", atomically: false, encoding: .utf8)
        try "{\"target\": 3}\n".write(toFile: folder.path + "/policy.json", atomically: false, encoding: .utf8)
        _ = try deskSync.merge()
        let names = try desk.syncDevices().map(\.name).sorted()
        #expect(names == ["desk", "inbox/phone.txt"], "\(names)")
    }

    /// This machine's clock lags two days: the phone's line is held (named
    /// while it is), not skipped, and applied once the clock is right.
    @Test func anInboxLineAheadOfThisClockIsHeldNotLost() throws {
        let folder = try Folder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/inbox", withIntermediateDirectories: true)
        let clock = Clock("2026-05-03T07:00:00Z")
        let store = try AttendanceStore.inMemory()
        let sync = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop", now: clock.now,
                                    inbox: Synchronizer.InboxRules(policy: Self.utc, ruleProblem: { _ in nil }))
        try "2026-05-05T08:00:00Z arrive hq\n".write(toFile: folder.path + "/inbox/phone.txt", atomically: true, encoding: .utf8)
        for pass in 0..<2 {
            // Said at the read that found it; its time is due at every merge until applied.
            let report = try sync.merge()
            #expect(report.merged == 0 && report.held.count == (pass == 0 ? 1 : 0) && report.heldUntil == instant("2026-05-04T08:00:00Z"),
                    "\(report.problems)")
            #expect(try sync.heldLines().first?.hasPrefix("inbox/phone.txt:1: ") == true)
            #expect(try sync.skippedLines().isEmpty)
        }
        clock.set("2026-05-05T09:00:00Z")
        #expect(try sync.merge().merged == 1)
        #expect(try sync.heldLines().isEmpty)
        #expect(try store.latestSigns(in: nil).map(\.date) == [day("2026-05-05")])
    }
}
