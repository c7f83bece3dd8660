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
        #expect(look.tooltip.hasSuffix("Today: Christmas Day."), "\(look.tooltip)")
        #expect(look.status == "Active")
        // An excused day by its status; a workday with nothing by "no answer yet".
        #expect(DesktopBus.TrayLook(DesktopSummary(report: Self.report, todayStatus: .vacation, workday: true)).tooltip
            .hasSuffix("Today: vacation."))
        #expect(DesktopBus.TrayLook(DesktopSummary(report: Self.report, todayStatus: nil, workday: true)).tooltip
            .hasSuffix("Today: no answer yet."))
    }
}
