import Foundation
import Spawn
import TestSupport
import Testing

/// One policy for all devices (docs/cli.md "Every device, one rule"): two
/// devices, each with its own configuration and database, one sync folder.
@Suite struct SharedPolicyTests {
    typealias Device = SyncDevicesTests.Device

    /// HR's rule: 3 days a week averaged over the fiscal quarter (April), pro rata, in Munich.
    static let rule = """
        # HR's rule, October 2026.
        [policy]
        timezone = "Europe/Berlin"
        period = "quarter"
        fiscal_year_start_month = 4

        [policy.target]
        kind = "days_per_week"
        value = 3
        round = "period"
        reduce = "pro-rata"

        [[holidays]]
        date = "2026-12-24"
        name = "Christmas Eve"

        """

    static func sync(_ name: String, _ folder: String) -> String {
        "[sync]\nfolder = \"\(folder)\"\ndevice_name = \"\(name)\"\n"
    }

    /// The figures a standing is made of, from `report --json`.
    static func standing(_ device: Device) async throws -> String {
        let json = try await device.ok(["report", "--json"], now: "2026-11-20T17:00:00Z")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return ["required", "eligible", "status", "remaining_required"].map { "\($0)=\(object[$0] ?? "nil")" }.joined(separator: " ")
    }

    @Test func twoDevicesNeverShowTwoStandings() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop-a", folder: folder), b = try Device("laptop-b", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        try a.cli.writeConfig(Self.sync("laptop-a", folder) + "\n" + Self.rule)
        // The second laptop was set up with the defaults' rule (60 % a quarter).
        try b.cli.writeConfig("# my laptop\n" + Self.sync("laptop-b", folder) + "\n[policy]\ntimezone = \"Europe/Berlin\"\n\n[policy.target]\nkind = \"percent\"\nvalue = 60\n")

