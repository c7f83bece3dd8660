import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// GPS through ModemManager. There is no modem simulator, so a
/// python3-dbus stand-in owns `org.freedesktop.ModemManager1` on a private
/// system bus and implements the documented subset of
/// `org.freedesktop.ModemManager1.Modem.Location` (the properties
/// Capabilities, Enabled, SignalsLocation and Location, their
/// PropertiesChanged signal, Setup and GetLocation, and the polkit refusal),
/// checked at start against ModemManager's published introspection XML
/// (package modemmanager-dev). The test drives it with NMEA snapshots of a
/// pass-by and a walk into the office.
@Suite(.serialized) struct AgentModemManagerTests {
    static let missing: String? = {
        if let notify = FakeNotificationDaemon.missing { return notify }
        if !FileManager.default.fileExists(atPath: FakeModemManager.introspection) {
            return "ModemManager's introspection XML not installed: apt-get install modemmanager-dev"
        }
        return nil
    }()

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func modemManagerFixesCheckInOnceForTheEntryNotThePassByAcrossARestart() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("""
            [gps]
            enabled = true
            device = "/dev/deskdays-no-such-gps"

            \(GPSTracks.fence(name: "office"))
            """)
        let bus = try await PrivateSystemBus(in: cli.folder)
        var modem = try await FakeModemManager(address: bus.address, in: cli.folder, enabled: 6, signals: true)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("GPS source auto: modemmanager (ModemManager's modem 0 has its GPS enabled)"), "\(agent.logText)")
        try #require(await agent.waitForLog("following the GPS NMEA location of modem 0"), "\(agent.logText)")
        for cycle in GPSTracks.sentences(GPSTracks.passBy) { try await modem.locate(cycle) }

        // ModemManager restarts: gone (its name lost), then back with the modem; the walk in comes from the new one.
        let setupCalls = modem.setupCalls
        await modem.kill()
        #expect(await agent.waitForLog("GPS source ModemManager: no modem with a Location interface"), "\(agent.logText)")
        modem = try await FakeModemManager(address: bus.address, in: cli.folder, enabled: 6, signals: true)
        #expect(await eventually("a second \"following the GPS NMEA location of modem 0\"") { agent.logText.components(separatedBy: "following the GPS NMEA location of modem 0").count == 3 },
                "followed again after the restart: \(agent.logText)")
        for cycle in GPSTracks.sentences(GPSTracks.entry, start: 1000) { try await modem.locate(cycle) }
        var sources: [String] = []
        #expect(await eventually("a gps check-in on \(AgentProcess.fixedDay)") {
            let days = try? await cli.run(["days", "--json", "--from", AgentProcess.fixedDay, "--to", AgentProcess.fixedDay])
            let list = (try? JSONSerialization.jsonObject(with: Data((days?.stdout ?? "").utf8))) as? [[String: Any]]
            sources = list?.first?["sources"] as? [String] ?? []
            return sources.contains("gps")
        }, "agent log: \(agent.logText)")
        #expect(sources == ["gps"])
        #expect(await agent.waitForLog("GPS: left geofence office"), "\(agent.logText)")
        let explain = try await cli.run(["explain", AgentProcess.fixedDay])
        #expect(explain.stdout.components(separatedBy: "check-in  gps").count == 2, "exactly one gps check-in: \(explain.stdout)")
        let log = agent.logText
        #expect(log.components(separatedBy: "GPS: arrived at geofence").count == 2, "one arrival: \(log)")
        #expect(!log.contains("warning") && !log.contains("48.8"), "\(log)")
        #expect(setupCalls.isEmpty && modem.setupCalls.isEmpty, "the agent never changes the modem's set-up")
        #expect(await agent.stop() == 0)
    }

    /// `auto` among the three: a modem with its GPS off and a serial device
    /// present is the serial device; the same modem without the device is
    /// ModemManager, with one line saying how to turn the GPS on; nothing on
    /// the bus at all is the serial device.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func autoChoosesAmongTheSources() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let gps = try await SimulatedGPS(in: cli.folder)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let emptyFolder = cli.folder.appendingPathComponent("empty", isDirectory: true)
        try FileManager.default.createDirectory(at: emptyFolder, withIntermediateDirectories: true)
        let empty = try await PrivateSystemBus(in: emptyFolder)
        let modem = try await FakeModemManager(address: bus.address, in: cli.folder, enabled: 0, signals: false)
        func agentLog(device: String, address: String, waitingFor line: String, then later: String? = nil) async throws -> String {
            try cli.writeConfig("""
                [gps]
                enabled = true
                device = "\(device)"

                \(GPSTracks.fence(name: "office"))
                """)
            let agent = try await AgentProcess(cli, environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
            defer { agent.kill9() }
            #expect(await agent.waitForLog(line), "\(agent.logText)")
            // A line the adapter logs after the choice: waited for before the stop, not raced.
            if let later { #expect(await agent.waitForLog(later), "\(agent.logText)") }
            #expect(await agent.stop() == 0)
            return agent.logText
        }
        _ = try await agentLog(device: gps.device, address: bus.address, waitingFor:
            "GPS source auto: serial (gpsd is not on the system bus and no modem has its GPS enabled; the serial device exists)")
        _ = try await agentLog(device: "/dev/deskdays-no-such-gps", address: bus.address, waitingFor:
            "GPS source auto: modemmanager (ModemManager's modem 0 can give GPS positions, and the serial device does not exist)",
            then: "the GPS NMEA source of modem 0 is not enabled")
        _ = try await agentLog(device: gps.device, address: empty.address, waitingFor:
            "GPS source auto: serial (neither gpsd nor ModemManager is on the system bus; the serial device exists)")
        #expect(modem.setupCalls.isEmpty)
    }

    /// `enroll gps --source modemmanager` turns the modem's NMEA source on
    /// only when asked; polkit's refusal is one sentence and the configuration is untouched.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func enrollAsksModemManagerAndReportsPolkitsRefusal() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[gps]\nenabled = true\n")
        let bus = try await PrivateSystemBus(in: cli.folder)
        let refusing = try await FakeModemManager(address: bus.address, in: cli.folder, enabled: 0, signals: false, refuse: true)
        let before = try String(contentsOfFile: cli.config, encoding: .utf8)
        let refused = try await cli.run(["enroll", "gps", "--source", "modemmanager", "--seconds", "5"],
                                  environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
        #expect(refused.status == 1)
        let sentence = refused.stderr.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        #expect(sentence.contains("ModemManager refused to turn on the GPS of modem 0 (org.freedesktop.ModemManager1.Error.Core.Unauthorized: PolicyKit authorization failed"), "\(refused.stderr)")
        #expect(sentence.contains("mmcli -m 0 --location-enable-gps-nmea"), "\(sentence)")
        #expect(refusing.setupCalls == [[6, 1]] || refusing.setupCalls == [[4, 1]], "one Setup asked: \(refusing.setupCalls)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == before)
    }
}

