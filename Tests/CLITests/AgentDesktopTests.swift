import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The agent on the session bus, each test on a private
/// `dbus-daemon` standing in for the session bus: the reminder answered
/// from its notification (python3-dbus notification servers with and
/// without the `actions` capability), the `io.github.deskdays.DeskDays1`
/// interface through `busctl` and `gdbus` as real clients, D-Bus activation
/// through the shipped service file, and the tray icon with a stand-in
/// StatusNotifierWatcher.
@Suite(.serialized) struct AgentDesktopTests {
    static let missing: String? = {
        if let missing = FakeNotificationDaemon.missing { return missing }
        for (tool, package) in [("busctl", "systemd"), ("gdbus", "libglib2.0-bin")] where !toolExists(tool) {
            return "\(tool) not installed: apt-get install \(package)"
        }
        return nil
    }()

    static let name = "io.github.deskdays.DeskDays1"
    static let path = "/io/github/deskdays/DeskDays1"

    static let reminderConfig = """
    [policy]
    timezone = "UTC"

    [checkin]
    reminder_time = "10:30"
    """

    // MARK: - The reminder's answers

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func anAnswerFromTheNotificationIsRecordedOnceAndConfirmedInItsPlace() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.reminderConfig)
        let bus = try await PrivateSystemBus(in: cli.folder)
        // The server answers "remote" twice (a repeating server) and then closes the notification.
        let server = try await BusStandIn(NotificationServer.script, address: bus.address, arguments: ["body,actions", "answer:remote"],
                                    in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address,
                                                        "DESKDAYS_NOW": "2026-11-18T10:29:57Z"])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("the reminder for 2026-11-18 was replaced by its confirmation"), "\(agent.logText)")
        #expect(agent.logText.contains("reminder shown as a desktop notification (id 7) with the answers office, remote and off"))
        let notifies = server.records.filter { $0["closed"] == nil }
        try #require(notifies.count == 2, "the reminder and its confirmation: \(notifies)")
        let reminder = notifies[0], confirmation = notifies[1]
        #expect(reminder["actions"] as? [String] == ["office", "In the office", "remote", "Remote", "off", "Day off", "default", "Open DeskDays"])
        #expect((reminder["body"] as? String)?.hasSuffix("Where are you working today?") == true, "\(reminder)")
        #expect(reminder["replaces"] as? Int == 0)
        #expect(confirmation["replaces"] as? Int == 7, "the confirmation replaces the reminder")
        #expect(confirmation["summary"] as? String == "DeskDays: recorded")
        #expect(confirmation["body"] as? String == "Remote on Nov 18, 2026.", "the date as LC_TIME (here C) writes it")
        #expect((confirmation["actions"] as? [String])?.isEmpty == true)
        // Stored once, as a manual record of the reminder's date; the close after the answer is not an "ignored".
        #expect(agent.logText.components(separatedBy: "manual remote recorded for 2026-11-18 through the reminder").count == 2,
                "\(agent.logText)")
        #expect(!agent.logText.contains("without an answer"))
        // The properties follow the published answer, which comes after the commit the confirmation follows.
        #expect(await eventually("TodayStatus remote on the bus") {
            (try? await busctl(bus, ["get-property", Self.name, Self.path, Self.name, "TodayStatus"]).stdout) == "s \"remote\"\n"
        })
        #expect(await agent.stop() == 0)
        let explain = try await cli.run(["explain", "2026-11-18"])
        #expect(explain.stdout.contains("remote") && explain.stdout.contains("manual"), "\(explain.stdout)\(explain.stderr)")
    }

    /// In the user's language the notification's title, body and action labels
    /// come from the catalog (a pseudo-locale wraps each in ⟦ ⟧); the action keys,
    /// the recorded status and the log lines do not change.
    @Test(.enabled(if: missing == nil && Catalogs.available, Comment(rawValue: missing ?? "msgfmt not installed: apt-get install gettext")))
    func theReminderSpeaksTheUsersLanguageButItsKeysDoNot() async throws {
        let locale = try await Catalogs.compiled([], pseudo: true)
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.reminderConfig)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let server = try await BusStandIn(NotificationServer.script, address: bus.address, arguments: ["body,actions", "answer:remote"],
                                    in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "2026-11-18T10:29:57Z",
                                                        "LC_ALL": "", "LANG": "C.UTF-8", "LANGUAGE": Catalogs.pseudo,
                                                        "DESKDAYS_LOCALEDIR": locale.path])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("the reminder for 2026-11-18 was replaced by its confirmation"), "\(agent.logText)")
        #expect(agent.logText.contains("reminder shown as a desktop notification (id 7) with the answers office, remote and off"))
        let notifies = server.records.filter { $0["closed"] == nil }
        try #require(notifies.count == 2, "the reminder and its confirmation: \(notifies)")
        let reminder = notifies[0], confirmation = notifies[1]
        #expect(reminder["actions"] as? [String] == ["office", "⟦In the office⟧", "remote", "⟦Remote⟧", "off", "⟦Day off⟧",
                                                     "default", "⟦Open DeskDays⟧"], "\(reminder)")
        #expect(reminder["summary"] as? String == "⟦DeskDays: no check-in yet today⟧", "\(reminder)")
        let body = try #require(reminder["body"] as? String)
        #expect(body.hasSuffix("Where are you working today?⟧"), "\(body)")
        #expect(Catalogs.untranslated(body).isEmpty, "\(body)")
        #expect(confirmation["summary"] as? String == "⟦DeskDays: recorded⟧")
        // Each literal part in marks, the values (a translated word, the date) between them.
        #expect(confirmation["body"] as? String == "⟦Remote⟧⟦ on ⟧Nov 18, 2026⟦.⟧", "\(confirmation)")
        // The properties follow the published answer, which comes after the commit the confirmation follows.
        #expect(await eventually("TodayStatus remote on the bus") {
            (try? await busctl(bus, ["get-property", Self.name, Self.path, Self.name, "TodayStatus"]).stdout) == "s \"remote\"\n"
        })
        #expect(await agent.stop() == 0)
    }

    /// A click on the reminder itself (the server's `default` action) opens
    /// the window, once however often the server repeats it; the reminder
    /// then closed is not counted as ignored, and nothing is recorded.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func activatingTheReminderOpensTheWindow() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.reminderConfig)
        let tools = cli.folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let window = cli.folder.appendingPathComponent("window.txt").path
        try "#!/bin/sh\necho started >> \(window)\n".write(to: tools.appendingPathComponent("deskdays-app"), atomically: true, encoding: .utf8)
        chmod(tools.appendingPathComponent("deskdays-app").path, 0o755)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let server = try await BusStandIn(NotificationServer.script, address: bus.address, arguments: ["body,actions", "answer:default"],
                                          in: cli.folder)
        let agent = try await AgentProcess(cli, environment: [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "2026-11-18T10:29:57Z", "INVOCATION_ID": "",
            "PATH": tools.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("notification 7 activated: opening the window"), "\(agent.logText)")
        #expect(await agent.waitForLog("the reminder for 2026-11-18 closed after opening the window; not counted as ignored"), "\(agent.logText)")
        #expect(await eventually("the window started") { ((try? String(contentsOfFile: window, encoding: .utf8)) ?? "") == "started\n" },
                "\(agent.logText)")
        #expect(agent.logText.components(separatedBy: "activated: opening the window").count == 2, "once: \(agent.logText)")
        #expect(!agent.logText.contains("counts as ignored"), "\(agent.logText)")
        #expect(server.records.filter { $0["closed"] == nil }.count == 1, "no confirmation: nothing was answered")
        #expect(await agent.stop() == 0)
        let days = try await cli.run(["days", "--json", "--from", "2026-11-18", "--to", "2026-11-18"])
        let row = (try? JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]])?.first
        #expect(row != nil && (row?["status"] == nil || row?["status"] is NSNull), "\(days.stdout)")
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func aReminderAnsweredAnotherWayIsWithdrawnNotCountedAsIgnored() async throws {

        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.reminderConfig)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let server = try await BusStandIn(NotificationServer.script, address: bus.address, arguments: ["body,actions", "wait"], in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address,
                                                        "DESKDAYS_NOW": "2026-11-18T10:29:58Z"])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("reminder shown as a desktop notification (id 7)"), "\(agent.logText)")
        // Answered through the interface instead of the notification: the reminder is closed for us.
        let reply = try await gdbus(bus, ["call", "--dest", Self.name, "--object-path", Self.path, "--method", "\(Self.name).CheckIn",
                                    "2026-11-18", "office", ""])
        #expect(reply.status == 0, "\(reply)")
        #expect(await eventually(#"server.records.contains { $0["closed"] as? Int == 7 }"#) { server.records.contains { $0["closed"] as? Int == 7 } }, "\(server.records) \(agent.logText)")
        #expect(await agent.waitForLog("the reminder was withdrawn: today is answered"), "\(agent.logText)")
        #expect(!agent.logText.contains("without an answer"), "\(agent.logText)")
        #expect(await agent.stop() == 0)
    }

    /// A reminder on screen outlives a reload of the configuration (SIGHUP,
    /// as `enable` and `disable` do): its answer, given after the reload,
    /// is recorded for its date; answered elsewhere after the reload (a
    /// write by another process: a command, a merged sync line), it is withdrawn.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")), arguments: [true, false])
    func aReminderOnScreenOutlivesAReload(answeredOnScreen: Bool) async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.reminderConfig)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let server = try await BusStandIn(NotificationServer.script, address: bus.address, arguments: ["body,actions", "wait"], in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address,
                                                        "DESKDAYS_NOW": "2026-11-18T10:29:58Z"])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("reminder shown as a desktop notification (id 7)"), "\(agent.logText)")
        kill(agent.pid, SIGHUP)
        #expect(await agent.waitForLog("configuration reloaded"), "\(agent.logText)")
        // The new agent's connection follows the notification server's signals before it serves or queues for the name.
        #expect(await agent.waitForLog("the reloaded agent on the session bus") { log in
            log.components(separatedBy: "serving io.github.deskdays.DeskDays1 on the session bus").count
                + log.components(separatedBy: "another DeskDays agent owns").count - 2 >= 2
        }, "\(agent.logText)")
        if answeredOnScreen {
            // The server says the button was pressed (python-dbus broadcasts it, as dunst does).
            let pressed = try await busctl(bus, ["call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                                 "io.github.deskdays.Test", "Press", "us", "7", "office"])
            #expect(pressed.status == 0, "\(pressed)")
            #expect(await agent.waitForLog("manual office recorded for 2026-11-18 through the reminder"), "\(agent.logText)")
        } else {
            let other = try await cli.run(["checkin", "--date", "2026-11-18", "--status", "remote", "--socket", "/nonexistent/agent.sock"])
            #expect(other.status == 0, "\(other.stderr)")
            #expect(await eventually(#"server.records.contains { $0["closed"] as? Int == 7 }"#) {
                server.records.contains { $0["closed"] as? Int == 7 }
            }, "\(server.records) \(agent.logText)")
            #expect(await agent.waitForLog("the reminder was withdrawn: today is answered"), "\(agent.logText)")
        }
        #expect(await agent.stop() == 0)
        let days = try await cli.run(["days", "--from", "2026-11-18", "--to", "2026-11-18", "--today", "2026-11-19"])
        #expect(days.stdout.contains(answeredOnScreen ? "office" : "remote"), "\(days.stdout)")
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func withoutActionsTheBodyNamesTheCommandAndDismissedRemindersCountAsIgnored() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.reminderConfig)
        let bus = try await PrivateSystemBus(in: cli.folder)
        // mako and minimal daemons: no `actions`; each reminder is dismissed unanswered.
        let server = try await BusStandIn(NotificationServer.script, address: bus.address, arguments: ["body", "dismiss"], in: cli.folder)
        for (index, day) in ["2026-11-16", "2026-11-17", "2026-11-18"].enumerated() {
            let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "\(day)T10:29:58Z"])
            defer { agent.kill9() }
            #expect(await agent.waitForLog("the reminder for \(day) was dismissed without an answer; it counts as ignored"), "\(agent.logText)")
            #expect(agent.logText.contains("the server takes no actions, so it names the command"))
            #expect(await agent.stop() == 0)
            let notify = try #require(server.records.last)
            #expect(server.records.count == index + 1, "\(server.records)")
            #expect((notify["actions"] as? [String])?.isEmpty == true)
            #expect((notify["body"] as? String)?.contains("`deskdays checkin`") == true, "\(notify)")
        }
        // The fourth day: three ignored in a row, so no nudge (until the next check-in).
        let fourth = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "2026-11-19T10:29:58Z"])
        defer { fourth.kill9() }
        #expect(await fourth.waitForLog("reminder withheld: the last 3 were dismissed"), "\(fourth.logText)")
        #expect(await fourth.stop() == 0)
        #expect(server.records.count == 3)
    }

    /// As dunst with its default timeout: a reminder with answers asks for
    /// no expiry (0), so it stays until answered; one without answers takes
    /// the server's timeout and expires (reason 1), which is not the user
    /// ignoring it: after three expired reminders the fourth day is still reminded.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func remindersStayUntilAnsweredAndAnExpiredOneIsNotIgnored() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.reminderConfig)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let asking = try await BusStandIn(NotificationServer.script, address: bus.address, arguments: ["body,actions", "expire"], in: cli.folder)
        let first = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "2026-11-16T10:29:58Z"])
        defer { first.kill9() }
        #expect(await eventually("the reminder with answers") { !asking.records.isEmpty }, "\(first.logText)")
        #expect(asking.records.first?["expire"] as? Int == 0, "\(asking.records)")
        #expect(await first.stop() == 0)
        await asking.stop()

        let plain = try await BusStandIn(NotificationServer.script, address: bus.address, arguments: ["body", "expire"], in: cli.folder)
        for day in ["2026-11-17", "2026-11-18", "2026-11-19"] {
            let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "\(day)T10:29:58Z"])
            defer { agent.kill9() }
            #expect(await agent.waitForLog("the reminder for \(day) expired without an answer; not counted as ignored"), "\(agent.logText)")
            #expect(await agent.stop() == 0)
        }
        #expect(plain.records.allSatisfy { $0["expire"] as? Int == -1 }, "\(plain.records)")
        let fourth = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "2026-11-20T10:29:58Z"])
        defer { fourth.kill9() }
        #expect(await fourth.waitForLog("reminder for 2026-11-20:"), "\(fourth.logText)")
        #expect(await fourth.stop() == 0)
    }

    // MARK: - The interface

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func busctlAndGdbusReadCallAndHearTheInterface() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("""
        [policy]
        timezone = "UTC"

        [policy.target]
        kind = "days_per_week"
        value = 2
        """)
        for (date, status) in [("2026-03-02", "office"), ("2026-03-03", "remote"), ("2026-03-05", "office")] {
            #expect(try await cli.run(["checkin", "--date", date, "--status", status, "--socket", "/nonexistent/agent.sock"]).status == 0)
        }
        let bus = try await PrivateSystemBus(in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("serving \(Self.name) on the session bus"), "\(agent.logText)")
        let now = ["DESKDAYS_NOW": AgentProcess.fixedNow]

        // Introspection names every member.
        let introspect = try await busctl(bus, ["introspect", Self.name, Self.path, Self.name])
        for member in [".CheckIn", ".Report", ".Today", ".Period", ".Status", ".Office", ".Required", ".Remaining",
                       ".Compliance", ".TodayStatus", ".Week"] {
            #expect(introspect.stdout.contains(member), "\(member) in \(introspect.stdout)")
        }
        #expect(introspect.stdout.contains("emits-change"))

        // Each property, read by both clients, agrees with `report --json`.
        let report = try #require(JSONSerialization.jsonObject(with: Data(try await cli.run(["report", "--json", "--socket", agent.socket],
                                                                                     environment: now).stdout.utf8)) as? [String: Any])
        let period = try #require(report["period"] as? [String: Any])
        let expected: [(String, String)] = [
            ("Today", "s \"2026-03-10\""), ("Period", "s \"\(period["label"]!)\""), ("Status", "s \"\(report["status"]!)\""),
            ("Office", "u \(report["office"]!)"), ("Required", "u \(report["required"]!)"),
            ("Remaining", "u \(report["remaining_required"]!)"), ("TodayStatus", "s \"\""),
        ]
        // This week (days_per_week 2): (office, required) as `week` in the JSON.
        let week = try #require(report["week"] as? [String: Any], "\(report)")
        #expect(try await busctl(bus, ["get-property", Self.name, Self.path, Self.name, "Week"]).stdout
                == "(uu) \(week["office"]!) \(week["required"]!)\n")
        for (property, value) in expected {
            #expect(try await busctl(bus, ["get-property", Self.name, Self.path, Self.name, property]).stdout == value + "\n", "\(property)")
        }
        let compliance = try await gdbus(bus, ["call", "--dest", Self.name, "--object-path", Self.path,
                                         "--method", "org.freedesktop.DBus.Properties.Get", Self.name, "Compliance"])
        #expect(compliance.stdout.hasPrefix("(<\(report["compliance_to_date"]!)"), "\(compliance.stdout) vs \(report)")
        let all = try await gdbus(bus, ["call", "--dest", Self.name, "--object-path", Self.path,
                                  "--method", "org.freedesktop.DBus.Properties.GetAll", Self.name])
        #expect(all.stdout.contains("'Period': <'\(period["label"]!)'>"), "\(all.stdout)")

        // A check-in through the CLI (the control socket) reaches a listener as PropertiesChanged.
        let listener = try await BusStandIn(PropertiesListener.script, address: bus.address, arguments: [], in: cli.folder)
        let before = ContinuousClock.now
        #expect(try await cli.run(["checkin", "--date", "2026-03-10", "--status", "office", "--socket", agent.socket], environment: now).status == 0)
        let returned = ContinuousClock.now
        #expect(await eventually(#"listener.records.contains { ($0["changed"] as? [String: Any])?["TodayStatus"] as? String == "office" }"#) { listener.records.contains { ($0["changed"] as? [String: Any])?["TodayStatus"] as? String == "office" } },
                "\(listener.records) \(agent.logText)")
        if let signal = listener.records.first(where: { ($0["changed"] as? [String: Any])?["TodayStatus"] as? String == "office" }),
           let at = signal["t"] as? Double {
            // Printed, not asserted (docs/testing.md): the issue asks for 100 ms; bench/ measures it properly.
            let started = Double(before.monotonicNanoseconds) / 1e9, ended = Double(returned.monotonicNanoseconds) / 1e9
            print("PropertiesChanged \(Int((at - started) * 1000)) ms after the CLI started, \(Int((at - ended) * 1000)) ms after it returned")
        }
        let changed = listener.records.compactMap { $0["changed"] as? [String: Any] }.first { $0["TodayStatus"] != nil }
        #expect(changed?["Office"] as? Int == (report["office"] as? Int ?? -1) + 1, "the office count changed in the same signal: \(listener.records)")

        // CheckIn(sss) as gdbus sends it: a CLI synonym ("wfh") and a note, recorded once committed.
        let checkIn = try await gdbus(bus, ["call", "--dest", Self.name, "--object-path", Self.path, "--method", "\(Self.name).CheckIn",
                                      "2026-03-09", "wfh", "dentist in the morning"])
        #expect(checkIn.status == 0 && checkIn.stdout == "()\n", "\(checkIn)")
        let explain = try await cli.run(["explain", "2026-03-09"])
        #expect(explain.stdout.contains("remote"), "\(explain.stdout)")

        // Report(s) returns the bytes `report --json` prints, for the current and another period.
        for (argument, cliPeriod) in [("", "current"), ("previous", "previous"), ("2026-01-15", "2026-01-15")] {
            let reply = try await busctl(bus, ["--json=short", "call", Self.name, Self.path, Self.name, "Report", "s", argument])
            let data = try #require(JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any], "\(reply)")
            let json = try #require((data["data"] as? [Any])?.first as? String)
            let printed = try await cli.run(["report", "--json", "--period", cliPeriod, "--socket", agent.socket], environment: now)
            #expect(json == printed.stdout, "Report(\"\(argument)\")")
        }

        // Bad arguments: named errors, and the agent stays up.
        let errors: [([String], String)] = [
            (["CheckIn", "2026-02-30", "office", ""], "\(Self.name).Error.InvalidDate"),
            (["CheckIn", "2026-03-10", "banana", ""], "\(Self.name).Error.InvalidStatus"),
            (["CheckIn", "1066-10-14", "office", ""], "\(Self.name).Error.InvalidDate"),
            (["Report", "last-year"], "\(Self.name).Error.InvalidPeriod"),
            (["CheckIn", "2026-03-10"], "org.freedesktop.DBus.Error.InvalidArgs"),
            (["Report", "1"], "\(Self.name).Error.InvalidPeriod"),
        ]
        for (call, name) in errors {
            let reply = try await gdbus(bus, ["call", "--dest", Self.name, "--object-path", Self.path, "--method", "\(Self.name).\(call[0])"]
                                       + call.dropFirst())
            #expect(reply.status != 0 && reply.stderr.contains(name), "\(call): \(reply.stderr)")
        }
        let wrongType = try await busctl(bus, ["call", Self.name, Self.path, Self.name, "CheckIn", "sis", "2026-03-10", "1", ""])
        #expect(wrongType.status != 0 && wrongType.stderr.contains("nvalid"), "\(wrongType.stderr)")
        #expect(try await busctl(bus, ["get-property", Self.name, Self.path, Self.name, "TodayStatus"]).stdout == "s \"office\"\n")
        let client = try TestSocketClient(path: agent.socket)
        #expect(client.request(#"{"cmd":"status"}"#)?["ok"] as? Bool == true, "the agent carries on")

        // doctor asks the same bus what the desktop offers.
        let doctor = try await cli.run(["doctor"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(doctor.stdout.contains("ok      the agent serves \(Self.name) on the session bus"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("note    no notification server runs now"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("note    the desktop has no tray (no StatusNotifierWatcher): no icon"), "\(doctor.stdout)")

        // No StatusNotifierWatcher on this bus: no icon, and nothing said about it above debug.
        #expect(!agent.logText.contains("StatusNotifier") && !agent.logText.contains("tray"), "\(agent.logText)")
        #expect(!agent.logText.contains("warning"), "\(agent.logText)")
        #expect(await agent.stop() == 0)
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func aSecondAgentWaitsForTheNameAndTakesItOverWhenTheFirstStops() async throws {
        let first = try CLIRunner(), second = try CLIRunner()
        defer { first.cleanup(); second.cleanup() }
        // Different histories, so the interface shows whose answer it gives.
        #expect(try await first.run(["checkin", "--date", AgentProcess.fixedDay, "--status", "office", "--socket", "/nonexistent/agent.sock"]).status == 0)
        #expect(try await second.run(["checkin", "--date", AgentProcess.fixedDay, "--status", "remote", "--socket", "/nonexistent/agent.sock"]).status == 0)
        let bus = try await PrivateSystemBus(in: first.folder)
        let owner = try await AgentProcess(first, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { owner.kill9() }
        #expect(await owner.waitForLog("serving \(Self.name) on the session bus"), "\(owner.logText)")
        let queued = try await AgentProcess(second, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { queued.kill9() }
        #expect(await queued.waitForLog("another DeskDays agent owns \(Self.name) on the session bus; this one takes over"), "\(queued.logText)")
        #expect(try await busctl(bus, ["get-property", Self.name, Self.path, Self.name, "TodayStatus"]).stdout == "s \"office\"\n")
        // The first stops (or is reloaded): the bus hands the name to the second, which answers from its own database.
        #expect(await owner.stop() == 0)
        #expect(await queued.waitForLog("serving \(Self.name) on the session bus"), "\(queued.logText)")
        #expect(try await busctl(bus, ["get-property", Self.name, Self.path, Self.name, "TodayStatus"]).stdout == "s \"remote\"\n")
        #expect(await queued.stop() == 0)
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func theFirstCallStartsTheAgentThroughTheServiceFile() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.reminderConfig)
        // The shipped service file, with Exec= pointing at the binary under test (as `make install` points it at the installed one).
        let shipped = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/\(Self.name).service"), encoding: .utf8)
        let lines = shipped.split(separator: "\n").map(String.init)
        #expect(lines.contains("[D-BUS Service]") && lines.contains("Name=\(Self.name)") && lines.contains("SystemdService=deskdays.service"))
        let services = cli.folder.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let log = cli.folder.appendingPathComponent("activated.log").path
        let socket = cli.folder.appendingPathComponent("run/agent.sock").path
        let busSocket = cli.folder.appendingPathComponent("system_bus_socket").path
        let command = "exec /usr/bin/env DESKDAYS_LOG=info TZ=UTC HOME=\(cli.folder.path) DESKDAYS_NOW=\(AgentProcess.fixedNow) "
            + "DBUS_SESSION_BUS_ADDRESS=unix:path=\(busSocket) \(CLIRunner.binary) agent --config \(cli.config) "
            + "--database \(cli.database) --socket \(socket) >>\(log) 2>&1"
        let service = lines.map { $0.hasPrefix("Exec=") ? "Exec=/bin/sh -c '\(command)'" : $0 }.joined(separator: "\n") + "\n"
        try service.write(to: services.appendingPathComponent("\(Self.name).service"), atomically: true, encoding: .utf8)
        let bus = try await PrivateSystemBus(in: cli.folder, services: services)
        #expect(bus.address.hasPrefix("unix:path=\(busSocket)"))

        // Nothing runs yet; a client's call starts the agent and gets its answer.
        #expect(!FileManager.default.fileExists(atPath: socket))
        let reply = try await busctl(bus, ["get-property", Self.name, Self.path, Self.name, "Today"])
        #expect(reply.stdout == "s \"\(AgentProcess.fixedDay)\"\n", "\(reply) \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        let agentLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(agentLog.contains("serving \(Self.name) on the session bus"), "\(agentLog)")
        #expect(FileManager.default.fileExists(atPath: socket), "the activated agent serves its control socket too")

        // Stop it by its pid, as the bus reports it.
        let pid = try await busctl(bus, ["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                   "GetConnectionUnixProcessID", "s", Self.name])
        let number = try #require(Int32(pid.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""),
                                  "\(pid)")
        kill(number, SIGTERM)
        #expect(await eventually("\"agent stopped\" in \(log)") { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("agent stopped") })
    }

    // MARK: - The tray icon

    /// "Open report" where nothing opens it (xdg-open exits 3: no handler):
    /// a notification names the file, instead of a line in the log only;
    /// under systemd too, where xdg-open runs through `systemd-run` (a
    /// stand-in that, as the real one, says only whether the unit started
    /// unless told `--wait`).
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")), arguments: [false, true])
    func openReportWithoutAHandlerNamesTheFile(underSystemd: Bool) async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.reminderConfig)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let tools = cli.folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        try "#!/bin/sh\necho 'xdg-open: no method available for opening' >&2\nexit 3\n".write(to: tools.appendingPathComponent("xdg-open"), atomically: true, encoding: .utf8)
        chmod(tools.appendingPathComponent("xdg-open").path, 0o755)
        try """
            #!/bin/sh
            wait=no
            while [ "$1" != "--" ]; do [ "$1" = "--wait" ] && wait=yes; shift; done
            shift
            if [ $wait = yes ]; then "$@"; exit $?; fi
            "$@" >/dev/null 2>&1 &
            exit 0

            """.write(to: tools.appendingPathComponent("systemd-run"), atomically: true, encoding: .utf8)
        chmod(tools.appendingPathComponent("systemd-run").path, 0o755)
        let server = try await BusStandIn(NotificationServer.script, address: bus.address, arguments: ["body", "keep"], in: cli.folder)
        let watcher = try await BusStandIn(StatusNotifierWatcher.script, address: bus.address, arguments: [], in: cli.folder)
        let agent = try await AgentProcess(cli, environment: [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "2026-11-18T09:00:00Z", "INVOCATION_ID": underSystemd ? "0123abcd" : "",
            "PATH": tools.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ])
        defer { agent.kill9() }
        #expect(await eventually("the tray icon to register") { !watcher.records.isEmpty }, "\(agent.logText)")
        // No method is enabled: the start-up hint names the commands that turn one on (not a key to edit).
        #expect(await eventually("the start-up hint") { agent.logText.contains("`deskdays setup` asks which of them to use") },
                "\(agent.logText)")
        #expect(agent.logText.contains("`deskdays enroll nfc`, then `deskdays enable nfc`") && !agent.logText.contains("enabled = true"),
                "\(agent.logText)")
        let service = try #require(watcher.records.first?["service"] as? String)
        let reply = try await gdbus(bus, ["call", "--dest", service, "--object-path", "/MenuBar", "--method", "com.canonical.dbusmenu.Event",
                                          "3", "clicked", "<0>", "0"])
        #expect(reply.status == 0, "\(reply)")
        let page = (agent.socket as NSString).deletingLastPathComponent + "/report.html"
        #expect(await eventually("a notification naming \(page)") {
            server.records.contains { ($0["body"] as? String)?.contains(page) == true }
        }, "\(server.records) \(agent.logText)")
        #expect(await agent.stop() == 0)
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func theTrayIconRegistersAgainAfterTheWatcherRestartsAndItsMenuActs() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        // A weekly rule: the tooltip says where this week stands.
        try cli.writeConfig(Self.reminderConfig + "\n[policy.target]\nkind = \"days_per_week\"\nvalue = 3\n")
        let bus = try await PrivateSystemBus(in: cli.folder)
        // xdg-open stand-in: writes the file it was asked to open.
        let tools = cli.folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let opened = cli.folder.appendingPathComponent("opened.txt").path
        try "#!/bin/sh\necho \"$@\" > \(opened)\n".write(to: tools.appendingPathComponent("xdg-open"), atomically: true, encoding: .utf8)
        chmod(tools.appendingPathComponent("xdg-open").path, 0o755)
        // The window's stand-in: says it was started.
        let window = cli.folder.appendingPathComponent("window.txt").path
        try "#!/bin/sh\necho started >> \(window)\n".write(to: tools.appendingPathComponent("deskdays-app"), atomically: true, encoding: .utf8)
        chmod(tools.appendingPathComponent("deskdays-app").path, 0o755)

        let watcher = try await BusStandIn(StatusNotifierWatcher.script, address: bus.address, arguments: [], in: cli.folder)
        let agent = try await AgentProcess(cli, environment: [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "2026-11-18T10:29:30Z", "INVOCATION_ID": "",
            "PATH": tools.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ])
        defer { agent.kill9() }
        #expect(await eventually(#"!watcher.records.isEmpty"#) { !watcher.records.isEmpty }, "\(agent.logText)")
        let registration = try #require(watcher.records.first)
        let service = try #require(registration["service"] as? String)
        #expect(service == registration["sender"] as? String, "registered under its own connection")
        let item = try #require(registration["item"] as? [String: Any])
        #expect(item["Id"] as? String == "deskdays" && item["Category"] as? String == "ApplicationStatus")
        #expect(item["Menu"] as? String == "/MenuBar")
        #expect(item["Status"] as? String == "NeedsAttention", "a workday without an answer: \(item)")
        #expect(item["AttentionIconName"] as? String == "appointment-soon")
        #expect(!(item["IconName"] as? String ?? "").isEmpty)
        let tooltip = try #require(item["ToolTip"] as? [Any])
        #expect((tooltip[3] as? String)?.contains("Today: no answer yet.") == true, "\(tooltip)")
        #expect((tooltip[3] as? String)?.contains("This week: 0 of 3 office days.") == true, "\(tooltip)")
        let layout = try #require(registration["layout"] as? [Any])
        let labels = ((layout[2] as? [Any]) ?? []).compactMap { (($0 as? [Any])?[1] as? [String: Any])?["label"] as? String }
        #expect(labels.count == 7 && labels[0] == "Open DeskDays" && labels[1].contains(" office days in ")
                && labels[2] == "This week: 0 of 3 office days."
                && Array(labels[3...]) == ["Check in now", "Remote today", "Open report", "Pause reminders today"], "\(layout)")
        // The week and the period are shown, not clickable (insensitive).
        let enabled = ((layout[2] as? [Any]) ?? []).compactMap { (($0 as? [Any])?[1] as? [String: Any])?["enabled"] as? Bool }
        #expect(enabled.count == 7 && enabled[1] == false && enabled[2] == false && enabled[3] == true, "\(layout)")

        func click(_ id: Int) async throws {
            let reply = try await gdbus(bus, ["call", "--dest", service, "--object-path", "/MenuBar", "--method", "com.canonical.dbusmenu.Event",
                                        "\(id)", "clicked", "<0>", "0"])
            #expect(reply.status == 0, "\(reply)")
        }
        // "Pause reminders today": the 10:30 reminder (30 s after the agent's start, ample time to click first) is not given.
        try await click(5)
        #expect(await agent.waitForLog("reminders paused for 2026-11-18 from the tray menu"), "\(agent.logText)")
        #expect(await agent.waitForLog("reminder for 2026-11-18 not given: paused from the tray menu", seconds: 60), "\(agent.logText)")
        // "Check in now", then "Remote today": manual records for today, the latest winning.
        try await click(1)
        #expect(await agent.waitForLog("manual office recorded for 2026-11-18 through the tray menu"), "\(agent.logText)")
        #expect(await eventually("TodayStatus office on the bus") { (try? await busctl(bus, ["get-property", Self.name, Self.path, Self.name, "TodayStatus"]).stdout) == "s \"office\"\n" })
        try await click(2)
        #expect(await agent.waitForLog("manual remote recorded for 2026-11-18 through the tray menu"), "\(agent.logText)")
        #expect(await eventually("TodayStatus remote on the bus") { (try? await busctl(bus, ["get-property", Self.name, Self.path, Self.name, "TodayStatus"]).stdout) == "s \"remote\"\n" })
        // "Open report": the HTML page beside the control socket, handed to xdg-open.
        try await click(3)
        let page = (agent.socket as NSString).deletingLastPathComponent + "/report.html"
        #expect(await eventually("the report's page named in \(opened)") { ((try? String(contentsOfFile: opened, encoding: .utf8)) ?? "") == page + "\n" }, "\(agent.logText)")
        #expect(((try? String(contentsOfFile: page, encoding: .utf8)) ?? "").contains("<html"))
        // "Open DeskDays", and a click on the icon itself: the window (the one on PATH, as the desktop entry's Exec finds it).
        try await click(6)
        #expect(await eventually("the window started once") { ((try? String(contentsOfFile: window, encoding: .utf8)) ?? "") == "started\n" },
                "\(agent.logText)")
        let activate = try await gdbus(bus, ["call", "--dest", service, "--object-path", "/StatusNotifierItem",
                                             "--method", "org.kde.StatusNotifierItem.Activate", "0", "0"])
        #expect(activate.status == 0, "\(activate)")
        #expect(await eventually("the window started twice") { ((try? String(contentsOfFile: window, encoding: .utf8)) ?? "") == "started\nstarted\n" },
                "\(agent.logText)")
        // The answer changed the icon's state: no longer asking for attention.
        let status = try await gdbus(bus, ["call", "--dest", service, "--object-path", "/StatusNotifierItem",
                                     "--method", "org.freedesktop.DBus.Properties.Get", "org.kde.StatusNotifierItem", "Status"])
        #expect(status.stdout == "(<'Active'>,)\n", "\(status)")
        // An unknown item is a named error, and the agent carries on.
        let unknown = try await gdbus(bus, ["call", "--dest", service, "--object-path", "/MenuBar", "--method", "com.canonical.dbusmenu.Event",
                                      "99", "clicked", "<0>", "0"])
        #expect(unknown.status != 0 && unknown.stderr.contains("InvalidArgs"), "\(unknown)")
        // EventGroup: each (id, event, data, time) read in turn; the unknown ids come back.
        let group = try await gdbus(bus, ["call", "--dest", service, "--object-path", "/MenuBar", "--method", "com.canonical.dbusmenu.EventGroup",
                                          "[(4, 'clicked', <'x'>, uint32 7), (99, 'clicked', <0>, uint32 8), (98, 'hovered', <0>, uint32 9)]"])
        #expect(group.status == 0 && group.stdout == "([99, 98],)\n", "\(group)")

        let doctor = try await cli.run(["doctor"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(doctor.stdout.contains("ok      the desktop has a tray (a StatusNotifierWatcher)"), "\(doctor.stdout)")

        // The watcher restarts (the panel crashed): the icon is registered with the new one.
        await watcher.stop()
        let again = try await BusStandIn(StatusNotifierWatcher.script, address: bus.address, arguments: [], in: cli.folder)
        #expect(await eventually(#"!again.records.isEmpty"#) { !again.records.isEmpty }, "\(agent.logText)")
        #expect(again.records.first?["service"] as? String == service)
        #expect((again.records.first?["item"] as? [String: Any])?["Status"] as? String == "Active")
        #expect(agent.logText.components(separatedBy: "tray icon registered with the StatusNotifierWatcher").count == 3, "\(agent.logText)")
        #expect(!agent.logText.contains("warning"), "\(agent.logText)")
        #expect(await agent.stop() == 0)
    }

    @Test(.enabled(if: missing == nil && toolExists("strace"), "strace, dbus-daemon, busctl, gdbus and python3-dbus needed"))
    func onTheSessionBusTheAgentStillOpensNoInternetSocket() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.reminderConfig)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let server = try await BusStandIn(NotificationServer.script, address: bus.address, arguments: ["body,actions", "answer:office"], in: cli.folder)
        let watcher = try await BusStandIn(StatusNotifierWatcher.script, address: bus.address, arguments: [], in: cli.folder)
        let trace = cli.folder.appendingPathComponent("strace.out").path
        let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "2026-11-18T10:29:58Z"],
                                     launcher: ["/usr/bin/env", "strace", "-f", "-e", "trace=socket,connect", "-o", trace])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("the reminder for 2026-11-18 was replaced by its confirmation"), "\(agent.logText)")
        #expect(await eventually(#"!watcher.records.isEmpty"#) { !watcher.records.isEmpty })
        #expect(try await gdbus(bus, ["call", "--dest", Self.name, "--object-path", Self.path, "--method", "\(Self.name).Report", ""]).status == 0)
        #expect(server.records.filter { $0["closed"] == nil }.count == 2)
        _ = await agent.stopTraced()
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(lines.contains { $0.contains("connect(") && $0.contains("AF_UNIX") && $0.contains(bus.socketPath) })
        let internet = lines.filter { $0.contains("socket(") && ($0.contains("AF_INET") || $0.contains("PF_INET")) }
        #expect(internet.isEmpty, "internet sockets created: \(internet)")
    }

    // MARK: - Clients

    struct ToolResult: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "status \(status): \(stdout)\(stderr)" }
    }

    func busctl(_ bus: PrivateSystemBus, _ arguments: [String]) async throws -> ToolResult {
        try await runTool(["busctl", "--address=\(bus.address)"] + arguments)
    }

    func gdbus(_ bus: PrivateSystemBus, _ arguments: [String]) async throws -> ToolResult {
        try await runTool(["gdbus", arguments[0], "--address", bus.address] + arguments.dropFirst())
    }

    func runTool(_ arguments: [String]) async throws -> ToolResult {
        let output = try await Program.run("/usr/bin/env", arguments)
        return ToolResult(status: output.status, stdout: output.stdout, stderr: output.stderr)
    }
}

