import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The privacy claim as a test: the agent, traced with `strace -f -e
/// trace=socket,connect` through a GPS arrival (pty replay), a check-in and a
/// subscription over the control socket, and a reminder (its sd-bus
/// connection to the session bus included), never creates an AF_INET or
/// AF_INET6 socket.
@Suite(.serialized) struct AgentNetworkTests {
    @Test(.enabled(if: toolExists("strace") && toolExists("socat"), "strace and socat needed: apt-get install strace socat"))
    func theAgentNeverCreatesAnInternetSocket() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = try await SimulatedGPS(in: cli.folder)
        try cli.writeConfig("""
        [policy]
        timezone = "UTC"

        [checkin]
        reminder_time = "10:30"

        \(gps.configuration)
        """)
        let trace = cli.folder.appendingPathComponent("strace.out").path
        // A session bus address that leads nowhere: the notifier still connects (traced) for the reminder.
        let busPath = "\(cli.folder.path)/no-bus"
        let agent = try await AgentProcess(cli, environment: [
            "DESKDAYS_NOW": "2026-11-18T10:29:58Z",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(busPath)",
        ], launcher: ["/usr/bin/env", "strace", "-f", "-e", "trace=socket,connect", "-o", trace])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("opened"), "\(agent.logText)")
        // The 10:30 reminder comes first (the day has no record yet), then the arrival.
        #expect(await agent.waitForLog("reminder"), "\(agent.logText)")
        #expect(await agent.waitForLog("cannot show desktop notifications: no D-Bus session bus"), "\(agent.logText)")
        try gps.replay()
        #expect(await agent.waitForLog("gps check-in stored"), "\(agent.logText)")
        let client = try TestSocketClient(path: agent.socket)
        #expect(client.request(#"{"cmd":"checkin","date":"2026-11-17","status":"office"}"#)?["ok"] as? Bool == true)
        #expect(client.status(#"{"cmd":"subscribe"}"#)?["today"] as? String == "2026-11-18")

        // Stop the agent itself (strace's child) with SIGTERM; strace then exits.
        _ = await agent.stopTraced()

        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(lines.contains { $0.contains("connect(") && $0.contains("AF_UNIX") && $0.contains(busPath) },
                "the notifier tried the session bus over a unix socket")
        let calls = lines.filter { $0.contains("socket(") }
        #expect(calls.contains { $0.contains("AF_UNIX") }, "the trace saw the agent's own sockets")
        let internet = calls.filter { $0.contains("AF_INET") || $0.contains("PF_INET") }
        #expect(internet.isEmpty, "internet sockets created: \(internet)")
    }
}
