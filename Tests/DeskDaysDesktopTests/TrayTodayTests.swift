@testable import DeskDaysDesktop
import DeskDaysCore
import Testing

/// The tray's "Today" respects the calendar: a holiday is named, never
/// "no answer yet" (issue 54: "The tray said Today: no answer yet on a public holiday").
@Suite struct TrayTodayTests {
    static let christmas = LocalDate(year: 2026, month: 12, day: 25)!
    static var report: Report {
        PolicyEngine(policy: Policy(timeZone: .gmt, holidays: [christmas: "Christmas Day"])).report(today: christmas) { _ in nil }
    }

    @Test func aHolidayIsNamed() {
        let look = DesktopBus.TrayLook(DesktopSummary(report: Self.report, todayStatus: nil, workday: false, holiday: "Christmas Day"))
        #expect(look.tooltip.contains("Today: Christmas Day."), "\(look.tooltip)")
        #expect(look.status == "Active")
        // An excused day by its status; a workday with nothing by "no answer yet".
        #expect(DesktopBus.TrayLook(DesktopSummary(report: Self.report, todayStatus: .vacation, workday: true)).tooltip
            .contains("Today: vacation."))
        #expect(DesktopBus.TrayLook(DesktopSummary(report: Self.report, todayStatus: nil, workday: true)).tooltip
            .contains("Today: no answer yet."))
    }

    /// What to catch up: the period's past workdays with no record, named in the tooltip.
    @Test func pastWorkdaysWithNoRecordAreListed() {
        let report = PolicyEngine(policy: Policy(timeZone: .gmt)).report(today: LocalDate(year: 2026, month: 10, day: 6)!) { date in
            date == LocalDate(year: 2026, month: 10, day: 1)! ? .office : nil
        }
        let tooltip = DesktopBus.TrayLook(DesktopSummary(report: report, todayStatus: nil, workday: true)).tooltip
        #expect(tooltip.hasSuffix("2 past workdays have no record: 2026-10-02 and 2026-10-05."), "\(tooltip)")
        let christmas = DesktopBus.TrayLook(DesktopSummary(report: Self.report, todayStatus: nil, workday: false, holiday: "Christmas Day"))
        #expect(christmas.tooltip.contains("past workdays have no record, the first"), "\(christmas.tooltip)")
    }
}
