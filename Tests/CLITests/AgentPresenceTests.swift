import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Time on site through the real agent (docs/policy.md "Time on site"): a
/// GPS receiver on a socat pty enters the geofence and leaves it past its
/// leave radius; stopping the agent and suspending the machine (a logind
/// stand-in on a private bus, as AgentSleepTests) close a method's presence.
/// The agent's clock starts at 08:00 and runs, so times are read through
/// `explain`, which says whether the day's last sign was a departure.
@Suite(.serialized) struct AgentPresenceTests {
    static let config = """
    [policy]
    timezone = "UTC"

    """

    /// The commands' "now": noon of the agent's day, so a method still present is present "now".
    static let now = ["DESKDAYS_NOW": "2026-03-10T12:00:00Z"]

    /// `explain` of the agent's day, the presence line of gps.
    static func gpsPresence(_ cli: CLIRunner) async -> String {
        let explain = (try? await cli.run(["explain", AgentProcess.fixedDay], environment: now))?.stdout ?? ""
        return explain.split(separator: "\n").first { $0.contains("presence  gps") }.map(String.init) ?? ""
    }

    static func day(_ cli: CLIRunner) async -> [String: Any] {
        let days = try? await cli.run(["days", "--json", "--from", AgentProcess.fixedDay, "--to", AgentProcess.fixedDay], environment: now)
        let list = (try? JSONSerialization.jsonObject(with: Data((days?.stdout ?? "").utf8))) as? [[String: Any]]
        return list?.first ?? [:]
    }

    /// An arrival through the control socket counts as present as an
    /// adapter's does (one way in, `Delivery`): stopping the agent records its departure.
    @Test func anArrivalThroughTheSocketIsPresentUntilTheAgentStops() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        var agent: AgentProcess? = try await AgentProcess(cli)
        defer { agent?.kill9() }
        let event = try await cli.run(["event", "--source", "external", "--at", AgentProcess.fixedNow, "--socket", agent!.socket])
        #expect(event.status == 0, "\(event.stdout)\(event.stderr)")
        #expect(await agent!.waitForLog("external check-in stored for \(AgentProcess.fixedDay) through the control socket"), "\(agent!.logText)")
        #expect(await agent!.stop() == 0)
        #expect(agent!.logText.contains("the agent stopped: departure recorded for external"), "\(agent!.logText)")
        agent = nil
    }

    @Test(.enabled(if: toolExists("socat"), "socat not installed: apt-get install socat"))
    func enteringAndLeavingTheGeofenceAndStoppingTheAgent() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = try await SimulatedGPS(in: cli.folder)
        try cli.writeConfig(Self.config + gps.configuration)
        var agent: AgentProcess? = try await AgentProcess(cli)
        defer { agent?.kill9() }
        #expect(await agent!.waitForLog("opened"), "\(agent!.logText)")
        // Six seconds of receiver time inside a 3 s dwell: an arrival, still present.
        try gps.send(SimulatedGPS.fixes(inside: true, from: 0, count: 6))
        #expect(await eventually("GPS presence \"still present now\"") { await Self.gpsPresence(cli).contains("still present now") }, "\(agent!.logText)")
        let arrived = await Self.day(cli)
        #expect(arrived["status"] as? String == "office")
        #expect(arrived["first_seen"] as? String == "08:00")
        #expect(arrived["last_seen"] as? String == "12:00")
        // 5 km north: past the leave radius, a departure.
        try gps.send(SimulatedGPS.fixes(inside: false, from: 6, count: 3))
        #expect(await agent!.waitForLog("GPS: left geofence toulouse"), "\(agent!.logText)")
        #expect(await eventually("GPS presence \"left 08:\"") { await Self.gpsPresence(cli).contains("left 08:") }, "\(agent!.logText)")
        #expect(await Self.day(cli)["first_seen"] as? String == "08:00")
        // Back inside: present again (the same day's check-in, a newer sign).
        try gps.send(SimulatedGPS.fixes(inside: true, from: 9, count: 6))
        #expect(await eventually("GPS presence \"still present now\"") { await Self.gpsPresence(cli).contains("still present now") }, "\(agent!.logText)")
        // The agent stops while the receiver is inside the fence: that moment is a departure.
        #expect(await agent!.stop() == 0)
        #expect(agent!.logText.contains("the agent stopped: departure recorded for gps"), "\(agent!.logText)")
        agent = nil
        let presence = await Self.gpsPresence(cli)
        #expect(presence.contains("left 08:"), "\(presence)")
        let explain = try await cli.run(["explain", AgentProcess.fixedDay])
        #expect(explain.stdout.components(separatedBy: "check-in  gps").count == 2, "one check-in row: \(explain.stdout)")
    }

    @Test(.enabled(if: PrivateSystemBus.missing == nil && toolExists("socat"),
                   Comment(rawValue: PrivateSystemBus.missing ?? "socat not installed: apt-get install socat")))
    func suspendClosesPresenceAndResumeReopensIt() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = try await SimulatedGPS(in: cli.folder)
        try cli.writeConfig(Self.config + gps.configuration)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("opened"), "\(agent.logText)")
        try #require(await agent.waitForLog("watching suspend and resume"), "\(agent.logText)")
        try gps.send(SimulatedGPS.fixes(inside: true, from: 0, count: 6))
        #expect(await eventually("GPS presence \"still present now\"") { await Self.gpsPresence(cli).contains("still present now") }, "\(agent.logText)")

        let logind = try await bus.logind()
        try await logind.prepareForSleep(true)
        #expect(await agent.waitForLog("suspending: departure recorded for gps"), "\(agent.logText)")
        let presence = await Self.gpsPresence(cli)
        #expect(presence.contains("left 08:"), "\(presence)")

        // On resume the receiver is reopened; fixes still inside make it arrive again.
        try await logind.prepareForSleep(false)
        #expect(await agent.waitForLog("resumed from sleep"), "\(agent.logText)")
        #expect(await eventually("the GPS receiver opened a second time") { agent.logText.components(separatedBy: "opened at 9600 baud").count == 3 }, "\(agent.logText)")
        try gps.send(SimulatedGPS.fixes(inside: true, from: 20, count: 6))
        #expect(await eventually("GPS presence \"still present now\"") { await Self.gpsPresence(cli).contains("still present now") }, "\(agent.logText)")
        #expect(await agent.stop() == 0)
    }
}