extension ContinuousClock.Instant {
    /// `CLOCK_MONOTONIC` in ns (what python's `time.monotonic()` reads), to compare with a stand-in's time stamps.
    var monotonicNanoseconds: Int64 {
        let elapsed = ContinuousClock.now - self
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
            - elapsed.components.seconds * 1_000_000_000 - elapsed.components.attoseconds / 1_000_000_000
    }
}

/// A python3-dbus program on a private bus: each JSON line it prints after
/// "ready" is one record (a call received, a signal heard).
final class BusStandIn {
    private let process: Child
    private let output: URL

    init(_ script: String, address: String, arguments: [String], in folder: URL) async throws {
        output = folder.appendingPathComponent("stand-in-\(UUID().uuidString.prefix(8)).jsonl")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process = try await Child.start("/usr/bin/python3", ["-c", BusStandIn.prelude + script, address] + arguments,
                                        stdout: .file(output.path), stderr: .inherit)
        guard await eventually("the stand-in's ready line", { lines.first == "ready" }) else {
            throw HarnessError("a D-Bus stand-in did not start: \(lines)")
        }
    }

    /// What every stand-in shares: the bus connection and D-Bus values as JSON.
    static let prelude = """
        import json, sys, time, dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        def plain(v):
            if isinstance(v, dbus.Boolean): return bool(v)
            if isinstance(v, dict): return {str(k): plain(x) for k, x in v.items()}
            if isinstance(v, (list, tuple)): return [plain(x) for x in v]
            if isinstance(v, int): return int(v)
            if isinstance(v, float): return float(v)
            return str(v)

        """

