import Foundation
import TestSupport
import Testing

/// `deskdays`, the launcher: it prints the agent's current answer without
/// the command tree, and hands everything else to `deskdays-cli`.
@Suite struct LauncherTests {
    /// A `bin` folder holding copies of the named executables only.
    func lone(_ executables: [String], in cli: CLIRunner) throws -> String {
        let bin = cli.folder.appendingPathComponent("bin-\(UUID().uuidString.prefix(6))").path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for name in executables {
            try FileManager.default.copyItem(atPath: (CLIRunner.binary as NSString).deletingLastPathComponent + "/" + name,
                                             toPath: bin + "/" + name)
        }
        return bin + "/deskdays"
    }

    /// Runs `program` with the default paths pointed into the test folder.
    func run(_ program: String, _ arguments: [String], cli: CLIRunner, runtime: String) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["DESKDAYS_CONFIG"] = cli.config
        env["DESKDAYS_DATABASE"] = cli.database
        env["DESKDAYS_NOW"] = nil
        env["DESKDAYS_TODAY"] = nil
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.spawn()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitForExit()
        return (process.exitStatus, stdout, stderr)
    }

    @Test func theLauncherAloneServesTheAgentsAnswer() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        // On the system clock, late in the evening, a fallback written
        // between the two answers would make them differ: none is written.
        try cli.writeConfig("""
        [checkin]
        reminder_time = "off"
        fallback_time = "off"
        """)
        #expect(try cli.run(["checkin", "--date", "2026-03-09", "--socket", "/nonexistent/agent.sock"]).status == 0)
        let runtime = cli.folder.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        // On the system clock: the answer is what it is today, whatever today is; the test only compares.
        let agent = try AgentProcess(cli, socket: runtime + "/deskdays/agent.sock", environment: ["DESKDAYS_NOW": ""])
        defer { agent.kill9() }
        let client = try TestSocketClient(path: agent.socket)
        // No deskdays-cli beside it: whatever it prints came from the agent.
        let launcher = try lone(["deskdays"], in: cli)
        for format in ["json", "waybar", "i3blocks"] {
            let served = try #require(client.request(#"{"cmd":"status","format":"\#(format)"}"#)?["output"] as? String)
            let (status, stdout, stderr) = try run(launcher, ["status", "--format", format], cli: cli, runtime: runtime)
            #expect(status == 0, "\(stderr)")
            #expect(stdout == served, "status --format \(format)")
        }
        let report = try #require(client.request(#"{"cmd":"report"}"#)?["output"] as? String)
        let (status, stdout, _) = try run(launcher, ["report", "--json"], cli: cli, runtime: runtime)
        #expect(status == 0 && stdout == report)
        // Anything the agent does not answer goes to deskdays-cli, which is missing here: one sentence.
        let (other, _, message) = try run(launcher, ["status"], cli: cli, runtime: runtime)
        #expect(other == 1 && message.contains("deskdays-cli is not installed") && message.contains("make install"), "\(message)")
    }

    @Test func anAgentOnAnotherClockOrConfigurationIsNotAsked() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let runtime = cli.folder.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        // The agent's "now" is fixed: its answer is not today's, so the launcher must not print it.
        let agent = try AgentProcess(cli, socket: runtime + "/deskdays/agent.sock")
        defer { agent.kill9() }
        let launcher = try lone(["deskdays"], in: cli)
        let (fixed, _, message) = try run(launcher, ["status", "--format", "json"], cli: cli, runtime: runtime)
        #expect(fixed == 1 && message.contains("deskdays-cli is not installed"), "\(message)")
        // With the command tree beside it, the same request is computed there and succeeds.
        let whole = try lone(["deskdays", "deskdays-cli"], in: cli)
        let (computed, stdout, stderr) = try run(whole, ["status", "--format", "json"], cli: cli, runtime: runtime)
        #expect(computed == 0 && stdout.contains("\"required\""), "\(stderr)")
    }

    /// `status --follow` through the launcher alone: the answer now, every
    /// change pushed, and one sentence when the agent goes away.
    @Test func theLauncherFollowsTheAgent() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        // The launcher follows only an agent on the system clock, so today
        // is whatever it is: an office day today counts even on a weekend or
        // a holiday, and no fallback or reminder changes the day meanwhile.
        try cli.writeConfig("""
        [policy]
        count_non_workdays = true

        [checkin]
        reminder_time = "off"
        fallback_time = "off"
        """)
        let runtime = cli.folder.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let agent = try AgentProcess(cli, socket: runtime + "/deskdays/agent.sock", environment: ["DESKDAYS_NOW": ""])
        let client = try TestSocketClient(path: agent.socket)
        let launcher = try lone(["deskdays"], in: cli)
        let follower = Process()
        follower.executableURL = URL(fileURLWithPath: launcher)
        follower.arguments = ["--config", cli.config, "status", "--follow", "--format=waybar", "--database", cli.database]
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["DESKDAYS_NOW"] = nil
        follower.environment = env
        let out = Pipe(), err = Pipe()
        follower.standardOutput = out
        follower.standardError = err
        try follower.spawn()
        defer { if follower.isRunning { kill(follower.processIdentifier, SIGKILL) }; follower.waitForExit() }
        let lines = LineReader(out.fileHandleForReading)
        let first = try #require(lines.next(), "no first line")
        let served = try #require(client.request(#"{"cmd":"status","format":"waybar"}"#)?["output"] as? String)
        #expect(first + "\n" == served)
        // A change: the office day of today (whatever today is) is pushed.
        #expect(client.request(#"{"cmd":"checkin","status":"office"}"#)?["ok"] as? Bool == true)
        let second = try #require(lines.next(), "no line after the check-in")
        #expect(second != first, "\(first) then \(second)")
        #expect(agent.stop() == 0)
        follower.waitForExit()
        #expect(follower.exitStatus == 1)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message == "deskdays: The agent stopped; status updates ended.\n", "\(message)")
    }
}

/// Lines from a pipe, read as they come.
final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }
}
