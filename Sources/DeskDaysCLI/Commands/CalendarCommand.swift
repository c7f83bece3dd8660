import Localization
import CommandSupport
import ArgumentParser
import DeskDaysCore
import DeskDaysReports
import Foundation

/// `deskdays calendar`: month grids coloured by each day's status, a legend
/// and the period's figures.
struct CalendarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calendar",
        abstract: tr("Show month calendars marked by each day's status, with the period's figures."),
        discussion: tr("Colours appear only on a terminal and never when NO_COLOR is set; symbols mark every day either way."))

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(tr("How many months to show (1 to 24): from --from, else ending with this month. Without it and --from: the whole current period, plans included.")))
    var months: Int?

    @Option(help: ArgumentHelp(tr("The first month to show, YYYY-MM.")))
    var from: String?

    func validate() throws {
        if let months, !(1...24).contains(months) {
            throw ValidationError(tr("--months \(months) is out of range; give a number from 1 to 24."))
        }
    }

    func run() async throws {
        let session = try Session(global)
        // The months shown: --from and --months, --months ending with this
        // month, else every month of the current period (its future plans
        // and vacation included).
        let first: LocalDate, count: Int
        if let from {
            guard let month = LocalDate(from + "-01"), month.isSupported else {
                throw CLIError(tr("--from \(from) is not a month; write it as YYYY-MM (e.g. 2026-10)."))
            }
            (first, count) = (month, months ?? 1)
        } else if let months {
            (first, count) = (session.today.firstOfMonth.addingMonths(-(months - 1)), months)
        } else {
            let period = session.policy.reportPeriod(.current, today: session.today)
            first = period.start.firstOfMonth
            count = (period.end.year - first.year) * 12 + period.end.month - first.month + 1
        }
        let shown = DateSpan(first, first.addingMonths(count).adding(days: -1))
        let data = try session.reportData(covering: shown)
        let colour = TerminalCalendar.wantsColour(environment: processEnvironment, outputIsTerminal: isatty(STDOUT_FILENO) == 1)
        let calendar = TerminalCalendar(data: data, locale: session.reportLocale, colour: colour)
        print(calendar.render(from: first, months: count), terminator: "")
    }
}
