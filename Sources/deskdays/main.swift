#if canImport(Glibc)
import Glibc
#endif
import AgentSocket
import Localization
import Syscall

// `deskdays`: the launcher. A status bar or a script asking for the agent's
// current answer (`status --format json|waybar|i3blocks [--follow]`,
// `report --json`) gets it here, from the running agent, without starting
// Foundation, libdispatch or the command tree (a follower wakes only when
// the agent pushes). It speaks the control protocol the CLI speaks
// (AgentSocket's `ControlMessage`, `ControlConnection`): everything else,
// and every request the agent refuses (another configuration or database,
// a fixed "now", another language or protocol version) or cannot take (no
// agent, a socket that is not trusted), is handed to `deskdays-cli` (execv:
// same process id, same arguments) with what the agent said
// (`AgentContact`), so the CLI does not ask again: it says why, and computes
// the same bytes itself. docs/cli.md, "Executables" and "The control socket".

/// What the agent is asked, and where.
struct Ask {
    /// `status` (with `format`, or `subscribe` with `follow`), `report` or `plan` (json).
    var command: String
    var format: String?
    var database: String
    var config: String
    var socket: String
}

/// Recognizes the few argument shapes the agent answers: `status --format
/// json|waybar|i3blocks [--follow]`, `report --json` and `plan --json`, with `--config`,
/// `--database` and `--socket` before or after, as `--name value` or
/// `--name=value`. This is not a second argument parser: anything else at
/// all (help, other options, a repeated option, the text format) returns
/// nil, and swift-argument-parser in `deskdays-cli` reads the arguments.
func recognize(_ arguments: [String], paths: AgentPaths) -> Ask? {
    guard paths.hasHome else { return nil }
    var command: String?
    var json = false, follow = false
    // The four options' values (no dictionary: see WireObject's storage).
    var config: String?, database: String?, socket: String?, format: String?
    var rest = arguments[...]
    while let word = rest.popFirst() {
        switch word {
        case "status" where command == nil, "report" where command == nil, "plan" where command == nil: command = word
        case "--json" where !json: json = true
        case "--follow" where !follow: follow = true
        default:
            guard word.hasPrefix("--") else { return nil }
            let name: String, value: String
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                value = String(word[word.index(after: equals)...])
            } else {
                guard let next = rest.popFirst() else { return nil }
                name = word
                value = next
            }
            guard !value.isEmpty else { return nil }
            switch name {
            case "--config" where config == nil: config = value
            case "--database" where database == nil: database = value
            case "--socket" where socket == nil: socket = value
            case "--format" where format == nil: format = value
            default: return nil
            }
        }
    }
    let kind: String
    switch command {
    case "status" where !json:
        guard let format, ["json", "waybar", "i3blocks"].contains(format) else { return nil }
        kind = follow ? "subscribe" : "status"
    case "report" where json && !follow && format == nil:
        kind = "report"
    case "plan" where json && !follow && format == nil:
        // Without --prefer/--avoid (those go to deskdays-cli): the agent adds its `[plan]`.
        kind = "plan"
    default:
        return nil
    }
    return Ask(command: kind, format: kind == "plan" ? "json" : format,
               database: database.map(paths.expandTilde) ?? paths.database,
               config: config.map(paths.expandTilde) ?? paths.config,
               socket: socket.map(paths.expandTilde) ?? paths.socket)
}

/// The request: what this process's answer depends on goes with it, and the agent decides (`ControlMessage.refusal`).
func request(_ ask: Ask) -> WireObject {
    ControlMessage.request(ask.command, format: ask.format, scope: .asker(database: ask.database, config: ask.config))
}

/// Asks the agent (one connection): `.answered` when it answered and the
/// answer was printed, else what it said, for `deskdays-cli` (`AgentContact`).
/// A follower prints every pushed answer (not one the same as the line
/// before), follows the next agent across a reload, and, when the agent
/// goes away, waits for it to come back (one line on stderr).
func askAgent(_ ask: Ask) -> AgentContact {
    if ask.command == "subscribe" {
        switch ControlConnection.follow(path: ask.socket, request: request(ask), waiting: waitingNote, { writeOut(Array($0.utf8)) }) {
        case .stopped(let replies) where replies > 0:
            // As `deskdays-cli status --follow` ends.
            let message = "deskdays: " + tr("The agent stopped; status updates ended.") + "\n"
            _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            exit(1)
        case .stopped: return .refused(ControlFailure(code: ControlMessage.Code.disconnected, message: ""))
        case .noAgent: return .noAgent
        case .untrusted(let doubt): return .untrusted(doubt)
        case .failed(let reason): return .failed(reason)
        case .refused(let failure): return .refused(failure)
        }
    }
    let connection: ControlConnection
    switch ControlConnection.connect(path: ask.socket, waiting: .answer) {
    case .connected(let connected): connection = connected
    case let outcome: return AgentContact(outcome)!
    }
    let output: String
    switch connection.ask(request(ask)) {
    case .success(let reply):
        guard let text = reply.string(.output) else { return .refused(ControlFailure(code: ControlMessage.Code.badReply, message: "")) }
        output = text
    case .failure(let failure): return .refused(failure)
    }
    guard writeOut(Array(output.utf8)) else { exit(1) }
    // As the CLI logs it, at DESKDAYS_LOG=info and below.
    if ["trace", "debug", "info"].contains(AgentPaths.process.environment("DESKDAYS_LOG") ?? "") {
        let note = "deskdays: info: answered by the agent at \(ask.socket)\n"
        _ = note.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }
    return .answered
}

/// Said once each time the followed agent goes away (stderr: stdout stays the status lines).
func waitingNote() {
    let message = "deskdays: " + tr("the agent stopped; waiting for it to start again (Ctrl-C ends this).") + "\n"
    _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}

/// Writes all of `bytes` to standard output; false when it cannot.
func writeOut(_ bytes: [UInt8]) -> Bool {
    (try? Syscall.writeAll(STDOUT_FILENO, bytes)) != nil
}

if let ask = recognize(Array(CommandLine.arguments.dropFirst()), paths: .process) {
    let contact = askAgent(ask)
    if contact == .answered { exit(0) }
    // deskdays-cli asks no more: it says why, and computes.
    contact.hand(socket: ask.socket)
}
let (found, looked) = Companion.locate("deskdays-cli")
guard let program = found else {
    let message = "deskdays: " + tr("deskdays-cli is not installed (looked for \(looked.joined(separator: " and "))); reinstall DeskDays with `make install`.") + "\n"
    _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(1)
}
let reason = Companion.execute(program)
let message = "deskdays: " + tr("cannot start \(program) (\(reason)); reinstall DeskDays with `make install`.") + "\n"
_ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
exit(1)
