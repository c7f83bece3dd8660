import Foundation
import Spawn
import TestSupport
import Testing

/// What the window asks of the agent's D-Bus interface (docs/cli.md, "The
/// D-Bus interface"): `Days`, `SetRange`, `Clear`, `Plan`, `WritePlan` and `Configure`, called
/// with gdbus and busctl on a private bus, good and bad input, the database
/// read back through the CLI; and the installed introspection XML, which
/// must be what the live object says.
extension AgentDesktopTests {
    static let interfaceXML = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/\(name).xml")

    /// The JSON string a method returned (`busctl --json=short call`).
    func jsonReply(_ bus: PrivateSystemBus, _ arguments: [String]) async throws -> (String, ToolResult) {
        let reply = try await busctl(bus, ["--json=short", "call", Self.name, Self.path, Self.name] + arguments)
        let object = try? JSONSerialization.jsonObject(with: Data(reply.stdout.utf8)) as? [String: Any]
        return ((object?["data"] as? [Any])?.first as? String ?? "", reply)
    }

    /// A day's status as `days --json` prints it (nil: none).
    func statuses(_ cli: CLIRunner, _ from: String, _ to: String) async throws -> [String: String] {
        let days = try await cli.run(["days", "--json", "--from", from, "--to", to])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]], "\(days)")
        return Dictionary(uniqueKeysWithValues: rows.compactMap { row in
            (row["date"] as? String).map { ($0, row["status"] as? String ?? "") }
        })
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func theWindowsMethodsAnswerAsTheCommandsDoAndRefuseWhatTheyRefuse() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let config = """
        # My settings: this comment stays.
        [policy]
        timezone = "UTC"

        [checkin]
        reminder_time = "10:30"  # after the stand-up
        """
        try cli.writeConfig(config)
        // Monday 2026-03-02 is remote already: a range fills around it.
        #expect(try await cli.run(["checkin", "--date", "2026-03-02", "--status", "remote", "--socket", "/nonexistent/agent.sock"]).status == 0)
        let bus = try await PrivateSystemBus(in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("serving \(Self.name) on the session bus"), "\(agent.logText)")

        // SetRange fills the workdays of a range as `checkin --from --to` does; the weekend and the kept day stay.
        let (filled, filledReply) = try await jsonReply(bus, ["SetRange", "sssb", "2026-02-27", "2026-03-03", "office", "false"])
        let recorded = try #require(try? JSONSerialization.jsonObject(with: Data(filled.utf8)) as? [String: Any], "\(filledReply)")
        #expect(recorded["recorded"] as? [String] == ["2026-02-27", "2026-03-03"], "\(recorded)")
        #expect(recorded["kept"] as? [String] == ["2026-03-02"], "\(recorded)")
        #expect(recorded["status"] as? String == "office" && recorded["from"] as? String == "2026-02-27")
        var days = try await statuses(cli, "2026-02-27", "2026-03-03")
        #expect(days == ["2026-02-27": "office", "2026-02-28": "", "2026-03-01": "", "2026-03-02": "remote", "2026-03-03": "office"], "\(days)")
        #expect(agent.logText.contains("through the control socket"), "the write went through the agent: \(agent.logText)")

        // With overwrite, every workday of the range; a synonym as the CLI takes it.
        let (replaced, _) = try await jsonReply(bus, ["SetRange", "sssb", "2026-03-02", "2026-03-03", "PTO", "true"])
        #expect((try? JSONSerialization.jsonObject(with: Data(replaced.utf8)) as? [String: Any])?["recorded"] as? [String]
                == ["2026-03-02", "2026-03-03"], "\(replaced)")
        days = try await statuses(cli, "2026-03-02", "2026-03-03")
        #expect(days == ["2026-03-02": "vacation", "2026-03-03": "vacation"], "\(days)")

        // Days: the bytes `days --json` prints.
        let (rows, rowsReply) = try await jsonReply(bus, ["Days", "ss", "2026-02-27", "2026-03-03"])
        let printed = try await cli.run(["days", "--json", "--from", "2026-02-27", "--to", "2026-03-03"])
        #expect(!rows.isEmpty && rows == printed.stdout, "\(rowsReply)")

        // Clear: the manual records of each date, and the sentence `clear` prints.
        let cleared = try await gdbus(bus, ["call", "--dest", Self.name, "--object-path", Self.path, "--method", "\(Self.name).Clear",
                                            "2026-03-03", "2026-03-04"])
        #expect(cleared.status == 0 && cleared.stdout.contains("from 1 of the dates 2026-03-03 to 2026-03-04"), "\(cleared)")
        days = try await statuses(cli, "2026-03-02", "2026-03-04")
        #expect(days == ["2026-03-02": "vacation", "2026-03-03": "", "2026-03-04": ""], "\(days)")

        // Plan and WritePlan: `plan --json [--write]` with the two lists as flags; the plannedDays days are office plans.
        let (planned, planReply) = try await jsonReply(bus, ["Plan", "asas", "2", "tue", "thu", "0"])
        let plan = try #require(try? JSONSerialization.jsonObject(with: Data(planned.utf8)) as? [String: Any], "\(planReply)")
        #expect(plan["reachable"] is Bool && plan["days"] is [String], "\(plan)")
        let (wrote, wroteReply) = try await jsonReply(bus, ["WritePlan", "asas", "2", "tue", "thu", "0"])
        let plannedDays = try #require((try? JSONSerialization.jsonObject(with: Data(wrote.utf8)) as? [String: Any])?["new"] as? [String],
                                   "\(wroteReply)")
        #expect(plannedDays == plan["new"] as? [String], "\(wrote)")
        if let first = plannedDays.first, let last = plannedDays.last {
            let planDays = try await statuses(cli, first, last)
            #expect(plannedDays.allSatisfy { planDays[$0] == "office" }, "\(planDays)")
        }
        let refusedPlan = try await busctl(bus, ["call", Self.name, Self.path, Self.name, "Plan", "asas", "1", "funday", "0"])
        #expect(refusedPlan.status != 0 && refusedPlan.stderr.contains("funday"), "\(refusedPlan)")

        // Bad input: the CLI's own sentence under a named error; nothing recorded, and the agent carries on.
        let long = String(repeating: "9", count: 2000)
        let refusals: [([String], String, String)] = [
            (["Days", "2026-02-30", "2026-03-01"], "InvalidInput", "that month has 28 days"),
            (["Days", "--help", "2026-03-01"], "InvalidInput", "is not a date"),
            (["SetRange", "2026-03-06", "2026-03-02", "office", "false"], "InvalidInput", "is after --to 2026-03-02; swap them"),
            (["SetRange", "2026-01-01", "2027-03-02", "office", "false"], "InvalidInput", "longer than a year"),
            (["SetRange", "2026-03-07", "2026-03-08", "office", "false"], "InvalidInput", "holds no workday"),
            (["SetRange", "2026-03-04", "2026-03-05", "banana", "false"], "InvalidInput", "\"banana\" is not a status"),
            (["SetRange", "1066-10-14", "1066-10-15", "office", "false"], "InvalidInput", "check the year"),
            (["Clear", "yesterday", "2026-03-05"], "InvalidInput", "is not a date"),
            (["Clear", long, "2026-03-05"], "InvalidInput", "longer than 1000 bytes"),
        ]
        for (call, error, words) in refusals {
            // "--": what follows is arguments, even "--help".
            let reply = try await gdbus(bus, ["call", "--dest", Self.name, "--object-path", Self.path, "--method", "\(Self.name).\(call[0])", "--"]
                                        + call.dropFirst())
            #expect(reply.status != 0 && reply.stderr.contains("\(Self.name).Error.\(error)") && reply.stderr.contains(words),
                    "\(call.prefix(3)): \(reply.stderr)")
            #expect(!reply.stderr.contains("deskdays: "), "one sentence, without the command's prefix: \(reply.stderr)")
        }
        days = try await statuses(cli, "2026-03-04", "2026-03-06")
        #expect(days == ["2026-03-04": "", "2026-03-05": "", "2026-03-06": ""], "nothing written by a refused call: \(days)")
        let wrongType = try await busctl(bus, ["call", Self.name, Self.path, Self.name, "SetRange", "sssi", "2026-03-04", "2026-03-05", "office", "1"])
        #expect(wrongType.status != 0 && wrongType.stderr.contains("nvalid"), "\(wrongType.stderr)")

        // Configure: one key through the configuration editor, every comment kept; then the agent reads it again.
        let set = try await busctl(bus, ["call", Self.name, Self.path, Self.name, "Configure", "sv", "checkin.reminder_time", "s", "11:15"])
        #expect(set.status == 0 && set.stdout.contains("Set checkin.reminder_time to "), "\(set)")
        let written = try String(contentsOfFile: cli.config, encoding: .utf8)
        #expect(written == config.replacingOccurrences(of: "\"10:30\"", with: "\"11:15\""), "\(written)")
        // The save reloads the agent, whose successor serves the interface again.
        #expect(await agent.waitForLog("the configuration file changed; reloading it"), "\(agent.logText)")
        #expect(await agent.waitForLog("serving \(Self.name) twice") { $0.components(separatedBy: "serving \(Self.name) on the session bus").count == 3 },
                "\(agent.logText)")
        // A key in a table the file lacks: the editor adds the table; the same value again changes nothing.
        let confirm = try await busctl(bus, ["call", Self.name, Self.path, Self.name, "Configure", "sv", "desktop.confirm", "b", "false"])
        #expect(confirm.status == 0 && confirm.stdout.contains("Set desktop.confirm to false."), "\(confirm)")
        #expect(await agent.waitForLog("serving \(Self.name) a third time") { $0.components(separatedBy: "serving \(Self.name) on the session bus").count == 4 },
                "\(agent.logText)")
        let again = try await busctl(bus, ["call", Self.name, Self.path, Self.name, "Configure", "sv", "desktop.confirm", "b", "false"])
        #expect(again.stdout.contains("desktop.confirm is already false; nothing changed."), "\(again)")
        let before = try String(contentsOfFile: cli.config, encoding: .utf8)
        #expect(before.hasPrefix("# My settings: this comment stays.") && before.hasSuffix("\n\n[desktop]\nconfirm = false\n"), "\(before)")
        let shown = try await cli.run(["config", "show"])
        #expect(shown.stdout.contains("11:15"), "\(shown.stdout)")
        let refusedKeys: [([String], String)] = [
            (["checkin.reminder_time", "s", "25:00"], "reminder_time"),
            (["checkin.no_such_key", "u", "3"], "unknown key \"no_such_key\" in [checkin]"),
            (["reminder_time", "s", "10:00"], "is not a configuration key"),
            (["checkin.reminder_time", "(ii)", "1", "2"], "a list of strings"),
        ]
        for (arguments, words) in refusedKeys {
            let reply = try await busctl(bus, ["call", Self.name, Self.path, Self.name, "Configure", "sv"] + arguments)
            #expect(reply.status != 0 && reply.stderr.contains(words), "\(arguments): \(reply.stderr)")
        }
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == before, "a refused value writes nothing")
        #expect(await agent.stop() == 0)
    }

    /// The XML installed in /usr/share/dbus-1/interfaces is the live
    /// object's own introspection of the interface (sd-bus writes it from
    /// the member table), so the two cannot drift. `DESKDAYS_REGENERATE_GOLDEN=1` rewrites it.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func theInstalledInterfaceXMLIsWhatTheAgentIntrospects() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let bus = try await PrivateSystemBus(in: cli.folder)
        let agent = try await AgentProcess(cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { agent.kill9() }
        #expect(await agent.waitForLog("serving \(Self.name) on the session bus"), "\(agent.logText)")
        let live = try await busctl(bus, ["introspect", "--xml-interface", Self.name, Self.path])
        let start = try #require(live.stdout.range(of: " <interface name=\"\(Self.name)\">"), "\(live)")
        let end = try #require(live.stdout.range(of: " </interface>\n", range: start.upperBound..<live.stdout.endIndex))
        let interface = String(live.stdout[start.lowerBound..<end.upperBound])
        let expected = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
            "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <!-- io.github.deskdays.DeskDays1: the DeskDays agent on the session bus (docs/cli.md, "The D-Bus interface").
                 Written from the agent's own introspection; AppInterfaceTests checks that they agree. -->
            <node>

            """ + interface + "</node>\n"
        if ProcessInfo.processInfo.environment["DESKDAYS_REGENERATE_GOLDEN"] == "1" {
            try expected.write(to: Self.interfaceXML, atomically: true, encoding: .utf8)
        }
        let installed = try String(contentsOf: Self.interfaceXML, encoding: .utf8)
        #expect(installed == expected, "config/\(Self.name).xml differs from the live introspection; regenerate with DESKDAYS_REGENERATE_GOLDEN=1")
        for member in ["CheckIn", "Report", "Days", "SetRange", "Clear", "Configure"] {
            #expect(installed.contains("<method name=\"\(member)\">"), "\(member)")
        }
        #expect(await agent.stop() == 0)
    }
}
