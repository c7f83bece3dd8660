import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// GPS through gpsd: Debian's real `gpsd` reads a socat
/// pseudo-terminal into which the test writes NMEA (a pass-by track, then
/// a walk into the office), and broadcasts each fix as its `org.gpsd` `fix`
/// signal on a private `dbus-daemon` standing in for the system bus. The
/// agent, on `source = "auto"`, finds gpsd on the bus, follows the signal
/// across a gpsd restart, and stores exactly one gps check-in: the walk in,
/// not the pass-by. Traced by strace, it creates no internet socket (gpsd's
/// own TCP listener is gpsd's, not the agent's).
///
/// (gpsfake does the same pty-and-gpsd dance but starts writing at once and,
/// without a client, never ends; the test needs to write after the agent
/// listens and to restart gpsd on the same device.)
@Suite(.serialized) struct AgentGPSDTests {
    static let missing: String? = {
        if let bus = PrivateSystemBus.missing { return bus }
        if !FileManager.default.isExecutableFile(atPath: SimulatedGPSD.binary) { return "gpsd not installed: apt-get install gpsd" }
        if !toolExists("dbus-monitor") { return "dbus-monitor not installed: apt-get install dbus-bin" }
        return nil
    }()

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func gpsdFixesCheckInOnceForTheEntryNotThePassByAcrossARestart() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = try await SimulatedGPS(in: cli.folder)
        try cli.writeConfig("""
            [gps]
            enabled = true
            source = "auto"
            device = "/dev/deskdays-no-such-gps"

            \(GPSTracks.fence(name: "office"))
            """)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let monitor = try await FixSignalMonitor(address: bus.address, in: cli.folder)
        var gpsd = try await SimulatedGPSD(device: gps.device, address: bus.address, in: cli.folder)
        let trace = cli.folder.appendingPathComponent("strace.out").path
        let agent = try await AgentProcess(cli, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address],
                                     launcher: ["/usr/bin/env", "strace", "-f", "-e", "trace=socket,connect", "-o", trace])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("GPS source auto: gpsd (gpsd is on the system bus)"), "\(agent.logText)")
        try #require(await agent.waitForLog("following gpsd's fix signal"), "\(agent.logText)")

        // The pass-by, all of it read by the first gpsd.
        try await monitor.prime(gps, from: -300)
        let before = monitor.fixes
        let passBy = GPSTracks.sentences(GPSTracks.passBy)
        try gps.write(passBy)
        #expect(await eventually("\(passBy.count) more fix signals from gpsd") { monitor.fixes >= before + passBy.count }, "gpsd sent \(monitor.fixes - before) fixes of \(passBy.count)")
        #expect(await agent.waitForLog("gpsd is sending fixes"), "\(agent.logText)")

        // gpsd restarts (a new bus connection); the walk into the office is read by the new one.
        await gpsd.stop()
        gpsd = try await SimulatedGPSD(device: gps.device, address: bus.address, in: cli.folder)
        try await monitor.prime(gps, from: 700)
        let entry = GPSTracks.sentences(GPSTracks.entry, start: 1000)
        try gps.write(entry)
        var sources: [String] = []
        #expect(await eventually("a gps check-in on \(AgentProcess.fixedDay)") {
            let days = try? await cli.run(["days", "--json", "--from", AgentProcess.fixedDay, "--to", AgentProcess.fixedDay])
            let list = (try? JSONSerialization.jsonObject(with: Data((days?.stdout ?? "").utf8))) as? [[String: Any]]
            sources = list?.first?["sources"] as? [String] ?? []
            return sources.contains("gps")
        }, "agent log: \(agent.logText)")
        #expect(sources == ["gps"])
        // The departure beyond the leave radius is seen (and, for now, not stored).
        #expect(await agent.waitForLog("GPS: left geofence office"), "\(agent.logText)")
        let explain = try await cli.run(["explain", AgentProcess.fixedDay])
        #expect(explain.stdout.components(separatedBy: "check-in  gps").count == 2, "exactly one gps check-in: \(explain.stdout)")
        #expect(explain.stdout.contains("rule \"office\""))
        let log = agent.logText
        #expect(log.components(separatedBy: "GPS: arrived at geofence").count == 2, "one arrival: \(log)")
        #expect(log.components(separatedBy: "gpsd is sending fixes").count == 3, "both gpsd instances followed: \(log)")
        #expect(!log.contains("warning"), "\(log)")
        // No position anywhere in the log or the database.
        #expect(!log.contains("48.8") && !log.contains("4851."), "\(log)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: cli.database))
            + ((try? Data(contentsOf: URL(fileURLWithPath: cli.database + "-wal"))) ?? Data())
        #expect(bytes.range(of: Data("48.85".utf8)) == nil)

        // SIGTERM to the agent itself (strace's child); strace exits with its status.
        #expect(await agent.stopTraced() == 0, "\(agent.logText)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(calls.contains { $0.contains("connect(") && $0.contains(bus.socketPath) }, "the agent connected to the bus")
        let internet = calls.filter { $0.contains("socket(") && ($0.contains("AF_INET") || $0.contains("PF_INET")) }
        #expect(internet.isEmpty, "internet sockets created: \(internet)")
    }

    /// `auto` on a receiver of its own, then gpsd starts (a second receiver
    /// plugged in, taken by gpsd): gpsd's first fix wins, the serial device
    /// is let go, and the walk in through gpsd is the one check-in.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func autoTakesAGpsdThatStartsLater() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let own = try await SimulatedGPS(in: cli.folder)
        let otherFolder = cli.folder.appendingPathComponent("other", isDirectory: true)
        try FileManager.default.createDirectory(at: otherFolder, withIntermediateDirectories: true)
        let taken = try await SimulatedGPS(in: otherFolder)
        try cli.writeConfig("""
            [gps]
            enabled = true
            device = "\(own.device)"

            \(GPSTracks.fence(name: "office"))
            """)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let monitor = try await FixSignalMonitor(address: bus.address, in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("GPS source auto: serial (neither gpsd nor ModemManager is on the system bus; the serial device exists)"), "\(agent.logText)")
        try #require(await agent.waitForLog("GPS receiver \(own.device) opened"), "\(agent.logText)")

        let gpsd = try await SimulatedGPSD(device: taken.device, address: bus.address, in: cli.folder)
        defer { gpsd.kill9() }
        try await monitor.prime(taken, from: 700)
        #expect(await agent.waitForLog("GPS source auto: gpsd joined the system bus; following it instead of serial"), "\(agent.logText)")
        try taken.write(GPSTracks.sentences(GPSTracks.entry, start: 1000))
        #expect(await agent.waitForLog("GPS: arrived at geofence office"), "\(agent.logText)")
        let explain = try await cli.run(["explain", AgentProcess.fixedDay])
        #expect(explain.stdout.components(separatedBy: "check-in  gps").count == 2, "\(explain.stdout)")
        // The serial device was let go: nothing holds it any more.
        let holders = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(agent.pid)/fd").filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(agent.pid)/fd/\($0)"))
                == URL(fileURLWithPath: own.device).resolvingSymlinksInPath().path
        }
        #expect(holders.isEmpty, "the agent still holds \(own.device)")
        #expect(await agent.stop() == 0)
    }

    /// `doctor` asks the same bus: auto's choice and why, then gpsd silent (no receiver data) and gpsd sending.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func doctorSaysAutoChoseGpsdAndWhetherItSendsFixes() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = try await SimulatedGPS(in: cli.folder)
        try cli.writeConfig("""
            [gps]
            enabled = true
            device = "/dev/deskdays-no-such-gps"

            \(GPSTracks.fence(name: "office"))
            """)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let environment = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]
        let arguments = ["doctor", "--socket", cli.folder.appendingPathComponent("none.sock").path]
        var doctor = try await cli.run(arguments, environment: environment)
        #expect(doctor.stdout.contains("source auto chose serial: neither gpsd nor ModemManager is on the system bus; waiting for the serial device"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("PROBLEM /dev/deskdays-no-such-gps does not exist"), "\(doctor.stdout)")

        let monitor = try await FixSignalMonitor(address: bus.address, in: cli.folder)
        let gpsd = try await SimulatedGPSD(device: gps.device, address: bus.address, in: cli.folder)
        defer { gpsd.kill9() }
        doctor = try await cli.run(arguments, environment: environment)
        #expect(doctor.stdout.contains("source auto chose gpsd: gpsd is on the system bus"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("warning gpsd is on the system bus but sent no fix with a position in 2 s"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("/dev/deskdays-no-such-gps"), "the serial device is not needed: \(doctor.stdout)")

        // With the receiver talking (fixes written while doctor listens), gpsd is fine.
        try await monitor.prime(gps, from: 0)
        let feed = gps.feed
        let writer = Thread { try? SimulatedGPS.write(GPSTracks.sentences(Array(repeating: (east: 0, north: 0), count: 400), start: 300), to: feed) }
        writer.start()
        doctor = try await cli.run(arguments, environment: environment)
        #expect(doctor.stdout.contains("ok      gpsd is on the system bus and sends fixes"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("48.85"), "no coordinates in the output")
        #expect(await eventually("the writer thread's end") { writer.isFinished }, "the writer finished")
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")),
          .enabled(if: getuid() == 0, "sending as another user (setpriv) needs root"))
    func aForgedFixFromAnotherUserIsIgnored() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("""
            [gps]
            enabled = true
            source = "gpsd"

            \(GPSTracks.fence(name: "hq"))
            """)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        defer { agent.kill9() }
        try #require(await agent.waitForLog("following gpsd's fix signal"), "\(agent.logText)")
        // 200 fixes at the centre, from user nobody: no check-in, one warning.
        let forger = try await Program.run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", """
            import sys, dbus
            bus = dbus.bus.BusConnection(sys.argv[1])
            for i in range(200):
                m = dbus.lowlevel.SignalMessage("/org/gpsd", "org.gpsd", "fix")
                m.append(1773129600.0 + i, dbus.Int32(3), 0.005, \(GPSTracks.centre.latitude), \(GPSTracks.centre.longitude), 5.0,
                         35.0, 10.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, "/dev/ttyACM0", signature="didddddddddddds")
                bus.send_message(m)
            bus.flush()
            """, bus.address], stdout: .inherit, stderr: .inherit)
        try #require(forger.status == 0, "the forger could not send (is the bus socket reachable for nobody?)")
        #expect(await agent.waitForLog("ignoring gpsd fix signals from"), "\(agent.logText)")
        #expect(!agent.logText.contains("arrived at geofence"), "\(agent.logText)")
        #expect(await agent.stop() == 0)
    }
}

/// Debian's gpsd reading `device` at once (`-n`), never writing to it (`-b`),
/// in the foreground, with its D-Bus export on the bus at `address`.
final class SimulatedGPSD {
    static let binary = "/usr/sbin/gpsd"
    private let process: Child

    init(device: String, address: String, in folder: URL) async throws {
        let control = folder.appendingPathComponent("gpsd-\(UUID().uuidString.prefix(8)).sock").path
        // gpsd always listens on TCP too; a free port keeps parallel runs apart.
        process = try await Child.start(Self.binary, ["-N", "-n", "-b", "-S", String(try freeTCPPort()), "-F", control, device],
                                        overrides: ["DBUS_SYSTEM_BUS_ADDRESS": address])
        // Up once its control socket exists (it joined the bus before that).
        guard await eventually("gpsd's control socket \(control)", { FileManager.default.fileExists(atPath: control) }) else {
            await stop()
            throw HarnessError("gpsd did not start")
        }
    }

    /// SIGKILL, then waits until it is gone.
    func stop() async {
        process.signal(SIGKILL)
        _ = await process.wait(seconds: 60)
    }

    /// SIGKILL, without waiting (Spawn reaps it): what a `defer` can do.
    func kill9() { process.signal(SIGKILL) }

    deinit { process.signal(SIGKILL) }
}

/// A TCP port nobody listens on now (for gpsd's own listener).
private func freeTCPPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw HarnessError("bind: \(errno)") }
    return UInt16(bigEndian: address.sin_port)
}

/// `dbus-monitor` counting gpsd's `fix` signals on the bus (what the agent was sent).
final class FixSignalMonitor {
    private let process: Child
    private let output: URL

    init(address: String, in folder: URL) async throws {
        let output = folder.appendingPathComponent("fix-signals.txt")
        self.output = output
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        // Line-buffered: dbus-monitor's stdout to a file is otherwise written in 4 KiB blocks.
        process = try await Child.start("/usr/bin/env", ["stdbuf", "-oL", "dbus-monitor", "--address", address,
                                                         "type='signal',interface='org.gpsd',member='fix'"],
                                        stdout: .file(output.path))
        guard await eventually("NameAcquired from dbus-monitor in \(output.path)", {
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("NameAcquired")
        }) else {
            throw HarnessError("dbus-monitor did not start")
        }
    }

    /// Writes far-away cycles (5 km from the fence), one at a time, until gpsd
    /// sends a fix for one: a freshly opened gpsd hunts for the speed and
    /// drops what arrives meanwhile.
    func prime(_ gps: SimulatedGPS, from second: Int) async throws {
        let start = fixes
        for offset in 0..<200 {
            try gps.write(GPSTracks.sentences([(east: 5000, north: 5000)], start: second + offset))
            if await eventually(seconds: 0.5, "a fix from gpsd for cycle \(offset) (else the next cycle)", { fixes > start }) { return }
        }
        throw HarnessError("gpsd sent no fix for 200 cycles")
    }

    /// Fix signals with a position seen so far (gpsd also sends some without one).
    var fixes: Int {
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "member=fix").dropFirst().filter { signal in
            let lines = signal.split(separator: "\n")
            return lines.count > 1 && (lines[1].contains("int32 2") || lines[1].contains("int32 3"))
        }.count
    }

    deinit { process.signal(SIGKILL) }
}
