import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import Foundation
import Testing

/// The single write path (docs/design.md "Data flow", docs/policy.md "Statuses"):
/// per-day deduplication by (local date, source), local dates in the
/// policy's zone, and precedence end to end through `Resolver`.
@Suite struct PipelineTests {
    static let berlin = Policy(timeZone: TimeZone(identifier: "Europe/Berlin")!)

    func pipeline(_ store: AttendanceStore, now: String = "2026-05-04T20:00:00Z") -> CheckInPipeline {
        let fixed = instant(now)
        return CheckInPipeline(store: store, policy: Self.berlin, now: { ClockTime(reading: fixed) })
    }

    func event(_ source: Source, _ rule: String? = nil, at time: String) -> CheckInEvent {
        CheckInEvent(source: source, rule: rule, time: instant(time))
    }

    func resolved(_ store: AttendanceStore, _ date: String) throws -> ResolvedDay {
        Resolver.resolve(day(date), records: try store.records(in: nil), checkIns: try store.checkIns(in: nil))
    }

    @Test func firstCheckInPerDateAndSourceWins() async throws {
        let store = try AttendanceStore.inMemory()
        let pipeline = pipeline(store)
        #expect(try await pipeline.submit(event(.nfc, "desk", at: "2026-05-04T07:00:00Z")) == .stored(day("2026-05-04")))
        #expect(try await pipeline.submit(event(.nfc, "lobby", at: "2026-05-04T12:00:00Z")) == .duplicate(day("2026-05-04")))
        #expect(try await pipeline.submit(event(.nfc, "desk", at: "2026-05-05T07:00:00Z")) == .stored(day("2026-05-05")))
        let stored = try store.checkIns(in: nil)
        #expect(stored.map(\.rule) == ["desk", "desk"])
        #expect(stored.map(\.at) == [instant("2026-05-04T07:00:00Z"), instant("2026-05-05T07:00:00Z")])
    }