/// The ModemManager stand-in: one modem (`/org/freedesktop/ModemManager1/Modem/0`,
/// capabilities GPS raw | GPS NMEA) whose Location the test sets line by line.
final class FakeModemManager {
    static let introspection = "/usr/share/dbus-1/interfaces/org.freedesktop.ModemManager1.Modem.Location.xml"

    static let script = """
        import json, sys, threading, dbus, dbus.service, dbus.mainloop.glib
        import xml.etree.ElementTree as ET
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        address, xml_path, enabled, signals, refuse = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5] == "1"
        LOC = "org.freedesktop.ModemManager1.Modem.Location"
        PROPS = "org.freedesktop.DBus.Properties"
        MODEM = "/org/freedesktop/ModemManager1/Modem/0"

        # The subset implemented here must match ModemManager's published interface.
        iface = ET.parse(xml_path).getroot().find("interface[@name='%s']" % LOC)
        published = {p.get("name"): p.get("type") for p in iface.findall("property")}
        methods = {m.get("name"): [(a.get("direction") or "in", a.get("type")) for a in m.findall("arg")] for m in iface.findall("method")}
        assert published["Capabilities"] == "u" and published["Enabled"] == "u", published
        assert published["SignalsLocation"] == "b" and published["Location"] == "a{uv}", published
        assert methods["Setup"] == [("in", "u"), ("in", "b")], methods["Setup"]
        assert methods["GetLocation"] == [("out", "a{uv}")], methods["GetLocation"]

        bus = dbus.bus.BusConnection(address)
        state = {"Capabilities": dbus.UInt32(6), "Enabled": dbus.UInt32(enabled), "SignalsLocation": dbus.Boolean(signals),
                 "Location": dbus.Dictionary({}, signature="uv"), "GpsRefreshRate": dbus.UInt32(0)}

        def say(obj):
            print(json.dumps(obj), flush=True)

        class Modem(dbus.service.Object):
            @dbus.service.method(LOC, in_signature="ub")
            def Setup(self, sources, signal_location):
                say({"setup": [int(sources), int(bool(signal_location))]})
                if refuse:
                    raise dbus.exceptions.DBusException("PolicyKit authorization failed: not authorized for 'org.freedesktop.ModemManager1.Device.Control'",
                                                        name="org.freedesktop.ModemManager1.Error.Core.Unauthorized")
                self.change({"Enabled": dbus.UInt32(int(sources)), "SignalsLocation": dbus.Boolean(signal_location)})

            @dbus.service.method(LOC, out_signature="a{uv}")
            def GetLocation(self):
                return state["Location"]

            @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
            def Get(self, interface, name):
                if interface != LOC or name not in state:
                    raise dbus.exceptions.DBusException("No such property", name="org.freedesktop.DBus.Error.InvalidArgs")
                return state[name]

            @dbus.service.method(PROPS, in_signature="s", out_signature="a{sv}")
            def GetAll(self, interface):
                return dict(state) if interface == LOC else {}

            @dbus.service.signal(PROPS, signature="sa{sv}as")
            def PropertiesChanged(self, interface, changed, invalidated):
                pass

            def change(self, changed):
                state.update(changed)
                self.PropertiesChanged(LOC, dbus.Dictionary(changed, signature="sv"), dbus.Array([], signature="s"))

        class Manager(dbus.service.Object):
            @dbus.service.method("org.freedesktop.DBus.ObjectManager", out_signature="a{oa{sa{sv}}}")
            def GetManagedObjects(self):
                return {dbus.ObjectPath(MODEM): {LOC: dict(state), "org.freedesktop.ModemManager1.Modem": {"State": dbus.Int32(8)}}}

        name = dbus.service.BusName("org.freedesktop.ModemManager1", bus)
        Manager(bus, "/org/freedesktop/ModemManager1")
        modem = Modem(bus, MODEM)

        def commands():
            for line in iter(sys.stdin.readline, ""):
                nmea = line.rstrip("\\n")
                def publish(nmea=nmea):
                    # What ModemManager publishes with both GPS sources on: NMEA traces and the raw dictionary.
                    raw = dbus.Dictionary({"utc-time": nmea[7:16], "latitude": 0.0, "longitude": 0.0}, signature="sv")
                    modem.change({"Location": dbus.Dictionary({dbus.UInt32(4): dbus.String(nmea.replace("|", "\\r\\n")),
                                                               dbus.UInt32(2): raw}, signature="uv")})
                    bus.flush()
                    say({"sent": True})
                    return False
                GLib.idle_add(publish)
        threading.Thread(target=commands, daemon=True).start()
        say({"ready": True})
        GLib.MainLoop().run()
        """

