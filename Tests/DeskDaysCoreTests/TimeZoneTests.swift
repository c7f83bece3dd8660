import DeskDaysCore
import Foundation
import PropertyBased
import Testing

/// docs/policy.md "Dates and time zones": a timestamp's local date in `policy.timezone`.
@Suite struct TimeZoneTests {
    /// An instant in a zone and its local date.
    struct Case: CustomTestStringConvertible, Sendable {
        var zone: String
        var instant: String
        var date: String
        var testDescription: String { "\(instant) in \(zone) is \(date)" }
    }

    static let cases: [Case] = [
        // docs/policy.md's own example (also the night after Berlin's spring-forward).
        .init(zone: "Europe/Berlin", instant: "2026-03-29T23:30:00Z", date: "2026-03-30"),
        .init(zone: "UTC", instant: "2026-03-29T23:30:00Z", date: "2026-03-29"),
        // East of Greenwich 23:30 UTC is already the next day, west it is the same day,
        // and early UTC hours are still the previous day in the west.
        .init(zone: "Asia/Tokyo", instant: "2026-11-18T23:30:00Z", date: "2026-11-19"),
        .init(zone: "Asia/Tokyo", instant: "2026-11-18T14:59:59Z", date: "2026-11-18"),
        .init(zone: "Asia/Tokyo", instant: "2026-11-18T15:00:00Z", date: "2026-11-19"),
        .init(zone: "America/New_York", instant: "2026-11-18T23:30:00Z", date: "2026-11-18"),
        .init(zone: "America/New_York", instant: "2026-11-19T03:30:00Z", date: "2026-11-18"),
        .init(zone: "America/New_York", instant: "2026-11-19T05:00:00Z", date: "2026-11-19"),
        .init(zone: "Pacific/Kiritimati", instant: "2026-11-18T10:00:00Z", date: "2026-11-19"),
        .init(zone: "Pacific/Pago_Pago", instant: "2026-11-19T10:00:00Z", date: "2026-11-18"),
        .init(zone: "Asia/Kolkata", instant: "2026-11-18T18:29:59Z", date: "2026-11-18"),
        .init(zone: "Asia/Kolkata", instant: "2026-11-18T18:30:00Z", date: "2026-11-19"),
        // Berlin, spring forward on Sun 2026-03-29 (a 23-hour day): its first and last instants.
        .init(zone: "Europe/Berlin", instant: "2026-03-28T22:59:59Z", date: "2026-03-28"),
        .init(zone: "Europe/Berlin", instant: "2026-03-28T23:00:00Z", date: "2026-03-29"),
        .init(zone: "Europe/Berlin", instant: "2026-03-29T01:00:00Z", date: "2026-03-29"),
        .init(zone: "Europe/Berlin", instant: "2026-03-29T21:59:59Z", date: "2026-03-29"),
        .init(zone: "Europe/Berlin", instant: "2026-03-29T22:00:00Z", date: "2026-03-30"),
        // Berlin, fall back on Sun 2026-10-25 (a 25-hour day).
        .init(zone: "Europe/Berlin", instant: "2026-10-24T21:59:59Z", date: "2026-10-24"),
        .init(zone: "Europe/Berlin", instant: "2026-10-24T22:00:00Z", date: "2026-10-25"),
        .init(zone: "Europe/Berlin", instant: "2026-10-25T22:59:59Z", date: "2026-10-25"),
        .init(zone: "Europe/Berlin", instant: "2026-10-25T23:00:00Z", date: "2026-10-26"),
        // Los Angeles, spring forward on Sun 2026-03-08, fall back on Sun 2026-11-01.
        .init(zone: "America/Los_Angeles", instant: "2026-03-08T07:59:59Z", date: "2026-03-07"),
        .init(zone: "America/Los_Angeles", instant: "2026-03-08T08:00:00Z", date: "2026-03-08"),
        .init(zone: "America/Los_Angeles", instant: "2026-03-09T06:59:59Z", date: "2026-03-08"),
        .init(zone: "America/Los_Angeles", instant: "2026-03-09T07:00:00Z", date: "2026-03-09"),
        .init(zone: "America/Los_Angeles", instant: "2026-11-01T06:59:59Z", date: "2026-10-31"),
        .init(zone: "America/Los_Angeles", instant: "2026-11-01T07:00:00Z", date: "2026-11-01"),
        .init(zone: "America/Los_Angeles", instant: "2026-11-02T07:59:59Z", date: "2026-11-01"),
        .init(zone: "America/Los_Angeles", instant: "2026-11-02T08:00:00Z", date: "2026-11-02"),
    ]

    @Test(arguments: cases)
    func localDate(_ c: Case) {
        let policy = Policy.make { $0.timeZone = zone(c.zone) }
        #expect(policy.localDate(of: instant(c.instant)) == day(c.date))
    }

    static let zones = ["UTC", "Europe/Berlin", "America/Los_Angeles", "America/New_York", "Asia/Tokyo",
                        "Australia/Lord_Howe", "America/Sao_Paulo", "Pacific/Apia"]

    /// Noon of every day of 2024–2028 (leap years and DST days included) maps back to its date,
    /// and consecutive noons are consecutive dates: no DST day is skipped or repeated.
    @Test(arguments: zones)
    func noonRoundTripsEveryDay(_ identifier: String) {
        let policy = Policy.make { $0.timeZone = zone(identifier) }
        var previous: LocalDate?
        for date in DateSpan(day("2024-01-01"), day("2028-12-31")) {
            let back = policy.localDate(of: policy.instant(of: date))
            if back != date || (previous.map { $0.adding(days: 1) != date } ?? false) {
                Issue.record("\(identifier): noon of \(date) is on \(back)")
                return
            }
            previous = back
        }
    }

    /// The first and last minute of DST transition days stay on their date.
    @Test(arguments: [("Europe/Berlin", "2026-03-29"), ("Europe/Berlin", "2026-10-25"),
                      ("America/Los_Angeles", "2026-03-08"), ("America/Los_Angeles", "2026-11-01")])
    func transitionDayEdges(identifier: String, text: String) {
        let policy = Policy.make { $0.timeZone = zone(identifier) }
        let date = day(text)
        #expect(policy.localDate(of: policy.instant(of: date, hour: 0, minute: 0)) == date)
        #expect(policy.localDate(of: policy.instant(of: date, hour: 23, minute: 59)) == date)
        #expect(policy.localDate(of: policy.instant(of: date, hour: 0, minute: 0).addingTimeInterval(-60))
            == date.adding(days: -1))
        #expect(policy.localDate(of: policy.instant(of: date, hour: 23, minute: 59).addingTimeInterval(60))
            == date.adding(days: 1))
        // The 2:30 that does not exist on spring-forward days still lands on the same date.
        #expect(policy.localDate(of: policy.instant(of: date, hour: 2, minute: 30)) == date)
    }

    /// Any instant's local date is its UTC date shifted by at most one day, by the zone's offset.
    @Test func localDateFollowsTheOffset() async {
        await propertyCheck(count: 300, input: Gen.int(in: 1_500_000_000...2_000_000_000),
                            Gen.element(of: Self.zones)) { seconds, identifier in
            let moment = Date(timeIntervalSince1970: Double(seconds))
            let tz = zone(identifier ?? "UTC")
            let policy = Policy.make { $0.timeZone = tz }
            let shifted = seconds + tz.secondsFromGMT(for: moment)
            let expected = LocalDate(dayNumber: Int((Double(shifted) / 86_400).rounded(.down)))
            #expect(policy.localDate(of: moment) == expected)
        }
    }
}
