import DeskDaysCore
import Foundation
import Testing

/// docs/policy.md "Plans need you": a manual office or remote record written
/// ahead is a plan, which an arrival confirms or overrules and which, for
/// office, counts for nothing once its date is past unconfirmed.
@Suite struct PlanTests {
    static let planned = day("2026-11-19")
    static let written = Date(timeIntervalSince1970: 1_795_000_000)

    static func record(_ status: AttendanceStatus, _ origin: Origin = .manual, plan: DayRecord.Plan? = .ahead) -> DayRecord {
        DayRecord(date: planned, status: status, origin: origin, recordedAt: written, plan: plan)
    }

    static let arrival = AutomaticCheckIn(date: planned, source: .nfc, rule: "hq", at: instant("2026-11-19T08:52:00Z"))

    @Test func onlyOfficeAndRemoteAheadArePlans() {
        #expect(DayRecord.plan(for: .office, on: Self.planned, today: day("2026-11-18")) == .ahead)
        #expect(DayRecord.plan(for: .remote, on: Self.planned, today: day("2026-11-18")) == .ahead)
        #expect(DayRecord.plan(for: .office, on: Self.planned, today: Self.planned) == nil)
        for status in [AttendanceStatus.travel, .vacation, .sick, .leave] {
            #expect(DayRecord.plan(for: status, on: Self.planned, today: day("2026-11-18")) == nil, "\(status) in advance stands")
        }
    }

    @Test func anUnconfirmedOfficePlanIsPendingThenNothing() {
        for today in ["2026-11-18", "2026-11-19"] {
            let day = Resolver.resolve(Self.planned, records: [Self.record(.office)], checkIns: [], today: LocalDate(today)!)
            #expect(day.status == .office && day.plan == .ahead, "\(today)")
        }
        let past = Resolver.resolve(Self.planned, records: [Self.record(.office)], checkIns: [], today: day("2026-11-20"))
        #expect(past.status == nil && past.origin == nil)
        // As if absent: a fallback decides.
        let fallback = DayRecord(date: Self.planned, status: .remote, origin: .fallback, recordedAt: Self.written)
        #expect(Resolver.resolve(Self.planned, records: [Self.record(.office), fallback], checkIns: [], today: day("2026-11-20")).status == .remote)
        // A record that is no plan stands as before.
        #expect(Resolver.resolve(Self.planned, records: [Self.record(.office, plan: nil)], checkIns: [], today: day("2026-11-20")).status == .office)
    }

    @Test func anArrivalConfirmsOrOverrules() {
        for status in [AttendanceStatus.office, .remote] {
            let day = Resolver.resolve(Self.planned, records: [Self.record(status)], checkIns: [Self.arrival], today: day("2026-11-20"))
            #expect(day.status == .office && day.origin == .automatic && day.plan == nil, "\(status) plan")
        }
        // A short day (min_hours) confirms nothing.
        let short = Resolver.resolve(Self.planned, records: [Self.record(.office)], checkIns: [Self.arrival], short: true,
                                     today: day("2026-11-20"))
        #expect(short.status == nil)
        // A remote plan never overruled counts as remote.
        #expect(Resolver.resolve(Self.planned, records: [Self.record(.remote)], checkIns: [], today: day("2026-11-20")).status == .remote)
        // A manual record written on the day replaces the plan, arrival or not.
        let answer = DayRecord(date: Self.planned, status: .remote, origin: .manual, recordedAt: Self.written.addingTimeInterval(60))
        #expect(Resolver.resolve(Self.planned, records: [Self.record(.office), answer], checkIns: [Self.arrival], today: day("2026-11-19")).status == .remote)
    }

    @Test func theReportCountsAPlanOnlyOnceConfirmed() {
        let policy = Policy.make { $0.period = .week; $0.target = Target(kind: .percent, hundredths: 6000) }
        let engine = PolicyEngine(policy: policy)
        // On the day, unconfirmed: pending and planned, not office.
        let onTheDay = engine.report(today: Self.planned, records: [Self.record(.office)], checkIns: [])
        #expect(onTheDay.office == 0 && onTheDay.plannedOffice == 1)
        // The day after: nothing (unrecorded).
        let after = engine.report(today: day("2026-11-20"), records: [Self.record(.office)], checkIns: [])
        #expect(after.office == 0 && after.plannedOffice == 0 && after.unrecorded == 4)
        // Confirmed by the arrival: office.
        let confirmed = engine.report(today: day("2026-11-20"), records: [Self.record(.office)], checkIns: [Self.arrival])
        #expect(confirmed.office == 1)
    }
}
