import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import DeskDaysSync
import Foundation
import Synchronization
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

    /// A device's clock, set by the test (the machine's clock, not a date asked for).
    final class Clock: Sendable {
        let reading: Mutex<Date>
        init(_ text: String) { reading = Mutex(instant(text)) }
        func set(_ text: String) { reading.withLock { $0 = instant(text) } }
        var now: @Sendable () -> ClockTime { { [self] in ClockTime(reading: reading.withLock { $0 }) } }
    }

    static func status(_ store: AttendanceStore, _ date: String) throws -> AttendanceStatus? {
        try store.records(in: nil).last { $0.date == day(date) }?.status
    }

    /// A's clock runs three days ahead: its office line is held on B, which
    /// then decides remote for that day. Once A's clock is set right, A
    /// stamps the line again (right after what it had seen when it wrote it),
    /// B takes that at once, both show B's later decision, and A's next
    /// decision, on a right clock, wins on both within one merge.
    @Test func aClockThatRanAheadRulesNothingOnceItIsSetRight() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (a, b) = (try AttendanceStore.inMemory(), try AttendanceStore.inMemory())
        let (clockA, clockB) = (Clock("2026-11-19T08:00:00Z"), Clock("2026-11-19T08:00:00Z"))
        let syncA = try Synchronizer(store: a, folder: folder.path, deviceName: "a", now: clockA.now)
        let syncB = try Synchronizer(store: b, folder: folder.path, deviceName: "b", now: clockB.now)
        func write(_ store: AttendanceStore, _ sync: Synchronizer, _ clock: Clock, _ date: String, _ status: AttendanceStatus,
                   at time: String) async throws {
            clock.set(time)
            try await SyncIdentityTests.write(store, sync, date, status, at: time)
        }
        try await write(b, syncB, clockB, "2026-11-18", .office, at: "2026-11-19T08:00:00Z")
        #expect(try syncA.merge().merged == 1)
        // Really 2026-11-20T09:00; A's clock says three days later.
        try await write(a, syncA, clockA, "2026-11-20", .office, at: "2026-11-23T09:00:00Z")
        clockB.set("2026-11-20T10:00:00Z")
        #expect(try syncB.merge().held.count == 1)
        try await write(b, syncB, clockB, "2026-11-20", .remote, at: "2026-11-20T10:00:00Z")
        clockA.set("2026-11-23T11:00:00Z")
        _ = try syncA.merge()
        // While A's clock is wrong, its line rules A.
        #expect(try Self.status(a, "2026-11-20") == .office)
        #expect(try Self.status(b, "2026-11-20") == .remote)

        // A's clock is set right: the next merge finds it out and says so.
        clockA.set("2026-11-20T12:00:00Z")
        let fixed = try syncA.merge()
        #expect(fixed.corrected?.lines == 1)
        #expect(fixed.corrected.map { $0.ahead > 2 * 86_400 } == true)
        #expect(fixed.notes.contains { $0.contains("clock was") && $0.contains("timedatectl") })
        clockB.set("2026-11-20T12:05:00Z")
        let seen = try syncB.merge()
        #expect(seen.held.isEmpty)
        #expect(try syncB.heldLines().isEmpty)
        for store in [a, b] { #expect(try Self.status(store, "2026-11-20") == .remote) }
        #expect(try SyncIdentityTests.rows(a) == SyncIdentityTests.rows(b))
        // Said once: a merge later finds nothing more to correct.
        #expect(try syncA.merge().corrected == nil)

        // A decides after the fix, on a right clock: it wins on both at once, not held.
        try await write(a, syncA, clockA, "2026-11-20", .office, at: "2026-11-20T13:00:00Z")
        clockB.set("2026-11-20T13:01:00Z")
        #expect(try syncB.merge().held.isEmpty)
        for store in [a, b] { #expect(try Self.status(store, "2026-11-20") == .office) }
        #expect(try SyncIdentityTests.rows(a) == SyncIdentityTests.rows(b))
        // Both name the device whose clock was corrected.
        #expect(try a.clockCorrections().map(\.name) == ["a"])
        #expect(try b.clockCorrections().map(\.name) == ["a"])
    }

    /// Idle devices are not a fast clock: after weeks of silence from the
    /// others, a device's own writes are taken by them, not held.
    @Test func quietDevicesDoNotMakeAClockFast() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let (a, b) = (try AttendanceStore.inMemory(), try AttendanceStore.inMemory())
        let (clockA, clockB) = (Clock("2026-11-02T08:00:00Z"), Clock("2026-11-02T08:00:00Z"))
        let syncA = try Synchronizer(store: a, folder: folder.path, deviceName: "a", now: clockA.now)
        let syncB = try Synchronizer(store: b, folder: folder.path, deviceName: "b", now: clockB.now)
        try await SyncIdentityTests.write(b, syncB, "2026-11-02", .office, at: "2026-11-02T08:00:00Z")
        _ = try syncA.merge()
        clockA.set("2026-12-04T08:00:00Z")
        try await SyncIdentityTests.write(a, syncA, "2026-12-04", .office, at: "2026-12-04T08:00:00Z")
        clockB.set("2026-12-04T08:05:00Z")
        let report = try syncB.merge()
        #expect(report.merged == 1 && report.held.isEmpty)
        #expect(try Self.status(b, "2026-12-04") == .office)
        #expect(try syncA.merge().corrected == nil)
    }
}
