import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The wired method on real network stacks: a "laptop" and a "gateway"
/// network namespace joined by a veth pair (Tests/Harness/wired/netns.sh),
/// the gateway with a fixed MAC, the real agent (and `enroll wired`,
/// `doctor`) inside the laptop namespace through `ip netns exec`. The
/// carrier is the gateway end going up or down (a cable or dock); the kernel
/// resolves the gateway's MAC when the laptop pings it (ARP or NDP) as any
/// traffic would. Nothing leaves the two namespaces the test makes.
///
/// Root only (network namespaces); CI is root. Each test has its own
/// namespaces, named after the test process and a counter, deleted even when
/// an expectation fails.
@Suite(.serialized) struct AgentWiredTests {
    static let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let ping = ["/usr/bin/ping", "/bin/ping"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let usable = getuid() == 0 && ip != nil && ping != nil
    static let skipReason: Comment = "needs root (network namespaces), iproute2 and ping: run as root after apt-get install iproute2 iputils-ping"

    static let officeMAC = "02:00:00:00:0a:01"
    static let homeMAC = "02:00:00:00:0b:01"
    static let config = """
    [policy]
    timezone = "UTC"

    [wired]
    enabled = true

    [[wired.networks]]
    name = "hq"
    gateway_mac = ["\(officeMAC)"]
    """

    @Test("link up → one office check-in from wired, under strace only AF_NETLINK and AF_UNIX sockets, no MAC in log or database",
          .enabled(if: usable && toolExists("strace"), skipReason))
    func linkUpIsOneOfficeCheckIn() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let dock = try await Dock()
        try await withCleanup({
            try cli.writeConfig(Self.config)
            try await dock.run("route4")
            try await dock.run("carrier", "down")
            let trace = cli.folder.appendingPathComponent("strace.out").path
            let agent = try await AgentProcess(cli, launcher: dock.exec + ["/usr/bin/env", "strace", "-f", "-e", "trace=socket", "-o", trace])
            defer { agent.kill9() }
            #expect(await agent.waitForLog("wired gateways: none"), "\(agent.logText)")
            try await dock.run("carrier", "up")
            try await dock.run("resolve", "4")
            #expect(await agent.waitForLog("wired check-in stored"), "\(agent.logText)")
            #expect(agent.logText.contains("wired gateways: eth0 IPv4: hq"), "\(agent.logText)")
            #expect(agent.logText.components(separatedBy: "arrived on network hq").count == 2, "\(agent.logText)")

            // Stop the agent itself (strace's child) with SIGTERM; strace then exits.
            _ = await agent.stopTraced()
            #expect(agent.logText.contains("agent stopped"), "\(agent.logText)")

            let explain = try await cli.run(["explain", AgentProcess.fixedDay]).stdout
            #expect(explain.components(separatedBy: "check-in  wired").count == 2, "\(explain)")
            #expect(explain.contains("rule \"hq\""), "\(explain)")

            let calls = try String(contentsOfFile: trace, encoding: .utf8).split(whereSeparator: \.isNewline)
                .compactMap { line in line.range(of: "socket(").map { String(line[$0.lowerBound...]) } }
            #expect(calls.contains { $0.hasPrefix("socket(AF_NETLINK,") && $0.contains("NETLINK_ROUTE") }, "\(calls)")
            for call in calls {
                #expect(call.hasPrefix("socket(AF_NETLINK,") || call.hasPrefix("socket(AF_UNIX,"), "\(call)")
            }
            // The MAC lives only in the configuration.
            #expect(!agent.logText.lowercased().contains(Self.officeMAC), "the gateway MAC was logged")
            for file in try FileManager.default.contentsOfDirectory(atPath: (cli.database as NSString).deletingLastPathComponent) {
                let data = try Data(contentsOf: URL(fileURLWithPath: (cli.database as NSString).deletingLastPathComponent).appendingPathComponent(file))
                #expect(data.range(of: Data(Self.officeMAC.utf8)) == nil && data.range(of: Data([0x02, 0, 0, 0, 0x0a, 0x01])) == nil,
                        "the gateway MAC is in \(file)")
            }
        }, cleanup: { await dock.remove() })
    }

    @Test("another gateway's MAC → nothing", .enabled(if: usable, skipReason))
    func anotherGatewayIsNothing() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let dock = try await Dock(gatewayMAC: Self.homeMAC)
        try await withCleanup({
            try cli.writeConfig(Self.config)
            try await dock.run("route4")
            let agent = try await AgentProcess(cli, launcher: dock.exec)
            defer { agent.kill9() }
            #expect(await agent.waitForLog("wired gateways: eth0 IPv4: not resolved yet"), "\(agent.logText)")
            try await dock.run("resolve", "4")
            // The agent's decision, logged once the kernel resolved the gateway: no rule.
            #expect(await agent.waitForLog("wired gateways: eth0 IPv4: no rule"), "\(agent.logText)")
            #expect(await agent.stop() == 0)
            #expect(!agent.logText.contains("arrived on network"), "\(agent.logText)")
            let explain = try await cli.run(["explain", AgentProcess.fixedDay]).stdout
            #expect(!explain.contains("wired"), "\(explain)")
        }, cleanup: { await dock.remove() })
    }

    @Test("an agent started docked records the arrival; a link flap within the window is still one",
          .enabled(if: usable, skipReason))
    func aFlapIsStillOneArrival() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let dock = try await Dock()
        try await withCleanup({
            try cli.writeConfig(Self.config)
            try await dock.run("route4")
            try await dock.run("resolve", "4")
            let agent = try await AgentProcess(cli, launcher: dock.exec)
            defer { agent.kill9() }
            #expect(await agent.waitForLog("wired check-in stored"), "\(agent.logText)")
            try await dock.run("carrier", "down")
            #expect(await agent.waitForLog("wired gateways: none"), "\(agent.logText)")
            try await dock.run("carrier", "up")
            try await dock.run("resolve", "4")
            #expect(await agent.waitForLog("back on network hq within the flap window"), "\(agent.logText)")
            #expect(await agent.stop() == 0)
            let log = agent.logText
            #expect(log.components(separatedBy: "arrived on network hq").count == 2, "\(log)")
            // It never left: no departure, not even at the stop.
            #expect(!log.contains("left network hq"), "\(log)")
            let explain = try await cli.run(["explain", AgentProcess.fixedDay]).stdout
            #expect(explain.components(separatedBy: "check-in  wired").count == 2, "\(explain)")
        }, cleanup: { await dock.remove() })
    }

    @Test("link down and another gateway at the same address are departures (flap window 0)",
          .enabled(if: usable, skipReason))
    func linkDownAndAnotherGatewayAreDepartures() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let dock = try await Dock()
        try await withCleanup({
            try cli.writeConfig(Self.config)
            try await dock.run("route4")
            try await dock.run("resolve", "4")
            let agent = try await AgentProcess(cli, environment: ["DESKDAYS_WIRED_FLAP_SECONDS": "0"], launcher: dock.exec)
            defer { agent.kill9() }
            #expect(await agent.waitForLog("arrived on network hq"), "\(agent.logText)")
            try await dock.run("carrier", "down")
            #expect(await agent.waitForLog("left network hq"), "\(agent.logText)")
            try await dock.run("carrier", "up")
            try await dock.run("resolve", "4")
            #expect(await agent.waitForLog("wired gateways: eth0 IPv4: hq"), "\(agent.logText)")
            #expect(await agent.waitForLog("a second \"arrived on network hq\"") { $0.components(separatedBy: "arrived on network hq").count == 3 }, "\(agent.logText)")
            // Another router answers for the gateway's address, the link never dropping.
            try await dock.run("static", Self.homeMAC)
            #expect(await agent.waitForLog("a second \"left network hq\"") { $0.components(separatedBy: "left network hq").count == 3 }, "\(agent.logText)")
            #expect(agent.logText.contains("wired gateways: eth0 IPv4: no rule"), "\(agent.logText)")
            #expect(await agent.stop() == 0)
            // Departures store nothing (yet): still one check-in for the day.
            let explain = try await cli.run(["explain", AgentProcess.fixedDay]).stdout
            #expect(explain.components(separatedBy: "check-in  wired").count == 2, "\(explain)")
        }, cleanup: { await dock.remove() })
    }

    @Test("an IPv6-only gateway (a static route via its link-local address) checks in",
          .enabled(if: usable, skipReason))
    func ipv6OnlyGatewayChecksIn() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let dock = try await Dock()
        try await withCleanup({
            try cli.writeConfig(Self.config)
            try await dock.run("route6")
            let agent = try await AgentProcess(cli, launcher: dock.exec)
            defer { agent.kill9() }
            #expect(await agent.waitForLog("wired gateways: eth0 IPv6: not resolved yet"), "\(agent.logText)")
            try await dock.run("resolve", "6")
            #expect(await agent.waitForLog("wired check-in stored"), "\(agent.logText)")
            #expect(agent.logText.contains("wired gateways: eth0 IPv6: hq"), "\(agent.logText)")
            #expect(!agent.logText.contains("IPv4"), "\(agent.logText)")
            #expect(await agent.stop() == 0)
        }, cleanup: { await dock.remove() })
    }

    @Test("an IPv6 router advertisement alone (the route and the router's MAC from it, the laptop sending nothing) checks in",
          .enabled(if: usable && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), skipReason))
    func routerAdvertisementChecksIn() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let dock = try await Dock()
        try await withCleanup({
            try cli.writeConfig(Self.config)
            let agent = try await AgentProcess(cli, launcher: dock.exec)
            defer { agent.kill9() }
            #expect(await agent.waitForLog("wired gateways: none"), "\(agent.logText)")
            try await dock.run("ra")
            #expect(await agent.waitForLog("wired check-in stored"), "\(agent.logText)")
            #expect(agent.logText.contains("wired gateways: eth0 IPv6: hq"), "\(agent.logText)")
            #expect(await agent.stop() == 0)
        }, cleanup: { await dock.remove() })
    }

    @Test("enroll wired writes the gateway's MAC to the configuration only; a second run adds nothing",
          .enabled(if: usable, skipReason))
    func enrollWiredLearnsTheGateway() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let dock = try await Dock()
        try await withCleanup({
            try cli.writeConfig("# my settings\n[wired]\nenabled = true\n")
            // No default route yet: one sentence, exit 1, the file untouched.
            var result = try await cli.run(["enroll", "wired", "--name", "hq"], launcher: dock.exec)
            #expect(result.status == 1)
            #expect(result.stderr.split(whereSeparator: \.isNewline).count == 1, "\(result.stderr)")
            #expect(result.stderr.contains("no default gateway"), "\(result.stderr)")
            // A route, but the kernel has not resolved the gateway: the same.
            try await dock.run("route4")
            result = try await cli.run(["enroll", "wired", "--name", "hq"], launcher: dock.exec)
            #expect(result.status == 1)
            #expect(result.stderr.contains("not resolved yet"), "\(result.stderr)")
            #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == "# my settings\n[wired]\nenabled = true\n")

            try await dock.run("resolve", "4")
            result = try await cli.run(["enroll", "wired", "--name", "hq"], launcher: dock.exec)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Docked on eth0"), "\(result.stdout)")
            #expect(!result.stdout.contains(Self.officeMAC), "the MAC was printed: \(result.stdout)")
            let written = try String(contentsOfFile: cli.config, encoding: .utf8)
            #expect(written.hasPrefix("# my settings\n[wired]\nenabled = true\n"), "\(written)")
            #expect(written.contains("[[wired.networks]]\nname = \"hq\"\ngateway_mac = [\"\(Self.officeMAC)\"]\n"), "\(written)")
            #expect(try await cli.run(["config", "check"]).status == 0)

            result = try await cli.run(["enroll", "wired", "--name", "hq2"], launcher: dock.exec)
            #expect(result.status == 0)
            #expect(result.stdout.contains("already the wired network \"hq\""), "\(result.stdout)")
            #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == written)
        }, cleanup: { await dock.remove() })
    }

    @Test("doctor names the matching rule, never the MAC", .enabled(if: usable, skipReason))
    func doctorNamesTheRule() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let dock = try await Dock()
        try await withCleanup({
            try cli.writeConfig(Self.config)
            try await dock.run("route4")
            try await dock.run("route6")
            try await dock.run("resolve", "4")
            let result = try await cli.run(["doctor"], launcher: dock.exec)
            #expect(result.stdout.contains("wired: enabled"), "\(result.stdout)")
            #expect(result.stdout.contains("the default gateway on eth0 (IPv4) is the office network \"hq\""), "\(result.stdout)")
            #expect(result.stdout.contains("the default gateway on eth0 (IPv6) is not resolved yet"), "\(result.stdout)")
            #expect(!result.stdout.contains(Self.officeMAC), "\(result.stdout)")
        }, cleanup: { await dock.remove() })
    }
}

