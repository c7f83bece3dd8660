import Foundation
import Spawn
import TestSupport
import Testing

/// The agent as a real process: a GPS receiver replayed into a
/// pseudo-terminal (socat), a geofence at the capture's position, and the
/// arrival ends up as one stored gps check-in; SIGTERM stops it cleanly.
@Suite(.serialized) struct AgentTests {
    @Test(.enabled(if: toolExists("socat"), "socat not installed: apt-get install socat"))
    func gpsArrivalThroughTheAgentIsStoredOnce() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = try await SimulatedGPS(in: cli.folder)
        try cli.writeConfig(gps.configuration)
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        #expect(await agent.waitForLog("opened"), "\(agent.logText)")
        // Twice through: the second pass is the same presence, not a new arrival.
        try gps.replay(passes: 2)
        var sources: [String] = []
        try await eventually("a gps check-in on \(AgentProcess.fixedDay)") {
            let today = try await cli.run(["days", "--json", "--from", AgentProcess.fixedDay, "--to", AgentProcess.fixedDay])
            let list = try JSONSerialization.jsonObject(with: Data(today.stdout.utf8)) as? [[String: Any]]
            sources = list?.first?["sources"] as? [String] ?? []
            return sources.contains("gps")
        }
        #expect(sources == ["gps"], "agent log: \(agent.logText)")
        let explain = try await cli.run(["explain", AgentProcess.fixedDay])
        #expect(explain.stdout.contains("rule \"toulouse\""))
        #expect(explain.stdout.components(separatedBy: "check-in  gps").count == 2, "exactly one stored gps check-in")
        // Nothing positional reached the database.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cli.database))
            + ((try? Data(contentsOf: URL(fileURLWithPath: cli.database + "-wal"))) ?? Data())
        #expect(bytes.range(of: Data("43.55".utf8)) == nil && bytes.range(of: Data("4333.1".utf8)) == nil)
        #expect(await agent.stop() == 0)
    }

    @Test func agentWithNothingEnabledStopsOnSIGTERM() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let errors = cli.folder.appendingPathComponent("agent.err").path
        // A socket of its own: the default one (/tmp/deskdays-UID) is where other tests' CLI runs look for an agent.
        let socket = cli.folder.appendingPathComponent("agent.sock").path
        let agent = try await Child.start(CLIRunner.binary, ["agent", "--config", cli.config, "--database", cli.database,
                                                             "--socket", socket],
                                          stderr: .file(errors))
        // Printed once the agent traps SIGTERM (AgentLifecycle: the group traps it before the agent is made).
        var message = ""
        await eventually("the agent's start-up message in \(errors)") {
            message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            return message.contains("no adapter enabled") && message.contains("`deskdays doctor`")
        }
        agent.signal(SIGTERM)
        #expect(await agent.wait(seconds: 60) == 0)
        #expect(!agent.terminatedBySignal)
        #expect(message.contains("no adapter enabled"))
        // The hints name the commands the README names, not keys to edit by hand.
        #expect(message.contains("`deskdays enroll nfc`, then `deskdays enable nfc`") && !message.contains("enabled = true"), "\(message)")
    }
}

