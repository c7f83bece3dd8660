import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The privacy claim as a test: the agent, traced with `strace -f -e
/// trace=socket` through a GPS arrival (pty replay), a check-in and a
/// subscription over the control socket, and a reminder (its gdbus child
/// included), never creates an AF_INET or AF_INET6 socket.
@Suite(.serialized) struct AgentNetworkTests {
    @Test(.enabled(if: toolExists("strace") && toolExists("socat"), "strace and socat needed: apt-get install strace socat"))
    func theAgentNeverCreatesAnInternetSocket() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = try SimulatedGPS(in: cli.folder)
        try cli.writeConfig("""
        [policy]
        timezone = "UTC"

        [checkin]
        reminder_time = "10:30"

        \(gps.configuration)
        """)
        let trace = cli.folder.appendingPathComponent("strace.out").path
        // A session bus address that leads nowhere: gdbus still runs (and is traced) for the reminder.
        let agent = try AgentProcess(cli, environment: [
            "DESKDAYS_NOW": "2026-11-18T10:29:58Z",
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(cli.folder.path)/no-bus",
        ], launcher: ["/usr/bin/env", "strace", "-f", "-e", "trace=socket", "-o", trace])
        defer { agent.kill9() }
        #expect(agent.waitForLog("opened"), "\(agent.logText)")
        usleep(200_000)
        try gps.replay()
        #expect(agent.waitForLog("gps check-in stored"), "\(agent.logText)")
        let client = try TestSocketClient(path: agent.socket)
        #expect(client.request(#"{"cmd":"checkin","date":"2026-11-17","status":"office"}"#)?["ok"] as? Bool == true)
        #expect(client.request(#"{"cmd":"subscribe"}"#)?["today"] as? String == "2026-11-18")
        #expect(agent.waitForLog("reminder"), "\(agent.logText)")
        #expect(agent.waitForLog("desktop notification"), "the gdbus child ran: \(agent.logText)")

        // Stop the agent itself (strace's child) with SIGTERM; strace then exits.
        let children = (try? String(contentsOfFile: "/proc/\(agent.process.processIdentifier)/task/\(agent.process.processIdentifier)/children",
                                    encoding: .utf8)) ?? ""
        for pid in children.split(separator: " ").compactMap({ Int32($0) }) { kill(pid, SIGTERM) }
        agent.process.waitForExit()

        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(whereSeparator: \.isNewline)
            .filter { $0.contains("socket(") }
        #expect(calls.contains { $0.contains("AF_UNIX") }, "the trace saw the agent's own sockets")
        let internet = calls.filter { $0.contains("AF_INET") || $0.contains("PF_INET") }
        #expect(internet.isEmpty, "internet sockets created: \(internet)")
    }
}
