import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The reminder as a desktop notification: the real agent (clock injected a
/// few seconds before `reminder_time` on a workday with nothing recorded)
/// calls `org.freedesktop.Notifications.Notify` over sd-bus on a private
/// `dbus-daemon` standing in for the session bus, where a small python3-dbus
/// program owns the name and records what it receives.
@Suite(.serialized) struct AgentNotifyTests {
    static let config = """
    [policy]
    timezone = "UTC"

    [checkin]
    reminder_time = "10:30"
    """

    @Test(.enabled(if: FakeNotificationDaemon.missing == nil, Comment(rawValue: FakeNotificationDaemon.missing ?? "")))
    func aReminderIsExactlyOneNotifyCall() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let daemon = try await FakeNotificationDaemon(address: bus.address, in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address,
                                                        "DESKDAYS_NOW": "2026-11-18T10:29:57Z"])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("reminder shown as a desktop notification (id 42)"), "\(agent.logText)")
        let client = try TestSocketClient(path: agent.socket)
        #expect(client.request(#"{"cmd":"status"}"#) != nil, "the agent carries on")
        #expect(await agent.stop() == 0)

        let calls = daemon.calls
        #expect(calls.count == 1, "exactly one Notify: \(calls)")
        let call = try #require(calls.first)
        #expect(call["signature"] as? String == "susssasa{sv}i")
        #expect(call["app"] as? String == "DeskDays")
        #expect(call["replaces"] as? Int == 0)
        #expect(call["summary"] as? String == "DeskDays: no check-in yet today")
        #expect(call["icon"] as? String == "appointment-soon", "a question awaiting an answer: the alarm")
        let body = try #require(call["body"] as? String)
        // Nothing recorded by mid-November: the quarter is out of reach, and the reminder says so.
        #expect(body.range(of: #"^Q4 2026 is out of reach: [0-9]+ more office days? needed, [0-9]+ workdays? left\. "#,
                           options: .regularExpression) != nil, "\(body)")
        #expect(agent.logText.contains("reminder for 2026-11-18: \(body)"), "the logged reminder is the notification's text")
        #expect((call["actions"] as? [Any])?.isEmpty == true)
        #expect((call["hints"] as? [String: Any])?["urgency"] as? Int == 1)
        #expect(call["expire"] as? Int == -1)
        #expect(!agent.logText.contains("warning"), "\(agent.logText)")
    }

    /// `[desktop] confirm`: the day's first automatic check-in is one quiet
    /// notification naming the method, the rule, the time and this week;
    /// the next check-in that day is none; `confirm = false` shows none.
    /// (The agent answers `event` once the notification call returned: no wait.)
    @Test(.enabled(if: FakeNotificationDaemon.missing == nil, Comment(rawValue: FakeNotificationDaemon.missing ?? "")),
          arguments: [true, false])
    func theFirstAutomaticCheckInOfTheDayIsConfirmedOnce(confirm: Bool) async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n[policy.target]\nkind = \"days_per_week\"\nvalue = 3\n"
                            + "[desktop]\nconfirm = \(confirm)\n")
        let bus = try await PrivateSystemBus(in: cli.folder)
        let daemon = try await FakeNotificationDaemon(address: bus.address, in: cli.folder)
        let now = "2026-11-18T08:50:00Z"
        let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": now])
        defer { agent.kill9() }
        for (source, at) in [("nfc", "2026-11-18T08:52:00Z"), ("wifi", "2026-11-18T08:53:00Z")] {
            let event = try await cli.run(["event", "--source", source, "--rule", "desk", "--at", at, "--socket", agent.socket],
                                          environment: ["DESKDAYS_NOW": now])
            #expect(event.status == 0, "\(event.stderr)")
        }
        #expect(agent.logText.contains("check-in stored for 2026-11-18 through the control socket"), "\(agent.logText)")
        let calls = daemon.calls
        guard confirm else {
            #expect(calls.isEmpty, "confirm = false: \(calls)")
            return
        }
        #expect(calls.count == 1, "once a day: \(calls)")
        let call = try #require(calls.first)
        #expect(call["body"] as? String == "In the office — nfc \"desk\" at 08:52. This week: 1 of 3 office days.", "\(call)")
        #expect((call["hints"] as? [String: Any])?["suppress-sound"] as? Bool == true, "\(call)")
        #expect(call["icon"] as? String == "emblem-default", "a recorded check-in shows a check mark, not an alarm")
        // Activating it (a click on it) opens the window: it comes from the agent's own connection, which hears that.
        #expect(call["expire"] as? Int == -1 && call["actions"] as? [String] == ["default", "Open DeskDays"], "\(call)")
        #expect(agent.logText.contains("confirmation shown as a desktop notification"), "\(agent.logText)")
    }

    /// `[reminders] summary`: on Friday at 16:00 one notification with this
    /// week's office days against the rule and where the period stands.
    @Test(.enabled(if: FakeNotificationDaemon.missing == nil, Comment(rawValue: FakeNotificationDaemon.missing ?? "")))
    func theWeeklySummaryIsOneNotificationOnFriday() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("""
        [policy]
        timezone = "UTC"
        [policy.target]
        kind = "days_per_week"
        value = 3
        [checkin]
        reminder_time = "off"
        fallback_time = "off"
        [reminders]
        summary = "fri 16:00"
        """)
        #expect(try await cli.run(["checkin", "--date", "2026-11-18", "--socket", "/nonexistent/agent.sock"]).status == 0)
        // Next Tuesday planned on Friday: the summary names it.
        #expect(try await cli.run(["checkin", "--date", "2026-11-24", "--today", "2026-11-20", "--socket", "/nonexistent/agent.sock"]).status == 0)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let daemon = try await FakeNotificationDaemon(address: bus.address, in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address,
                                                        "DESKDAYS_NOW": "2026-11-20T15:59:57Z"])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("reminder shown as a desktop notification (id 42)"), "\(agent.logText)")
        #expect(await agent.stop() == 0)
        let call = try #require(daemon.calls.first)
        #expect(daemon.calls.count == 1)
        #expect(call["summary"] as? String == "DeskDays: this week")
        #expect(call["icon"] as? String == "x-office-calendar", "the summary is no alarm")
        let body = try #require(call["body"] as? String)
        #expect(body.contains("This week: 1 of 3 office days.") && body.hasPrefix("Q4 2026"), "\(body)")
        #expect(body.hasSuffix(" Next planned office day: 2026-11-24."), "\(body)")
        #expect(agent.logText.contains("weekly summary for the week of 2026-11-16: \(body)"), "\(agent.logText)")
    }

    @Test(.enabled(if: FakeNotificationDaemon.missing == nil, Comment(rawValue: FakeNotificationDaemon.missing ?? "")))
    func aHungNotificationDaemonIsGivenUpOnAndAStopEndsTheWait() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let daemon = try await FakeNotificationDaemon(address: bus.address, in: cli.folder, answers: false)
        let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        let agent = try await AgentProcess(cli, environment: environment.merging(["DESKDAYS_NOW": "2026-11-18T10:29:57Z"]) { $1 })
        defer { agent.kill9() }
        #expect(await eventually(#"daemon.calls.count == 1"#) { daemon.calls.count == 1 }, "\(agent.logText)")
        // While the call waits for its answer, the agent still serves requests.
        let client = try TestSocketClient(path: agent.socket)
        #expect(client.request(#"{"cmd":"status"}"#) != nil)
        // sd-bus's own call timeout (5 s) gives up on it.
        #expect(await agent.waitForLog("the desktop notification could not be shown (org.freedesktop.DBus.Error.NoReply"),
                "\(agent.logText)")
        // A new connection: the agent closes one idle for 5 s, and the wait
        // above may last that long on a loaded machine.
        #expect(try TestSocketClient(path: agent.socket).request(#"{"cmd":"status"}"#) != nil, "the agent carries on")
        #expect(await agent.stop() == 0)

        // Next day: stopped while the call is pending, the wait ends without an outcome (nothing logged about it).
        let next = try await AgentProcess(cli, environment: environment.merging(["DESKDAYS_NOW": "2026-11-19T10:29:57Z"]) { $1 })
        defer { next.kill9() }
        #expect(await eventually(#"daemon.calls.count == 2"#) { daemon.calls.count == 2 }, "\(next.logText)")
        #expect(await next.stop() == 0)
        #expect(!next.logText.contains("could not be shown"), "cancelled, not timed out: \(next.logText)")
    }

    @Test func withoutAUsableSessionBusTheReminderIsLoggedOnce() async throws {
        for (address, expected) in [("unix:path=/nonexistent/deskdays-test-bus", "cannot show desktop notifications: no D-Bus session bus"),
                                    ("tcp:host=127.0.0.1,port=9", "the session bus address is not a unix socket")] {
            let cli = try CLIRunner()
            defer { cli.cleanup() }
            try cli.writeConfig(Self.config)
            let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": address,
                                                            "DESKDAYS_NOW": "2026-11-18T10:29:57Z"])
            defer { agent.kill9() }
            #expect(await agent.waitForLog(expected), "\(agent.logText)")
            #expect(agent.logText.contains("reminder for 2026-11-18:"))
            let client = try TestSocketClient(path: agent.socket)
            #expect(client.request(#"{"cmd":"status"}"#) != nil, "the agent carries on")
            let log = agent.logText
            #expect(log.components(separatedBy: "desktop notification").count == 2, "one line: \(log)")
            #expect(await agent.stop() == 0)
        }
    }
}

