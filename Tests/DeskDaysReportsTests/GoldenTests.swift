import DeskDaysCore
import DeskDaysReports
import Foundation
import Testing

/// The terminal calendar and the SVG charts of fixed scenarios, against golden files.
@Suite struct GoldenTests {
    let english = ReportLocale(identifier: "en_GB")

    @Test func workedExampleFiguresMatchPolicyExample() {
        let report = Scenarios.workedExample().report
        #expect((report.workdays, report.excused, report.eligible, report.required) == (64, 7, 57, 35))
        #expect((report.office, report.remote, report.unrecorded, report.elapsed) == (20, 13, 1, 34))
        #expect(report.plannedOffice == 1)
    }

    @Test func calendarMonochrome() throws {
        let calendar = TerminalCalendar(data: Scenarios.workedExample(), locale: english, colour: false)
        let text = calendar.render(months: 2)
        #expect(!text.contains("\u{1B}"))
        try Golden.check(text, "calendar-worked-example.txt")
    }

    @Test func calendarColour() throws {
        let calendar = TerminalCalendar(data: Scenarios.workedExample(), locale: english, colour: true)
        let text = calendar.render(months: 2)
        #expect(text.contains("\u{1B}[30;42m"))
        try Golden.check(text, "calendar-worked-example-colour.txt")
    }

    @Test func calendarWeeksFromSunday() throws {
        let data = Scenarios.weeklySundayStart()
        let text = TerminalCalendar(data: data, locale: english, colour: false).render(months: 2)
        let header = text.split(separator: "\n").first { $0.contains("Mo") }!
        #expect(header.hasPrefix(" Su"))
        try Golden.check(text, "calendar-weekly-sunday.txt")
    }

    @Test func burndownSVG() throws {
        try Golden.check(BurndownChart(data: Scenarios.workedExample(), locale: english).svg(), "burndown-worked-example.svg")
        try Golden.check(BurndownChart(data: Scenarios.weeklySundayStart(), locale: english).svg(), "burndown-weekly-sunday.svg")
    }

    @Test func weeksSVG() throws {
        try Golden.check(WeeksChart(data: Scenarios.workedExample(), locale: english).svg(), "weeks-worked-example.svg")
        try Golden.check(WeeksChart(data: Scenarios.weeklySundayStart(), locale: english).svg(), "weeks-weekly-sunday.svg")
    }

    @Test func heatmapSVG() throws {
        try Golden.check(CalendarHeatmap(data: Scenarios.workedExample(), locale: english).svg(), "heatmap-worked-example.svg")
    }
}
