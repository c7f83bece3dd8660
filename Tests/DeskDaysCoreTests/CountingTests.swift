import DeskDaysCore
import Testing

/// docs/policy.md "How a status counts", "Workdays" and "Counting a period", re-derived by hand.
@Suite struct CountingTests {
    // MARK: - Treatments and [policy.counts]

    /// A status, a `[policy.counts]` table and the treatment it must get.
    struct TreatmentCase: CustomTestStringConvertible, Sendable {
        var status: AttendanceStatus
        var counts: [AttendanceStatus: Treatment]
        var expected: Treatment
        var testDescription: String { "\(status.rawValue) with \(counts) counts as \(expected.rawValue)" }
    }

    static let treatmentCases: [TreatmentCase] = [
        .init(status: .office, counts: [:], expected: .office),
        .init(status: .remote, counts: [:], expected: .remote),
        .init(status: .travel, counts: [:], expected: .office),
        .init(status: .sick, counts: [:], expected: .excused),
        .init(status: .vacation, counts: [:], expected: .excused),
        .init(status: .leave, counts: [:], expected: .excused),
        .init(status: .travel, counts: [.travel: .office], expected: .office),
        .init(status: .travel, counts: [.travel: .remote], expected: .remote),
        .init(status: .travel, counts: [.travel: .excused], expected: .excused),
        .init(status: .sick, counts: [.sick: .remote], expected: .remote),
        .init(status: .sick, counts: [.sick: .office], expected: .office),
        .init(status: .vacation, counts: [.vacation: .remote], expected: .remote),
        .init(status: .leave, counts: [.leave: .office], expected: .office),
        // An override of one status leaves the others at their defaults.
        .init(status: .vacation, counts: [.sick: .remote], expected: .excused),
        .init(status: .travel, counts: [.sick: .remote], expected: .office),
        // `office` is always office and `remote` always remote, whatever the table says.
        .init(status: .office, counts: [.office: .excused], expected: .office),
        .init(status: .remote, counts: [.remote: .office], expected: .remote),
    ]