/// python3-dbus owning `org.freedesktop.Notifications` on a private bus: each
/// `Notify` is written as one JSON line (with the call's signature) to a file,
/// and answered with id 42, or never when it stands in for a hung daemon.
final class FakeNotificationDaemon {
    /// Why it cannot run here, or nil.
    static let missing: String? = {
        guard toolExists("dbus-daemon") else { return "dbus-daemon not installed: apt-get install dbus-daemon" }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            return "/usr/bin/python3 not found: apt-get install python3-dbus python3-gi"
        }
        return pythonModuleInstalled("dbus") && pythonModuleInstalled("gi")
            ? nil : "python3-dbus or python3-gi not installed: apt-get install python3-dbus python3-gi"
    }()

    static let script = """
        import json, sys, dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        answers = sys.argv[2] == "answer"
        INTERFACE = "org.freedesktop.Notifications"

        class Notifications(dbus.service.Object):
            @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u",
                                 message_keyword="message", async_callbacks=("reply", "error"))
            def Notify(self, app, replaces, icon, summary, body, actions, hints, expire, message, reply, error):
                print(json.dumps({"signature": message.get_signature(), "app": str(app), "replaces": int(replaces),
                                  "icon": str(icon), "summary": str(summary), "body": str(body),
                                  "actions": [str(a) for a in actions],
                                  "hints": {str(k): int(v) if isinstance(v, int) else str(v) for k, v in hints.items()},
                                  "expire": int(expire)}), flush=True)
                if answers:
                    reply(dbus.UInt32(42))

            @dbus.service.method(INTERFACE, out_signature="as")
            def GetCapabilities(self):
                return ["body"]

            @dbus.service.method(INTERFACE, out_signature="ssss")
            def GetServerInformation(self):
                return ("deskdays-test", "DeskDays", "1", "1.2")

        name = dbus.service.BusName(INTERFACE, bus)
        Notifications(bus, "/org/freedesktop/Notifications")
        print("ready", flush=True)
        GLib.MainLoop().run()
        """

    private let process: Child
    private let output: URL

    init(address: String, in folder: URL, answers: Bool = true) async throws {
        output = folder.appendingPathComponent("notifications-\(UUID().uuidString.prefix(8)).jsonl")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process = try await Child.start("/usr/bin/python3", ["-c", Self.script, address, answers ? "answer" : "hang"],
                                        stdout: .file(output.path), stderr: .inherit)
        guard await eventually("the notification daemon stand-in's ready line", { lines.first == "ready" }) else {
            throw HarnessError("the notification daemon stand-in could not own its name: \(lines)")
        }
    }

    private var lines: [String] {
        ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(whereSeparator: \.isNewline).map(String.init)
    }

    /// The `Notify` calls received so far.
    var calls: [[String: Any]] {
        lines.dropFirst().compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    deinit { process.signal(SIGKILL) }
}
