import Foundation
import Spawn
import TestSupport
import Testing

/// The agent is the one source of the current answer: what it serves on
/// the control socket, what it writes to the status files beside it and what
/// `deskdays status`/`report --json` print are the same bytes.
@Suite(.serialized) struct AgentAnswerTests {
    /// A short history, written before the agent starts (the agent must see it).
    func history(_ cli: CLIRunner) async throws {
        try cli.writeConfig("""
        [policy]
        timezone = "UTC"

        [policy.target]
        kind = "days_per_week"
        value = 2
        """)
        for (date, status) in [("2026-03-02", "office"), ("2026-03-03", "remote"), ("2026-03-05", "office"),
                               ("2026-03-09", "sick"), ("2025-12-01", "office")] {
            #expect(try await cli.run(["checkin", "--date", date, "--status", status, "--socket", "/nonexistent/agent.sock"]).status == 0)
        }
    }

    /// With the same "now", the socket's reply, the status file and the CLI's
    /// own computation agree byte for byte, in every format and for the report.
    @Test func socketReplyStatusFileAndCLIPrintTheSameBytes() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await history(cli)
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let folder = (agent.socket as NSString).deletingLastPathComponent
        // The agent's "now" is AgentProcess.fixedNow; the CLI computes the same day itself.
        let now = ["DESKDAYS_NOW": AgentProcess.fixedNow]
        // A connection per request: the agent closes one left idle for 5 s, as a CLI run under load may take.
        for format in ["json", "waybar", "i3blocks", "text"] {
            let reply = try #require(try TestSocketClient(path: agent.socket).request(#"{"cmd":"status","format":"\#(format)"}"#))
            #expect(reply["clock"] as? String == "set", "\(reply)")
            let served = try #require(reply["output"] as? String)
            let printed = try await cli.run(["status", "--format", format, "--socket", agent.socket], environment: now)
            #expect(printed.status == 0, "\(printed.stderr)")
            #expect(printed.stdout == served, "status --format \(format): CLI \(printed.stdout) vs agent \(served)")
            if format != "text" {
                let file = try String(contentsOfFile: folder + "/status.\(format == "json" ? "json" : format)", encoding: .utf8)
                #expect(file == served, "status.\(format)")
            }
        }
        let json = try #require(JSONSerialization.jsonObject(with: Data(try await cli.run(["status", "--format", "json"], environment: now).stdout.utf8)) as? [String: Any])
        #expect(json["office"] as? Int == 2 && json["today"] as? String == AgentProcess.fixedDay, "\(json)")
        #expect(json["streak_weeks"] != nil && json["longest_streak_weeks"] != nil, "streak keys included")
        let report = try #require(try TestSocketClient(path: agent.socket).request(#"{"cmd":"report"}"#)?["output"] as? String)
        #expect(try await cli.run(["report", "--json", "--socket", agent.socket], environment: now).stdout == report)
        #expect(report.contains("\"required\""))

        // A check-in through the agent: the file and a follower see the new answer.
        #expect(try await cli.run(["checkin", "--date", AgentProcess.fixedDay, "--socket", agent.socket], environment: now).status == 0)
        var fileNow = ""
        #expect(await eventually(#""office":3 in status.json"#) {
            fileNow = (try? String(contentsOfFile: folder + "/status.json", encoding: .utf8)) ?? ""
            return fileNow.contains("\"office\":3,")
        }, "status.json after the check-in: \(fileNow)")
        #expect(try await cli.run(["status", "--format", "json"], environment: now).stdout == fileNow)
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/status.json")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(await agent.stop() == 0)
    }

    /// A write the agent did not make (another process writing the file
    /// directly) is seen before the next answer: SQLite's data_version.
    @Test func aDirectWriteByAnotherProcessIsSeenBeforeTheNextAnswer() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await history(cli)
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let client = try TestSocketClient(path: agent.socket)
        let before = try #require(client.status())
        // --socket elsewhere: this process writes the database itself.
        #expect(try await cli.run(["checkin", "--date", AgentProcess.fixedDay, "--socket", "/nonexistent/agent.sock"]).status == 0)
        // A new connection: the agent closes one left idle for 5 s, as the CLI run may take under load.
        let after = try #require(try TestSocketClient(path: agent.socket).status())
        #expect((before["office"] as? Int).map { $0 + 1 } == after["office"] as? Int, "\(before) → \(after)")
        #expect(await agent.stop() == 0)
    }

    /// A follower gets a line when its own line changes: a change only
    /// another format shows (a remote day: the JSON counts it, the waybar
    /// line does not) sends a waybar follower nothing, and its next line is
    /// the office day's.
    @Test func aFollowerGetsALineOnlyWhenItsOwnLineChanges() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await history(cli)
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let follower = try TestSocketClient(path: agent.socket)
        #expect(follower.send(#"{"cmd":"subscribe","format":"waybar"}"#))
        let first = try #require(follower.readLine())
        let client = try TestSocketClient(path: agent.socket)
        let before = try #require(client.status())
        #expect(client.request(#"{"cmd":"checkin","date":"2026-03-04","status":"remote"}"#)?["ok"] as? Bool == true)
        let remote = try #require(client.status())
        #expect((before["remote"] as? Int).map { $0 + 1 } == remote["remote"] as? Int, "\(before) → \(remote)")
        #expect(client.request(#"{"cmd":"checkin","date":"2026-03-06","status":"office"}"#)?["ok"] as? Bool == true)
        let second = try #require(follower.readLine())
        #expect(second != first, "\(first) then \(second)")
        #expect(await agent.stop() == 0)
    }

    /// With the agent on the system clock and the same files, `status` is
    /// answered by the agent; with `--today`, another configuration or
    /// another database, it is computed by the CLI.
    @Test func theCLIAsksTheAgentOnlyWhenItsAnswerIsTheCLIs() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await history(cli)
        let agent = try await AgentProcess(cli, environment: ["DESKDAYS_NOW": ""])
        defer { agent.kill9() }
        // Answering once first: the CLI waits 2 s for the agent, then
        // computes the answer itself, and a loaded machine's starting agent
        // can take that long.
        #expect(try TestSocketClient(path: agent.socket).status() != nil)
        let log = ["DESKDAYS_LOG": "info"]
        let asked = try await cli.run(["status", "--format", "waybar", "--socket", agent.socket], environment: log)
        #expect(asked.status == 0 && asked.stderr.contains("answered by the agent"), "\(asked.stderr)")
        let dated = try await cli.run(["status", "--format", "waybar", "--socket", agent.socket, "--today", "2026-03-10"], environment: log)
        #expect(dated.status == 0 && !dated.stderr.contains("answered by the agent"), "\(dated.stderr)")
        let other = cli.folder.appendingPathComponent("other.toml").path
        try "".write(toFile: other, atomically: true, encoding: .utf8)
        let configured = try await cli.run(["status", "--format", "json", "--socket", agent.socket, "--config", other,
                                      "--database", cli.database], paths: false, environment: log)
        #expect(configured.status == 0 && !configured.stderr.contains("answered by the agent"), "\(configured.stderr)")
        #expect(await agent.stop() == 0)
    }
}
