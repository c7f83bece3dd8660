import Foundation
import Spawn
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

    let child: Child
    let log: URL
    let socket: String
    var pid: pid_t { child.pid }
    var isRunning: Bool { child.isRunning }

    /// Starts `deskdays agent` (plus `arguments`) and waits until its socket
    /// answers. With `manualClock`, the agent's clock stands at its
    /// `DESKDAYS_NOW` until `advance(seconds:)` moves it (docs/testing.md "Timers").
    /// `socketByDefault`: no `--socket`, the agent finds its own (at `socket`).
    init(_ cli: CLIRunner, socket: String? = nil, socketByDefault: Bool = false, arguments: [String] = [],
         environment: [String: String] = [:], launcher: [String] = [], manualClock: Bool = false,
         binary: String = CLIRunner.binary) async throws {
        let socket = socket ?? cli.folder.appendingPathComponent("run/agent.sock").path
        self.socket = socket
        log = cli.folder.appendingPathComponent("agent-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let agentArguments = ["agent", "--config", cli.config, "--database", cli.database]
            + (socketByDefault ? [] : ["--socket", socket]) + arguments
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
        env["DESKDAYS_CLOCK"] = manualClock ? "manual" : nil
        for (key, value) in environment { env[key] = value }
        child = launcher.isEmpty
            ? try await Child.start(binary, agentArguments, environment: env,
                                    stdout: .file(log.path), stderr: .file(log.path))
            : try await Child.start(launcher[0], Array(launcher.dropFirst()) + [binary] + agentArguments,
                                    environment: env, stdout: .file(log.path), stderr: .file(log.path))
        let child = child
        let answered = await eventually("the agent's socket \(socket)") {
            (try? TestSocketClient(path: socket)) != nil || !child.isRunning
        }
        if answered && child.isRunning { return }
        kill9()
        throw HarnessError("the agent did not open its socket; log: \(logText)")
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Moves a manual clock on by `seconds` (the agent must have been started with `manualClock`).
    func advance(seconds: Double) throws {
        let client = try TestSocketClient(path: socket)
        let reply = client.request(#"{"cmd":"advance","seconds":\#(seconds)}"#)
        guard reply?["ok"] as? Bool == true else { throw HarnessError("advance refused: \(String(describing: reply))") }
    }

    /// Waits until the log contains `text` (false after `seconds`: a failure guard).
    @discardableResult
    func waitForLog(_ text: String, seconds: Double = 60) async -> Bool {
        await eventually(seconds: seconds, "\"\(text)\" in the agent's log \(log.path)") { logText.contains(text) }
    }

    /// Waits until the log satisfies `condition` (false after `seconds`: a failure guard).
    func waitForLog(seconds: Double = 60, _ what: String, _ condition: (String) -> Bool) async -> Bool {
        await eventually(seconds: seconds, "\(what) in the agent's log \(log.path)") { condition(logText) }
    }

    /// SIGKILL, without waiting (Spawn reaps it): what a `defer` can do, as it cannot await.
    func kill9() {
        child.signal(SIGKILL)
    }

    /// SIGTERM, then the exit status (-1 if it still ran after a minute).
    func stop() async -> Int32 {
        child.signal(SIGTERM)
        return await ended()
    }

    /// SIGTERM (or `signal`) to the agent under strace (the launcher's
    /// child), then strace's exit status, which is the agent's.
    func stopTraced(_ signal: Int32 = SIGTERM) async -> Int32 {
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        for child in children.split(separator: " ").compactMap({ Int32($0) }) { kill(child, signal) }
        return await ended()
    }

    /// Waits until it ended: its exit status, or -1 if it still ran after a minute (a failure guard).
    func ended() async -> Int32 {
        if let status = await child.wait(seconds: 60) { return status }
        print("the agent still ran a minute after it was told to stop; log: \(logText)")
        return -1
    }

    deinit { child.signal(SIGKILL) }
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
        // Not closed here: a class whose init throws once every property is set is
        // deinitialised, and `deinit` closes `fd`; closing it twice closed whatever
        // descriptor another thread had opened under that number meanwhile.
        guard result == 0 else { throw HarnessError("connect: \(String(cString: strerror(errno)))") }
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
