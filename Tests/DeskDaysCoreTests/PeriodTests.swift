import DeskDaysCore
import Testing

/// docs/policy.md "Periods": every kind, fiscal years, labels, `previous` and by-date selectors.
@Suite struct PeriodTests {
    /// A period kind and settings, a date, and the period that must contain it.
    struct PeriodCase: CustomTestStringConvertible, Sendable {
        var kind: PeriodKind
        var date: String
        var weekStart: Weekday = .monday
        var fiscalStart = 1
        var rollingWeeks = 12
        var start: String
        var end: String
        var label: String?
        var testDescription: String { "\(kind.rawValue) of \(date) (fy \(fiscalStart), week \(weekStart.key))" }
    }

    static let cases: [PeriodCase] = [
        // Weeks: Wed 2026-11-18.
        .init(kind: .week, date: "2026-11-18", start: "2026-11-16", end: "2026-11-22"),
        .init(kind: .week, date: "2026-11-18", weekStart: .sunday, start: "2026-11-15", end: "2026-11-21"),
        .init(kind: .week, date: "2026-11-18", weekStart: .saturday, start: "2026-11-14", end: "2026-11-20"),
        .init(kind: .week, date: "2026-11-16", start: "2026-11-16", end: "2026-11-22"),
        .init(kind: .week, date: "2026-11-22", start: "2026-11-16", end: "2026-11-22"),
        .init(kind: .week, date: "2026-11-22", weekStart: .sunday, start: "2026-11-22", end: "2026-11-28"),
        .init(kind: .week, date: "2027-01-01", start: "2026-12-28", end: "2027-01-03"),
        // Months, with leap Februaries.
        .init(kind: .month, date: "2026-11-18", start: "2026-11-01", end: "2026-11-30", label: "November 2026"),
        .init(kind: .month, date: "2026-02-10", start: "2026-02-01", end: "2026-02-28", label: "February 2026"),
        .init(kind: .month, date: "2028-02-29", start: "2028-02-01", end: "2028-02-29", label: "February 2028"),
        .init(kind: .month, date: "2100-02-01", start: "2100-02-01", end: "2100-02-28", label: "February 2100"),
        .init(kind: .month, date: "2026-12-31", start: "2026-12-01", end: "2026-12-31", label: "December 2026"),
        // Quarters: calendar years.
        .init(kind: .quarter, date: "2026-11-18", start: "2026-10-01", end: "2026-12-31", label: "Q4 2026"),
        .init(kind: .quarter, date: "2026-01-01", start: "2026-01-01", end: "2026-03-31", label: "Q1 2026"),
        .init(kind: .quarter, date: "2028-02-29", start: "2028-01-01", end: "2028-03-31", label: "Q1 2028"),
        .init(kind: .quarter, date: "2026-06-30", start: "2026-04-01", end: "2026-06-30", label: "Q2 2026"),
        // Fiscal years from April.
        .init(kind: .quarter, date: "2026-11-18", fiscalStart: 4, start: "2026-10-01", end: "2026-12-31",
              label: "Q3 FY2027"),
        .init(kind: .quarter, date: "2027-02-01", fiscalStart: 4, start: "2027-01-01", end: "2027-03-31",
              label: "Q4 FY2027"),
        .init(kind: .quarter, date: "2026-03-31", fiscalStart: 4, start: "2026-01-01", end: "2026-03-31",
              label: "Q4 FY2026"),
        .init(kind: .quarter, date: "2026-04-01", fiscalStart: 4, start: "2026-04-01", end: "2026-06-30",
              label: "Q1 FY2027"),
        // Fiscal years from October: Q1 is October–December.
        .init(kind: .quarter, date: "2026-11-18", fiscalStart: 10, start: "2026-10-01", end: "2026-12-31",
              label: "Q1 FY2027"),
        .init(kind: .quarter, date: "2026-09-30", fiscalStart: 10, start: "2026-07-01", end: "2026-09-30",
              label: "Q4 FY2026"),
        .init(kind: .quarter, date: "2027-01-15", fiscalStart: 10, start: "2027-01-01", end: "2027-03-31",
              label: "Q2 FY2027"),
        // Quarters that straddle calendar quarters (fiscal year from February).
        .init(kind: .quarter, date: "2026-01-31", fiscalStart: 2, start: "2025-11-01", end: "2026-01-31",
              label: "Q4 FY2026"),
        .init(kind: .quarter, date: "2028-03-05", fiscalStart: 2, start: "2028-02-01", end: "2028-04-30",
              label: "Q1 FY2029"),
        // Years.
        .init(kind: .year, date: "2026-11-18", start: "2026-01-01", end: "2026-12-31", label: "2026"),
        .init(kind: .year, date: "2026-11-18", fiscalStart: 4, start: "2026-04-01", end: "2027-03-31", label: "FY2027"),
        .init(kind: .year, date: "2026-03-15", fiscalStart: 4, start: "2025-04-01", end: "2026-03-31", label: "FY2026"),
        .init(kind: .year, date: "2026-11-18", fiscalStart: 10, start: "2026-10-01", end: "2027-09-30",
              label: "FY2027"),
        .init(kind: .year, date: "2027-02-28", fiscalStart: 3, start: "2026-03-01", end: "2027-02-28", label: "FY2027"),
        .init(kind: .year, date: "2028-02-29", fiscalStart: 3, start: "2027-03-01", end: "2028-02-29", label: "FY2028"),
        .init(kind: .year, date: "2026-12-31", fiscalStart: 12, start: "2026-12-01", end: "2027-11-30",
              label: "FY2027"),
        // Rolling windows of whole weeks ending with the week of the date.
        .init(kind: .rolling, date: "2026-11-18", start: "2026-08-31", end: "2026-11-22"),
        .init(kind: .rolling, date: "2026-11-18", rollingWeeks: 4, start: "2026-10-26", end: "2026-11-22"),
        .init(kind: .rolling, date: "2026-11-18", rollingWeeks: 1, start: "2026-11-16", end: "2026-11-22"),
        .init(kind: .rolling, date: "2026-11-18", weekStart: .sunday, rollingWeeks: 2,
              start: "2026-11-08", end: "2026-11-21"),
        .init(kind: .rolling, date: "2024-03-03", rollingWeeks: 2, start: "2024-02-19", end: "2024-03-03"),
    ]

