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

    @Option(help: ArgumentHelp(tr("How many months to show, ending with this month (1 to 24).")))
    var months = 1

    func validate() throws {
        guard (1...24).contains(months) else {
            throw ValidationError(tr("--months \(months) is out of range; give a number from 1 to 24."))
        }
    }

    func run() async throws {
        let session = try Session(global)
        let last = session.today.firstOfMonth
        let shown = DateSpan(last.addingMonths(-(months - 1)), last.addingMonths(1).adding(days: -1))
        let data = try session.reportData(covering: shown)
        let colour = TerminalCalendar.wantsColour(environment: processEnvironment, outputIsTerminal: isatty(STDOUT_FILENO) == 1)
        let calendar = TerminalCalendar(data: data, locale: session.reportLocale, colour: colour)
        print(calendar.render(months: months), terminator: "")
    }
}
