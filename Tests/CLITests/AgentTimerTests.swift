import Foundation
import Testing

/// Reminders and the end-of-day fallback, with the agent as a real process
/// on a manual clock (docs/testing.md "Timers"): it starts a few seconds
/// before the configured time and stands there until the test advances it,
/// so whatever the test does first surely comes before the timer, however
/// slow the machine.
@Suite(.serialized) struct AgentTimerTests {
    static let config = """
    [policy]
    timezone = "UTC"

    [checkin]
    reminder_time = "10:30"
    fallback_time = "20:00"
    fallback_status = "remote"
    """

    /// No session bus: the reminder is decided and logged, and the missing bus reported once.
    static let noBus = ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/nonexistent"]

    /// An agent whose clock stands at `now` until advanced, once it has logged the timer it waits for.
    static func agent(_ cli: CLIRunner, at now: String, waitingFor next: String) async throws -> AgentProcess {
        let agent = try await AgentProcess(cli, environment: noBus.merging(["DESKDAYS_NOW": now]) { $1 }, manualClock: true)
        guard await agent.waitForLog("next timer: \(next)") else {
            agent.kill9()
            throw HarnessError("the agent did not arm its timer for \(next): \(agent.logText)")
        }
        return agent
    }

    @Test func fallbackIsWrittenOnAWorkdayWithoutARecord() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let agent = try await Self.agent(cli, at: "2026-11-18T19:59:57Z", waitingFor: "2026-11-18T20:00:00Z")
        defer { agent.kill9() }
        #expect(!agent.logText.contains("had no record"), "nothing before 20:00 (the clock stands still): \(agent.logText)")
        try agent.advance(seconds: 5)
        #expect(await agent.waitForLog("fallback: 2026-11-18 had no record; recorded remote"), "\(agent.logText)")
        let days = try await cli.run(["days", "--json", "--from", "2026-11-18", "--to", "2026-11-18"])
        let list = try #require(JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]])
        #expect(list.first?["status"] as? String == "remote")
        #expect(list.first?["origin"] as? String == "fallback")
        #expect(await agent.stop() == 0)
    }

    @Test func fallbackLeavesADayWithACheckInAlone() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let agent = try await Self.agent(cli, at: "2026-11-18T19:59:56Z", waitingFor: "2026-11-18T20:00:00Z")
        defer { agent.kill9() }
        let event = try await cli.run(["event", "--source", "nfc", "--at", "2026-11-18T08:00:00Z", "--socket", agent.socket])
        #expect(event.status == 0)
        try agent.advance(seconds: 5)
        #expect(await agent.waitForLog("fallback not needed: 2026-11-18 has a record"), "\(agent.logText)")
        let days = try await cli.run(["days", "--json", "--from", "2026-11-18", "--to", "2026-11-18"])
        #expect(days.stdout.contains("\"automatic\"") && !days.stdout.contains("\"fallback\""))
    }

    @Test func reminderIsGivenOnAWorkdayWithoutARecordAndSuppressedByACheckIn() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        // Without a check-in: the reminder, naming what the period still needs.
        let first = try await Self.agent(cli, at: "2026-11-18T10:29:57Z", waitingFor: "2026-11-18T10:30:00Z")
        try first.advance(seconds: 5)
        #expect(await first.waitForLog("reminder for 2026-11-18:"), "\(first.logText)")
        // Nothing recorded in Q4 2026: 40 office days asked, 32 workdays left, so it says the quarter is out of reach.
        #expect(first.logText.contains("Q4 2026 is out of reach: 40 more office days needed, 32 workdays left."), "\(first.logText)")
        #expect(await first.waitForLog("cannot show desktop notifications: no D-Bus session bus"))
        #expect(await first.stop() == 0)
        // Restarted the same day: at most one a day.
        let again = try await AgentProcess(cli, environment: Self.noBus.merging(["DESKDAYS_NOW": "2026-11-18T10:31:00Z"]) { $1 })
        #expect(await again.waitForLog("reminder already given today"), "\(again.logText)")
        #expect(await again.stop() == 0)

        // Next day, a check-in through the socket before reminder time suppresses it.
        let next = try await Self.agent(cli, at: "2026-11-19T10:29:56Z", waitingFor: "2026-11-19T10:30:00Z")
        defer { next.kill9() }
        #expect(try await cli.run(["checkin", "--date", "2026-11-19", "--socket", next.socket]).status == 0)
        try next.advance(seconds: 5)
        #expect(await next.waitForLog("reminder suppressed: 2026-11-19 already has a record"), "\(next.logText)")
        #expect(!next.logText.contains("reminder for 2026-11-19"))
    }

    /// An office plan asks on its day (docs/policy.md "Plans need you"); a
    /// period out of reach says so.
    @Test func aPlanAsksAndAnOutOfReachPeriodSaysSo() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        #expect(try await cli.run(["checkin", "--date", "2026-11-18", "--today", "2026-11-16"]).status == 0)
        let planned = try await Self.agent(cli, at: "2026-11-18T10:29:57Z", waitingFor: "2026-11-18T10:30:00Z")
        try planned.advance(seconds: 5)
        #expect(await planned.waitForLog("reminder for 2026-11-18: You planned the office today — were you in?"), "\(planned.logText)")
        #expect(await planned.stop() == 0)
        // 60 % of Q4 2026 (66 weekdays) is 40, none done (the plan was never confirmed); 14 workdays from Mon 14 Dec.
        let late = try await Self.agent(cli, at: "2026-12-14T10:29:57Z", waitingFor: "2026-12-14T10:30:00Z")
        defer { late.kill9() }
        try late.advance(seconds: 5)
        #expect(await late.waitForLog("reminder for 2026-12-14: Q4 2026 is out of reach: 40 more office days needed, 14 workdays left."),
                "\(late.logText)")
    }

    /// No weekly summary for a week of vacation ("This week: 0 of 0" on Christmas Day).
    @Test func noWeeklySummaryForAWeekWithNoEligibleDay() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("""
        [policy]
        timezone = "UTC"
        [checkin]
        reminder_time = "off"
        fallback_time = "off"
        [reminders]
        summary = "fri 16:00"
        """)
        #expect(try await cli.run(["checkin", "--from", "2026-11-16", "--to", "2026-11-20", "--status", "vacation", "--today", "2026-11-13"]).status == 0)
        let agent = try await Self.agent(cli, at: "2026-11-20T15:59:57Z", waitingFor: "2026-11-20T16:00:00Z")
        defer { agent.kill9() }
        try agent.advance(seconds: 5)
        #expect(await agent.waitForLog("weekly summary not given: the week of 2026-11-16 has no eligible workday"), "\(agent.logText)")
        #expect(!agent.logText.contains("weekly summary for the week of"))
    }

    @Test func remindersStopAfterThreeDismissedInARow() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        // Three earlier reminders, each dismissed and none followed by a check-in (the state file keeps dates only).
        try FileManager.default.createDirectory(atPath: (cli.database as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(#"{"reminded":["2026-11-13","2026-11-16","2026-11-17"],"dismissed":["2026-11-13","2026-11-16","2026-11-17"]}"#.utf8)
            .write(to: URL(fileURLWithPath: (cli.database as NSString).deletingLastPathComponent + "/reminders.json"))
        let agent = try await Self.agent(cli, at: "2026-11-18T10:29:57Z", waitingFor: "2026-11-18T10:30:00Z")
        defer { agent.kill9() }
        try agent.advance(seconds: 5)
        #expect(await agent.waitForLog("reminder withheld: the last 3 were dismissed"), "\(agent.logText)")
        #expect(!agent.logText.contains("reminder for 2026-11-18"))
    }

    @Test func noReminderOnAWeekend() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        // Saturday 10:29:57: the schedule's next instant is Monday's reminder (Saturday has none to give).
        let agent = try await Self.agent(cli, at: "2026-11-21T10:29:57Z", waitingFor: "2026-11-23T10:30:00Z")
        defer { agent.kill9() }
        // That is the decision: nothing is decided for Saturday at all.
        for decision in ["reminder for", "reminder suppressed", "reminder not needed", "reminder withheld"] {
            #expect(!agent.logText.contains(decision), "\(agent.logText)")
        }
        #expect(agent.isRunning)
    }
}
