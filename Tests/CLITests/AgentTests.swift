import Foundation
import TestSupport
import Testing

/// The agent as a real process: a GPS receiver replayed into a
/// pseudo-terminal (socat), a geofence at the capture's position, and the
/// arrival ends up as one stored gps check-in; SIGTERM stops it cleanly.
@Suite(.serialized) struct AgentTests {
    @Test(.enabled(if: toolExists("socat"), "socat not installed: apt-get install socat"))
    func gpsArrivalThroughTheAgentIsStoredOnce() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = try SimulatedGPS(in: cli.folder)
        try cli.writeConfig(gps.configuration)
        let agent = try AgentProcess(cli)
        defer { agent.kill9() }
        #expect(agent.waitForLog("opened"), "\(agent.logText)")
        usleep(200_000)
        // Twice through: the second pass is the same presence, not a new arrival.
        try gps.replay(passes: 2)
        var sources: [String] = []
        for _ in 0..<100 {
            let today = try cli.run(["days", "--json", "--from", AgentProcess.fixedDay, "--to", AgentProcess.fixedDay])
            let list = try JSONSerialization.jsonObject(with: Data(today.stdout.utf8)) as? [[String: Any]]
            sources = list?.first?["sources"] as? [String] ?? []
            if sources.contains("gps") { break }
            usleep(100_000)
        }
        #expect(sources == ["gps"], "agent log: \(agent.logText)")
        let explain = try cli.run(["explain", AgentProcess.fixedDay])
        #expect(explain.stdout.contains("rule \"toulouse\""))
        #expect(explain.stdout.components(separatedBy: "check-in  gps").count == 2, "exactly one stored gps check-in")
        // Nothing positional reached the database.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cli.database))
            + ((try? Data(contentsOf: URL(fileURLWithPath: cli.database + "-wal"))) ?? Data())
        #expect(bytes.range(of: Data("43.55".utf8)) == nil && bytes.range(of: Data("4333.1".utf8)) == nil)
        #expect(agent.stop() == 0)
    }

    @Test func agentWithNothingEnabledStopsOnSIGTERM() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = Process()
        agent.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        agent.arguments = ["agent", "--config", cli.config, "--database", cli.database]
        let err = Pipe()
        agent.standardError = err
        try agent.spawn()
        usleep(500_000)
        agent.terminate()
        agent.waitForExit()
        #expect(agent.exitStatus == 0)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("no adapter enabled"))
    }
}

