import Foundation
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
    func resumeReopensTheGPSReceiverAndAnArrivalAfterItIsStored() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = try SimulatedGPS(in: cli.folder)
        try cli.writeConfig(gps.configuration)
        let bus = try PrivateSystemBus(in: cli.folder)
        let trace = cli.folder.appendingPathComponent("strace.out").path
        let agent = try AgentProcess(cli, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address],
                                     launcher: ["/usr/bin/env", "strace", "-f", "-e", "trace=socket,connect", "-o", trace])
        defer { agent.kill9() }
        #expect(agent.waitForLog("opened"), "\(agent.logText)")
        try #require(agent.waitForLog("watching suspend and resume"), "the match was not installed: \(agent.logText)")

        // A resume signal from a connection that does not own logind's name is not delivered.
        try bus.emitSpoofed(sleeping: false)
        let logind = try bus.logind()
        try logind.prepareForSleep(true)
        #expect(agent.waitForLog("the system is going to sleep"), "\(agent.logText)")
        try logind.prepareForSleep(false)
        #expect(agent.waitForLog("resumed from sleep; re-arming 1 adapter"), "\(agent.logText)")
        #expect(waitUntil { agent.logText.components(separatedBy: "opened at 9600 baud").count == 3 },
                "the GPS receiver was not reopened after resume: \(agent.logText)")

        // The reopened reader sees a new arrival, and the pipeline stores it.
        usleep(200_000)
        try gps.replay()
        var sources: [String] = []
        #expect(waitUntil {
            let days = try? cli.run(["days", "--json", "--from", AgentProcess.fixedDay, "--to", AgentProcess.fixedDay])
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
        let children = (try? String(contentsOfFile: "/proc/\(agent.process.processIdentifier)/task/\(agent.process.processIdentifier)/children",
                                    encoding: .utf8)) ?? ""
        for pid in children.split(separator: " ").compactMap({ Int32($0) }) { kill(pid, SIGTERM) }
        agent.process.waitForExit()
        #expect(agent.process.exitStatus == 0, "the watcher thread lets the agent stop: \(agent.logText)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(calls.contains { $0.contains("connect(") && $0.contains(bus.socketPath) }, "the agent connected to the bus")
        let internet = calls.filter { $0.contains("socket(") && ($0.contains("AF_INET") || $0.contains("PF_INET")) }
        #expect(internet.isEmpty, "internet sockets created: \(internet)")
    }

    @Test func noSystemBusIsOneInfoLineAndTheAgentCarriesOn() throws {
        for (address, expected) in [("unix:path=/nonexistent/deskdays-test-bus", "no system bus"),
                                    ("tcp:host=127.0.0.1,port=9", "not a unix socket")] {
            let cli = try CLIRunner()
            defer { cli.cleanup() }
            let agent = try AgentProcess(cli, environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
            defer { agent.kill9() }
            #expect(agent.waitForLog(expected), "\(agent.logText)")
            let client = try TestSocketClient(path: agent.socket)
            #expect(client.request(#"{"cmd":"status"}"#) != nil, "the agent still answers")
            let log = agent.logText
            #expect(log.components(separatedBy: "suspend and resume are not watched").count == 2, "one line: \(log)")
            #expect(!log.contains("error"), "\(log)")
            #expect(agent.stop() == 0)
        }
    }
}

/// Polls `condition` every 50 ms for up to `seconds` (a bound, not a measurement).
func waitUntil(seconds: Double = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(50_000)
    }
    return condition()
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
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        probe.arguments = ["-c", "import dbus"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.spawn()) != nil else { return "/usr/bin/python3 not found: apt-get install python3-dbus" }
        probe.waitForExit()
        return probe.exitStatus == 0 ? nil : "python3-dbus not installed: apt-get install python3-dbus"
    }()

    let address: String
    let socketPath: String
    private let daemon = Process()

    /// - Parameter services: a folder of D-Bus service files the bus activates itself (Exec=), as a session bus without systemd does.
    init(in folder: URL, services: URL? = nil) throws {
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
        let output = Pipe()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        daemon.arguments = ["dbus-daemon", "--config-file=\(config.path)", "--nofork", "--print-address"]
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        try daemon.spawn()
        guard let line = readLine(from: output.fileHandleForReading), line.hasPrefix("unix:") else {
            kill(daemon.processIdentifier, SIGKILL)
            throw HarnessError("dbus-daemon printed no address")
        }
        address = line
    }

    /// `PrepareForSleep` sent by a client that does not own `org.freedesktop.login1`.
    /// (gdbus sometimes exits with "Error flushing connection: The connection
    /// is closed" on a loaded machine: a new gdbus tries again; a signal
    /// sent twice is ignored twice.)
    func emitSpoofed(sleeping: Bool) throws {
        var status: Int32 = -1
        for _ in 0..<3 where status != 0 {
            let gdbus = Process()
            gdbus.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            gdbus.arguments = ["gdbus", "emit", "--address", address, "--object-path", "/org/freedesktop/login1",
                               "--signal", "org.freedesktop.login1.Manager.PrepareForSleep", sleeping ? "true" : "false"]
            gdbus.standardError = FileHandle.nullDevice
            try gdbus.spawn()
            gdbus.waitForExit()
            status = gdbus.exitStatus
        }
        try #require(status == 0, "gdbus emit failed three times")
    }

    /// A stand-in for logind: owns its bus name and sends `PrepareForSleep` on request.
    func logind() throws -> FakeLogind { try FakeLogind(address: address) }

    deinit {
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitForExit()
    }
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

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init(address: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", Self.script, address]
        process.standardInput = input
        process.standardOutput = output
        try process.spawn()
        guard readLine(from: output.fileHandleForReading) == "ready" else {
            throw HarnessError("the logind stand-in could not own its name")
        }
    }

    func prepareForSleep(_ sleeping: Bool) throws {
        input.fileHandleForWriting.write(Data((sleeping ? "true\n" : "false\n").utf8))
        guard readLine(from: output.fileHandleForReading) == "sent" else { throw HarnessError("the signal was not sent") }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitForExit()
    }
}

/// One line from a pipe, read byte by byte so nothing after it is consumed; nil at end of file.
private func readLine(from handle: FileHandle) -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while read(handle.fileDescriptor, &byte, 1) == 1 {
        if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(byte)
    }
    return nil
}
