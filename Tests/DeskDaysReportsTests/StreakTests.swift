import DeskDaysCore
import DeskDaysReports
import Foundation
import Testing

/// Streaks of compliant weeks, as tables: gaps, excused weeks, open weeks,
/// target kinds, and weeks that span the end of a period.
@Suite struct StreakTests {
    /// One table row: Monday–Friday of consecutive weeks from `start`.
    ///
    /// Letters: `O` office, `R` remote, `V` vacation, `S` sick, `H` holiday,
    /// `-` no record. `today` is a day offset from `start` (default: the
    /// Monday after the last week, so every week is over).
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var target = Target()
        var start = "2026-01-05"
        var weeks: [String]
        var today: Int?
        var current: Int
        var longest: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // 60 % of Q1 2026 (64 eligible days) requires 39: spread over a
        // five-day week, ceil(39 × 5 / 64) = 4 office days (docs/policy.md "Streaks").
        Case(name: "every week met", weeks: ["OOOOR", "OOOOR", "OOOOR"], current: 3, longest: 3),
        Case(name: "three of five is short of the spread requirement", weeks: ["OOOOR", "OOORR"], current: 0, longest: 1),
        Case(name: "a short week breaks the run", weeks: ["OOOOR", "ORRRR", "OOOOR", "OOOOR"], current: 2, longest: 2),
        Case(name: "a week with nothing recorded breaks the run", weeks: ["OOOOR", "-----", "OOOOR"], current: 1, longest: 1),
        Case(name: "a vacation week neither breaks nor extends", weeks: ["OOOOR", "VVVVV", "OOOOR"], current: 2, longest: 2),
        Case(name: "a sick-and-holiday week is excused", weeks: ["OOOOR", "SSHHS", "OOOOR"], current: 2, longest: 2),
        Case(name: "partial vacation lowers the week's requirement", weeks: ["OOOOR", "OOVVV", "OOOOR"], current: 3, longest: 3),
        Case(name: "the open week not yet met does not break", weeks: ["OOOOR", "OOOOR", "O----"], today: 15, current: 2, longest: 2),
        Case(name: "the open week already met counts", weeks: ["OOOOR", "OOOO-"], today: 10, current: 2, longest: 2),
        Case(name: "the longest run lies in the past", weeks: ["OOOOR", "OOOOR", "OOOOR", "RRRRR", "OOOOR"], current: 1, longest: 3),
        Case(name: "no office at all", weeks: ["RRRRR", "-----"], current: 0, longest: 0),
        Case(name: "days_per_week cap: a holiday leaves the rule standing",
             target: Target(kind: .daysPerWeek, hundredths: 200, reduce: .cap),
             weeks: ["OORRR", "ORRRR", "OOHRR"], current: 1, longest: 1),
        Case(name: "days_per_week pro-rata: two holidays shrink 3 to 2",
             target: Target(kind: .daysPerWeek, hundredths: 300, reduce: .proRata),
             weeks: ["OOORR", "OOHHR", "OORRR"], current: 0, longest: 2),
        Case(name: "days_per_week cap: four holidays cap 3 at the one eligible day",
             target: Target(kind: .daysPerWeek, hundredths: 300, reduce: .cap),
             weeks: ["OOORR", "OHHHH"], current: 2, longest: 2),
        // Monday 30 March to Friday 3 April: two days in Q1, three in Q2;
        // judged by its part in Q2, the quarter it ends in (Q2's table).
        Case(name: "a week across a quarter end is judged in the quarter it ends in",
             start: "2026-03-23", weeks: ["OOOOR", "RROOO", "OOOOR"], current: 3, longest: 3),
        Case(name: "a week across a quarter end short in its last quarter breaks the run",
             start: "2026-03-23", weeks: ["OOOOR", "OOORR", "OOOOR"], current: 1, longest: 1),
        Case(name: "compliant_weeks judges each week like days_per_week",
             target: Target(kind: .compliantWeeks, hundredths: 200, weeks: 8),
             start: "2026-06-22", weeks: ["ORRRR", "OORRR", "ROROR"], current: 2, longest: 2),
        Case(name: "days_per_period spreads the period target over its weeks",
             target: Target(kind: .daysPerPeriod, hundredths: 3800, reduce: .cap),
             weeks: ["OOORR", "OORRR"], current: 0, longest: 1),
    ]

    @Test(arguments: cases)
    func streak(_ row: Case) throws {
        var policy = Policy(timeZone: TimeZone(identifier: "UTC")!, target: row.target)
        let start = LocalDate(row.start)!
        var statuses: [LocalDate: AttendanceStatus] = [:]
        for (week, pattern) in row.weeks.enumerated() {
            for (offset, letter) in pattern.enumerated() {
                let date = start.adding(days: week * 7 + offset)
                switch letter {
                case "O": statuses[date] = .office
                case "R": statuses[date] = .remote
                case "V": statuses[date] = .vacation
                case "S": statuses[date] = .sick
                case "H": policy.holidays[date] = "holiday"
                case "-": break
                default: Issue.record("unknown letter \(letter)")
                }
            }
        }
        let today = start.adding(days: row.today ?? row.weeks.count * 7)
        let weeks = StreakCalculator(policy: policy, today: today).weeks(from: start) { statuses[$0] }
        let streaks = StreakCalculator.streaks(weeks)
        #expect(streaks == Streaks(current: row.current, longest: row.longest),
                "weeks: \(weeks.map { "\($0.start) \($0.office)/\($0.required) \($0.verdict)" })")
    }

    @Test func aWeekAcrossTwoPeriodsIsCountedOnce() {
        let policy = Policy(timeZone: TimeZone(identifier: "UTC")!)
        let calculator = StreakCalculator(policy: policy, today: LocalDate("2026-04-13")!)
        let weeks = calculator.weeks(from: LocalDate("2026-03-25")!) { _ in .office }
        #expect(weeks.map(\.start.description) == ["2026-03-23", "2026-03-30", "2026-04-06", "2026-04-13"])
        // Judged by its part in the quarter it ends in (Wednesday 1 to Friday 3 April).
        #expect(weeks[1].office == 3 && weeks[1].eligible == 3)
    }

    /// Rolling windows overlap: each week is judged once, in the window that
    /// ends with it, and the weekly chart shows every week of the current window.
    @Test func rollingWindowsJudgeEachWeekOnceAndChartEveryWeek() {
        var policy = Policy(timeZone: TimeZone(identifier: "UTC")!,
                            target: Target(kind: .daysPerWeek, hundredths: 300, reduce: .cap))
        policy.period = .rolling
        policy.rollingWeeks = 4
        let monday = LocalDate("2026-01-05")!
        // Ten weeks: office Monday to Wednesday, but only twice in week 6 (index 5).
        var statuses: [LocalDate: AttendanceStatus] = [:]
        for week in 0..<10 {
            for day in 0..<(week == 5 ? 2 : 3) { statuses[monday.adding(days: week * 7 + day)] = .office }
        }
        let today = monday.adding(days: 10 * 7)
        let calculator = StreakCalculator(policy: policy, today: today)
        let weeks = calculator.weeks(from: monday) { statuses[$0] }
        #expect(weeks.map(\.start) == (0...10).map { monday.adding(days: $0 * 7) })
        #expect(weeks.map(\.office) == [3, 3, 3, 3, 3, 2, 3, 3, 3, 3, 0])
        #expect(StreakCalculator.streaks(weeks) == Streaks(current: 4, longest: 5))

        let records = statuses.map { DayRecord(date: $0.key, status: $0.value, origin: .manual, recordedAt: Scenarios.stamp) }
        let chart = Scenarios.data(policy: policy, today: today, records: records, checkIns: []).chartWeeks()
        #expect(chart.map(\.start) == (7...10).map { monday.adding(days: $0 * 7) })
        #expect(chart.map(\.office) == [3, 3, 3, 0])
        #expect(chart.map(\.verdict) == [.met, .met, .met, .open])
    }

    @Test func weekendOfficeCountsOnlyWhenThePolicySaysSo() {
        // best_weeks, 6 days in the best 2 weeks: a week on its own needs its share, 3.
        var policy = Policy(timeZone: TimeZone(identifier: "UTC")!,
                            target: Target(kind: .bestWeeks, hundredths: 600, best: 2, window: 4))
        let monday = LocalDate("2026-01-05")!
        let statuses: [LocalDate: AttendanceStatus] = [
            monday: .office, monday.adding(days: 1): .office, monday.adding(days: 5): .office,
        ]
        let today = monday.adding(days: 7)
        let strict = StreakCalculator(policy: policy, today: today).week(monday) { statuses[$0] }
        #expect((strict.office, strict.verdict) == (2, .missed))
        policy.countNonWorkdays = true
        let counted = StreakCalculator(policy: policy, today: today).week(monday) { statuses[$0] }
        #expect((counted.office, counted.verdict) == (3, .met))
    }
}
