import Localization
import CommandSupport
import ArgumentParser
import DeskDaysCore
import DeskDaysPipeline
import Foundation

/// `deskdays event`: one automatic check-in into the adapters' pipeline.
struct EventCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event", abstract: tr("Feed one automatic check-in into the pipeline (for scripts and dispatchers)."))

    enum EventSource: String, ExpressibleByArgument, CaseIterable { case nfc, qr, wifi, gps, wired, external }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions

    @Option(help: ArgumentHelp(tr("nfc, qr, wifi, gps, wired or external.")))
    var source: EventSource

    @Option(help: ArgumentHelp(tr("When, in RFC 3339 (e.g. 2026-11-18T08:55:00+01:00).")))
    var at: String

    @Option(help: ArgumentHelp(tr("The name of the rule that matched (never an identifier).")))
    var rule: String?

    @Flag(help: ArgumentHelp(tr("A departure: the user left at that time (time on site, docs/policy.md).")))
    var leave = false

    func run() async throws {
        guard let time = parseRFC3339(at) else {
            throw CLIError(tr("--at \(at) is not an RFC 3339 time; write it like 2026-11-18T08:55:00Z."))
        }
        let session = try Session(global, agent: socket.link())
        if let rule, let problem = session.configuration.ruleNameProblem(rule) {
            throw CLIError(tr("--rule: \(problem)."))
        }
        let event = CheckInEvent(source: Source(rawValue: source.rawValue)!, rule: rule, time: time,
                                 kind: leave ? .departure : .arrival)
        // Through the running agent when there is one, else straight into the database.
        let outcome = try await AgentRoute.submit(event, session: session, socket: socket)
        let kind = Words.source(event.source)
        if leave {
            print(tr("Noted the departure (\(kind)) on \(session.reportLocale.day(outcome.date))."))
            return
        }
        switch outcome {
        case .stored(let date): print(tr("Stored the check-in (\(kind)) of \(session.reportLocale.day(date))."))
        case .duplicate(let date): print(tr("\(session.reportLocale.day(date)) already has a check-in (\(kind)); kept the first."))
        }
        // A manual record outranks every check-in: say so rather than let the day look unchanged for no reason.
        let date = outcome.date
        if let manual = try session.readStore().records(in: DateSpan(date, date)).last(where: { $0.origin == .manual }) {
            printError("deskdays: " + tr("the manual record (\(Words.status(manual.status))) still decides \(session.reportLocale.day(date)); `deskdays clear --date \(date)` removes it."))
        }
    }
}