    /// docs/policy.md "Time on site" and "The day's start": a departure is
    /// kept as the source's latest sign but is no check-in; a night shift's
    /// small-hours signs belong to the day before.
    @Test func departuresAndTheDayStart() async throws {
        let store = try AttendanceStore.inMemory()
        var policy = Self.berlin
        policy.dayStartMinutes = 4 * 60
        let fixed = instant("2026-05-06T12:00:00Z")
        let pipeline = CheckInPipeline(store: store, policy: policy, now: { ClockTime(reading: fixed) })
        // 23:00 Monday in Berlin (21:00Z), left at 02:30 Tuesday (00:30Z): Monday's day.
        #expect(try await pipeline.submit(event(.gps, "hq", at: "2026-05-04T21:00:00Z")) == .stored(day("2026-05-04")))
        let leave = CheckInEvent(source: .gps, rule: "hq", time: instant("2026-05-05T00:30:00Z"), kind: .departure)
        #expect(try await pipeline.submit(leave) == .duplicate(day("2026-05-04")))
        // A departure alone (Tuesday 10:00) stores no check-in.
        let alone = CheckInEvent(source: .wifi, rule: "hq", time: instant("2026-05-05T08:00:00Z"), kind: .departure)
        #expect(try await pipeline.submit(alone) == .duplicate(day("2026-05-05")))
        #expect(try store.checkIns(in: nil).map(\.date) == [day("2026-05-04")])
        #expect(try store.latestSigns(in: nil).map { "\($0.date) \($0.source.rawValue) \($0.kind.rawValue)" }
                == ["2026-05-04 gps departure", "2026-05-05 wifi departure"])
        let presence = DayPresence.days(checkIns: try store.checkIns(in: nil), signs: try store.latestSigns(in: nil),
                                        policy: policy, now: fixed)
        #expect(presence[day("2026-05-04")]?.hours == 3.5)
        // Tuesday has only the departure: its last_seen, no first_seen, no time on site.
        #expect(presence[day("2026-05-05")]?.firstSeen == nil && presence[day("2026-05-05")]?.hours == nil)
        #expect(presence[day("2026-05-05")]?.lastSeen == instant("2026-05-05T08:00:00Z"))
    }

    @Test func twoSourcesOnOneDayAreBothStored() async throws {
        let store = try AttendanceStore.inMemory()
        let pipeline = pipeline(store)
        #expect(try await pipeline.submit(event(.wifi, at: "2026-05-04T07:55:00Z")) == .stored(day("2026-05-04")))
        #expect(try await pipeline.submit(event(.gps, "hq", at: "2026-05-04T07:56:00Z")) == .stored(day("2026-05-04")))
        #expect(try store.checkIns(in: nil).map(\.source) == [.wifi, .gps])
        #expect(try resolved(store, "2026-05-04").sources == [.wifi, .gps])
    }

    @Test func lateEveningUTCLandsOnTheNextLocalDate() async throws {
        let store = try AttendanceStore.inMemory()
        // docs/policy.md: 2026-03-29T23:30:00Z is on 2026-03-30 in Europe/Berlin (CEST, +2).
        let outcome = try await pipeline(store).submit(event(.qr, at: "2026-03-29T23:30:00Z"))
        #expect(outcome == .stored(day("2026-03-30")))
        #expect(try store.checkIns(in: nil).map(\.date) == [day("2026-03-30")])
    }

    @Test func dedupHoldsAcrossLocalMidnightNotUTCMidnight() async throws {
        let store = try AttendanceStore.inMemory()
        let pipeline = pipeline(store, now: "2026-05-05T22:00:00Z")
        // 21:30Z and 23:30Z on 2026-05-04 are 23:30 on the 4th and 01:30 on the 5th in Berlin.
        #expect(try await pipeline.submit(event(.nfc, at: "2026-05-04T21:30:00Z")) == .stored(day("2026-05-04")))
        #expect(try await pipeline.submit(event(.nfc, at: "2026-05-04T23:30:00Z")) == .stored(day("2026-05-05")))
        #expect(try await pipeline.submit(event(.nfc, at: "2026-05-05T21:00:00Z")) == .duplicate(day("2026-05-05")))
    }

    @Test func manualBeatsAutomaticAndClearingRestoresIt() async throws {
        let store = try AttendanceStore.inMemory()
        let pipeline = pipeline(store)
        _ = try await pipeline.submit(event(.nfc, "desk", at: "2026-05-04T07:00:00Z"))
        try await pipeline.recordManual(dates: [day("2026-05-04")], status: .sick, note: "went home")
        var result = try resolved(store, "2026-05-04")
        #expect(result.status == .sick)
        #expect(result.origin == .manual)
        #expect(result.sources == [.nfc, .manual])

        #expect(try await pipeline.clear(date: day("2026-05-04"), origins: [.manual]).count == 1)
        result = try resolved(store, "2026-05-04")
        #expect(result.status == .office)
        #expect(result.origin == .automatic)
    }

    @Test func latestManualRecordWins() async throws {
        let store = try AttendanceStore.inMemory()
        let times = Clock(["2026-05-01T09:00:00Z", "2026-05-02T09:00:00Z"])
        let pipeline = CheckInPipeline(store: store, policy: Self.berlin, now: { ClockTime(reading: times.next()) })
        try await pipeline.recordManual(dates: [day("2026-05-04")], status: .vacation, note: nil)
        try await pipeline.recordManual(dates: [day("2026-05-04")], status: .office, note: "trip cancelled")
        #expect(try resolved(store, "2026-05-04").status == .office)
    }

    @Test func automaticBeatsFallbackAndFallbackIsOnlyWrittenOnEmptyDays() async throws {
        let store = try AttendanceStore.inMemory()
        let pipeline = pipeline(store)
        // An empty day gets the fallback…
        #expect(try await pipeline.writeFallback(date: day("2026-05-04"), status: .remote))
        #expect(try resolved(store, "2026-05-04").origin == .fallback)
        // …and a later arrival the same day replaces it (docs/policy.md: you arrived late: you were in).
        _ = try await pipeline.submit(event(.wifi, at: "2026-05-04T19:30:00Z"))
        let late = try resolved(store, "2026-05-04")
        #expect(late.status == .office)
        #expect(late.origin == .automatic)

        // A day with any check-in, manual, imported or fallback record gets none.
        _ = try await pipeline.submit(event(.gps, "hq", at: "2026-05-05T08:00:00Z"))
        try await pipeline.recordManual(dates: [day("2026-05-06")], status: .vacation, note: nil)
        _ = try await pipeline.importRecords([(day("2026-05-07"), .office, nil)])
        for date in ["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07"] {
            #expect(try await !pipeline.writeFallback(date: day(date), status: .remote), "\(date)")
        }
        #expect(try store.records(in: nil).filter { $0.origin == .fallback }.map(\.date) == [day("2026-05-04")])
    }

    @Test func importedRecordsRankBelowAutomaticAndReimportChangesNothing() async throws {
        let store = try AttendanceStore.inMemory()
        let pipeline = pipeline(store)
        let rows: [(LocalDate, AttendanceStatus, String?)] = [
            (day("2026-04-01"), .remote, nil), (day("2026-04-02"), .office, "badge"), (day("2026-04-02"), .office, "badge"),
        ]
        #expect(try await pipeline.importRecords(rows) == 2)
        #expect(try await pipeline.importRecords(rows) == 0)
        #expect(try await pipeline.importRecords([]) == 0)
        _ = try await pipeline.submit(event(.nfc, at: "2026-04-01T07:00:00Z"))
        #expect(try resolved(store, "2026-04-01").origin == .automatic)
        #expect(try resolved(store, "2026-04-02").origin == .import)
    }

    /// The latest import of a date resolves it, also when an older import
    /// said the same as the newest file; within one file the last row wins.
    @Test func theLatestImportWinsEvenWhenAnOlderOneAgrees() async throws {
        let store = try AttendanceStore.inMemory()
        let pipeline = pipeline(store)
        let date = day("2026-11-02")
        #expect(try await pipeline.importRecords([(date, .office, nil)]) == 1)
        #expect(try await pipeline.importRecords([(date, .sick, nil)]) == 1)
        #expect(try resolved(store, "2026-11-02").status == .sick)
        #expect(try await pipeline.importRecords([(date, .office, nil)]) == 1, "office again, after sick")
        #expect(try resolved(store, "2026-11-02").status == .office)
        // One file, three rows for a date: its last row is what the file says.
        let rows: [(LocalDate, AttendanceStatus, String?)] = [(date, .vacation, nil), (date, .remote, "x"), (date, .sick, nil)]
        #expect(try await pipeline.importRecords(rows) == 1)
        #expect(try resolved(store, "2026-11-02").status == .sick)
        #expect(try await pipeline.importRecords(rows) == 0, "the same file twice changes nothing")
        #expect(try resolved(store, "2026-11-02").status == .sick)
    }

    @Test func acknowledgedCheckInsSurviveReopening() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/data/deskdays/deskdays.sqlite"
        do {
            // "Now" after every day fed (one a source), whatever the number of sources.
            let pipeline = pipeline(try AttendanceStore(path: path), now: "2026-05-20T20:00:00Z")
            for (index, source) in Source.automatic.enumerated() {
                _ = try await pipeline.submit(event(source, "rule\(index)", at: "2026-05-0\(index + 1)T08:00:00Z"))
            }
            try await pipeline.recordManual(dates: [day("2026-05-08")], status: .travel, note: "Paris")
        }
        let reopened = try AttendanceStore(path: path)
        #expect(try reopened.checkIns(in: nil).count == Source.automatic.count)
        #expect(try reopened.records(in: nil).map(\.note) == ["Paris"])
        // And the dedup index still holds after the restart.
        #expect(try await pipeline(reopened).submit(event(.nfc, at: "2026-05-01T18:00:00Z")) == .duplicate(day("2026-05-01")))
    }

    @Test func createdFilesArePrivate() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/data/deskdays/deskdays.sqlite"
        let store = try AttendanceStore(path: path)
        _ = try await pipeline(store).submit(event(.nfc, at: "2026-05-04T07:00:00Z"))
        #expect(try mode(folder.path + "/data") == 0o700)
        #expect(try mode(folder.path + "/data/deskdays") == 0o700)
        #expect(try mode(path) == 0o600)
        // SQLite gives its side files the database's mode.
        #expect(try mode(path + "-wal") == 0o600)
        #expect(try mode(path + "-shm") == 0o600)
    }

    /// Every door leads to the pipeline, so it refuses what no door may let in.
    @Test func datesOutsideTheRangeAndEventsFarAheadAreRefused() async throws {
        let store = try AttendanceStore.inMemory()
        let pipeline = pipeline(store)
        await #expect(throws: CheckInPipeline.Refusal.self) { try await pipeline.submit(event(.nfc, at: "2026-05-06T09:00:00Z")) }
        await #expect(throws: CheckInPipeline.Refusal.self) { try await pipeline.submit(event(.nfc, at: "1985-05-06T09:00:00Z")) }
        await #expect(throws: CheckInPipeline.Refusal.self) {
            try await pipeline.recordManual(dates: [day("2026-05-04"), LocalDate(year: 2100, month: 1, day: 4)!], status: .office, note: nil)
        }
        #expect(try await pipeline.submit(event(.nfc, at: "2026-05-05T19:00:00Z")) == .stored(day("2026-05-05")), "within a day ahead")
        #expect(try store.records(in: nil).isEmpty && store.checkIns(in: nil).count == 1, "nothing of the refused ones stored")
    }
}

/// Hands out the given instants in order (for "latest wins" tests).
final class Clock: @unchecked Sendable {
    private let lock = NSLock()
    private var instants: [Date]

    init(_ texts: [String]) { instants = texts.map(instant) }

    func next() -> Date { lock.withLock { instants.removeFirst() } }
}

/// A fresh folder under the system temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("deskdays-pipeline-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

func instant(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)!
}

func day(_ text: String) -> LocalDate { LocalDate(text)! }