    private let process: Conversation

    init(address: String, in folder: URL, enabled: Int, signals: Bool, refuse: Bool = false) async throws {
        process = try await Conversation("/usr/bin/python3", ["-c", Self.script, address, Self.introspection, String(enabled),
                                                              signals ? "1" : "0", refuse ? "1" : "0"],
                                         in: folder, stderr: .inherit)
        guard await eventually("the ModemManager stand-in's ready line", { lines.first?["ready"] != nil }) else {
            throw HarnessError("the ModemManager stand-in did not start (its interface differs from the published XML?)")
        }
    }

    private var lines: [[String: Any]] {
        process.lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Publishes one cycle's sentences as the modem's Location and waits until the signal is sent.
    func locate(_ sentences: [String]) async throws {
        let sent = lines.filter { $0["sent"] != nil }.count
        process.send(sentences.joined(separator: "|"))
        guard await eventually("the stand-in's sent line", { lines.filter { $0["sent"] != nil }.count > sent }) else {
            throw HarnessError("the stand-in did not publish the location")
        }
    }

    /// The Setup calls received: [sources, signal_location].
    var setupCalls: [[Int]] { lines.compactMap { $0["setup"] as? [Int] } }

    /// Gone at once, as a crashed or restarted ModemManager.
    func kill() async {
        await process.kill9()
    }
}