        // The first to read shares its policy: the folder had none.
        let first = try await Self.standing(a)
        let shared = try String(contentsOfFile: folder + "/policy.json", encoding: .utf8)
        #expect(shared.contains("\"name\":\"laptop-a\"") && shared.contains("fiscal_year_start_month = 4"), "\(shared)")
        // The other answers from it, and says once, in status, that its own differs.
        #expect(try await Self.standing(b) == first)
        let status = try await b.ok(["status"])
        #expect(status.contains("This device's policy differs from the one laptop-a shared on 2026-11-20: `deskdays policy adopt` uses it, `deskdays policy share` shares yours."), "\(status)")
        #expect(!(try await a.ok(["status"])).contains("differs"))
        let syncStatus = try await b.ok(["sync", "status"])
        #expect(syncStatus.contains("Policy: the one laptop-a shared on 2026-11-20") && !syncStatus.contains("Problems: none")
                && syncStatus.contains("  - This device's policy differs"), "\(syncStatus)")
        // Never both: JSON answers alike.
        #expect(try await a.ok(["status", "--format", "json"]) == b.ok(["status", "--format", "json"]))

        // Adopting: b's own policy leaves its file (kept as .bak), every other line stays.
        let adopted = try await b.ok(["policy", "adopt"])
        #expect(adopted.contains("This device answers from the policy laptop-a shared on 2026-11-20."), "\(adopted)")
        let config = try String(contentsOfFile: b.cli.config, encoding: .utf8)
        #expect(!config.contains("[policy") && config.contains("# my laptop") && config.contains("device_name = \"laptop-b\""), "\(config)")
        #expect(try String(contentsOfFile: b.cli.config + ".bak", encoding: .utf8).contains("kind = \"percent\""))
        #expect(!(try await b.ok(["status"])).contains("differs"))
        #expect(try await b.ok(["sync", "status"]).contains("Problems: none"))

        // The rule changes on a: it is the newest, and b follows it.
        try a.cli.writeConfig(Self.sync("laptop-a", folder) + "\n" + Self.rule.replacingOccurrences(of: "value = 3", with: "value = 2"))
        let changed = try await Self.standing(a)
        #expect(changed != first)
        #expect(try await Self.standing(b) == changed)

        // b has nothing of its own to share.
        let refused = try await b.run(["policy", "share"], now: "2026-11-20T17:00:00Z")
        #expect(refused.status == 1 && refused.stderr.contains("has no [policy] of its own to share"), "\(refused.stderr)")
        // b shares a policy again after writing one: it is the newest (a changed nothing since).
        try b.cli.writeConfig(Self.sync("laptop-b", folder) + "\n" + Self.rule)
        #expect(try await Self.standing(b) == first)
        #expect(try await Self.standing(a) == first)
        let told = try await a.ok(["status"])
        #expect(told.contains("differs from the one laptop-b shared"), "\(told)")
        // a shares its version on purpose.
        #expect(try await a.ok(["policy", "share"]).contains("every device answers from it now"))
        #expect(try await Self.standing(b) == changed)
    }

    @Test func aBadSharedPolicyIsNamedAndNotUsed() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let device = try Device("laptop", folder: folder)
        defer { device.cli.cleanup() }
        let defaults = try await Self.standing(device)
        let cases: [(String, String)] = [
            ("not json", "it is not a DeskDays shared policy"),
            ("{\"v\":1,\"name\":\"x\",\"hlc\":1763650000000,\"n\":0,\"policy\":\"[nfc]\\nenabled = true\\n\"}", "it holds more than a policy"),
            ("{\"v\":1,\"name\":\"x\",\"hlc\":1763650000000,\"n\":0,\"policy\":\"[policy]\\nperiod = \\\"fortnight\\\"\\n\"}", "line 2 of its policy"),
            ("{\"v\":1,\"name\":\"x\",\"hlc\":1795392000000,\"n\":0,\"policy\":\"\"}", "more than a day after this device's clock"),
            ("{\"v\":1,\"name\":\"x\",\"hlc\":1763650000000,\"n\":-1,\"policy\":\"\"}", "its clock counter (n) -1"),
            ("{\"v\":9,\"name\":\"x\"}", "written by a newer DeskDays"),
            (String(repeating: " ", count: 1 << 21), "longer than 1048576 bytes"),
        ]
        for (text, reason) in cases {
            try text.write(toFile: folder + "/policy.json", atomically: true, encoding: .utf8)
            let result = try await device.run(["report", "--json"], now: "2026-11-20T17:00:00Z")
            #expect(result.status == 0 && result.stderr.contains("policy.json") && result.stderr.contains(reason), "\(reason): \(result.stderr)")
            #expect(try await Self.standing(device) == defaults, "\(reason)")
            let status = try await device.ok(["sync", "status"])
            #expect(status.contains(reason), "\(reason): \(status)")
        }
        // A FIFO in its place is named, never waited on.
        try FileManager.default.removeItem(atPath: folder + "/policy.json")
        #expect(mkfifo(folder + "/policy.json", 0o600) == 0)
        let fifo = try await device.run(["status"], now: "2026-11-20T17:00:00Z")
        #expect(fifo.status == 0 && fifo.stderr.contains("is a FIFO, not a shared policy"), "\(fifo.stderr)")
    }

    @Test func sharePolicyOffKeepsThisDevicesOwn() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("a", folder: folder), b = try Device("b", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        try a.cli.writeConfig(Self.sync("a", folder) + "\n" + Self.rule)
        try b.cli.writeConfig(Self.sync("b", folder) + "share_policy = false\n")
        let own = try await Self.standing(b)
        _ = try await Self.standing(a)
        #expect(FileManager.default.fileExists(atPath: folder + "/policy.json"))
        #expect(try await Self.standing(b) == own)
        let refused = try await b.run(["policy", "adopt"], now: "2026-11-20T17:00:00Z")
        #expect(refused.status == 1 && refused.stderr.contains("share_policy = false"), "\(refused.stderr)")
    }

    /// The agent answers from the shared policy, notifies once that its own
    /// differs, and reloads when another device shares a newer one.
    @Test(.enabled(if: FakeNotificationDaemon.missing == nil, Comment(rawValue: FakeNotificationDaemon.missing ?? "")))
    func theAgentFollowsTheSharedPolicyAndSaysOnceThatItsOwnDiffers() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop-a", folder: folder), b = try Device("laptop-b", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        try a.cli.writeConfig(Self.sync("laptop-a", folder) + "\n" + Self.rule)
        try b.cli.writeConfig(Self.sync("laptop-b", folder) + "\n[policy]\ntimezone = \"Europe/Berlin\"\n[checkin]\nreminder_time = \"off\"\n")
        func required(_ device: Device) async throws -> Int? {
            let json = try await device.ok(["report", "--json"], now: "2026-11-20T07:00:00Z")
            return (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["required"] as? Int
        }
        let shared = try await required(a)
        let bus = try await PrivateSystemBus(in: b.cli.folder)
        let daemon = try await FakeNotificationDaemon(address: bus.address, in: b.cli.folder)
        let agent = try await AgentProcess(b.cli, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DESKDAYS_NOW": "2026-11-20T07:00:00Z"])
        defer { agent.kill9() }
        let statusFile = b.cli.folder.appendingPathComponent("run/status.json").path
        func agentRequired() -> Int? {
            guard let data = FileManager.default.contents(atPath: statusFile) else { return nil }
            return (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["required"] as? Int
        }
        #expect(await eventually("the agent's status.json with the shared rule's figure") { agentRequired() == shared }, "\(agent.logText)")
        #expect(await eventually("one notification that the policies differ") { daemon.calls.count == 1 }, "\(agent.logText)")
        let call = try #require(daemon.calls.first)
        #expect(call["summary"] as? String == "DeskDays: the shared policy")
        #expect((call["body"] as? String)?.contains("differs from the one laptop-a shared on 2026-11-20") == true, "\(call)")

        // a changes the rule: b's agent reloads with it, and tells the new difference once.
        try a.cli.writeConfig(Self.sync("laptop-a", folder) + "\n" + Self.rule.replacingOccurrences(of: "value = 3", with: "value = 1"))
        let changed = try await required(a)
        #expect(changed != shared)
        #expect(await agent.waitForLog("the sync folder holds a newer shared policy; reloading"), "\(agent.logText)")
        #expect(await eventually("the agent's status.json with the new rule's figure") { agentRequired() == changed }, "\(agent.logText)")
        #expect(await eventually("a second notification") { daemon.calls.count == 2 }, "\(daemon.calls)")
        #expect(await agent.stop() == 0)
        #expect(daemon.calls.count == 2, "once per shared version: \(daemon.calls)")
    }
}