    @Test(arguments: cases)
    func periodContaining(_ c: PeriodCase) {
        let policy = Policy.make {
            $0.period = c.kind
            $0.weekStart = c.weekStart
            $0.fiscalYearStartMonth = c.fiscalStart
            $0.rollingWeeks = c.rollingWeeks
        }
        let period = policy.period(c.kind, containing: day(c.date))
        #expect(period.kind == c.kind)
        #expect(period.start == day(c.start))
        #expect(period.end == day(c.end))
        if let label = c.label { #expect(period.label == label) }
        // The report's current period and its by-date period agree with it.
        #expect(policy.reportPeriod(.current, today: day(c.date)) == period)
        #expect(policy.reportPeriod(.containing(day(c.date)), today: day("1999-06-15")) == period)
        #expect(policy.reportPeriod(.containing(day(c.end)), today: day(c.date)) == period)
    }

    /// A period kind seen on `today`, and the period before the current one.
    struct PreviousCase: CustomTestStringConvertible, Sendable {
        var kind: PeriodKind
        var today: String
        var fiscalStart = 1
        var start: String
        var end: String
        var label: String?
        var testDescription: String { "previous \(kind.rawValue) from \(today) (fy \(fiscalStart))" }
    }

    static let previousCases: [PreviousCase] = [
        .init(kind: .week, today: "2026-11-18", start: "2026-11-09", end: "2026-11-15"),
        .init(kind: .week, today: "2026-01-01", start: "2025-12-22", end: "2025-12-28"),
        .init(kind: .month, today: "2026-03-31", start: "2026-02-01", end: "2026-02-28", label: "February 2026"),
        .init(kind: .month, today: "2026-01-15", start: "2025-12-01", end: "2025-12-31", label: "December 2025"),
        .init(kind: .quarter, today: "2026-11-18", start: "2026-07-01", end: "2026-09-30", label: "Q3 2026"),
        .init(kind: .quarter, today: "2026-02-01", start: "2025-10-01", end: "2025-12-31", label: "Q4 2025"),
        .init(kind: .quarter, today: "2026-11-18", fiscalStart: 10, start: "2026-07-01", end: "2026-09-30",
              label: "Q4 FY2026"),
        .init(kind: .year, today: "2026-11-18", start: "2025-01-01", end: "2025-12-31", label: "2025"),
        .init(kind: .year, today: "2026-11-18", fiscalStart: 4, start: "2025-04-01", end: "2026-03-31",
              label: "FY2026"),
        .init(kind: .rolling, today: "2026-11-18", start: "2026-06-08", end: "2026-08-30"),
    ]

    @Test(arguments: previousCases)
    func previousPeriod(_ c: PreviousCase) {
        let policy = Policy.make { $0.period = c.kind; $0.fiscalYearStartMonth = c.fiscalStart }
        let period = policy.reportPeriod(.previous, today: day(c.today))
        #expect(period.kind == c.kind)
        #expect(period.start == day(c.start))
        #expect(period.end == day(c.end))
        if let label = c.label { #expect(period.label == label) }
        // The report uses it too.
        let report = policy.report(today: c.today, Book(), .previous)
        #expect(report.period == period)
        #expect(report.pending == 0) // the previous period is entirely past
    }

    @Test func selectorParsing() {
        #expect(PeriodSelector("current") == .current)
        #expect(PeriodSelector("previous") == .previous)
        #expect(PeriodSelector("2026-02-14") == .containing(day("2026-02-14")))
        for bad in ["", "Current", "last", "2026-02-30", "2026-2-14", "14/02/2026", "2026-02-14T00:00"] {
            #expect(PeriodSelector(bad) == nil, "\(bad)")
        }
    }

    /// A by-date period in the future: every workday is pending; in the past: every workday elapsed.
    @Test func byDateSelectorsAroundToday() {
        let policy = Policy.make { $0.period = .month }
        let future = policy.report(today: "2026-11-18", Book(), .containing(day("2027-02-14")))
        #expect(future.period.label == "February 2027")
        #expect(DayFigures(future) == DayFigures(workdays: 20, excused: 0, eligible: 20, office: 0, remote: 0,
                                                 unrecorded: 0, elapsed: 0, pending: 20))
        #expect(future.complianceToDate == nil)
        let past = policy.report(today: "2026-11-18", Book(), .containing(day("2026-02-14")))
        #expect(DayFigures(past) == DayFigures(workdays: 20, excused: 0, eligible: 20, office: 0, remote: 0,
                                               unrecorded: 20, elapsed: 20, pending: 0))
    }

    /// best_weeks uses its trailing window whatever `policy.period` says, reported as rolling.
    @Test func bestWeeksWindowOverridesThePeriod() {
        let policy = Policy.make {
            $0.period = .quarter
            $0.rollingWeeks = 12
            $0.target = Target(kind: .bestWeeks, hundredths: 500, best: 2, window: 4)
        }
        let current = policy.reportPeriod(.current, today: day("2026-11-18"))
        #expect(current.kind == .rolling)
        #expect(current.start == day("2026-10-26") && current.end == day("2026-11-22"))
        let previous = policy.reportPeriod(.previous, today: day("2026-11-18"))
        #expect(previous.start == day("2026-09-28") && previous.end == day("2026-10-25"))
        let byDate = policy.reportPeriod(.containing(day("2026-01-01")), today: day("2026-11-18"))
        #expect(byDate.start == day("2025-12-08") && byDate.end == day("2026-01-04"))
    }
}
