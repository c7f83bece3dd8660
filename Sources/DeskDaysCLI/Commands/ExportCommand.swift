import Localization
import CommandSupport
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
        var exported = format == .ics ? days : days.filter { $0.status != nil || $0.workday }
        if format == .json, let first = days.first?.date, let last = days.last?.date {
            // What each date holds, for `import` to write again (a round trip loses nothing).
            let store = try session.readStore(), span = DateSpan(first, last)
            var entries: [LocalDate: [ExchangeEntry]] = [:]
            for record in try store.records(in: span) where record.origin != .calendar {
                entries[record.date, default: []].append(.record(record.origin, record.status, note: record.note))
            }
            let checkIns = try store.checkIns(in: span)
            for checkIn in checkIns { entries[checkIn.date, default: []].append(.sign(.arrival, checkIn.source, at: checkIn.at)) }
            for sign in try store.latestSigns(in: span)
            where !checkIns.contains(where: { $0.date == sign.date && $0.source == sign.source && $0.at == sign.at && sign.kind == .arrival }) {
                entries[sign.date, default: []].append(.sign(sign.kind, sign.source, at: sign.at))
            }
            exported = exported.map { day in
                var day = day
                day.entries = entries[day.date] ?? []
                return day
            }
        }
        print(try Exchange.export(exported, format: format, now: session.now.date), terminator: "")
    }
}
