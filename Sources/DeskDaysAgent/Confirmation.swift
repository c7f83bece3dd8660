import Localization
import DeskDaysConfig
import DeskDaysCore
import DeskDaysDesktop
import DeskDaysReports
import DeskDaysStore

/// `[desktop] confirm` (docs/cli.md "Feedback on a check-in"): the day's
/// first automatic check-in, today's, shown once as a quiet notification
/// that expires ("In the office — nfc "desk" at 08:52. This week: 2 of 3
/// office days."). Later check-ins that day, and those of other dates, are
/// not shown. Both ways a check-in reaches the agent (an adapter, `deskdays
/// event` through the socket) call `arrived`.
struct Confirmation: Sendable {
    let configuration: Configuration
    let store: AttendanceStore
    let clock: AgentClock
    let answer: CurrentAnswer
    let notifier: DesktopNotifier

    /// An arrival the pipeline stored as the first of its source on `date`.
    func arrived(_ event: CheckInEvent, on date: LocalDate) async {
        let policy = configuration.policy
        guard configuration.desktop.confirm, event.kind == .arrival, date == policy.localDate(of: clock.now()),
              (try? store.checkIns(in: DateSpan(date, date)).count) == 1 else { return }
        // No desktop to show it on (a server, a test): nothing to say, and nothing wrong.
        guard notifier.unavailableReason() == nil else { return }
        let time = policy.clockTime(of: event.time)
        var body = event.rule.map { tr("In the office — \(event.source.rawValue) \"\($0)\" at \(time).") }
            ?? tr("In the office — \(event.source.rawValue) at \(time).")
        if let week = (try? answer.desktopSummary())?.week {
            body += " " + Render.weekLine(office: week.office, required: week.required)
        }
        await notifier.notify(.recorded, title: "DeskDays", body: body, quiet: true)
    }
}