    /// Week of Mon 2026-11-16, today Fri 11-20 without a record: Monday holds
    /// the status, Tue–Thu have none (3 unrecorded), Friday is pending.
    @Test(arguments: treatmentCases)
    func treatment(_ c: TreatmentCase) {
        let policy = Policy.make { $0.period = .week; $0.counts = c.counts }
        #expect(policy.treatment(of: c.status) == c.expected)
        var book = Book()
        book["2026-11-16"] = c.status
        let report = policy.report(today: "2026-11-20", book)
        let office = c.expected == .office ? 1 : 0
        let remote = c.expected == .remote ? 1 : 0
        let excused = c.expected == .excused ? 1 : 0
        #expect(DayFigures(report) == DayFigures(workdays: 5, excused: excused, eligible: 5 - excused,
                                                 office: office, remote: remote, unrecorded: 3,
                                                 elapsed: office + remote + 3, pending: 1))
    }

    @Test func defaultCountsAreThePolicyDefaults() {
        #expect(Policy.defaultCounts == [.travel: .office, .sick: .excused, .vacation: .excused, .leave: .excused])
        #expect(Policy.make().counts == Policy.defaultCounts)
    }

    // MARK: - Today and the future

    /// Today's record (or none) and the figures it must give.
    struct TodayCase: CustomTestStringConvertible, Sendable {
        var name: String
        var wednesday: AttendanceStatus?
        var counts: [AttendanceStatus: Treatment] = [:]
        var expected: DayFigures
        var testDescription: String { name }
    }

    /// Week of Mon 2026-11-16, today Wed 11-18; Mon office, Tue remote.
    static let todayCases: [TodayCase] = [
        .init(name: "no record today: pending", wednesday: nil,
              expected: .init(workdays: 5, excused: 0, eligible: 5, office: 1, remote: 1, unrecorded: 0,
                              elapsed: 2, pending: 3)),
        .init(name: "office today counts now", wednesday: .office,
              expected: .init(workdays: 5, excused: 0, eligible: 5, office: 2, remote: 1, unrecorded: 0,
                              elapsed: 3, pending: 2)),
        .init(name: "travel today counts as office", wednesday: .travel,
              expected: .init(workdays: 5, excused: 0, eligible: 5, office: 2, remote: 1, unrecorded: 0,
                              elapsed: 3, pending: 2)),
        .init(name: "remote today counts now", wednesday: .remote,
              expected: .init(workdays: 5, excused: 0, eligible: 5, office: 1, remote: 2, unrecorded: 0,
                              elapsed: 3, pending: 2)),
        .init(name: "sick today, treated remote", wednesday: .sick, counts: [.sick: .remote],
              expected: .init(workdays: 5, excused: 0, eligible: 5, office: 1, remote: 2, unrecorded: 0,
                              elapsed: 3, pending: 2)),
        .init(name: "vacation today is excused", wednesday: .vacation,
              expected: .init(workdays: 5, excused: 1, eligible: 4, office: 1, remote: 1, unrecorded: 0,
                              elapsed: 2, pending: 2)),
    ]

    @Test(arguments: todayCases)
    func today(_ c: TodayCase) {
        let policy = Policy.make { $0.period = .week; $0.counts = c.counts }
        var book = Book()
        book["2026-11-16"] = .office
        book["2026-11-17"] = .remote
        book["2026-11-18"] = c.wednesday
        #expect(DayFigures(policy.report(today: "2026-11-18", book)) == c.expected)
    }

    /// Future records and how many excused and planned office days they make.
    struct PlanCase: CustomTestStringConvertible, Sendable {
        var thursday: AttendanceStatus
        var friday: AttendanceStatus
        var counts: [AttendanceStatus: Treatment] = [:]
        var excused: Int
        var planned: Int
        var testDescription: String { "Thu \(thursday.rawValue), Fri \(friday.rawValue), \(counts)" }
    }

    /// Future records are plans: still pending; office-treated ones are `planned_office`;
    /// future excused days leave the denominator at once.
    static let planCases: [PlanCase] = [
        .init(thursday: .office, friday: .travel, excused: 0, planned: 2),
        .init(thursday: .office, friday: .travel, counts: [.travel: .remote], excused: 0, planned: 1),
        .init(thursday: .remote, friday: .remote, excused: 0, planned: 0),
        .init(thursday: .office, friday: .vacation, excused: 1, planned: 1),
        .init(thursday: .sick, friday: .leave, excused: 2, planned: 0),
        .init(thursday: .sick, friday: .leave, counts: [.sick: .office, .leave: .remote], excused: 0, planned: 1),
    ]

    /// Week of Mon 2026-11-16, today Wed 11-18 without a record, Mon–Tue unrecorded.
    @Test(arguments: planCases)
    func plans(_ c: PlanCase) {
        let policy = Policy.make { $0.period = .week; $0.counts = c.counts }
        var book = Book()
        book["2026-11-19"] = c.thursday
        book["2026-11-20"] = c.friday
        let report = policy.report(today: "2026-11-18", book)
        #expect(DayFigures(report) == DayFigures(workdays: 5, excused: c.excused, eligible: 5 - c.excused,
                                                 office: 0, remote: 0, unrecorded: 2, elapsed: 2,
                                                 pending: 3 - c.excused, plannedOffice: c.planned))
    }

    /// Records outside the period do not leak into it.
    @Test func recordsOutsideThePeriodAreIgnored() {
        let policy = Policy.make { $0.period = .week }
        var book = Book()
        book.fill("2026-11-09", "2026-11-15", .office, weekdays: Set(Weekday.allCases))
        book.fill("2026-11-23", "2026-11-29", .vacation, weekdays: Set(Weekday.allCases))
        #expect(DayFigures(policy.report(today: "2026-11-18", book))
            == DayFigures(workdays: 5, excused: 0, eligible: 5, office: 0, remote: 0, unrecorded: 2,
                          elapsed: 2, pending: 3))
    }

    // MARK: - Workdays and holidays

    /// Sun–Thu workweek, weeks from Sunday: the week of Sun 2026-11-15 … Sat 11-21, seen on Saturday.
    @Test(arguments: [false, true])
    func sundayToThursday(countNonWorkdays: Bool) {
        let policy = Policy.make {
            $0.period = .week
            $0.weekStart = .sunday
            $0.workdays = [.sunday, .monday, .tuesday, .wednesday, .thursday]
            $0.countNonWorkdays = countNonWorkdays
        }
        var book = Book()
        book["2026-11-15"] = .office // Sunday: a workday here
        book["2026-11-16"] = .remote
        book["2026-11-20"] = .office // Friday: weekend here
        book["2026-11-21"] = .office // Saturday, today, with a record
        let report = policy.report(today: "2026-11-21", book)
        #expect(report.period.start == day("2026-11-15") && report.period.end == day("2026-11-21"))
        let extra = countNonWorkdays ? 2 : 0
        #expect(DayFigures(report) == DayFigures(workdays: 5, excused: 0, eligible: 5 + extra, office: 1 + extra,
                                                 remote: 1, unrecorded: 3, elapsed: 5 + extra, pending: 0))
    }

    /// A holiday on Sunday removes a workday of a Sun–Thu week; office on it counts only as an extra day.
    @Test(arguments: [false, true])
    func holidayOnASundayWorkday(countNonWorkdays: Bool) {
        let policy = Policy.make {
            $0.period = .week
            $0.weekStart = .sunday
            $0.workdays = [.sunday, .monday, .tuesday, .wednesday, .thursday]
            $0.holidays = [day("2026-11-15"): "Founders' Day"]
            $0.countNonWorkdays = countNonWorkdays
        }
        var book = Book()
        book["2026-11-15"] = .office
        book["2026-11-16"] = .remote
        let report = policy.report(today: "2026-11-21", book)
        let extra = countNonWorkdays ? 1 : 0
        #expect(DayFigures(report) == DayFigures(workdays: 4, excused: 0, eligible: 4 + extra, office: extra,
                                                 remote: 1, unrecorded: 3, elapsed: 4 + extra, pending: 0))
    }

    /// December 2026, Mon–Fri, seen on Thu Dec 31 without records: 23 weekdays;
    /// a Friday holiday removes one, a Saturday holiday removes none.
    @Test func holidaysOnWeekdaysAndWeekends() {
        let none = Policy.make { $0.period = .month }
        #expect(DayFigures(none.report(today: "2026-12-31"))
            == DayFigures(workdays: 23, excused: 0, eligible: 23, office: 0, remote: 0, unrecorded: 22,
                          elapsed: 22, pending: 1))
        let holidays = Policy.make {
            $0.period = .month
            $0.holidays = [day("2026-12-25"): "Christmas Day", day("2026-12-26"): "Boxing Day"]
        }
        #expect(holidays.isWorkday(day("2026-12-24")))
        #expect(!holidays.isWorkday(day("2026-12-25")))
        #expect(!holidays.isWorkday(day("2026-12-26")))
        #expect(DayFigures(holidays.report(today: "2026-12-31"))
            == DayFigures(workdays: 22, excused: 0, eligible: 22, office: 0, remote: 0, unrecorded: 21,
                          elapsed: 21, pending: 1))
        // A record on a holiday changes nothing: vacation there is not an excused workday,
        // office there is no office day (count_non_workdays is false).
        var book = Book()
        book["2026-12-25"] = .vacation
        book["2026-12-26"] = .office
        #expect(DayFigures(holidays.report(today: "2026-12-31", book))
            == DayFigures(workdays: 22, excused: 0, eligible: 22, office: 0, remote: 0, unrecorded: 21,
                          elapsed: 21, pending: 1))
    }

    // MARK: - count_non_workdays

    /// November 2026, Mon–Fri, holiday Thu Nov 12, today Wed Nov 18 without records on workdays
    /// (11 workdays before today, 9 from today). Non-workdays: Thu 12 (holiday) office,
    /// Sat 14 office, Sun 15 travel, Sat 7 remote, Sun 1 vacation, and a planned office Sat 21.
    static func nonWorkdayBook() -> Book {
        var book = Book()
        book["2026-11-12"] = .office
        book["2026-11-14"] = .office
        book["2026-11-15"] = .travel
        book["2026-11-07"] = .remote
        book["2026-11-01"] = .vacation
        book["2026-11-21"] = .office
        return book
    }

    static func nonWorkdayPolicy(_ on: Bool, travel: Treatment = .office) -> Policy {
        Policy.make {
            $0.period = .month
            $0.holidays = [day("2026-11-12"): "Holiday"]
            $0.countNonWorkdays = on
            $0.counts[.travel] = travel
            $0.target = Target(kind: .percent, hundredths: 5000)
        }
    }

    @Test func nonWorkdaysAreOutsideTheArithmeticByDefault() {
        let report = Self.nonWorkdayPolicy(false).report(today: "2026-11-18", Self.nonWorkdayBook())
        #expect(DayFigures(report) == DayFigures(workdays: 20, excused: 0, eligible: 20, office: 0, remote: 0,
                                                 unrecorded: 11, elapsed: 11, pending: 9))
        #expect(report.required == 10)
    }

    /// Past weekend/holiday office days (incl. travel treated office) add 1 to office and 1 to eligible;
    /// the planned Saturday does not count yet (the code's reading: only once it has happened),
    /// and a non-workday is never a pending or planned day.
    @Test func countNonWorkdaysAddsOfficeAndEligible() {
        let report = Self.nonWorkdayPolicy(true).report(today: "2026-11-18", Self.nonWorkdayBook())
        #expect(DayFigures(report) == DayFigures(workdays: 20, excused: 0, eligible: 23, office: 3, remote: 0,
                                                 unrecorded: 11, elapsed: 14, pending: 9, plannedOffice: 0))
        #expect(report.required == 12) // ceil(0.5 × 23)
        let travelRemote = Self.nonWorkdayPolicy(true, travel: .remote).report(today: "2026-11-18", Self.nonWorkdayBook())
        #expect(DayFigures(travelRemote) == DayFigures(workdays: 20, excused: 0, eligible: 22, office: 2, remote: 0,
                                                       unrecorded: 11, elapsed: 13, pending: 9))
        // Once the Saturday is over it counts.
        let later = Self.nonWorkdayPolicy(true).report(today: "2026-11-23", Self.nonWorkdayBook())
        #expect(later.office == 4 && later.eligible == 24)
    }

    /// A weekend office day that is today, with its record, counts at once.
    @Test func weekendOfficeToday() {
        let policy = Policy.make { $0.period = .week; $0.countNonWorkdays = true }
        var book = Book()
        book["2026-11-21"] = .office
        #expect(DayFigures(policy.report(today: "2026-11-21", book))
            == DayFigures(workdays: 5, excused: 0, eligible: 6, office: 1, remote: 0, unrecorded: 5,
                          elapsed: 6, pending: 0))
    }

    /// An empty workweek: nothing is a workday; with count_non_workdays an office day is the only eligible day.
    @Test(arguments: [false, true])
    func noWorkdaysAtAll(countNonWorkdays: Bool) {
        let policy = Policy.make { $0.period = .week; $0.workdays = []; $0.countNonWorkdays = countNonWorkdays }
        var book = Book()
        book["2026-11-17"] = .office
        let report = policy.report(today: "2026-11-18", book)
        let extra = countNonWorkdays ? 1 : 0
        #expect(DayFigures(report) == DayFigures(workdays: 0, excused: 0, eligible: extra, office: extra, remote: 0,
                                                 unrecorded: 0, elapsed: extra, pending: 0))
        #expect(report.status == .met)
    }
}
