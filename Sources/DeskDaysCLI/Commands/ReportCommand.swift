import ArgumentParser
import DeskDaysCore
import DeskDaysReports
import Foundation

/// `deskdays report`: every figure of a period.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Report a period's figures (current, previous, or the one containing a date).",
        discussion: OutputMemo.help)

    @OptionGroup var global: GlobalOptions

    @Option(help: "current, previous, or a date YYYY-MM-DD inside the period.")
    var period = "current"

    @Flag(help: "Print the report as JSON (the keys of CLI.md).")
    var json = false

    @Option(help: "Also write the period as one self-contained HTML page to this file.")
    var html: String?

    func validate() throws {
        guard PeriodSelector(period) != nil else {
            throw ValidationError("--period \(period) is not current, previous or a date written YYYY-MM-DD.")
        }
    }

    func run() async throws {
        let (session, inputs) = try OutputMemo.start(global)
        let data = try session.reportData(PeriodSelector(period)!)
        if let html {
            let page = HTMLReport(data: data, locale: session.reportLocale).html()
            try writeUserFile(expandTilde(html), contents: Data(page.utf8))
        }
        let streaks = data.streaks!
        let output = json ? try Render.json(ReportWithStreaks(report: data.report, streaks: streaks))
                          : Render.text(data.report) + "\n" + streakLine(streaks, locale: session.reportLocale)
        // With --html the command also writes a file, which a replay would not.
        OutputMemo.emit(output + "\n", session: session, inputs: inputs, remember: html == nil)
    }
}
