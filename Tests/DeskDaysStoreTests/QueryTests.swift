@testable import DeskDaysStore
import DeskDaysCore
import Foundation
import Synchronization
import GRDB
import Testing

/// Reads and writes on an open store.
@Suite struct QueryTests {
    let store: AttendanceStore

    init() throws {
        store = try AttendanceStore.inMemory()
    }

    func checkIn(_ date: String, _ source: Source, _ rule: String? = nil, at time: String) -> AutomaticCheckIn {
        AutomaticCheckIn(date: day(date), source: source, rule: rule, at: instant(time))
    }

    @Test func recordsRoundTripInDateOrder() throws {
        let records = [
            DayRecord(date: day("2026-05-04"), status: .vacation, origin: .manual, note: "Lisbon",
                      recordedAt: instant("2026-04-20T10:00:00.125Z")),
            DayRecord(date: day("2026-05-01"), status: .remote, origin: .import, recordedAt: instant("2026-05-10T09:00:00Z")),
            DayRecord(date: day("2026-05-01"), status: .office, origin: .fallback, recordedAt: instant("2026-05-01T18:00:00Z")),
        ]
        try store.addRecords(records)
        let read = try store.records(in: nil)
        #expect(read.map(\.id).allSatisfy { $0 != nil })
        #expect(read.map { DayRecord(date: $0.date, status: $0.status, origin: $0.origin, note: $0.note, recordedAt: $0.recordedAt) }
            == [records[1], records[2], records[0]], "by date, then in the order written, whatever time each carries")
    }

    @Test func addRecordsIsAllOrNothing() throws {
        try store.addRecords([DayRecord(date: day("2026-05-01"), status: .office, origin: .manual, recordedAt: Date())])
        // A row the CHECK constraint refuses, after a good one, in one call.
        #expect(throws: StoreError.self) {
            try store.write { db in
                try db.execute(sql: "INSERT INTO record (date, status, origin, recordedAt) VALUES ('2026-05-02', 'office', 'manual', 'x')")
                try db.execute(sql: "INSERT INTO record (date, status, origin, recordedAt) VALUES ('2026-05-03', 'partying', 'manual', 'x')")
            }
        }
        #expect(try store.records(in: nil).map(\.date) == [day("2026-05-01")])
    }

    @Test func checkInDatesAreDistinctAndInTheSpan() throws {
        try store.insertCheckIn(checkIn("2026-05-04", .nfc, at: "2026-05-04T08:00:00Z"))
        try store.insertCheckIn(checkIn("2026-05-04", .gps, at: "2026-05-04T08:05:00Z"))
        try store.insertCheckIn(checkIn("2026-05-06", .wifi, at: "2026-05-06T08:00:00Z"))
        try store.insertCheckIn(checkIn("2026-06-01", .qr, at: "2026-06-01T08:00:00Z"))
        #expect(try store.checkInDates(in: nil).sorted() == [day("2026-05-04"), day("2026-05-06"), day("2026-06-01")])
        #expect(try store.checkInDates(in: DateSpan(day("2026-05-05"), day("2026-05-31"))) == [day("2026-05-06")])
    }

    @Test func oneCheckInPerDateAndSource() throws {
        #expect(try store.insertCheckIn(checkIn("2026-05-04", .nfc, "desk", at: "2026-05-04T07:00:00Z")))
        #expect(try !store.insertCheckIn(checkIn("2026-05-04", .nfc, "lobby", at: "2026-05-04T09:00:00Z")))
        #expect(try store.insertCheckIn(checkIn("2026-05-04", .wifi, at: "2026-05-04T07:01:00Z")))
        #expect(try store.insertCheckIn(checkIn("2026-05-05", .nfc, "desk", at: "2026-05-05T07:00:00Z")))
        let stored = try store.checkIns(in: DateSpan(day("2026-05-04"), day("2026-05-04")))
        #expect(stored == [checkIn("2026-05-04", .nfc, "desk", at: "2026-05-04T07:00:00Z"),
                           checkIn("2026-05-04", .wifi, at: "2026-05-04T07:01:00Z")])
    }

    /// Time on site keeps two things per (date, source): the earliest
    /// arrival (in `checkin`) and the latest sign, whatever order they come in.
    @Test func signsKeepTheFirstArrivalAndTheLatestSignOnly() throws {
        func sign(_ source: Source, _ time: String, _ kind: CheckInEvent.Kind) -> LatestSign {
            LatestSign(date: day("2026-05-04"), source: source, at: instant(time), kind: kind)
        }
        #expect(try store.insertSign(sign(.wifi, "2026-05-04T08:10:00Z", .arrival), rule: "hq"))
        #expect(try !store.insertSign(sign(.wifi, "2026-05-04T12:00:00Z", .departure), rule: "hq"))
        #expect(try !store.insertSign(sign(.wifi, "2026-05-04T13:00:00Z", .arrival), rule: "hq"))
        #expect(try !store.insertSign(sign(.wifi, "2026-05-04T17:40:00Z", .departure), rule: "hq"))
        // Late and out of order: an earlier arrival becomes the first, an older departure changes nothing.
        #expect(try !store.insertSign(sign(.wifi, "2026-05-04T07:52:00Z", .arrival), rule: "lobby"))
        #expect(try !store.insertSign(sign(.wifi, "2026-05-04T15:00:00Z", .departure), rule: "hq"))
        // A departure alone is no check-in.
        #expect(try !store.insertSign(sign(.gps, "2026-05-04T18:00:00Z", .departure), rule: "hq"))
        #expect(try store.checkIns(in: nil) == [checkIn("2026-05-04", .wifi, "lobby", at: "2026-05-04T07:52:00Z")])
        #expect(try store.latestSigns(in: nil) == [sign(.wifi, "2026-05-04T17:40:00Z", .departure),
                                                  sign(.gps, "2026-05-04T18:00:00Z", .departure)])
        #expect(try store.dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sign") } == 2)
        // Clearing the automatic entries of the date takes its signs too.
        _ = try store.remove(on: day("2026-05-04"), origins: [.automatic], at: instant("2026-05-05T09:00:00Z"))
        #expect(try store.latestSigns(in: nil) == [])
    }

    /// The per-date summary the store sums up for long histories gives the
    /// same short days as the full per-source arithmetic, over random
    /// arrivals and departures (taps and presences, a day start, today).
    @Test func daySignsAgreeWithTheFullPresence() throws {
        var policy = Policy(timeZone: TimeZone(identifier: "Europe/London")!)
        policy.dayStartMinutes = 4 * 60
        policy.minHours = 4
        var seed: UInt64 = 2026
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let base = instant("2026-03-23T00:00:00Z").timeIntervalSince1970
        for _ in 0..<600 {
            let source = Source.automatic[next(Source.automatic.count)]
            let at = Date(timeIntervalSince1970: base + Double(next(21 * 86_400)))
            let kind: CheckInEvent.Kind = next(3) == 0 ? .departure : .arrival
            try store.insertSign(LatestSign(date: policy.localDate(of: at), source: source, at: at, kind: kind), rule: nil)
        }
        let span = DateSpan(day("2026-03-20"), day("2026-04-15"))
        let now = instant("2026-04-05T11:00:00Z")
        let full = PolicyEngine(policy: policy).shortDates(
            DayPresence.days(checkIns: try store.checkIns(in: span), signs: try store.latestSigns(in: span), policy: policy, now: now))
        let summed = DayPresence.shortDates(try store.daySigns(in: span), policy: policy, now: now)
        #expect(!full.isEmpty)
        #expect(summed == full)
        #expect(try store.daySigns(in: span).count == Set(try store.checkIns(in: span).map(\.date)).count)
    }

    @Test func schemaRefusesValuesOutsideTheEnums() throws {
        for sql in [
            "INSERT INTO checkin (date, source, at) VALUES ('2026-05-04', 'manual', 'x')",
            "INSERT INTO checkin (date, source, at) VALUES ('4 May', 'nfc', 'x')",
            "INSERT INTO record (date, status, origin, recordedAt) VALUES ('2026-05-04', 'office', 'automatic', 'x')",
        ] {
            #expect(throws: StoreError.self, "\(sql)") { try store.write { try $0.execute(sql: sql) } }
        }
    }

    @Test func spansSelectByDate() throws {
        for (date, source) in [("2026-04-30", Source.gps), ("2026-05-01", .qr), ("2026-05-31", .qr), ("2026-06-01", .qr)] {
            try store.insertCheckIn(checkIn(date, source, at: "\(date)T08:00:00Z"))
        }
        try store.addRecords([DayRecord(date: day("2026-05-15"), status: .sick, origin: .manual, recordedAt: Date())])
        let may = DateSpan(day("2026-05-01"), day("2026-05-31"))
        #expect(try store.checkIns(in: may).map(\.date) == [day("2026-05-01"), day("2026-05-31")])
        #expect(try store.records(in: may).map(\.date) == [day("2026-05-15")])
        #expect(try store.records(in: DateSpan(day("2026-06-01"), day("2026-06-30"))) == [])
        #expect(try store.dateRange() == DateSpan(day("2026-04-30"), day("2026-06-01")))
    }

    /// The range is each table's own first and last date (four index
    /// look-ups), whichever table holds the earliest or the latest, or either alone.
    @Test func dateRangeTakesEitherTableAlone() throws {
        try store.addRecords([DayRecord(date: day("2026-03-10"), status: .remote, origin: .manual, recordedAt: Date())])
        #expect(try store.dateRange() == DateSpan(day("2026-03-10"), day("2026-03-10")))
        try store.insertCheckIn(checkIn("2026-03-02", .nfc, at: "2026-03-02T08:00:00Z"))
        try store.insertCheckIn(checkIn("2026-03-05", .qr, at: "2026-03-05T08:00:00Z"))
        #expect(try store.dateRange() == DateSpan(day("2026-03-02"), day("2026-03-10")))
        try store.addRecords([DayRecord(date: day("2026-02-27"), status: .sick, origin: .manual, recordedAt: Date())])
        try store.insertCheckIn(checkIn("2026-04-01", .wifi, at: "2026-04-01T08:00:00Z"))
        #expect(try store.dateRange() == DateSpan(day("2026-02-27"), day("2026-04-01")))
        let checkInsOnly = try AttendanceStore.inMemory()
        try checkInsOnly.insertCheckIn(checkIn("2026-05-04", .gps, at: "2026-05-04T08:00:00Z"))
        #expect(try checkInsOnly.dateRange() == DateSpan(day("2026-05-04"), day("2026-05-04")))
    }

    @Test func emptyStoreHasNoDateRange() throws {
        #expect(try store.dateRange() == nil)
        #expect(try store.integrityCheck())
    }

    @Test func removeTouchesOnlyThatDateAndOriginAndRecordsEachRemoval() throws {
        let date = day("2026-05-04")
        try store.addRecords([
            DayRecord(date: date, status: .office, origin: .manual, recordedAt: Date()),
            DayRecord(date: date, status: .remote, origin: .manual, recordedAt: Date()),
            DayRecord(date: date, status: .remote, origin: .import, recordedAt: Date()),
            DayRecord(date: date.adding(days: 1), status: .office, origin: .manual, recordedAt: Date()),
        ])
        try store.insertCheckIn(AutomaticCheckIn(date: date, source: .gps, rule: "hq", at: Date()))
        let at = instant("2026-05-04T18:00:00Z")
        #expect(try store.remove(on: date, origins: [.manual], at: at).map(\.entry) == ["office record", "remote record"])
        #expect(try store.remove(on: date, origins: [.manual], at: at) == [])
        #expect(try store.records(in: nil).map { "\($0.date) \($0.origin)" } == ["2026-05-04 import", "2026-05-05 manual"])
        #expect(try store.remove(on: date, origins: [.automatic, .import], at: at).map(\.entry).sorted()
                == ["gps check-in, rule \"hq\"", "remote record"])
        #expect(try store.checkIns(in: nil) == [])
        #expect(try store.removals(in: DateSpan(date, date)).map { "\($0.origin.rawValue) \($0.entry)" } == [
            "manual office record", "manual remote record", "import remote record", "automatic gps check-in, rule \"hq\"",
        ])
    }

    @Test func recordIfDateIsEmpty() throws {
        let fallback = { (date: String) in
            DayRecord(date: day(date), status: .remote, origin: .fallback, recordedAt: Date())
        }
        try store.insertCheckIn(checkIn("2026-05-04", .wifi, at: "2026-05-04T08:00:00Z"))
        try store.addRecords([DayRecord(date: day("2026-05-05"), status: .sick, origin: .manual, recordedAt: Date())])
        #expect(try !store.addRecordIfDateIsEmpty(fallback("2026-05-04")))
        #expect(try !store.addRecordIfDateIsEmpty(fallback("2026-05-05")))
        #expect(try store.addRecordIfDateIsEmpty(fallback("2026-05-06")))
        #expect(try !store.addRecordIfDateIsEmpty(fallback("2026-05-06")))
        #expect(try store.records(in: nil).filter { $0.origin == .fallback }.map(\.date) == [day("2026-05-06")])
    }

    @Test func observersHearCommits() throws {
        let counter = Counter()
        let observation = store.observeChanges { counter.increment() }
        try store.insertCheckIn(checkIn("2026-05-04", .nfc, at: "2026-05-04T08:00:00Z"))
        try store.insertCheckIn(checkIn("2026-05-04", .nfc, at: "2026-05-04T09:00:00Z")) // duplicate: no change
        try store.addRecords([DayRecord(date: day("2026-05-05"), status: .sick, origin: .manual, recordedAt: Date())])
        observation.cancel()
        try store.insertCheckIn(checkIn("2026-05-06", .nfc, at: "2026-05-06T08:00:00Z"))
        #expect(counter.value == 2)
    }

    /// The compact history reads dates as day numbers computed by SQLite:
    /// they must be the dates stored (before 1970 too), in the store's order.
    @Test func statusHistoryAndCheckInDatesAsDayNumbers() throws {
        try store.addRecords([
            DayRecord(date: day("1969-12-31"), status: .remote, origin: .import, recordedAt: instant("2026-01-02T00:00:00Z")),
            DayRecord(date: day("2024-02-29"), status: .sick, origin: .manual, recordedAt: instant("2026-01-02T00:00:00Z")),
            DayRecord(date: day("2024-02-29"), status: .office, origin: .manual, recordedAt: instant("2026-01-01T00:00:00Z")),
        ])
        for (date, source) in [("2026-11-18", Source.nfc), ("2026-11-18", .gps), ("1970-01-01", .qr), ("2100-03-01", .wifi)] {
            _ = try store.insertCheckIn(checkIn(date, source, at: "2026-11-18T08:00:00Z"))
        }
        let span = DateSpan(day("1960-01-01"), day("2199-12-31"))
        let history = try store.statusHistory(in: span)
        #expect(history.map(\.date) == [day("1969-12-31"), day("2024-02-29"), day("2024-02-29")])
        #expect(history.map(\.status) == [.remote, .sick, .office], "first written first, whatever time each carries")
        #expect(try store.checkInDates(in: span) == [day("1970-01-01"), day("2026-11-18"), day("2100-03-01")])
        #expect(try store.checkInDates(in: DateSpan(day("2026-01-01"), day("2026-12-31"))) == [day("2026-11-18")])
    }

    /// A date no calendar has (allowed by the column's pattern) is reported, not shifted to another day.
    @Test func anImpossibleStoredDateIsReported() throws {
        try store.write { db in
            try db.execute(sql: "INSERT INTO record (date, status, origin, recordedAt) VALUES ('2026-02-30', 'office', 'manual', '2026-01-01T00:00:00.000Z')")
            try db.execute(sql: "INSERT INTO checkin (date, source, at) VALUES ('2026-02-30', 'nfc', '2026-01-01T00:00:00.000Z')")
        }
        let span = DateSpan(day("2026-01-01"), day("2026-12-31"))
        #expect(throws: StoreError.self) { _ = try store.statusHistory(in: span) }
        #expect(throws: StoreError.self) { _ = try store.checkInDates(in: span) }
    }

    @Test func rowsEditedIntoNonsenseAreReportedNotTrapped() throws {
        try store.write { db in
            try db.execute(sql: "INSERT INTO record (date, status, origin, recordedAt) VALUES ('2026-05-04', 'office', 'manual', 'yesterday')")
        }
        let error = #expect(throws: StoreError.self) { _ = try store.records(in: nil) }
        guard case .corrupt = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
    }
}

/// A thread-safe count of calls.
final class Counter: Sendable {
    private let count = Mutex(0)

    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
