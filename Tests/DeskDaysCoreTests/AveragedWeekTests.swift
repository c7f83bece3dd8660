import DeskDaysCore
import Testing

/// docs/policy.md "A weekly rule averaged over the period" (`round = "period"`),
/// each figure worked out by hand.
@Suite struct AveragedWeekTests {
    /// "3 days a week over each fiscal quarter (the year starts in April)":
    /// Q1 FY2028 is Thu 2027-04-01 – Wed 2027-06-30, 65 weekdays in 13 weeks
    /// and two part-weeks (Thu–Fri, Mon–Wed).
    static func quarterly(_ round: Target.Round, _ reduce: Target.Reduce = .cap) -> Policy {
        Policy.make {
            $0.period = .quarter
            $0.fiscalYearStartMonth = 4
            $0.target = Target(kind: .daysPerWeek, hundredths: 300, reduce: reduce, round: round)
        }
    }

    @Test func averagedOverTheQuarterIs39Not40() {
        let byWeek = Self.quarterly(.week).report(today: "2027-04-01")
        let averaged = Self.quarterly(.period).report(today: "2027-04-01")
        #expect(averaged.period.start == day("2027-04-01") && averaged.period.end == day("2027-06-30"))
        #expect(averaged.eligible == 65)
        // Per week: the Thu–Fri part-week asks ceil(3 × 2 / 5) = 2, the Mon–Wed one ceil(9 / 5) = 2: 2 + 36 + 2.
        #expect(byWeek.required == 40)
        // Averaged: ceil(3 × 65 / 5) = 39.
        #expect(averaged.required == 39)
        #expect(TargetFigures(averaged) == TargetFigures(required: 39, requiredToDate: 0, remainingRequired: 39, status: .onTrack))
        // The weeks table is the same for reading; only the total changes.
        #expect(weekRows(byWeek) == weekRows(averaged))
        #expect(averaged.weeks?.first?.required == 2)
    }

    @Test func capStandsUntilFewerEligibleDaysRemain() {
        // 5 vacation days leave 60 eligible: cap still asks 39; 30 leave 35: cap asks 35.
        var book = Book()
        book.fill("2027-05-03", "2027-05-07", .vacation)
        #expect(Self.quarterly(.period).report(today: "2027-04-01", book).required == 39)
        book.fill("2027-05-10", "2027-06-11", .vacation)
        let report = Self.quarterly(.period).report(today: "2027-04-01", book)
        #expect(report.eligible == 35 && report.required == 35)
    }

    @Test func proRataShrinksWithEveryExcusedDay() {
        // 60 eligible days: ceil(3 × 60 / 5) = 36; 61: ceil(36.6) = 37.
        var book = Book()
        book.fill("2027-05-03", "2027-05-07", .vacation)
        #expect(Self.quarterly(.period, .proRata).report(today: "2027-04-01", book).required == 36)
        book["2027-05-07"] = nil
        #expect(Self.quarterly(.period, .proRata).report(today: "2027-04-01", book).required == 37)
    }

    @Test func derivedFiguresFollowTheAveragedTotal() {
        // Today Mon 2027-04-12: 7 workdays elapsed (Apr 1–2, 5–9), 5 of them office.
        var book = Book()
        book.set(.office, on: "2027-04-01", "2027-04-02", "2027-04-05", "2027-04-06", "2027-04-07")
        book.set(.remote, on: "2027-04-08", "2027-04-09")
        let report = Self.quarterly(.period).report(today: "2027-04-12", book)
        // required_to_date = ceil(39 × 7 / 65) = ceil(4.2) = 5.
        #expect(TargetFigures(report) == TargetFigures(required: 39, requiredToDate: 5, remainingRequired: 34, status: .onTrack))
    }
}
