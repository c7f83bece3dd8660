import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Suspend and resume as logind announces them (`PrepareForSleep` on the
/// system bus): a private `dbus-daemon` stands in for the system bus, a small
/// python3-dbus program owning `org.freedesktop.login1` stands in for logind,
/// and the real agent watches a GPS receiver on a socat pty, traced by
/// strace to show that its bus connection is a unix socket like the rest.
@Suite(.serialized) struct AgentSleepTests {
    @Test(.enabled(if: PrivateSystemBus.missing == nil, Comment(rawValue: PrivateSystemBus.missing ?? "")))
    func resumeReopensTheGPSReceiverAndAnArrivalAfterItIsStored() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = try await SimulatedGPS(in: cli.folder)
        try cli.writeConfig(gps.configuration)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let trace = cli.folder.appendingPathComponent("strace.out").path
        let agent = try await AgentProcess(cli, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address],
                                     launcher: ["/usr/bin/env", "strace", "-f", "-e", "trace=socket,connect", "-o", trace])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("opened"), "\(agent.logText)")
        try #require(await agent.waitForLog("watching suspend and resume"), "the match was not installed: \(agent.logText)")

        // A resume signal from a connection that does not own logind's name is not delivered.
        try await bus.emitSpoofed(sleeping: false)
        let logind = try await bus.logind()
        try await logind.prepareForSleep(true)
        #expect(await agent.waitForLog("the system is going to sleep"), "\(agent.logText)")
        try await logind.prepareForSleep(false)
        #expect(await agent.waitForLog("resumed from sleep; re-arming 1 adapter"), "\(agent.logText)")
        #expect(await eventually("the GPS receiver opened a second time") { agent.logText.components(separatedBy: "opened at 9600 baud").count == 3 },
                "the GPS receiver was not reopened after resume: \(agent.logText)")

        // The reopened reader sees a new arrival, and the pipeline stores it.
        try gps.replay()
        var sources: [String] = []
        #expect(await eventually("a gps check-in on \(AgentProcess.fixedDay)") {
            let days = try? await cli.run(["days", "--json", "--from", AgentProcess.fixedDay, "--to", AgentProcess.fixedDay])
            let list = (try? JSONSerialization.jsonObject(with: Data((days?.stdout ?? "").utf8))) as? [[String: Any]]
            sources = list?.first?["sources"] as? [String] ?? []
            return sources.contains("gps")
        }, "agent log: \(agent.logText)")
        #expect(sources == ["gps"])

        let log = agent.logText
        #expect(log.components(separatedBy: "resumed from sleep").count == 2, "exactly one resume (the spoofed one ignored): \(log)")
        #expect(log.components(separatedBy: "going to sleep").count == 2, "one sleep line: \(log)")
        let resumed = try #require(log.range(of: "resumed from sleep"))
        #expect(log[resumed.upperBound...].contains("opened at 9600 baud"), "reopened after the resume line")
        // A re-arm is not a failure: no backoff restart.
        #expect(!log.contains("restarting in"), "\(log)")

        // SIGTERM to the agent itself (strace's child); strace exits with its status.
        #expect(await agent.stopTraced() == 0, "the watcher thread lets the agent stop: \(agent.logText)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(calls.contains { $0.contains("connect(") && $0.contains(bus.socketPath) }, "the agent connected to the bus")
        let internet = calls.filter { $0.contains("socket(") && ($0.contains("AF_INET") || $0.contains("PF_INET")) }
        #expect(internet.isEmpty, "internet sockets created: \(internet)")
    }

    @Test func noSystemBusIsOneInfoLineAndTheAgentCarriesOn() async throws {
        for (address, expected) in [("unix:path=/nonexistent/deskdays-test-bus", "no system bus"),
                                    ("tcp:host=127.0.0.1,port=9", "not a unix socket")] {
            let cli = try CLIRunner()
            defer { cli.cleanup() }
            let agent = try await AgentProcess(cli, environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
            defer { agent.kill9() }
            #expect(await agent.waitForLog(expected), "\(agent.logText)")
            let client = try TestSocketClient(path: agent.socket)
            #expect(client.request(#"{"cmd":"status"}"#) != nil, "the agent still answers")
            let log = agent.logText
            #expect(log.components(separatedBy: "suspend and resume are not watched").count == 2, "one line: \(log)")
            #expect(!log.contains("error"), "\(log)")
            #expect(await agent.stop() == 0)
        }
    }
}

