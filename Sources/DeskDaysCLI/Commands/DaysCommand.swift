import ArgumentParser
import DeskDaysCore
import DeskDaysReports
import DeskDaysExchange

/// `deskdays days`: each date with its resolved status, origin and sources.
struct DaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "days", abstract: "List dates with their resolved status (default: the current period).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "First date, YYYY-MM-DD (default: the period's start).")
    var from: String?

    @Option(help: "Last date, YYYY-MM-DD (default: the period's end).")
    var to: String?

    @Flag(help: "Print JSON (docs/cli.md).")
    var json = false

    func run() async throws {
        let session = try Session(global)
        let days = try DaysCommand.resolvedDays(session, from: from, to: to)
        if json {
            print(try Render.json(days))
            return
        }
        for day in days {
            let status = day.status?.rawValue ?? (day.workday ? "-" : "")
            let detail = day.origin.map { "\($0.rawValue): " + day.sources.map(\.rawValue).joined(separator: ", ") } ?? ""
            print("\(day.date)  \(day.date.weekday.key)  \(status.padding(toLength: 9, withPad: " ", startingAt: 0)) \(detail)"
                  .trimmingCharacters(in: .whitespaces))
        }
    }

    /// The days of a range (defaults: the current period), resolved.
    static func resolvedDays(_ session: Session, from: String?, to: String?) throws -> [ExchangeDay] {
        let period = session.policy.reportPeriod(.current, today: session.today)
        let first = try from.map { try Session.date($0, option: "--from") } ?? period.start
        let last = try to.map { try Session.date($0, option: "--to") } ?? period.end
        guard first <= last else { throw CLIError("--from \(first) is after --to \(last); swap them.") }
        guard first.days(to: last) <= 366 * 50 else { throw CLIError("The range \(first) to \(last) is longer than 50 years; narrow it.") }
        let span = DateSpan(first, last)
        let store = try session.readStore()
        let records = try store.records(in: span)
        let resolved = Resolver.resolve(span, records: records, checkIns: try store.checkIns(in: span))
        let notes = Dictionary(records.compactMap { r in r.note.map { (r.date, $0) } }, uniquingKeysWith: { _, last in last })
        return span.map { date in
            let day = resolved[date]
            return ExchangeDay(date: date, workday: session.policy.isWorkday(date), status: day?.status,
                               origin: day?.origin, sources: day?.sources ?? [], note: notes[date])
        }
    }
}
