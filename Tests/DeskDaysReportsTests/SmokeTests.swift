import DeskDaysCore
import DeskDaysReports
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Every target kind under every period kind, seen from inside, before and
/// after the period: each rendering is produced and every SVG parses.
@Suite struct SmokeTests {
    static let targets: [Target] = [
        Target(),
        Target(kind: .daysPerWeek, hundredths: 250, reduce: .proRata),
        Target(kind: .daysPerPeriod, hundredths: 2000, reduce: .cap),
        Target(kind: .compliantWeeks, hundredths: 200, weeks: 8),
        Target(kind: .bestWeeks, hundredths: 2000, best: 8, window: 12),
    ]

    @Test(arguments: targets, PeriodKind.allCases)
    func rendersEverywhere(target: Target, period: PeriodKind) throws {
        var policy = Policy(timeZone: TimeZone(identifier: "UTC")!, weekStart: .monday, period: period, target: target)
        policy.holidays = [LocalDate("2026-05-01")!: "Labour Day"]
        let stamp = Date(timeIntervalSince1970: 1_790_000_000)
        var records: [DayRecord] = []
        var checkIns: [AutomaticCheckIn] = []
        for date in DateSpan(LocalDate("2026-01-05")!, LocalDate("2026-06-30")!) where policy.isWorkday(date) {
            switch date.weekday {
            case .monday, .tuesday: checkIns.append(AutomaticCheckIn(date: date, source: .gps, rule: "hq", at: stamp))
            case .wednesday where date.month == 3: records.append(DayRecord(date: date, status: .sick, origin: .manual, recordedAt: stamp))
            default: records.append(DayRecord(date: date, status: .remote, origin: .import, recordedAt: stamp))
            }
        }
        let locale = ReportLocale(identifier: "fr_FR")
        for today in ["2026-04-15", "2026-01-02", "2026-07-20"].map({ LocalDate($0)! }) {
            for selector in [PeriodSelector.current, .previous] {
                let engine = PolicyEngine(policy: policy)
                let report = engine.report(selector, today: today, records: records, checkIns: checkIns)
                let span = DateSpan(LocalDate("2025-10-01")!, LocalDate("2026-12-31")!)
                let days = Resolver.resolve(span, records: records, checkIns: checkIns)
                let weeks = StreakCalculator(policy: policy, today: today).weeks(from: span.start) { days[$0]?.status }
                let data = ReportData(policy: policy, report: report, days: days, streaks: StreakCalculator.streaks(weeks))
                for svg in [BurndownChart(data: data, locale: locale).svg(), WeeksChart(data: data, locale: locale).svg(),
                            CalendarHeatmap(data: data, locale: locale).svg()] {
                    #expect(XMLParser(data: Data(svg.utf8)).parse(), "\(target.kind) \(period) \(today) \(selector)")
                }
                #expect(HTMLReport(data: data, locale: locale).html().contains("</html>"))
                #expect(TerminalCalendar(data: data, locale: locale, colour: false).render(months: 3).contains("2026"))
            }
        }
    }
}
