import DeskDaysCore
import Testing

/// docs/policy.md "The rule's start": `policy.starts` shortens the period
/// that contains it to P' and leaves earlier periods without a target. Each
/// figure worked out by hand for Q4 2026 (Thu 1 Oct – Thu 31 Dec, 66
/// weekdays) with the rule starting Wed 2026-11-18 (P': 32 weekdays).
@Suite struct RuleStartTests {
    static func policy(_ target: Target, period: PeriodKind = .quarter, starts: String = "2026-11-18") -> Policy {
        Policy.make {
            $0.period = period
            $0.target = target
            $0.starts = day(starts)
        }
    }

    /// Office on the two days before the start: outside the rule, never counted.
    static var before: Book {
        var book = Book()
        book.set(.office, on: "2026-11-16", "2026-11-17")
        return book
    }

    @Test func thePeriodBeginsOnTheStart() {
        let report = Self.policy(Target(kind: .percent, hundredths: 6000)).report(today: "2026-11-18", Self.before)
        #expect(report.period.start == day("2026-11-18") && report.period.end == day("2026-12-31"))
        #expect(report.period.whole == DateSpan(day("2026-10-01"), day("2026-12-31")))
        #expect(report.period.label == "Q4 2026")
        // 60 % of 32: ceil(19.2) = 20; the office days before the start are not in it.
        #expect(DayFigures(report) == DayFigures(workdays: 32, excused: 0, eligible: 32, office: 0, remote: 0,
                                                  unrecorded: 0, elapsed: 0, pending: 32))
        #expect(report.required == 20)
    }

    @Test func daysPerWeekCountsOnlyTheWeeksDaysInside() {
        // Week of Mon 16 Nov: Wp = 3 (Wed–Fri), ceil(3 × 3 / 5) = 2; five whole weeks 15;
        // Mon 28 – Thu 31 Dec: ceil(3 × 4 / 5) = 3. Total 20.
        let report = Self.policy(Target(kind: .daysPerWeek, hundredths: 300)).report(today: "2026-11-18", Self.before)
        #expect(report.weeks?.first.map { "\($0.start) \($0.required) \($0.office)" } == "2026-11-16 2 0")
        #expect(report.required == 20)
    }

    @Test func daysPerPeriodTakesItsShareOfTheWholePeriod() {
        var book = Self.before
        book.set(.vacation, on: "2026-12-01", "2026-12-02")
        // cap: min(30, ceil(30 × 32 / 66)) = min(30, ceil(14.55)) = 15.
        let cap = Self.policy(Target(kind: .daysPerPeriod, hundredths: 3000)).report(today: "2026-11-18", book)
        #expect(cap.eligible == 30 && cap.required == 15)
        // pro-rata: ceil(30 × 30 / 66) = ceil(13.64) = 14.
        let proRata = Self.policy(Target(kind: .daysPerPeriod, hundredths: 3000, reduce: .proRata)).report(today: "2026-11-18", book)
        #expect(proRata.required == 14)
        // Without a start the same target asks min(64, 30) = 30.
        var always = Self.policy(Target(kind: .daysPerPeriod, hundredths: 3000))
        always.starts = nil
        #expect(always.report(today: "2026-11-18", book).required == 30)
    }

    @Test func compliantWeeksNeedTheirShareOfTheWeeks() {
        // The quarter's weeks (first day inside): 13, from Mon 5 Oct. From the start on: the
        // weeks of 23 Nov … 28 Dec, 6. ceil(8 × 6 / 13) = ceil(3.69) = 4.
        let report = Self.policy(Target(kind: .compliantWeeks, hundredths: 200, weeks: 8)).report(today: "2026-11-18", Self.before)
        #expect(report.weeks?.map(\.start) == ["2026-11-23", "2026-11-30", "2026-12-07", "2026-12-14", "2026-12-21", "2026-12-28"].map(day))
        #expect(report.weeksRequired == 4)
    }

    @Test func bestWeeksShrinkWithTheWindow() {
        // 12 weeks to Sun 6 Dec; the start leaves the weeks of 16 Nov (from the 18th), 23 Nov and
        // 30 Nov: best = min(8, 3) = 3, value = ceil(20 × 3 / 8) = 8.
        var book = Self.before
        book.set(.office, on: "2026-11-18", "2026-11-23")
        let report = Self.policy(Target(kind: .bestWeeks, hundredths: 2000, best: 8, window: 12)).report(today: "2026-12-02", book)
        #expect(report.period.start == day("2026-11-18") && report.period.end == day("2026-12-06"))
        #expect(report.weeks?.count == 3)
        #expect(report.required == 8)
        #expect(report.office == 2, "the office days of 16 and 17 Nov are before the rule")
    }

    @Test func aPeriodBeforeTheStartHasNoTarget() {
        let policy = Self.policy(Target(kind: .percent, hundredths: 6000), period: .month)
        var book = Book()
        book.fill("2026-10-01", "2026-10-31", .remote)
        let october = policy.report(today: "2026-11-20", book, .previous)
        #expect(october.period.start == day("2026-10-01") && october.period.end == day("2026-10-31"))
        #expect(october.status == .notStarted && october.required == 0 && october.remainingRequired == 0)
        #expect(october.ruleStarts == day("2026-11-18"))
        #expect(october.remote == 22, "the days are still shown")
        // November is shortened, and has a target.
        let november = policy.report(today: "2026-11-20", book)
        #expect(november.period.start == day("2026-11-18") && november.status != .notStarted && november.required == 6)
    }
}
