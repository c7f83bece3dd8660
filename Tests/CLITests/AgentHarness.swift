import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The agent as a real process for tests: started with a scratch config,
/// database and control socket, its log in a file, stopped by signal.
final class AgentProcess {
    /// The agent's "now" when the test does not set one, and its local date (the agent runs with TZ=UTC).
    static let fixedNow = "2026-03-10T08:00:00Z"
    static let fixedDay = "2026-03-10"

    let process = Process()
    let log: URL
    let socket: String

    /// Starts `deskdays agent` (plus `arguments`) and waits until its socket answers.
    init(_ cli: CLIRunner, socket: String? = nil, arguments: [String] = [], environment: [String: String] = [:],
         launcher: [String] = []) throws {
        self.socket = socket ?? cli.folder.appendingPathComponent("run/agent.sock").path
        log = cli.folder.appendingPathComponent("agent-\(UUID().uuidString.prefix(8)).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let agentArguments = ["agent", "--config", cli.config, "--database", cli.database, "--socket", self.socket] + arguments
        if launcher.isEmpty {
            process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
            process.arguments = agentArguments
        } else {
            process.executableURL = URL(fileURLWithPath: launcher[0])
            process.arguments = Array(launcher.dropFirst()) + [CLIRunner.binary] + agentArguments
        }
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = try FileHandle(forWritingTo: log)
        var env = ProcessInfo.processInfo.environment
        env["DESKDAYS_LOG"] = "info"
        env["TZ"] = "UTC"
        env["HOME"] = cli.folder.path
        // The agent's "now" is fixed (a Tuesday morning, before the default
        // reminder and fallback times) unless the test sets its own: no test
        // may depend on the time of day or the date it runs at.
        env["DESKDAYS_NOW"] = AgentProcess.fixedNow
        env["DESKDAYS_TODAY"] = nil
        // Never the developer's session bus (the agent would own its name and show a tray icon there):
        // tests that want one start a private dbus-daemon and name it.
        env["DBUS_SESSION_BUS_ADDRESS"] = ""
        env["XDG_RUNTIME_DIR"] = "/nonexistent"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        try process.spawn()
        for _ in 0..<400 {
            if let client = try? TestSocketClient(path: self.socket) { _ = client; return }
            if !process.isRunning { break }
            usleep(25_000)
        }
        kill9()
        throw HarnessError("the agent did not open its socket; log: \(logText)")
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Waits until the log contains `text` (or `seconds` pass).
    @discardableResult
    func waitForLog(_ text: String, seconds: Double = 60) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if logText.contains(text) { return true }
            usleep(50_000)
        }
        return false
    }

    /// SIGKILL (children of Foundation's Process inherit blocked signals; SIGKILL always works).
    func kill9() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitForExit()
    }

    /// SIGTERM, then the exit status.
    func stop() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitForExit()
        return process.exitStatus
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A minimal line-oriented client of the control socket, independent of the code under test.
final class TestSocketClient {
    let fd: Int32
    private var buffer = Data()

    init(path: String, timeoutSeconds: Int = 10) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw HarnessError("connect: \(String(cString: strerror(code)))")
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends bytes; false when the agent is gone.
    @discardableResult
    func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    func send(_ line: String) -> Bool { send(Data((line + "\n").utf8)) }

    /// The next line, or nil when the connection ended or timed out.
    func readLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[buffer.index(after: newline)...])
                return String(decoding: line, as: UTF8.self)
            }
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// The status object the agent's `status`/`subscribe` reply carries in `output` (`--format json`).
    func status(_ request: String = #"{"cmd":"status"}"#) -> [String: Any]? {
        guard let output = self.request(request)?["output"] as? String else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any]
    }

    /// Sends a request and decodes the JSON reply.
    func request(_ line: String) -> [String: Any]? {
        guard send(line), let reply = readLine() else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any]
    }
}
