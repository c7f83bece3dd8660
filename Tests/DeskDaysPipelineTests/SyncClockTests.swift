import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import DeskDaysSync
import Foundation
import Testing

/// One skewed clock stamps everyone: a device whose clock ran
/// three hours ahead drags the clock time (HLC) of every later change, but
/// each record is shown written at its own device's clock, and the skew
/// `sync status` reports is the device's newest line's, not the worst ever.
@Suite struct SyncClockTests {
    typealias Folder = SyncFolderTests.Folder

    @Test func recordsAreWrittenOnTheirOwnClockAndTheSkewIsTheNewestLines() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (a, b) = (try AttendanceStore.inMemory(), try AttendanceStore.inMemory())
        let syncA = try Synchronizer(store: a, folder: folder.path, deviceName: "a")
        let syncB = try Synchronizer(store: b, folder: folder.path, deviceName: "b")
        let ahead = instant("2026-11-20T12:00:00Z"), right = instant("2026-11-20T09:00:00Z")
        try await SyncIdentityTests.write(a, syncA, "2026-11-19", .office, at: "2026-11-20T12:00:00Z")
        #expect(try syncB.merge().merged == 1)
        try await SyncIdentityTests.write(b, syncB, "2026-11-20", .remote, at: "2026-11-20T09:00:00Z")
        _ = try syncA.merge()
        for store in [a, b] {
            let records = try store.records(in: nil)
            // The clock time that orders them is dragged past the skewed one…
            #expect(records.map(\.recordedAt).allSatisfy { $0 >= ahead })
            // …the time each was written is its own device's.
            let written = try store.writtenTimes(of: records)
            #expect(records.map { written[$0.id!] } == [ahead, right])
        }
        #expect(try b.syncDevices().first { $0.id == syncA.deviceID }?.lastClock == ahead)
        // A's clock is right again: its newest line says so, and the skew is gone.
        try await SyncIdentityTests.write(a, syncA, "2026-11-18", .office, at: "2026-11-20T09:30:00Z")
        _ = try syncB.merge()
        #expect(try b.syncDevices().first { $0.id == syncA.deviceID }?.lastClock == instant("2026-11-20T09:30:00Z"))
    }
}
