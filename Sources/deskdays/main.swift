#if canImport(Glibc)
import Glibc
#endif
import AgentSocket
import Localization

// `deskdays`: the launcher. A status bar or a script asking for the agent's
// current answer (`status --format json|waybar|i3blocks [--follow]`,
// `report --json`) gets it here, from the running agent, without starting
// Foundation, libdispatch or the command tree (a follower wakes only when
// the agent pushes); everything else, and every case the agent cannot answer for
// (another configuration or database, a fixed "now", no agent, a socket
// that is not trusted), is handed unchanged to `deskdays-cli` (execv: same
// process id, same arguments), which computes the same bytes itself.
// docs/cli.md, "Executables" and "The control socket".

/// What the agent is asked, and where.
struct Ask {
    /// `status json|waybar|i3blocks` or `report json`.
    var request: String
    var follow: Bool
    var database: String
    var config: String
    var socket: String
}

/// Recognizes the few argument shapes the agent answers: `status --format
/// json|waybar|i3blocks [--follow]` and `report --json`, with `--config`,
/// `--database` and `--socket` before or after, as `--name value` or
/// `--name=value`. This is not a second argument parser: anything else at
/// all (help, other options, a repeated option, the text format) returns
/// nil, and swift-argument-parser in `deskdays-cli` reads the arguments.
func recognize(_ arguments: [String], paths: AgentPaths) -> Ask? {
    guard (paths.environment("DESKDAYS_NOW") ?? "").isEmpty, (paths.environment("DESKDAYS_TODAY") ?? "").isEmpty,
          paths.hasHome else { return nil }
    var command: String?
    var json = false, follow = false
    var values: [String: String] = [:]
    var rest = arguments[...]
    while let word = rest.popFirst() {
        switch word {
        case "status" where command == nil, "report" where command == nil: command = word
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
            guard ["--config", "--database", "--socket", "--format"].contains(name), values[name] == nil, !value.isEmpty else { return nil }
            values[name] = value
        }
    }
    let request: String
    switch command {
    case "status" where !json:
        guard let format = values["--format"], ["json", "waybar", "i3blocks"].contains(format) else { return nil }
        request = "status " + format
    case "report" where json && !follow && values["--format"] == nil:
        request = "report json"
    default:
        return nil
    }
    return Ask(request: request, follow: follow,
               database: values["--database"].map(paths.expandTilde) ?? paths.database,
               config: values["--config"].map(paths.expandTilde) ?? paths.config,
               socket: values["--socket"].map(paths.expandTilde) ?? paths.socket)
}

/// Reads `ok N` frames from the agent and hands each frame's bytes to
/// `handle`, until the agent says `no` or `reloading`, closes the
/// connection, or `handle` returns false. Returns how many frames came, and
/// whether the agent said it reloads (a follower then follows the next one).
func readFrames(_ fd: Int32, _ handle: ([UInt8]) -> Bool) -> (frames: Int, reloading: Bool) {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var frames = 0
    while true {
        // Every whole frame that has arrived, first.
        while let newline = received.firstIndex(of: UInt8(ascii: "\n")) {
            let header = String(decoding: received[..<newline], as: UTF8.self)
            if header == "reloading" { return (frames, true) }
            guard header.hasPrefix("ok "), let size = Int(header.dropFirst(3)), size >= 0 else { return (frames, false) }
            guard received.count >= newline + 1 + size else { break }
            let frame = Array(received[(newline + 1)..<(newline + 1 + size)])
            received.removeFirst(newline + 1 + size)
            frames += 1
            guard handle(frame) else { return (frames, false) }
        }
        let count = read(fd, &buffer, buffer.count)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return (frames, false) }
        received += buffer[0..<count]
    }
}

/// One connection to the agent: the request, then its frames (see `readFrames`); nil when it could not be asked.
func exchange(_ ask: Ask, _ handle: ([UInt8]) -> Bool) -> (frames: Int, reloading: Bool)? {
    let config = AgentPaths.canonical(ask.config)
    // The request line cannot carry a tab or a newline in a path: such paths take the long way.
    guard !(ask.database + config).contains(where: { $0 == "\t" || $0 == "\n" }),
          let fd = SocketTrust.trustedConnection(to: ask.socket) else { return nil }
    defer { close(fd) }
    if !ask.follow { UnixSocket.setTimeout(fd, option: SO_RCVTIMEO, seconds: 2) }
    UnixSocket.setTimeout(fd, option: SO_SNDTIMEO, seconds: 2)
    // The status-bar formats carry words: the agent answers them only in this process's language.
    let language = Localization.signature
    guard !language.contains(where: { $0 == "\t" || $0 == "\n" }) else { return nil }
    let line = Array("\(ask.follow ? "follow" : "answer") \(ask.request)\t\(ask.database)\t\(config)\t\(language)\n".utf8)
    guard send(fd, line, line.count, Int32(MSG_NOSIGNAL)) == line.count else { return nil }
    return readFrames(fd, handle)
}

/// How long a follower waits for the next agent after a reload (a loaded machine may take seconds).
let reloadWait: Int = 30_000

/// Asks the agent; true when it answered and the answer was printed. With
/// `follow`, prints every pushed answer (not one the same as the line
/// before), follows the next agent across a reload, and ends the process
/// when the agent goes away.
func askAgent(_ ask: Ask) -> Bool {
    var last: [UInt8]?
    let print: ([UInt8]) -> Bool = { frame in
        defer { last = frame }
        return (frame == last || writeOut(frame)) && ask.follow
    }
    guard var outcome = exchange(ask, print), outcome.frames > 0 else { return false }
    // As the CLI logs it, at DESKDAYS_LOG=info and below.
    if ["trace", "debug", "info"].contains(AgentPaths.process.environment("DESKDAYS_LOG") ?? "") {
        let note = "deskdays: info: answered by the agent at \(ask.socket)\n"
        _ = note.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }
    guard ask.follow else { return true }
    // A reload: the socket comes back with the next agent (waited for, bounded).
    while outcome.reloading {
        var waited = 0
        var next: (frames: Int, reloading: Bool)?
        while next == nil, waited < reloadWait {
            var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
            nanosleep(&pause, nil)
            waited += 50
            next = exchange(ask, print)
        }
        guard let next, next.frames > 0 else { break }
        outcome = next
    }
    // As `deskdays-cli status --follow` ends.
    let message = "deskdays: " + tr("The agent stopped; status updates ended.") + "\n"
    _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    exit(1)
}

/// Writes all of `bytes` to standard output; false when it cannot.
func writeOut(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let count = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
    }
    return true
}

if let ask = recognize(Array(CommandLine.arguments.dropFirst()), paths: .process), askAgent(ask) {
    exit(0)
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
