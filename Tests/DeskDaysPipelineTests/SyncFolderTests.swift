import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import DeskDaysSync
import Foundation
import Testing

/// The journal files (docs/design.md "Sync"): the pipeline with a
/// `Synchronizer` returns after its line is in its own file (0600); a torn
/// tail of its own is cut; a file replaced under the same name is read
/// again from its start (a restored database: `SyncIdentityTests`).
@Suite struct SyncFolderTests {
    static let utc = Policy(timeZone: TimeZone(identifier: "UTC")!)

    struct Folder {
        let path: String
        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-syncfolder-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func aWriteReturnsWithItsLineInTheFolder() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = try AttendanceStore.inMemory()
        let sync = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop")
        let pipeline = CheckInPipeline(store: store, policy: Self.utc, now: { ClockTime(reading: instant("2026-05-04T08:00:00Z")) }, journal: sync)
        try await pipeline.recordManual(dates: [day("2026-05-04"), day("2026-05-05")], status: .office, note: nil)
        #expect(try lines(sync.ownFile) == [try store.ownLines(after: 0)[0], try store.ownLines(after: 0)[1], ""])
        let mode = try FileManager.default.attributesOfItem(atPath: sync.ownFile)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(try await pipeline.submit(CheckInEvent(source: .wifi, rule: "hq", time: instant("2026-05-04T07:00:00Z")))
            == .stored(day("2026-05-04")))
        #expect(try await pipeline.submit(CheckInEvent(source: .wifi, rule: "hq", time: instant("2026-05-04T07:30:00Z")))
            == .duplicate(day("2026-05-04")))
        #expect(try await pipeline.writeFallback(date: day("2026-05-04"), status: .remote) == false)
        #expect(try await pipeline.writeFallback(date: day("2026-05-06"), status: .remote) == true)
        #expect(try lines(sync.ownFile).count == 5 + 1)
    }

    /// A database that synced once journals while `[sync]` is off (its
    /// lines wait for the folder); one that never synced does not.
    @Test func aDatabaseThatSyncedOnceJournalsWithoutAFolder() async throws {
        let never = try AttendanceStore.inMemory()
        #expect(never.journal(publishingTo: nil) == nil)
        let once = try AttendanceStore.inMemory()
        try once.enableSync(name: "laptop")
        let pipeline = CheckInPipeline(store: once, policy: Self.utc, now: { ClockTime(reading: instant("2026-05-04T08:00:00Z")) },
                                       journal: once.journal(publishingTo: nil))
        try await pipeline.recordManual(dates: [day("2026-05-04")], status: .office, note: nil)
        #expect(try once.ownLines(after: 0).count == 1)
        #expect(try once.records(in: DateSpan(day("2026-05-04"), day("2026-05-04"))).map(\.status) == [.office])
    }

    @Test func aTornTailOfItsOwnIsCutAndTheFileRewrittenWhenDeleted() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = try AttendanceStore.inMemory()
        let sync = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop")
        let pipeline = CheckInPipeline(store: store, policy: Self.utc, now: { ClockTime(reading: instant("2026-05-04T08:00:00Z")) }, journal: sync)
        try await pipeline.recordManual(dates: [day("2026-05-04")], status: .office, note: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: sync.ownFile))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"v\":1,\"dev".utf8))
        try handle.close()
        try await pipeline.recordManual(dates: [day("2026-05-05")], status: .remote, note: nil)
        let written = try lines(sync.ownFile)
        #expect(written == (try store.ownLines(after: 0)) + [""], "\(written)")
        try FileManager.default.removeItem(atPath: sync.ownFile)
        try sync.publish()
        #expect(try lines(sync.ownFile) == written)
    }

    @Test func aReplacedFileIsReadAgainFromItsStart() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (a, b) = (try AttendanceStore.inMemory(), try AttendanceStore.inMemory())
        let syncA = try Synchronizer(store: a, folder: folder.path, deviceName: "a")
        let syncB = try Synchronizer(store: b, folder: folder.path, deviceName: "b")
        let pipelineB = CheckInPipeline(store: b, policy: Self.utc, now: { ClockTime(reading: instant("2026-05-04T09:00:00Z")) }, journal: syncB)
        try await pipelineB.recordManual(dates: [day("2026-05-04"), day("2026-05-05")], status: .office, note: nil)
        #expect(try syncA.merge().merged == 2)
        // B's file is replaced by a copy that lacks its first line but has a new one (same size or more).
        let all = try lines(syncB.ownFile).dropLast()
        try await pipelineB.recordManual(dates: [day("2026-05-06")], status: .remote, note: "a longer note to pass the old size")
        let newest = try lines(syncB.ownFile).dropLast().last!
        try ([all.last!, newest].joined(separator: "\n") + "\n").write(toFile: syncB.ownFile, atomically: true, encoding: .utf8)
        let report = try syncA.merge()
        #expect(report.merged == 1 && report.warnings.isEmpty, "\(report.warnings)")
        #expect(try a.records(in: nil).map(\.status) == [.office, .office, .remote])
    }

    /// A long journal (decoded in parts) with lines that are not its
    /// device's journal lines, here and there: they are skipped with one
    /// warning naming how many, and the rest merges; one line of a newer
    /// format anywhere in it skips the whole file.
    @Test func badLinesAreSkippedAndANewerLineSkipsTheFile() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = try AttendanceStore.inMemory()
        let sync = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop")
        let other = "0123456789abcdef0123456789abcdef", stranger = String(repeating: "9", count: 32)
        func line(_ seq: Int, device: String = other) -> String {
            let date = day("2020-01-01").adding(days: seq)
            return #"{"date":"\#(date)","device":"\#(device)","hlc":\#(1_577_836_800_000 + seq),"n":0,"name":"desk","op":"record","origin":"manual","seq":\#(seq),"status":"office","v":1}"#
        }
        var text = (1...6_000).map { line($0) }
        let bad = [10: "not json", 3_001: line(3_001, device: stranger), 5_999: #"{"v":1}"#]
        for (index, replacement) in bad { text[index] = replacement }
        let file = folder.path + "/" + Synchronizer.fileName(other)
        try (text.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let report = try sync.merge()
        #expect(report.merged == 6_000 - bad.count)
        #expect(report.warnings.isEmpty && report.skipped.count == 1 && report.skipped[0].contains("has 3 lines that are not"), "\(report.problems)")
        let named = try sync.skippedLines(limit: 2)
        let name = Synchronizer.fileName(other)
        #expect(named == ["\(name):11: it is not a DeskDays journal line", "\(name):3002: it is a line of another device than its file's",
                          "\(name): 1 more line is skipped"], "\(named)")
        #expect(try store.records(in: nil).count == 6_000 - bad.count)

        // The same file again, one line from a newer DeskDays in its middle: nothing of it is taken.
        let newerStore = try AttendanceStore.inMemory()
        let newerSync = try Synchronizer(store: newerStore, folder: folder.path, deviceName: "desk")
        text[4_000] = #"{"v":2,"device":"\#(other)","op":"teleport"}"#
        try (text.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let skipped = try newerSync.merge()
        #expect(skipped.merged == 0)
        #expect(skipped.warnings.contains { $0.contains("newer DeskDays") }, "\(skipped.warnings)")
        #expect(try newerStore.records(in: nil).isEmpty)
    }
}
