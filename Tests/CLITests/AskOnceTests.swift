import Foundation
import Spawn
import TestSupport
import Testing

/// One invocation makes at most one connection to the agent (docs/cli.md
/// "Ask once"): the launcher hands what the agent said to `deskdays-cli`,
/// which neither asks the same again nor sends `hello` to learn what it knows.
@Suite struct AskOnceTests {
    /// An agent that serves these files but refuses every answer for its "now":
    /// the command computes, and, with `[sync]`, leaves the folder to that agent.
    static let refusal = #"{"ok":false,"version":1,"code":"fixed_clock","error":"this agent's or the request's \"now\" is fixed"}"#

    @Test(.enabled(if: toolExists("socat"), "needs socat to stand in for the agent and count its connections"))
    func eachCommandConnectsAtMostOnce() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = cli.folder.appendingPathComponent("sync").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try cli.writeConfig("[sync]\nfolder = \"\(folder)\"\ndevice_name = \"laptop\"\n")
        // At the default socket, as a command without --socket (`days`) finds it.
        let runtime = cli.folder.appendingPathComponent("runtime").path
        let agent = try await ProtocolVersionTests.OtherAgent(cli, reply: Self.refusal, runtime: runtime)
        // The database exists (written here: the agent refuses writes as well).
        let checkin = try await cli.run(["checkin", "--date", "2026-11-16", "--status", "office"])
        #expect(checkin.status == 0, "\(checkin.stderr)")
        let cases: [(String, [String], [String: String])] = [
            // The launcher asks, is refused, and hands that over: the CLI computes, and knows the agent syncs.
            ("status json at a fixed now", ["status", "--format", "json"], ["DESKDAYS_NOW": "2026-11-16T12:00:00Z"]),
            ("report json at a fixed now", ["report", "--json"], ["DESKDAYS_NOW": "2026-11-16T12:00:00Z"]),
            // The launcher does not read --today: the CLI asks once, and knows from that refusal.
            ("status json with --today", ["status", "--format", "json", "--today", "2026-11-16"], [:]),
            // A read with [sync] asks `hello` once.
            ("days", ["days", "--json", "--from", "2026-11-16", "--to", "2026-11-16"], [:]),
        ]
        for (name, arguments, environment) in cases {
            let before = agent.connections
            let run = try await cli.run(arguments, environment: environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
            #expect(run.status == 0, "\(name): \(run.stderr)")
            #expect(agent.connections - before == 1, "\(name): \(agent.connections - before) connections")
        }
        // A follower the agent refuses: one sentence, exit 1, one connection.
        let before = agent.connections
        let follow = try await cli.run(["status", "--follow", "--format", "json"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(follow.status == 1 && follow.stderr.contains("refused"), "\(follow.stderr)")
        #expect(follow.stderr.split(separator: "\n").count == 1, "one sentence: \(follow.stderr)")
        #expect(agent.connections - before == 1, "follow: \(agent.connections - before) connections")
    }
}