/// A private `dbus-daemon` whose policy allows everything, listening in a scratch folder.
final class PrivateSystemBus {
    /// Why the bus test cannot run here, or nil.
    static let missing: String? = {
        for (tool, package) in [("dbus-daemon", "dbus-daemon"), ("gdbus", "libglib2.0-bin"), ("socat", "socat"),
                                ("strace", "strace")]
        where !toolExists(tool) {
            return "\(tool) not installed: apt-get install \(package)"
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return "/usr/bin/python3 not found: apt-get install python3-dbus" }
        return pythonModuleInstalled("dbus") ? nil : "python3-dbus not installed: apt-get install python3-dbus"
    }()

    let address: String
    let socketPath: String
    private let daemon: Conversation

    /// - Parameter services: a folder of D-Bus service files the bus activates itself (Exec=), as a session bus without systemd does.
    init(in folder: URL, services: URL? = nil) async throws {
        socketPath = folder.appendingPathComponent("system_bus_socket").path
        let activation = services.map { "<type>session</type>\n  <servicedir>\($0.path)</servicedir>" } ?? ""
        let config = folder.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          \(activation)
          <listen>unix:path=\(socketPath)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_type="method_call"/>
            <allow send_type="signal"/>
            <allow send_type="method_return"/>
            <allow send_type="error"/>
            <allow receive_type="method_call"/>
            <allow receive_type="signal"/>
            <allow receive_type="method_return"/>
            <allow receive_type="error"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        daemon = try await Conversation("/usr/bin/env", ["dbus-daemon", "--config-file=\(config.path)", "--nofork", "--print-address"],
                                        in: folder, input: false)
        guard let line = await daemon.nextLine(), line.hasPrefix("unix:") else {
            await daemon.kill9()
            throw HarnessError("dbus-daemon printed no address")
        }
        address = line
    }

    /// `PrepareForSleep` sent by a client that does not own `org.freedesktop.login1`.
    /// (gdbus sometimes exits with "Error flushing connection: The connection
    /// is closed" on a loaded machine: a new gdbus tries again; a signal
    /// sent twice is ignored twice.)
    func emitSpoofed(sleeping: Bool) async throws {
        var status: Int32 = -1
        for _ in 0..<3 where status != 0 {
            status = try await Program.run("/usr/bin/env", ["gdbus", "emit", "--address", address, "--object-path", "/org/freedesktop/login1",
                                                            "--signal", "org.freedesktop.login1.Manager.PrepareForSleep",
                                                            sleeping ? "true" : "false"],
                                           stdout: .discard, stderr: .discard).status
        }
        try #require(status == 0, "gdbus emit failed three times")
    }

    /// A stand-in for logind: owns its bus name and sends `PrepareForSleep` on request.
    func logind() async throws -> FakeLogind { try await FakeLogind(address: address, in: URL(fileURLWithPath: (socketPath as NSString).deletingLastPathComponent)) }
}

/// python3-dbus owning `org.freedesktop.login1`: one line on stdin ("true"/"false") is one signal, acknowledged by "sent".
final class FakeLogind {
    static let script = """
        import sys, dbus
        bus = dbus.bus.BusConnection(sys.argv[1])
        if bus.request_name("org.freedesktop.login1") != dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER:
            sys.exit("could not own org.freedesktop.login1")
        print("ready", flush=True)
        for line in iter(sys.stdin.readline, ""):
            signal = dbus.lowlevel.SignalMessage("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep")
            signal.append(line.strip() == "true", signature="b")
            bus.send_message(signal)
            bus.flush()
            print("sent", flush=True)
        """

    private let logind: Conversation

    init(address: String, in folder: URL) async throws {
        logind = try await Conversation("/usr/bin/python3", ["-c", Self.script, address], in: folder)
        guard await logind.nextLine() == "ready" else {
            throw HarnessError("the logind stand-in could not own its name")
        }
    }

    func prepareForSleep(_ sleeping: Bool) async throws {
        logind.send(sleeping ? "true" : "false")
        guard await logind.nextLine() == "sent" else { throw HarnessError("the signal was not sent") }
    }
}

/// Whether python3 can import `module` from Debian's system packages (a
/// look at the files, not a run: a `static let` cannot await a program).
func pythonModuleInstalled(_ module: String) -> Bool {
    ["/usr/lib/python3/dist-packages/", "/usr/local/lib/python3/dist-packages/"].contains {
        FileManager.default.fileExists(atPath: $0 + module)
    }
}
