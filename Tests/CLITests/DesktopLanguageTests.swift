import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The agent on the desktop in other languages ("On the
/// desktop"): the tray menu's direction follows the messages' language, a
/// host that redraws only on `NewIcon`/`NewAttentionIcon` (xfce4-panel)
/// hears them when today is answered, and the log stays English.
@Suite(.serialized) struct DesktopLanguageTests {
    static let missing = AgentDesktopTests.missing

    /// Hears the item's signals (`org.kde.StatusNotifierItem`), in order.
    static let signalListener = """
        def heard(*args, member=None):
            print(json.dumps({"member": str(member), "args": plain(list(args))}), flush=True)

        bus.add_signal_receiver(heard, None, "org.kde.StatusNotifierItem", path="/StatusNotifierItem", member_keyword="member")
        bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus").GetId(dbus_interface="org.freedesktop.DBus")
        print("ready", flush=True)
        GLib.MainLoop().run()
        """

    func startAgent(_ cli: CLIRunner, _ bus: PrivateSystemBus, environment: [String: String] = [:]) async throws -> (AgentProcess, BusStandIn, String) {
        try cli.writeConfig(AgentDesktopTests.reminderConfig)
        let watcher = try await BusStandIn(StatusNotifierWatcher.script, address: bus.address, arguments: [], in: cli.folder)
        var variables = ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "2026-11-18T09:00:00Z", "INVOCATION_ID": ""]
        for (key, value) in environment { variables[key] = value }
        let agent = try await AgentProcess(cli, environment: variables)
        guard await eventually("the tray icon to register", { !watcher.records.isEmpty }), let service = watcher.records.first?["service"] as? String else {
            agent.kill9()
            throw HarnessError("the tray icon did not register: \(agent.logText)")
        }
        return (agent, watcher, service)
    }

    func menuProperty(_ bus: PrivateSystemBus, _ service: String, _ name: String) async throws -> String {
        let result = try await AgentDesktopTests().gdbus(bus, ["call", "--dest", service, "--object-path", "/MenuBar", "--method",
                                                         "org.freedesktop.DBus.Properties.Get", "com.canonical.dbusmenu", name])
        return result.stdout
    }

    @Test(.enabled(if: missing == nil && Catalogs.available, Comment(rawValue: missing ?? "msgfmt not installed: apt-get install gettext")))
    func theMenuIsRightToLeftInArabic() async throws {
        let locale = try await Catalogs.compiled(["ar", "de"])
        defer { try? FileManager.default.removeItem(at: locale) }
        for (language, direction) in [("ar_EG.UTF-8", "rtl"), ("de_DE.UTF-8", "ltr")] {
            let cli = try CLIRunner()
            defer { cli.cleanup() }
            let bus = try await PrivateSystemBus(in: cli.folder)
            let (agent, watcher, service) = try await startAgent(cli, bus, environment: [
                "LC_ALL": "", "LANGUAGE": "", "LANG": language, "DESKDAYS_LOCALEDIR": locale.path,
            ])
            defer { agent.kill9() }  // the stand-ins go with their deinit
            #expect(try await menuProperty(bus, service, "TextDirection") == "(<'\(direction)'>,)\n", "\(language)")
            #expect(await agent.stop() == 0)
        }
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func answeringTodaySendsNewIconAndNewAttentionIcon() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let bus = try await PrivateSystemBus(in: cli.folder)
        let (agent, watcher, service) = try await startAgent(cli, bus)
        defer { agent.kill9() }  // the stand-ins go with their deinit
        #expect((watcher.records.first?["item"] as? [String: Any])?["Status"] as? String == "NeedsAttention")
        let listener = try await BusStandIn(Self.signalListener, address: bus.address, arguments: [], in: cli.folder)
        let reply = try await AgentDesktopTests().gdbus(bus, ["call", "--dest", service, "--object-path", "/MenuBar", "--method",
                                                        "com.canonical.dbusmenu.Event", "1", "clicked", "<0>", "0"])
        #expect(reply.status == 0, "\(reply)")
        #expect(await eventually("NewStatus on the bus") { listener.records.contains { $0["member"] as? String == "NewStatus" } }, "\(listener.records)")
        let members = listener.records.compactMap { $0["member"] as? String }
        #expect(members.contains("NewIcon") && members.contains("NewAttentionIcon"), "\(members)")
        // The host redraws on them before it learns the status that goes with them.
        #expect(members.firstIndex(of: "NewAttentionIcon")! < members.firstIndex(of: "NewStatus")!, "\(members)")
        #expect(listener.records.first { $0["member"] as? String == "NewStatus" }?["args"] as? [String] == ["Active"])
        // And the attention icon is gone, which xfce4-panel reads on NewAttentionIcon.
        let attention = try await AgentDesktopTests().gdbus(bus, ["call", "--dest", service, "--object-path", "/StatusNotifierItem", "--method",
                                                              "org.freedesktop.DBus.Properties.Get", "org.kde.StatusNotifierItem", "AttentionIconName"])
        #expect(attention.stdout == "(<''>,)\n", "\(attention)")
        #expect(await agent.stop() == 0)
    }

    /// In Arabic the reminder's body and the tray's tooltip write every
    /// figure in Arabic-Indic digits, isolated (they put "13" beside "٢٠٢٦"),
    /// name the quarter in words and the days still needed with a noun; the
    /// notification's title begins with U+200F.
    @Test(.enabled(if: missing == nil && Catalogs.available, Comment(rawValue: missing ?? "msgfmt not installed: apt-get install gettext")))
    func theReminderAndTooltipWriteArabicFigures() async throws {
        let locale = try await Catalogs.compiled(["ar"])
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        #expect(try await cli.run(["checkin", "--date", "2026-11-16", "--today", "2026-11-18"]).status == 0)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let server = try await BusStandIn(NotificationServer.script, address: bus.address, arguments: ["body,actions", "keep"], in: cli.folder)
        let (agent, _, service) = try await startAgent(cli, bus, environment: [
            "DESKDAYS_NOW": "2026-11-18T10:29:58Z", "LC_ALL": "", "LANGUAGE": "", "LANG": "ar_EG.UTF-8", "DESKDAYS_LOCALEDIR": locale.path,
        ])
        defer { agent.kill9() }
        #expect(await eventually("the reminder's notification") { !server.records.isEmpty }, "\(agent.logText)")
        let body = try #require(server.records.first?["body"] as? String)
        #expect(body.contains("٢٠٢٦") && body.contains("الربع الرابع"), "\(body)")
        // The title reads right to left from its first character, in Arabic words (not "DeskDays: …").
        let title = try #require(server.records.first?["summary"] as? String)
        #expect(title.hasPrefix("\u{200F}") && !title.dropFirst().hasPrefix("DeskDays"), "\(title.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(RightToLeftTests.problems(body).isEmpty, "\(RightToLeftTests.problems(body)): \(body)")
        var tooltip = ""
        #expect(await eventually("the tooltip to name the period") {
            // gdbus writes the text's characters in a UTF-8 locale (else as "?").
            tooltip = (try? await AgentDesktopTests().runTool(["LC_ALL=C.UTF-8", "gdbus", "call", "--address", bus.address, "--dest", service,
                                                               "--object-path", "/StatusNotifierItem", "--method",
                                                               "org.freedesktop.DBus.Properties.Get", "org.kde.StatusNotifierItem", "ToolTip"]).stdout) ?? ""
            return tooltip.contains("٢٠٢٦")
        }, "\(tooltip)")
        let text = tooltip.replacingOccurrences(of: "\\u2068", with: "\u{2068}").replacingOccurrences(of: "\\u2069", with: "\u{2069}")
        // The quarter in words, and a noun after the days still needed ("يلزم ٢٢ يومًا إضافيًا في المكتب").
        #expect(text.contains("الربع الرابع"), "\(text)")
        #expect(text.contains("إضافيًا في المكتب.") || text.contains("إضافية في المكتب.") || text.contains("إضافي في المكتب."), "\(text)")
        for line in text.split(separator: "'").map(String.init) {
            #expect(RightToLeftTests.problems(line).isEmpty, "\(RightToLeftTests.problems(line)): \(line)")
        }
        #expect(await agent.stop() == 0)
    }

    /// The reminder is logged in English while its notification speaks German.
    @Test(.enabled(if: Catalogs.available, "msgfmt not installed: apt-get install gettext"))
    func theReminderIsLoggedInEnglish() async throws {
        let locale = try await Catalogs.compiled(["de"])
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(AgentDesktopTests.reminderConfig)
        let agent = try await AgentProcess(cli, environment: [
            "DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/nonexistent", "DESKDAYS_NOW": "2026-11-18T10:29:58Z",
            "LC_ALL": "", "LANGUAGE": "", "LANG": "de_DE.UTF-8", "DESKDAYS_LOCALEDIR": locale.path,
        ])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("reminder for 2026-11-18:"), "\(agent.logText)")
        #expect(agent.logText.contains("Q4 2026 is out of reach: 40 more office days needed, 32 workdays left."), "\(agent.logText)")
        #expect(!agent.logText.contains("Bürotag"), "\(agent.logText)")
        #expect(await agent.stop() == 0)
    }
}
