import DeskDaysCore
import Testing

/// docs/policy.md "Worked example (percent, quarter)", figure by figure.
@Suite struct WorkedExampleTests {
    /// 60 %, Mon–Fri, quarters from January, holidays Dec 25 and Dec 28.
    static let policy = Policy.make {
        $0.period = .quarter
        $0.target = Target(kind: .percent, hundredths: 6000)
        $0.holidays = [day("2026-12-25"): "Christmas Day", day("2026-12-28"): "Boxing Day (substitute)"]
    }

    /// The 34 workdays before Wed 2026-11-18: 20 office (Oct 1–28), 13 remote
    /// (Oct 29 – Nov 16), 1 without a record (Nov 17); vacation entered ahead
    /// for Dec 21–24 and Dec 29–31.
    static var book: Book {
        var book = Book()
        book.fill("2026-10-01", "2026-10-28", .office)
        book.fill("2026-10-29", "2026-11-16", .remote)
        book.fill("2026-12-21", "2026-12-24", .vacation)
        book.fill("2026-12-29", "2026-12-31", .vacation)
        return book
    }

    @Test func theBookMatchesTheStory() {
        let statuses = Self.book.statuses
        #expect(statuses.values.filter { $0 == .office }.count == 20)
        #expect(statuses.values.filter { $0 == .remote }.count == 13)
        #expect(statuses.values.filter { $0 == .vacation }.count == 7)
        #expect(statuses[day("2026-11-17")] == nil)
    }

    @Test func everyFigure() throws {
        let report = Self.policy.report(today: "2026-11-18", Self.book)
        #expect(report.today == day("2026-11-18"))
        #expect(report.period.kind == .quarter)
        #expect(report.period.start == day("2026-10-01"))
        #expect(report.period.end == day("2026-12-31"))
        #expect(report.period.label == "Q4 2026")
        #expect(report.target.kind == .percent)
        #expect(report.target.value == 60)
        #expect(DayFigures(report) == DayFigures(workdays: 64, excused: 7, eligible: 57, office: 20, remote: 13,
                                                 unrecorded: 1, elapsed: 34, pending: 23, plannedOffice: 0))
        #expect(TargetFigures(report) == TargetFigures(required: 35, requiredToDate: 21, remainingRequired: 15,
                                                       status: .behind))
        #expect(report.officeDaysNeeded == 15)
        let compliance = try #require(report.complianceToDate)
        #expect(abs(compliance - 20.0 / 34.0) < 1e-12)
        #expect((compliance * 10_000).rounded() / 10_000 == 0.5882)
        // Percent targets carry no week-based keys.
        #expect(report.weeks == nil)
        #expect(report.weeksMet == nil && report.weeksRequired == nil && report.weeksRemaining == nil)
        #expect(report.officeAll == nil)
    }

    /// The same quarter asked for by a date inside it, or as `previous` from the next quarter.
    @Test func theSameQuarterByOtherSelectors() {
        let current = Self.policy.report(today: "2026-11-18", Self.book)
        let byDate = Self.policy.report(today: "2026-11-18", Self.book, .containing(day("2026-12-31")))
        #expect(byDate == current)
        let fromJanuary = Self.policy.report(today: "2027-01-05", Self.book, .previous)
        #expect(fromJanuary.period == current.period)
        // Seen from January every workday has happened: Nov 17 onwards are unrecorded.
        #expect(DayFigures(fromJanuary) == DayFigures(workdays: 64, excused: 7, eligible: 57, office: 20, remote: 13,
                                                      unrecorded: 24, elapsed: 57, pending: 0))
        #expect(TargetFigures(fromJanuary) == TargetFigures(required: 35, requiredToDate: 35, remainingRequired: 15,
                                                            status: .impossible))
    }

    /// One office day more today (a check-in at the desk) moves the figures by hand-checked amounts.
    @Test func checkingInToday() {
        var book = Self.book
        book["2026-11-18"] = .office
        let report = Self.policy.report(today: "2026-11-18", book)
        #expect(DayFigures(report) == DayFigures(workdays: 64, excused: 7, eligible: 57, office: 21, remote: 13,
                                                 unrecorded: 1, elapsed: 35, pending: 22))
        // ceil(35 × 35 / 57) = ceil(21.49) = 22 > 21 → still behind.
        #expect(TargetFigures(report) == TargetFigures(required: 35, requiredToDate: 22, remainingRequired: 14,
                                                       status: .behind))
    }
}
