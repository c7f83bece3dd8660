import Foundation
import Spawn
import TestSupport
import Testing

/// Issue 54, HR's rule: the rule's settings as the command line reads,
/// shows and words them (docs/cli.md "Additions (fifth round)").
@Suite struct HRRuleCLITests {
    static let quarterly = """
        [policy]
        timezone = "UTC"
        period = "quarter"
        fiscal_year_start_month = 4

        [policy.target]
        kind = "days_per_week"
        value = 3
        round = "period"

        """

    /// `report --json` on `today`, as an object.
    static func report(_ cli: CLIRunner, _ today: String, _ extra: [String] = []) async throws -> [String: Any] {
        let run = try await cli.run(["report", "--json", "--today", today] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\(run.stderr)")
    }

    @Test func aWeeklyRuleAveragedOverTheQuarter() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.quarterly)
        // One record before the quarter makes the database.
        #expect(try await cli.run(["checkin", "--date", "2027-03-01", "--status", "remote", "--today", "2027-04-01"]).status == 0)
        let show = try await cli.run(["config", "show"])
        #expect(show.status == 0 && show.stdout.contains("round = 'period'"), "\(show.stdout)\(show.stderr)")
        let figures = try await Self.report(cli, "2027-04-01")
        #expect(figures["required"] as? Int == 39, "\(figures)")
        #expect((figures["target"] as? [String: Any])?["round"] as? String == "period", "\(figures)")
        let text = try await cli.run(["report", "--today", "2027-04-01"])
        #expect(text.stdout.contains("3 office days a week (at most the week's workdays), averaged over the quarter"), "\(text.stdout)")
        #expect(!text.stdout.contains("(cap)") && !text.stdout.contains("(pro-rata)"), "a configuration value reached a reader: \(text.stdout)")
        // The default rounds each week: 40.
        try cli.writeConfig(Self.quarterly.replacingOccurrences(of: "round = \"period\"\n", with: ""))
        #expect(try await Self.report(cli, "2027-04-01")["required"] as? Int == 40)
        try cli.writeConfig(Self.quarterly.replacingOccurrences(of: "\"period\"", with: "\"month\""))
        let bad = try await cli.run(["config", "check"])
        #expect(bad.status != 0 && bad.stderr.contains("round = \"month\" is not one of \"week\", \"period\""), "\(bad.stderr)")
    }

    /// `[policy] starts`: read, shown, and a period before it has no target.
    @Test func theRulesStart() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\nperiod = \"month\"\nstarts = \"2026-11-18\"\n")
        #expect(try await cli.run(["checkin", "--date", "2026-10-05", "--status", "office", "--today", "2026-11-20"]).status == 0)
        let show = try await cli.run(["config", "show"])
        #expect(show.stdout.contains("starts = '2026-11-18'"), "\(show.stdout)")
        let november = try await Self.report(cli, "2026-11-20")
        #expect((november["period"] as? [String: Any])?["start"] as? String == "2026-11-18", "\(november)")
        // 60 % of Wed 18 – Mon 30 Nov (9 weekdays): ceil(5.4) = 6.
        #expect(november["required"] as? Int == 6 && november["eligible"] as? Int == 9, "\(november)")
        let october = try await Self.report(cli, "2026-11-20", ["--period", "previous"])
        #expect(october["status"] as? String == "not_started" && october["required"] as? Int == 0
                && october["office"] as? Int == 1, "\(october)")
        let text = try await cli.run(["report", "--period", "previous", "--today", "2026-11-20"])
        #expect(text.stdout.contains("Status: not started") && text.stdout.contains("The rule runs from 2026-11-18; this period has no target."),
                "\(text.stdout)")
        let status = try await cli.run(["status", "--today", "2026-10-20"])
        #expect(status.stdout.contains("before the rule, which runs from 2026-11-18."), "\(status.stdout)\(status.stderr)")
        try cli.writeConfig("[policy]\nstarts = \"2026-02-30\"\nmin_hour = 4\nday_starts_at = \"13:00\"\n")
        let bad = try await cli.run(["config", "check"])
        #expect(bad.status != 0 && bad.stderr.contains("starts must be a date written YYYY-MM-DD"), "\(bad.stderr)")
        #expect(bad.stderr.contains("unknown key \"min_hour\" in [policy]; did you mean \"min_hours\"?"), "\(bad.stderr)")
        // The day-start range as it is enforced.
        #expect(bad.stderr.contains("a night shift's day starts between \"00:00\" and \"11:59\""), "\(bad.stderr)")
    }

    /// Plans need you (docs/policy.md): an office day recorded for next
    /// Thursday is no attendance on the day until an arrival confirms it.
    @Test func aPlanCountsOnlyOnceConfirmed() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\nperiod = \"week\"\n")
        for date in ["2026-11-19", "2026-11-20"] {
            #expect(try await cli.run(["checkin", "--date", date, "--status", "office", "--today", "2026-11-16"]).status == 0)
        }
        let before = try await Self.report(cli, "2026-11-18")
        #expect(before["office"] as? Int == 0 && before["planned_office"] as? Int == 2, "\(before)")
        // Thursday: the NFC tap confirms; Friday nobody came.
        let tap = try await cli.run(["event", "--source", "nfc", "--rule", "hq", "--at", "2026-11-19T08:52:00Z", "--today", "2026-11-19"])
        #expect(tap.status == 0, "\(tap.stderr)")
        let after = try await Self.report(cli, "2026-11-23", ["--period", "previous"])
        #expect(after["office"] as? Int == 1 && after["planned_office"] as? Int == 0 && after["unrecorded"] as? Int == 4, "\(after)")
        let confirmed = try await cli.run(["explain", "2026-11-19", "--today", "2026-11-23"])
        // "planned on" is the day it was written, by this machine's clock (not --today).
        #expect(confirmed.stdout.contains("— planned on ") && confirmed.stdout.contains("; confirmed by nfc at 08:52"), "\(confirmed.stdout)")
        let missed = try await cli.run(["explain", "2026-11-20", "--today", "2026-11-23"])
        #expect(missed.stdout.contains("; not confirmed") && missed.stdout.contains("Resolved: no status."),
                "\(missed.stdout)")
        // Vacation recorded in advance stands.
        #expect(try await cli.run(["checkin", "--date", "2026-11-27", "--status", "vacation", "--today", "2026-11-16"]).status == 0)
        let later = try await Self.report(cli, "2026-11-30", ["--period", "previous"])
        #expect(later["excused"] as? Int == 1, "\(later)")
    }

    /// Catch-up: the period's past workdays with no record, three with the
    /// command that settles each, then how many more; `days --missing` all.
    @Test func whatToCatchUp() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\nperiod = \"month\"\n")
        // November 2026 seen on Wed 11 Nov: Mon 2 – Tue 10 are 7 past workdays; 2 recorded, 1 excused.
        for (date, status) in [("2026-11-02", "office"), ("2026-11-03", "remote"), ("2026-11-04", "sick")] {
            #expect(try await cli.run(["checkin", "--date", date, "--status", status, "--today", "2026-11-11"]).status == 0)
        }
        let status = try await cli.run(["status", "--today", "2026-11-11"])
        #expect(status.stdout.contains("4 past workdays have no record:\n  2026-11-05: `deskdays checkin --date 2026-11-05` (or --status remote)\n"
                                       + "  2026-11-06: `deskdays checkin --date 2026-11-06` (or --status remote)\n"
                                       + "  2026-11-09: `deskdays checkin --date 2026-11-09` (or --status remote)\n"
                                       + "  and 1 more (`deskdays days --missing`)"), "\(status.stdout)")
        let json = try await cli.run(["status", "--format", "json", "--today", "2026-11-11"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["missing"] as? [String] == ["2026-11-05", "2026-11-06", "2026-11-09", "2026-11-10"], "\(json.stdout)")
        let days = try await cli.run(["days", "--missing", "--json", "--today", "2026-11-11"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]])
        #expect(rows.compactMap { $0["date"] as? String } == ["2026-11-05", "2026-11-06", "2026-11-09", "2026-11-10"], "\(days.stdout)")
        // Recorded: no longer listed.
        #expect(try await cli.run(["checkin", "--date", "2026-11-05", "--status", "remote", "--today", "2026-11-11"]).status == 0)
        let after = try await cli.run(["status", "--today", "2026-11-11"])
        #expect(after.stdout.contains("3 past workdays have no record:") && !after.stdout.contains("and 1 more"), "\(after.stdout)")
    }

    /// The catch-up lines are sentences: the date as the locale writes it,
    /// the command to type as it takes it (docs/cli.md "Languages").
    @Test(.enabled(if: Catalogs.available, "msgfmt not installed: apt-get install gettext"))
    func catchUpDatesInTheReadersWords() async throws {
        let catalogs = try await Catalogs.compiled(["de"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\nperiod = \"month\"\n")
        #expect(try await cli.run(["checkin", "--date", "2026-11-03", "--status", "remote", "--today", "2026-11-04"]).status == 0)
        let status = try await cli.run(["status", "--today", "2026-11-04"],
                                       environment: ["LC_ALL": "", "LANGUAGE": "", "LANG": "de_DE.UTF-8", "DESKDAYS_LOCALEDIR": catalogs.path])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("  2. Nov. 2026: `deskdays checkin --date 2026-11-02`"), "\(status.stdout)")
        #expect(!status.stdout.contains("  2026-11-02:"), "\(status.stdout)")
    }
}
