import DeskDaysCore
import Foundation
import Testing

/// docs/policy.md "Statuses and where a day's status comes from": precedence per date.
@Suite struct ResolverTests {
    static let date = day("2026-11-18")

    static func record(_ status: AttendanceStatus, _ origin: Origin, at time: String, id: Int64? = nil,
                       on date: LocalDate = date) -> DayRecord {
        DayRecord(id: id, date: date, status: status, origin: origin, recordedAt: instant(time))
    }

    static func checkIn(_ source: Source, at time: String = "2026-11-18T08:05:00Z",
                        on date: LocalDate = date) -> AutomaticCheckIn {
        AutomaticCheckIn(date: date, source: source, rule: "desk", at: instant(time))
    }

    /// The records and check-ins of one date and what must resolve from them.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var records: [DayRecord]
        var checkIns: [AutomaticCheckIn]
        var status: AttendanceStatus?
        var origin: Origin?
        var sources: [Source]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        .init(name: "nothing: no status", records: [], checkIns: [], status: nil, origin: nil, sources: []),
        .init(name: "the last written manual record wins (its id, which only grows), not the clock time it carries",
              records: [record(.remote, .manual, at: "2026-11-18T09:00:00Z", id: 7),
                        record(.sick, .manual, at: "2026-11-18T10:00:00Z", id: 3),
                        record(.office, .manual, at: "2026-11-18T07:00:00Z", id: 9)],
              checkIns: [], status: .office, origin: .manual, sources: [.manual]),
        .init(name: "manual records written at the same instant: the greater id wins",
              records: [record(.vacation, .manual, at: "2026-11-18T09:00:00Z", id: 5),
                        record(.leave, .manual, at: "2026-11-18T09:00:00Z", id: 4)],
              checkIns: [], status: .vacation, origin: .manual, sources: [.manual]),
        .init(name: "a manual record beats an automatic check-in, even a later one",
              records: [record(.remote, .manual, at: "2026-11-18T07:00:00Z")],
              checkIns: [checkIn(.nfc, at: "2026-11-18T08:30:00Z")],
              status: .remote, origin: .manual, sources: [.nfc, .manual]),
        .init(name: "an automatic check-in makes the day office",
              records: [], checkIns: [checkIn(.wifi)], status: .office, origin: .automatic, sources: [.wifi]),
        .init(name: "automatic beats import",
              records: [record(.remote, .import, at: "2026-12-01T00:00:00Z")],
              checkIns: [checkIn(.gps)], status: .office, origin: .automatic, sources: [.gps, .import]),
        .init(name: "a later automatic check-in replaces the fallback",
              records: [record(.remote, .fallback, at: "2026-11-18T19:00:00Z")],
              checkIns: [checkIn(.qr, at: "2026-11-18T21:00:00Z")],
              status: .office, origin: .automatic, sources: [.qr, .fallback]),
        .init(name: "an external event is an automatic check-in",
              records: [record(.remote, .fallback, at: "2026-11-18T19:00:00Z")],
              checkIns: [checkIn(.external)], status: .office, origin: .automatic, sources: [.external, .fallback]),
        .init(name: "import beats fallback; the latest import wins",
              records: [record(.remote, .fallback, at: "2026-11-18T19:00:00Z"),
                        record(.travel, .import, at: "2026-11-20T10:00:00Z"),
                        record(.office, .import, at: "2026-11-19T10:00:00Z")],
              checkIns: [], status: .travel, origin: .import, sources: [.import, .fallback]),
        .init(name: "fallback alone", records: [record(.remote, .fallback, at: "2026-11-18T19:00:00Z")],
              checkIns: [], status: .remote, origin: .fallback, sources: [.fallback]),
        .init(name: "every level present: manual; every source listed once, in order",
              records: [record(.leave, .manual, at: "2026-11-18T06:00:00Z"),
                        record(.remote, .import, at: "2026-11-18T07:00:00Z"),
                        record(.remote, .fallback, at: "2026-11-18T19:00:00Z")],
              checkIns: [checkIn(.wifi), checkIn(.nfc), checkIn(.gps, at: "2026-11-18T12:00:00Z"), checkIn(.qr),
                         checkIn(.nfc, at: "2026-11-18T13:00:00Z")],
              status: .leave, origin: .manual,
              sources: [.nfc, .qr, .wifi, .gps, .manual, .import, .fallback]),
        .init(name: "records and check-ins of other dates are ignored",
              records: [record(.office, .manual, at: "2026-11-18T07:00:00Z", on: day("2026-11-17")),
                        record(.remote, .fallback, at: "2026-11-18T19:00:00Z")],
              checkIns: [checkIn(.nfc, on: day("2026-11-19"))],
              status: .remote, origin: .fallback, sources: [.fallback]),
    ]

    @Test(arguments: cases)
    func resolve(_ c: Case) {
        let resolved = Resolver.resolve(Self.date, records: c.records, checkIns: c.checkIns)
        #expect(resolved.date == Self.date)
        #expect(resolved.status == c.status)
        #expect(resolved.origin == c.origin)
        #expect(resolved.sources == c.sources)
        // Input order never matters.
        let reversed = Resolver.resolve(Self.date, records: c.records.reversed(), checkIns: c.checkIns.reversed())
        #expect(reversed == resolved)
    }

    /// The span form agrees with the per-date form and covers only dates with something recorded.
    @Test func resolveASpan() {
        let records = [Self.record(.vacation, .manual, at: "2026-11-01T10:00:00Z", on: day("2026-11-20")),
                       Self.record(.remote, .fallback, at: "2026-11-18T19:00:00Z"),
                       Self.record(.office, .import, at: "2026-11-30T10:00:00Z", on: day("2026-12-01"))]
        let checkIns = [Self.checkIn(.nfc), Self.checkIn(.wifi, on: day("2026-11-16"))]
        let span = DateSpan(day("2026-11-16"), day("2026-11-22"))
        let resolved = Resolver.resolve(span, records: records, checkIns: checkIns)
        #expect(Set(resolved.keys) == [day("2026-11-16"), day("2026-11-18"), day("2026-11-20")])
        #expect(resolved[day("2026-11-16")]?.status == .office)
        #expect(resolved[day("2026-11-18")]?.origin == .automatic)
        #expect(resolved[day("2026-11-18")]?.sources == [.nfc, .fallback])
        #expect(resolved[day("2026-11-20")]?.status == .vacation)
        for date in span {
            let single = Resolver.resolve(date, records: records, checkIns: checkIns)
            #expect((resolved[date] ?? ResolvedDay(date: date, status: nil, origin: nil, sources: [])) == single)
        }
    }

    /// `DayStatuses`, the flat form for long histories fed in the store's
    /// order, agrees with the per-date resolver on random mixes of records
    /// (ties in time included) and check-ins, over a span with dates outside it too.
    @Test func dayStatusesAgreeWithTheResolver() {
        var random = SystemRandomNumberGenerator()
        let origins: [Origin] = [.manual, .import, .fallback]
        var mismatches: [String] = []
        for round in 0..<100 {
            let base = day("2026-11-01")
            var records: [DayRecord] = []
            for id in 0..<Int.random(in: 0...40, using: &random) {
                let at = Date(timeIntervalSince1970: 1_790_000_000 + Double(Int.random(in: 0...3, using: &random)) * 60)
                records.append(DayRecord(id: Int64(id),
                                         date: base.adding(days: Int.random(in: -3...17, using: &random)),
                                         status: AttendanceStatus.allCases.randomElement(using: &random)!,
                                         origin: origins.randomElement(using: &random)!, recordedAt: at))
            }
            let checkIns = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                Self.checkIn(.nfc, on: base.adding(days: Int.random(in: -3...17, using: &random)))
            }
            let span = DateSpan(base, base.adding(days: 13))
            // The store's order: by date, then id (the order written; unique, as in the store).
            let ordered = records.sorted { a, b in
                (a.date, a.id ?? 0) < (b.date, b.id ?? 0)
            }.map { DayStatuses.Entry(date: $0.date, status: $0.status, origin: $0.origin) }
            let compact = DayStatuses(span, orderedRecords: ordered, checkInDates: checkIns.map(\.date))
            for date in DateSpan(base.adding(days: -5), base.adding(days: 20)) {
                let expected = span.contains(date) ? Resolver.resolve(date, records: records, checkIns: checkIns).status : nil
                if compact[date] != expected { mismatches.append("round \(round), \(date)") }
            }
        }
        #expect(mismatches.isEmpty)
    }

    @Test func automaticSources() {
        #expect(Source.automatic == [.nfc, .qr, .wifi, .gps, .wired, .external, .import])
        #expect(Source.allCases.filter(\.isAutomatic) == Source.automatic)
        #expect(Source(origin: .manual) == .manual)
        #expect(Source(origin: .import) == .import)
        #expect(Source(origin: .fallback) == .fallback)
    }
}
