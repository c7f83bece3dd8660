import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import DeskDaysSync
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Whoever can write to the sync folder is taken for one of the
/// user's devices, but one bad line can no longer brick this one: each
/// refused line is skipped (named by `skippedLines`), the rest merges, this
/// device's clock stays where it was, and writes go on; a FIFO named like
/// a journal is not read and hangs nothing.
@Suite struct SyncDoorTests {
    static let now = instant("2026-11-20T17:00:00Z")
    typealias Folder = SyncFolderTests.Folder

    /// A good line of device `id`: a manual record.
    static func record(_ id: String, seq: Int64, date: String = "2026-11-16", name: String = "desk",
                       hlc: Int64 = 1_795_190_000_000, n: Int64 = 0) -> String {
        #"{"date":"\#(date)","device":"\#(id)","hlc":\#(hlc),"n":\#(n),"name":"\#(name)","op":"record","origin":"manual","seq":\#(seq),"status":"office","v":1}"#
    }

    static func append(_ lines: [String], to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
        try handle.close()
    }

    @Test func badLinesAreSkippedNamedAndMoveNothing() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = try AttendanceStore.inMemory()
        let sync = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop", now: { ClockTime(reading: Self.now) })
        let pipeline = CheckInPipeline(store: store, policy: SyncFolderTests.utc, now: { ClockTime(reading: Self.now) }, journal: sync)
        try await pipeline.recordManual(dates: [day("2026-11-16")], status: .remote, note: nil)
        try await pipeline.recordManual(dates: [day("2026-11-17")], status: .sick, note: nil)

        let desk = "0123456789abcdef0123456789abcdef", twin = "abcdef0123456789abcdef0123456789"
        let deskFile = folder.path + "/" + Synchronizer.fileName(desk)
        let bad = [
            Self.record(desk, seq: 2, hlc: 253_402_300_800_000),                       // the year 10000
            Self.record(desk, seq: 3, n: .max),
            Self.record(desk, seq: .max),
            Self.record(desk, seq: 4, date: "2150-06-01"),
            Self.record(desk, seq: 5, date: "0000-02-29"),
            // A departure seven months after its date.
            #"{"at":"2026-11-16T17:00:00.000Z","date":"2026-04-16","device":"\#(desk)","hlc":1795190000006,"kind":"departure","n":0,"name":"desk","op":"sign","seq":6,"source":"wifi","v":1}"#,
            #"{"at":"2026-11-16T08:00:00.000Z","date":"2026-11-16","device":"\#(desk)","hlc":1795190000007,"kind":"arrival","n":0,"name":"desk","op":"sign","rule":"\#(String(repeating: "r", count: 5_000))","seq":7,"source":"wifi","v":1}"#,
        ]
        let good = Self.record(desk, seq: 8, date: "2026-11-18", hlc: 1_795_190_000_008)
        try ([Self.record(desk, seq: 1, date: "2026-11-19")] + bad + [good]).map { $0 + "\n" }.joined()
            .write(toFile: deskFile, atomically: true, encoding: .utf8)
        // A device named like the desk, clearing the 16th from 2099: a
        // clock that far ahead is held (until 2099), never applied now.
        let clear = #"{"date":"2026-11-16","device":"\#(twin)","hlc":4084732800000,"n":0,"name":"desk","op":"clear","origins":["automatic","manual"],"seq":1,"v":1}"#
        try (clear + "\n").write(toFile: folder.path + "/" + Synchronizer.fileName(twin), atomically: true, encoding: .utf8)