    private var lines: [String] {
        ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(whereSeparator: \.isNewline).map(String.init)
    }

    var records: [[String: Any]] {
        lines.dropFirst().compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// SIGKILL, then waits until it is gone.
    func stop() async {
        process.signal(SIGKILL)
        _ = await process.wait(seconds: 60)
    }

    deinit { process.signal(SIGKILL) }
}

/// A notification server: `GetCapabilities` returns argv[2] (comma-separated);
/// each new notification (ids from 7) is then answered as argv[3] says:
/// `answer:KEY` invokes the action KEY twice (a server repeating itself) and
/// closes it, `dismiss` closes it unanswered (reason 2), `wait` leaves it on
/// screen, `expire` does as dunst does with its default timeout: a
/// notification whose `expire_timeout` is not 0 is closed with reason 1
/// (expired; at once here: the timeout has passed), one with 0 stays.
/// `CloseNotification` is recorded as `{"closed": id}`; `Press(id, key)` on
/// `io.github.deskdays.Test` invokes an action when the test says.
enum NotificationServer {
    static let script = """
        capabilities = sys.argv[2].split(",")
        then = sys.argv[3]
        INTERFACE = "org.freedesktop.Notifications"
        next_id = [7]
        expires = {}

        class Notifications(dbus.service.Object):
            @dbus.service.method(INTERFACE, in_signature="susssasa{sv}i", out_signature="u")
            def Notify(self, app, replaces, icon, summary, body, actions, hints, expire):
                nid = int(replaces) if replaces else next_id[0]
                if not replaces:
                    next_id[0] += 1
                    GLib.idle_add(self.react, nid)
                print(json.dumps({"id": nid, "replaces": int(replaces), "summary": str(summary), "body": str(body),
                                  "actions": [str(a) for a in actions], "expire": int(expire)}), flush=True)
                if not replaces:
                    expires[nid] = int(expire)
                return dbus.UInt32(nid)

            def react(self, nid):
                if then.startswith("answer:"):
                    self.ActionInvoked(dbus.UInt32(nid), then.split(":", 1)[1])
                    self.ActionInvoked(dbus.UInt32(nid), then.split(":", 1)[1])
                    self.NotificationClosed(dbus.UInt32(nid), dbus.UInt32(2))
                elif then == "dismiss":
                    self.NotificationClosed(dbus.UInt32(nid), dbus.UInt32(2))
                elif then == "expire" and expires.get(nid, -1) != 0:
                    self.NotificationClosed(dbus.UInt32(nid), dbus.UInt32(1))
                return False

            @dbus.service.signal(INTERFACE, signature="us")
            def ActionInvoked(self, nid, key): pass

            @dbus.service.signal(INTERFACE, signature="uu")
            def NotificationClosed(self, nid, reason): pass

            @dbus.service.method(INTERFACE, in_signature="u")
            def CloseNotification(self, nid):
                print(json.dumps({"closed": int(nid)}), flush=True)
                self.NotificationClosed(dbus.UInt32(nid), dbus.UInt32(3))

            @dbus.service.method("io.github.deskdays.Test", in_signature="us")
            def Press(self, nid, key):
                self.ActionInvoked(dbus.UInt32(nid), key)

            @dbus.service.method(INTERFACE, out_signature="as")
            def GetCapabilities(self):
                return capabilities

            @dbus.service.method(INTERFACE, out_signature="ssss")
            def GetServerInformation(self):
                return ("deskdays-test", "DeskDays", "1", "1.2")

        name = dbus.service.BusName(INTERFACE, bus)
        Notifications(bus, "/org/freedesktop/Notifications")
        print("ready", flush=True)
        GLib.MainLoop().run()
        """
}

/// A StatusNotifierWatcher (the panel's side): on each registration it reads
/// the item's properties and its menu's layout back from the registrant and prints them.
enum StatusNotifierWatcher {
    static let script = """
        WATCHER = "org.kde.StatusNotifierWatcher"

        class Watcher(dbus.service.Object):
            @dbus.service.method(WATCHER, in_signature="s", sender_keyword="sender")
            def RegisterStatusNotifierItem(self, service, sender):
                GLib.idle_add(self.inspect, str(service), str(sender))

            @dbus.service.method(WATCHER, in_signature="s")
            def RegisterStatusNotifierHost(self, service):
                pass

            def inspect(self, service, sender):
                item = bus.get_object(service, "/StatusNotifierItem", introspect=False)
                props = item.GetAll("org.kde.StatusNotifierItem", dbus_interface="org.freedesktop.DBus.Properties")
                menu = bus.get_object(service, str(props["Menu"]), introspect=False)
                revision, layout = menu.GetLayout(0, -1, dbus.Array([], signature="s"), dbus_interface="com.canonical.dbusmenu")
                print(json.dumps({"service": service, "sender": sender, "item": plain(props), "layout": plain(layout),
                                  "revision": int(revision)}), flush=True)
                return False

        name = dbus.service.BusName(WATCHER, bus)
        Watcher(bus, "/StatusNotifierWatcher")
        print("ready", flush=True)
        GLib.MainLoop().run()
        """
}

/// Hears `PropertiesChanged` from the agent's object, with `time.monotonic()` stamps.
enum PropertiesListener {
    static let script = """
        def changed(interface, properties, invalidated):
            print(json.dumps({"t": time.monotonic(), "interface": str(interface), "changed": plain(properties)}), flush=True)

        bus.add_signal_receiver(changed, "PropertiesChanged", "org.freedesktop.DBus.Properties",
                                path="/io/github/deskdays/DeskDays1")
        # A round trip, so the match rule is in place before "ready".
        bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus").GetId(dbus_interface="org.freedesktop.DBus")
        print("ready", flush=True)
        GLib.MainLoop().run()
        """
}