/// A laptop namespace docked to a gateway namespace (Tests/Harness/wired/netns.sh).
final class Dock {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Harness/wired/netns.sh").path
    nonisolated(unsafe) private static var counter = 0
    private static let lock = NSLock()

    let prefix: String
    /// `ip netns exec LAPTOP`: what runs the agent (or a command) on the laptop.
    var exec: [String] { [AgentWiredTests.ip ?? "ip", "netns", "exec", "\(prefix)-lap"] }

    init(gatewayMAC: String = AgentWiredTests.officeMAC) async throws {
        let number = Self.lock.withLock { Self.counter += 1; return Self.counter }
        prefix = "ddw\(getpid())-\(number)"
        do {
            try await run("up", gatewayMAC)
        } catch {
            await remove()
            throw error
        }
    }

    /// Runs `netns.sh COMMAND PREFIX ARGS…`; throws with its stderr on failure.
    func run(_ command: String, _ arguments: String...) async throws {
        let output = try await Program.run("/bin/sh", [Self.script, command, prefix] + arguments, stdout: .discard)
        guard output.status == 0 else { throw HarnessError("netns.sh \(command) failed: \(output.stderr)") }
    }

    func remove() async { _ = try? await Program.run("/bin/sh", [Self.script, "down", prefix], stdout: .discard) }
}
