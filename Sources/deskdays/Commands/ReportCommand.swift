import ArgumentParser
import DeskDaysCore

/// `deskdays report`: every figure of a period.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report", abstract: "Report a period's figures (current, previous, or the one containing a date).")

    @OptionGroup var global: GlobalOptions

    @Option(help: "current, previous, or a date YYYY-MM-DD inside the period.")
    var period = "current"

    @Flag(help: "Print the report as JSON (the keys of CLI.md).")
    var json = false

    func validate() throws {
        guard PeriodSelector(period) != nil else {
            throw ValidationError("--period \(period) is not current, previous or a date written YYYY-MM-DD.")
        }
    }

    func run() async throws {
        let session = try Session(global)
        let report = try session.report(PeriodSelector(period)!)
        print(json ? try Render.json(report) : Render.text(report))
    }
}
