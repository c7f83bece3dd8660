import ArgumentParser
import DeskDaysCore

/// `deskdays status`: the current period at a glance.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show where you stand in the current period.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, waybar, i3blocks }

    @OptionGroup var global: GlobalOptions

    @Option(help: "Output format: text, json, waybar or i3blocks.")
    var format: Format = .text

    @Flag(help: "Keep printing a line on every change (needs the running agent).")
    var follow = false

    func run() async throws {
        if follow {
            throw CLIError("--follow needs the running agent to push changes, and this build has no agent yet; run `deskdays status` from your status bar's interval instead.")
        }
        let session = try Session(global)
        let report = try session.report()
        switch format {
        case .text:
            print(Render.statusLine(report))
            if report.remainingRequired > 0 || report.status == .behind {
                print("Check in with `deskdays checkin` (today, office) or `deskdays checkin --status remote`.")
            }
        case .json: print(try Render.json(report))
        case .waybar: print(Render.waybar(report))
        case .i3blocks: print(Render.i3blocks(report))
        }
    }
}
