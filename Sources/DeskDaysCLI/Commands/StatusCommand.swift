import Localization
import CommandSupport
import AgentSocket
import ArgumentParser
import DeskDaysControl
import DeskDaysCore
import Foundation

extension StatusFormat: ExpressibleByArgument {}

/// `deskdays status`: the current period at a glance.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: tr("Show where you stand in the current period."),
        discussion: tr("""
        While the agent runs, it keeps this answer current and prints it from \
        memory (the json, waybar and i3blocks formats); it also writes them to \
        status.json, status.waybar and status.i3blocks beside its control socket \
        ($XDG_RUNTIME_DIR/deskdays/) on every change. Without an agent, or with \
        --today, another --config or --database, the answer is computed here.
        """))

    @OptionGroup var global: GlobalOptions
    @OptionGroup var socket: SocketOptions

    @Option(help: ArgumentHelp(tr("Output format: text, json, waybar or i3blocks.")))
    var format: StatusFormat = .text

    @Flag(help: ArgumentHelp(tr("Keep printing the status on every change (needs the running agent).")))
    var follow = false

    func run() throws {
        if follow { return try followAgent() }
        // The text format follows this terminal's locale, so it is always computed here.
        let agent = socket.link()
        if format != .text, let output = agent.answer(.status(format), global: global) {
            return writeOutput(output)
        }
        let session = try Session(global, agent: agent)
        writeOutput(try session.answers.status(format, store: try session.readStore(), today: session.today, now: session.now.date))
        // Two devices, two policies: said where the standing is read (docs/cli.md "Every device, one rule").
        if format == .text, let notice = session.policyAgreement?.notice(writing: session.reportLocale.day) { writeOutput(notice + ".\n") }
    }

    /// `--follow`: subscribe to the agent and print, as it is pushed (no
    /// polling), exactly what `deskdays status --format F` prints, on every
    /// change; across a reload, the next agent's; when the agent goes away,
    /// one line on stderr, then the agent that serves the files next.
    /// Only for the agent of this database and configuration: another's
    /// figures would be wrong here, so that is refused in one sentence.
    /// (The `deskdays` launcher follows json, waybar and i3blocks itself,
    /// with no wake-up at all while nothing changes.)
    func followAgent() throws {
        let path = socket.socketPath
        let request = ControlProtocol.encode(.subscribe(format), scope: AgentRoute.scope(global))
        // Unbuffered: a status bar reading a pipe must see each line as it comes.
        let waiting = { printError("deskdays: " + tr("the agent stopped; waiting for it to start again (Ctrl-C ends this).")) }
        // The launcher tried already (`AgentContact`): what it learnt, without asking again.
        let end: ControlConnection.FollowEnd
        switch socket.link().handed() {
        case nil: end = ControlConnection.follow(path: path, request: request, waiting: waiting, { writeOutput($0); return true })
        case .noAgent?, .answered?: end = .noAgent
        case .untrusted(let doubt)?: end = .untrusted(doubt)
        case .failed(let reason)?: end = .failed(reason)
        case .refused(let failure)? where failure.code == ControlMessage.Code.disconnected: end = .stopped(replies: 0)
        case .refused(let failure)?: end = .refused(failure)
        }
        switch end {
        case .noAgent:
            throw CLIError(tr("--follow needs the running agent (none at \(path)); start it with `deskdays agent` or `systemctl --user start deskdays`."))
        case .failed(let reason):
            throw CLIError("\(reason).")
        case .untrusted(let doubt):
            throw CLIError(tr("--follow will not use the agent socket \(path) (\(doubt)); remove it, or start your agent with `deskdays agent`."))
        case .refused(let failure) where failure.code == ControlMessage.Code.otherDatabase:
            throw CLIError(tr("The agent at \(path) serves another database; --follow needs the agent of \(global.databasePath)."))
        case .refused(let failure) where failure.code == ControlMessage.Code.otherConfiguration:
            let config = failure.reply.string(.config)
            throw CLIError(tr("The agent at \(path) runs with \(config ?? "no configuration file"), not \(global.configPath); --follow shows only the agent's figures, so follow without --config or start an agent with it."))
        case .refused(let failure) where failure.code == ControlMessage.Code.version:
            throw CLIError(tr("The agent at \(path) speaks control protocol \(failure.reply.int(.version) ?? 0), this deskdays \(ControlMessage.version); restart it (`systemctl --user restart deskdays`) and follow again."))
        case .refused(let failure):
            throw CLIError(tr("The agent refused to send updates: \(failure.message)."))
        case .stopped:
            throw CLIError(tr("The agent stopped; status updates ended."))
        }
    }
}

/// Writes a command's output as it is, unbuffered.
func writeOutput(_ text: String) {
    writeAll(STDOUT_FILENO, text)
}
