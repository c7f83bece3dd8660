import Foundation
import Spawn
import TestSupport
import Testing

/// `deskdays plan` (docs/cli.md, docs/policy.md "Planning") through the real executable and agent.
@Suite struct PlanCLITests {
    /// 3 days a week, the week of Mon 2026-03-09 (the agent's fixed "now" is
    /// Tue 2026-03-10 08:00), Thursday a holiday, Monday in the office.
    static let config = """
    [policy]
    period = "week"
    [policy.target]
    kind = "days_per_week"
    value = 3
    [[holidays]]
    date = "2026-03-12"
    name = "Team day off"
    """

    func setUp(_ cli: CLIRunner, extra: String = "") async throws {
        try cli.writeConfig(Self.config + "\n" + extra)
        #expect(try await cli.run(["checkin", "--date", "2026-03-09", "--socket", "/nonexistent/agent.sock"]).status == 0)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func thePlanItsWhyAndItsJSON() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await setUp(cli, extra: "[plan]\nprefer = [\"fri\"]\n")
        let socket = ["--socket", "/nonexistent/agent.sock", "--today", "2026-03-10"]
        let text = try await cli.run(["plan"] + socket)
        #expect(text.status == 0, "\(text.stderr)")
        // Two more: Friday (preferred by [plan]), then the earliest, today.
        #expect(text.stdout.contains("Week of 2026-03-09: 2026-03-10 and 2026-03-13 (2 of 3 this week; Thu is a holiday)."), "\(text.stdout)")
        #expect(text.stdout.contains("Total: 2 office days (2 new)."), "\(text.stdout)")
        let plan = try json(try await cli.run(["plan", "--json", "--avoid", "2026-03-10"] + socket).stdout)
        #expect(plan["days"] as? [String] == ["2026-03-11", "2026-03-13"], "\(plan)")
        #expect(plan["new"] as? [String] == ["2026-03-11", "2026-03-13"] && plan["reachable"] as? Bool == true
            && plan["short"] as? Int == 0 && plan["remaining_required"] as? Int == 2 && plan["status"] as? String == "on_track", "\(plan)")
        #expect((plan["period"] as? [String: String]) == ["start": "2026-03-09", "end": "2026-03-15"], "\(plan)")
        // Out of reach: two of the three open days avoided; exit 0, and by how much.
        let short = try await cli.run(["plan", "--json", "--avoid", "2026-03-10..2026-03-11"] + socket)
        let out = try json(short.stdout)
        #expect(short.status == 0 && out["reachable"] as? Bool == false && out["short"] as? Int == 1
            && out["new"] as? [String] == ["2026-03-13"], "\(short.stdout)")
        // A bad flag: exit 1, one sentence naming it.
        for bad in [["--prefer", "tue,funday"], ["--avoid", "2026-03-13..2026-03-10"], ["--avoid", "soon"]] {
            let refused = try await cli.run(["plan"] + bad + socket)
            #expect(refused.status == 1 && refused.stdout.isEmpty && refused.stderr.contains(bad[0] + ":"), "\(bad): \(refused.stderr)")
        }
        // A bad [plan] key is the configuration's problem, named by file and line.
        try cli.writeConfig(Self.config + "\n[plan]\navoid = [\"2026-02-30\"]\n")
        let config = try await cli.run(["plan"] + socket)
        #expect(config.status == 1 && config.stderr.contains("config.toml:10") && config.stderr.contains("2026-02-30"), "\(config.stderr)")
    }

    @Test func writeRecordsThePlansAndStatusSaysWhenTheyFallShort() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await setUp(cli)
        let socket = ["--socket", "/nonexistent/agent.sock", "--today", "2026-03-09"]
        let wrote = try await cli.run(["plan", "--write"] + socket)
        #expect(wrote.status == 0 && wrote.stdout.contains("Recorded 2 office plans: 2026-03-10 and 2026-03-11."), "\(wrote.stdout)")
        let explain = try await cli.run(["explain", "2026-03-11", "--today", "2026-03-09"])
        #expect(explain.stdout.contains("planned with `deskdays plan`"), "\(explain.stdout)")
        // Kept, the plans reach the target: no new day, and status has nothing to say about them.
        #expect(try json(try await cli.run(["plan", "--json"] + socket).stdout)["new"] as? [String] == [])
        var status = try json(try await cli.run(["status", "--format", "json"] + socket).stdout)
        #expect((status["plan"] as? [String: Int]) == ["planned": 2, "short": 0], "\(status)")
        // A sick day on a planned date replaces that plan: one more day is needed.
        #expect(try await cli.run(["checkin", "--date", "2026-03-11", "--status", "sick"] + socket).status == 0)
        status = try json(try await cli.run(["status", "--format", "json"] + socket).stdout)
        #expect((status["plan"] as? [String: Int]) == ["planned": 1, "short": 1], "\(status)")
        let line = try await cli.run(["status"] + socket)
        #expect(line.stdout.contains("Plan: 1 more day needed; `deskdays plan`."), "\(line.stdout)")
        // Without plans, status has no plan key.
        let none = try CLIRunner()
        defer { none.cleanup() }
        try await setUp(none)
        #expect(try json(try await none.run(["status", "--format", "json"] + socket).stdout)["plan"] == nil)
    }

    /// The agent's reply to `plan` and the CLI's own computation are the same bytes.
    @Test func theAgentServesTheSameBytes() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await setUp(cli, extra: "[plan]\navoid = [\"2026-03-11\"]\n")
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let now = ["DESKDAYS_NOW": AgentProcess.fixedNow]
        for (request, flags) in [(#"{"cmd":"plan","format":"json","prefer":["fri"]}"#, ["--json", "--prefer", "fri"]),
                                 (#"{"cmd":"plan","format":"text"}"#, [])] {
            let reply = try #require(try TestSocketClient(path: agent.socket).request(request))
            let served = try #require(reply["output"] as? String, "\(reply)")
            let printed = try await cli.run(["plan", "--socket", "/nonexistent/agent.sock"] + flags, environment: now)
            #expect(printed.status == 0 && printed.stdout == served, "CLI \(printed.stdout) vs agent \(served)")
        }
        let bad = try #require(try TestSocketClient(path: agent.socket).request(#"{"cmd":"plan","prefer":["someday"]}"#))
        #expect(bad["ok"] as? Bool == false && bad["code"] as? String == "bad_request", "\(bad)")
        #expect(await agent.stop() == 0)
    }

    /// On the system clock, `plan --json` is answered by the agent (the launcher asks it);
    /// with --prefer the CLI asks it; either way the bytes are the CLI's own.
    @Test func theLauncherAsksTheAgentForPlanJSON() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await setUp(cli)
        let agent = try await AgentProcess(cli, environment: ["DESKDAYS_NOW": ""])
        defer { agent.kill9() }
        #expect(try TestSocketClient(path: agent.socket).status() != nil)
        let log = ["DESKDAYS_LOG": "info"]
        for flags in [["--json"], ["--json", "--prefer", "wed"]] {
            let asked = try await cli.run(["plan", "--socket", agent.socket] + flags, environment: log)
            #expect(asked.status == 0 && asked.stderr.contains("answered by the agent"), "\(flags): \(asked.stderr)")
            let computed = try await cli.run(["plan", "--socket", "/nonexistent/agent.sock"] + flags)
            #expect(computed.stdout == asked.stdout, "\(flags): agent \(asked.stdout) vs CLI \(computed.stdout)")
        }
        #expect(await agent.stop() == 0)
    }
}
