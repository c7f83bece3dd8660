import DeskDaysCore
import DeskDaysStore
import DeskDaysSync
import Foundation
import Synchronization
import Testing

/// The agent's merging of the folder (`SyncService`): what a merge took is
/// said, each problem once however often the folder changes, and a line
/// held until this clock reaches its time is merged once the clock says so,
/// though no file changes.
@Suite struct SyncServiceTests {
    @Test(.timeLimit(.minutes(1))) func aProblemIsToldOnceAndAHeldLineIsMergedWhenDue() async throws {
        let folder = try SyncFolderTests.Folder()
        defer { folder.remove() }
        let store = try AttendanceStore.inMemory()
        let reading = Mutex(SyncDoorTests.now)
        let sync = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop",
                                    now: { ClockTime(reading: reading.withLock { $0 }) })
        let (notes, said) = AsyncStream.makeStream(of: SyncService.Note.self)
        let told = Mutex<[SyncService.Note]>([])
        let service = SyncService(sync: sync, corrected: { _ in }, say: { note in
            told.withLock { $0.append(note) }
            said.yield(note)
        })
        service.publish()

        // A good line, a bad one (a seq no arithmetic may take) and one two days ahead of this clock.
        let desk = "0123456789abcdef0123456789abcdef"
        let ahead = Int64(SyncDoorTests.now.timeIntervalSince1970 * 1000) + 2 * 86_400_000
        try [SyncDoorTests.record(desk, seq: 1, date: "2026-11-18"),
             SyncDoorTests.record(desk, seq: .max),
             SyncDoorTests.record(desk, seq: 2, date: "2026-11-19", hlc: ahead)]
            .map { $0 + "\n" }.joined().write(toFile: folder.path + "/" + Synchronizer.fileName(desk), atomically: true, encoding: .utf8)
        service.merge()
        service.merge()
        let first = told.withLock { $0 }
        #expect(first.filter { $0 == .info("merged 1 journal line from the sync folder") }.count == 1, "\(first)")
        let warnings = first.filter { if case .warning = $0 { true } else { false } }
        #expect(warnings.count == 2 && Set(warnings.map { "\($0)" }).count == 2, "\(first)")
        #expect(try store.records(in: nil).map(\.date) == [day("2026-11-18")])

        // The held line's time comes: the clock is moved there, and it merges.
        let due = Mutex<Date?>(nil)
        let held = Task {
            await service.mergeHeldLines { until in
                due.withLock { $0 = until }
                reading.withLock { $0 = until.addingTimeInterval(60) }
                return true
            }
        }
        // Said after its merge: the second "merged" note.
        var merges = 0
        for await note in notes where note == .info("merged 1 journal line from the sync folder") {
            merges += 1
            if merges == 2 { break }
        }
        service.finish()
        await held.value
        #expect(due.withLock { $0 } == Date(timeIntervalSince1970: Double(ahead) / 1000 - 86_400))
        #expect(try store.records(in: nil).map(\.date) == [day("2026-11-18"), day("2026-11-19")])
    }
}