        let report = try sync.merge()
        #expect(report.merged == 2, "\(report.problems)")
        #expect(report.skipped.count == 1 && report.skipped[0].contains("has 7 lines"), "\(report.skipped)")
        #expect(report.held.count == 1 && report.held[0].contains("has 1 line whose clock"), "\(report.held)")
        #expect(report.heldUntil == Date(timeIntervalSince1970: 4_084_732_800 - 86_400))
        #expect(try store.records(in: nil).map { "\($0.date) \($0.status)" }
            == ["2026-11-16 remote", "2026-11-17 sick", "2026-11-18 office", "2026-11-19 office"])
        let named = try sync.skippedLines()
        let file = Synchronizer.fileName(desk), twinFile = Synchronizer.fileName(twin)
        #expect(named.map { $0.prefix { $0 != " " } } == (2...8).map { "\(file):\($0):" }, "\(named)")
        #expect(try sync.heldLines() == ["\(twinFile):1: applied from 2099-06-09T00:00:00Z: its clock time (hlc) 4084732800000: it is more than a day after this device's clock"])
        for (line, reason) in zip(named, ["hlc", "(n)", "seq", "2150-06-01", "0000-02-29", "not within its date", "rule name"]) {
            #expect(line.contains(reason), "\(line)")
        }

        // This device's clock did not move: its next change is stamped now
        // (its third within that millisecond), and written.
        try await pipeline.recordManual(dates: [day("2026-11-20")], status: .office, note: nil)
        let last = try #require(try store.ownLines(after: 0).last.flatMap { JournalEntry.decode(Data($0.utf8)) })
        #expect(last.hlc == HLC.milliseconds(Self.now) && last.n == 2 && last.seq == 3, "\(last)")
        #expect(try SyncFolderTests().lines(sync.ownFile).count == 3 + 1)
    }

    /// A line whose clock is more than a day ahead of this machine's (its
    /// writer's clock ahead, or this one behind: a laptop that boots before
    /// NTP) is held: the lines after it merge, it is read again at every
    /// merge, and it is applied once this clock reaches it; never skipped.
    @Test func aLineAheadOfThisClockIsHeldThenApplied() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = try AttendanceStore.inMemory()
        let clock = Mutex(Self.now)
        let sync = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop",
                                    now: { ClockTime(reading: clock.withLock { $0 }) })
        let desk = "0123456789abcdef0123456789abcdef"
        let ahead = HLC.milliseconds(Self.now) + 2 * 86_400_000
        try [Self.record(desk, seq: 1, date: "2026-11-16", hlc: ahead),
             Self.record(desk, seq: 2, date: "2026-11-17", hlc: HLC.milliseconds(Self.now))].map { $0 + "\n" }.joined()
            .write(toFile: folder.path + "/" + Synchronizer.fileName(desk), atomically: true, encoding: .utf8)

        var report = try sync.merge()
        #expect(report.merged == 1 && report.skipped.isEmpty && report.held.count == 1, "\(report.problems)")
        #expect(report.heldUntil == Self.now.addingTimeInterval(86_400))
        #expect(try store.records(in: nil).map { "\($0.date)" } == ["2026-11-17"])
        #expect(try sync.heldLines().count == 1 && sync.skippedLines().isEmpty)
        // Asked again before its time: still held, not lost.
        clock.withLock { $0 = $0.addingTimeInterval(86_399) }
        report = try sync.merge()
        #expect(report.merged == 0 && report.held.count == 1, "\(report.problems)")
        // The clock reaches it: applied, and nothing is held any more.
        clock.withLock { $0 = $0.addingTimeInterval(1) }
        report = try sync.merge()
        #expect(report.merged == 1 && report.held.isEmpty && report.problems.isEmpty, "\(report.problems)")
        #expect(try store.records(in: nil).map { "\($0.date) \($0.status)" } == ["2026-11-16 office", "2026-11-17 office"])
        #expect(try sync.heldLines().isEmpty)
        // Merged once: a further pass reads nothing new.
        #expect(try sync.merge().merged == 0)
    }

    /// A line of this device's own id with seq Int64.max appended to its
    /// own file is not adopted: numbering and writing go on after its real lines.
    @Test func aHugeSeqInItsOwnFileIsNotAdopted() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = try AttendanceStore.inMemory()
        let sync = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop", now: { ClockTime(reading: Self.now) })
        let pipeline = CheckInPipeline(store: store, policy: SyncFolderTests.utc, now: { ClockTime(reading: Self.now) }, journal: sync)
        try await pipeline.recordManual(dates: [day("2026-11-16")], status: .office, note: nil)
        try Self.append([Self.record(sync.deviceID, seq: .max, date: "2026-11-17", name: "laptop")], to: sync.ownFile)

        // As the next command would: a new Synchronizer on the same database.
        let again = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop", now: { ClockTime(reading: Self.now) })
        let next = CheckInPipeline(store: store, policy: SyncFolderTests.utc, now: { ClockTime(reading: Self.now) }, journal: again)
        try await next.recordManual(dates: [day("2026-11-18")], status: .remote, note: nil)
        #expect(try store.records(in: nil).map(\.status) == [.office, .remote])
        let seqs = try SyncFolderTests().lines(again.ownFile).dropLast().map { JournalEntry.decode(Data($0.utf8))?.seq }
        #expect(seqs == [1, .max, 2], "\(seqs)")
        #expect(try again.skippedLines() == ["\(Synchronizer.fileName(again.deviceID)):2: its seq \(Int64.max): it is not a number from 1 to \(Validation.greatestCount)"])
    }

    /// Its own lines stamped more than a day after a later "now" (the clock
    /// set back) are still its own: publishing stamps each again once, as
    /// a line that stands for it (`correctClock`), publishing again appends
    /// nothing, and the next line follows them.
    @Test func itsOwnLinesFromAheadOfNowStayItsOwn() async throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = try AttendanceStore.inMemory()
        let ahead = Self.now.addingTimeInterval(3 * 86_400)
        let sync = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop", now: { ClockTime(reading: ahead) })
        let pipeline = CheckInPipeline(store: store, policy: SyncFolderTests.utc, now: { ClockTime(reading: ahead) }, journal: sync)
        try await pipeline.recordManual(dates: [day("2026-11-16"), day("2026-11-17")], status: .office, note: nil)
        let back = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop", now: { ClockTime(reading: Self.now) })
        try back.publish()
        try back.publish()
        #expect(try SyncFolderTests().lines(back.ownFile).count == 4 + 1)
        let later = CheckInPipeline(store: store, policy: SyncFolderTests.utc, now: { ClockTime(reading: Self.now) }, journal: back)
        try await later.recordManual(dates: [day("2026-11-18")], status: .remote, note: nil)
        let lines = try SyncFolderTests().lines(back.ownFile).dropLast().compactMap { JournalEntry.decode(Data($0.utf8)) }
        #expect(lines.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(lines.map(\.replaces) == [nil, nil, 1, 2, nil])
        // Stamped back by the clock's error, and the next line after them.
        #expect(lines[2].hlc <= lines[0].hlc - 3 * 86_400_000 + 1 && lines[4].time > lines[3].time)
        #expect(lines[2...].allSatisfy { $0.problem(now: ClockTime(reading: Self.now)) == nil })
        #expect(try store.records(in: nil).map(\.status) == [.office, .office, .remote])
    }

    /// Runs `work` on a thread of its own; if it has not returned within
    /// 20 s (a read blocked on the FIFO), opens the FIFO for writing to
    /// release it, and says so.
    static func returns(releasing fifo: String, _ work: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread { work(); done.signal() }.start()
        if done.wait(timeout: .now() + 20) == .success { return true }
        let fd = open(fifo, O_WRONLY | O_NONBLOCK)
        if fd >= 0 { close(fd) }
        done.wait()
        return false
    }

    @Test func aFIFONamedLikeAJournalIsNotReadAndHangsNothing() throws {
        let folder = try Folder()
        defer { folder.remove() }
        let store = try AttendanceStore.inMemory()
        let sync = try Synchronizer(store: store, folder: folder.path, deviceName: "laptop", now: { ClockTime(reading: Self.now) })
        let fifo = folder.path + "/" + Synchronizer.fileName(String(repeating: "e", count: 32))
        #expect(mkfifo(fifo, 0o600) == 0)
        nonisolated(unsafe) var report: Synchronizer.MergeReport?
        #expect(Self.returns(releasing: fifo) { report = try? sync.merge() })
        #expect(report?.warnings.contains { $0.contains("is a FIFO, not a journal file") } == true, "\(String(describing: report))")
        #expect(Self.returns(releasing: fifo) { _ = Synchronizer.endsInIncompleteLine(fifo) })

        // Its own file a FIFO: opening the device and writing refuse it, without waiting.
        let own = try Folder()
        defer { own.remove() }
        let other = try AttendanceStore.inMemory()
        let id = try other.enableSync(name: "desk")
        let ownFifo = own.path + "/" + Synchronizer.fileName(id)
        #expect(mkfifo(ownFifo, 0o600) == 0)
        nonisolated(unsafe) var failure: String?
        #expect(Self.returns(releasing: ownFifo) {
            do {
                let sync = try Synchronizer(store: other, folder: own.path, deviceName: "desk", now: { ClockTime(reading: Self.now) })
                try sync.publish()
            } catch {
                failure = "\(error)"
            }
        })
        #expect(failure?.contains("is a FIFO") == true, "\(String(describing: failure))")
    }
}
