import ArgumentParser
import DeskDaysControl
import DeskDaysCore
import DeskDaysReports
import Foundation

/// `deskdays status`: the current period at a glance.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show where you stand in the current period.",
        discussion: OutputMemo.help)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, waybar, i3blocks }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions

    @Option(help: "Output format: text, json, waybar or i3blocks.")
    var format: Format = .text

    @Flag(help: "Keep printing a line on every change (needs the running agent).")
    var follow = false

    func run() async throws {
        if follow { return try followAgent() }
        let (session, inputs) = try OutputMemo.start(global)
        var output: String
        switch format {
        case .text:
            // Streaks read the whole history; the status-bar formats below, polled often, skip them.
            let data = try session.reportData()
            let report = data.report
            output = Render.statusLine(report) + " " + streakLine(data.streaks!, locale: session.reportLocale) + "\n"
            if report.remainingRequired > 0 || report.status == .behind {
                output += "Check in with `deskdays checkin` (today, office) or `deskdays checkin --status remote`.\n"
            }
        case .json:
            let data = try session.reportData()
            output = try Render.json(ReportWithStreaks(report: data.report, streaks: data.streaks!)) + "\n"
        case .waybar: output = Render.waybar(try session.report()) + "\n"
        case .i3blocks: output = Render.i3blocks(try session.report()) + "\n"
        }
        // Polled by status bars: the same question is answered from the memo until something changes.
        OutputMemo.emit(output, session: session, inputs: inputs)
    }

    /// `--follow`: subscribe to the agent and print one line per change, as
    /// it is pushed (no polling), until the agent goes away.
    ///
    /// Each push triggers a fresh report from the database under this
    /// command's own options (`--today`, configuration), so every format is
    /// rendered exactly as `deskdays status` would; JSON is one line per change.
    func followAgent() throws {
        let path = socket.socketPath
        let client: ControlClient
        switch ControlClient.connect(path: path, timeout: nil) {
        case .noAgent:
            throw CLIError("--follow needs the running agent (none at \(path)); start it with `deskdays agent` or `systemctl --user start deskdays`.")
        case .failed(let reason):
            throw CLIError("\(reason).")
        case .connected(let connected):
            client = connected
        }
        guard client.sendRaw(ControlProtocol.encode(.subscribe)) else {
            throw CLIError("The agent at \(path) closed the connection; is it shutting down?")
        }
        while let line = client.nextLine() {
            if case .failure(let failure) = ControlProtocol.decodeReply(line) {
                throw CLIError("The agent refused to send updates: \(failure.message).")
            }
            let report = try Session(global).report()
            let text: String
            switch format {
            case .text: text = Render.statusLine(report)
            case .json: text = String(decoding: ControlProtocol.line(report).dropLast(), as: UTF8.self)
            case .waybar: text = Render.waybar(report)
            case .i3blocks: text = Render.i3blocks(report)
            }
            // Unbuffered: a status bar reading a pipe must see each line as it comes.
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
        throw CLIError("The agent stopped; status updates ended.")
    }
}
