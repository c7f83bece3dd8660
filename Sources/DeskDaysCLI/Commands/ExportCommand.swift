import ArgumentParser
import DeskDaysCore
import DeskDaysExchange

extension Exchange.Format: ExpressibleByArgument {}

/// `deskdays export`: the resolved days as CSV, JSON or iCalendar.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: tr("Export resolved days (default: everything stored) as csv, json or ics."))

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(tr("csv, json or ics.")))
    var format: Exchange.Format

    @Option(help: ArgumentHelp(tr("First date, YYYY-MM-DD (default: the first stored date).")))
    var from: String?

    @Option(help: ArgumentHelp(tr("Last date, YYYY-MM-DD (default: the last stored date).")))
    var to: String?

    func run() async throws {
        let session = try Session(global)
        let stored = try session.readStore().dateRange()
        let defaultFrom = stored?.start.description ?? session.today.description
        let defaultTo = stored?.end.description ?? session.today.description
        let days = try DaysCommand.resolvedDays(session, from: from ?? defaultFrom, to: to ?? defaultTo)
        let exported = format == .ics ? days : days.filter { $0.status != nil || $0.workday }
        print(try Exchange.export(exported, format: format, now: session.now.date), terminator: "")
    }
}
