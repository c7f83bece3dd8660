import Localization
import CommandSupport
import ArgumentParser
import DeskDaysControl
import DeskDaysCore
import DeskDaysReports
import Foundation

/// `deskdays report`: every figure of a period.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: tr("Report a period's figures (current, previous, or the one containing a date)."),
        discussion: tr("""
        While the agent runs, it keeps the current period's --json answer \
        current and prints it from memory; otherwise (or with --today, another \
        --config or --database) the report is computed here.
        """))

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions

    @Option(help: ArgumentHelp(tr("current, previous, or a date YYYY-MM-DD inside the period.")))
    var period = "current"

    @Flag(help: ArgumentHelp(tr("Print the report as JSON (the keys of docs/cli.md).")))
    var json = false

    @Option(help: ArgumentHelp(tr("Also write the period as one self-contained HTML page to this file.")))
    var html: String?

    func validate() throws {
        guard PeriodSelector(period) != nil else {
            throw ValidationError(tr("--period \(period) is not current, previous or a date written YYYY-MM-DD."))
        }
        if case .containing(let date)? = PeriodSelector(period), !date.isSupported {
            throw ValidationError(tr("--period \(period) is \(LocalDate.unsupportedPhrase)."))
        }
    }

    func run() throws {
        let selector = PeriodSelector(period)!
        let agent = socket.link()
        if json, html == nil, selector == .current, let output = agent.answer(.report, global: global) {
            return writeOutput(output)
        }
        let session = try Session(global, agent: agent)
        let (output, data) = try session.answers.report(selector, json: json, store: try session.readStore(), today: session.today, now: session.now.date)
        writeOutput(output)
        if let html {
            let page = HTMLReport(data: data, locale: session.reportLocale).html()
            let path = expandTilde(html)
            try writeUserFile(path, contents: Data(page.utf8))
            // Said where a person reads it; with --json, stdout stays the JSON alone.
            let said = tr("Wrote \(path): \(session.reportLocale.periodLabel(data.report.period)).")
            if json { printError(said) } else { print(said) }
        }
    }
}
