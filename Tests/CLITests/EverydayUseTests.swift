import Foundation
import Spawn
import TestSupport
import Testing

/// docs/cli.md "Everyday use": a range fills, a date
/// replaces; a weekly rule shows this week.
@Suite struct EverydayUseTests {
    /// The README's first day: an import, then a range by hand. The range
    /// fills the dates without a record and says what it kept; the imported
    /// office days stay office. `--overwrite` replaces them; `--date` replaces.
    @Test func aRangeFillsAndSaysWhatItKept() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let today = ["--today", "2026-10-20"]
        let file = cli.folder.appendingPathComponent("zeit.csv").path
        try "date,status\n2026-10-01,office\n2026-10-02,office\n2026-10-06,office\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try await cli.run(["import", file] + today).status == 0)
        #expect(try await cli.run(["event", "--source", "wifi", "--rule", "hq", "--at", "2026-10-07T08:00:00Z"] + today).status == 0)
        // The fallback is no record: the range replaces it.
        let fill = try await cli.run(["checkin", "--from", "2026-10-01", "--to", "2026-10-09", "--status", "remote"] + today)
        #expect(fill.status == 0, "\(fill.stderr)")
        #expect(fill.stdout.contains("Recorded remote for 3 workdays, 2026-10-01 to 2026-10-09.")
                && fill.stdout.contains("Kept 4 dates that already have a record: 1 automatic and 3 imported; --overwrite replaces them."), "\(fill.stdout)")
        let days = try await cli.run(["days", "--from", "2026-10-01", "--to", "2026-10-09"] + today)
        let statuses = days.stdout.split(separator: "\n").map { $0.split(separator: " ").dropFirst(2).first.map(String.init) ?? "" }
        #expect(statuses == ["office", "office", "", "", "remote", "office", "office", "remote", "remote"], "\(days.stdout)")
        // Again: nothing left to fill.
        let again = try await cli.run(["checkin", "--from", "2026-10-01", "--to", "2026-10-09", "--status", "remote"] + today)
        #expect(again.status == 0 && again.stdout.contains("Nothing recorded: all 7 workdays from 2026-10-01 to 2026-10-09 already have a record (3 manual, 1 automatic, and 3 imported)"),
                "\(again.stdout)")
        // --overwrite records every workday.
        let all = try await cli.run(["checkin", "--from", "2026-10-01", "--to", "2026-10-09", "--status", "sick", "--overwrite"] + today)
        #expect(all.stdout.contains("Recorded sick for 7 workdays") && !all.stdout.contains("Kept"), "\(all.stdout)")
        let bad = try await cli.run(["checkin", "--date", "2026-10-01", "--overwrite"] + today)
        #expect(bad.status != 0 && bad.stderr.contains("--overwrite goes with --from and --to"), "\(bad.stderr)")
    }

    /// "3 days a week": `status`, its JSON, `report --json` and the waybar
    /// tooltip say where this week stands; another rule has no `week`.
    /// The streak never contradicts the weeks table (docs/policy.md "Streaks"):
    /// for each weekly rule, with a week that starts in one quarter and ends
    /// in the next, `streak_weeks` is the run of met rows that ends with the
    /// last week over (or this week when it is met already).
    @Test(arguments: ["{ kind = \"days_per_week\", value = 2 }", "{ kind = \"compliant_weeks\", value = 2, weeks = 8 }"])
    func theStreakFollowsTheWeeksTable(target: String) async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\ntarget = \(target)\n")
        // Two a week from 14 September but one in the week of 21 September
        // (the run starts after it); the week of 28 September (Q3 Mon–Wed,
        // Q4 Thu–Fri) on Tuesday and Thursday.
        for date in ["2026-09-14", "2026-09-15", "2026-09-21", "2026-09-29", "2026-10-01",
                     "2026-10-05", "2026-10-06", "2026-10-12", "2026-10-13"] {
            #expect(try await cli.run(["checkin", "--date", date, "--today", "2026-10-16"]).status == 0)
        }
        for today in ["2026-10-14", "2026-10-16", "2026-10-19"] {
            // The tables on screen: the previous quarter's, then this one's (a week in both is this one's row).
            var table: [String: [String: Any]] = [:]
            for period in ["previous", "current"] {
                let result = try await cli.run(["report", "--json", "--period", period, "--today", today])
                let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
                for week in try #require(json["weeks"] as? [[String: Any]]) { table[week["start"] as! String] = week }
            }
            let result = try await cli.run(["report", "--json", "--today", today])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let weeks = table.keys.sorted().map { table[$0]! }
            // The table's run: met rows backwards from the last week over, or this week when met.
            var run = 0
            for week in weeks.reversed() {
                let start = try #require(week["start"] as? String)
                let end = LocalDateText.adding(6, to: start)
                let met = week["met"] as? Bool == true
                if start > today || (end >= today && !met) { continue } // not over, not yet met: neither counts nor breaks
                guard met else { break }
                run += 1
            }
            #expect(run == 3, "\(today): \(weeks)")
            #expect(json["streak_weeks"] as? Int == run, "\(target) on \(today): streak \(json["streak_weeks"] ?? "nil"), table \(weeks)")
        }
    }

    /// `enable` and `disable` change one value and keep every other byte;
    /// `enable` refuses a method with no rule, naming `enroll`.
    @Test func enableAndDisableEditOneValue() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let original = """
        # My settings, written by hand.
        [policy]
        timezone = "UTC"   # the office's zone

        [nfc]
        enabled = false    # off while the reader is away
        # the desk
        tags = [{ name = "desk", uid = "04A1B2C3" }]

        [wired] # docking station at the office
        networks = [{ name = "dock", gateway_mac = ["00:11:22:33:44:55"] }]
        """
        try cli.writeConfig(original)
        let on = try await cli.run(["enable", "nfc"])
        #expect(on.status == 0 && on.stdout.contains("nfc check-ins are on"), "\(on.stdout)\(on.stderr)")
        let edited = try String(contentsOfFile: cli.config, encoding: .utf8)
        #expect(edited == original.replacingOccurrences(of: "enabled = false    #", with: "enabled = true    #"), "\(edited)")
        #expect(try await cli.run(["enable", "nfc"]).stdout.contains("already on"))
        // A section without the key gets it right after its header.
        #expect(try await cli.run(["enable", "wired"]).status == 0)
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8).contains("[wired] # docking station at the office\nenabled = true\nnetworks"))
        #expect(try await cli.run(["disable", "nfc"]).status == 0)
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8).contains("enabled = false    # off while the reader is away"))
        let show = try await cli.run(["config", "check"])
        #expect(show.status == 0, "\(show.stdout)\(show.stderr)")
        // No rule yet: refused, nothing written.
        let before = try String(contentsOfFile: cli.config, encoding: .utf8)
        let refused = try await cli.run(["enable", "qr"])
        #expect(refused.status == 1 && refused.stderr.contains("qr has no rule yet: run `deskdays enroll qr` first"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8) == before)
        let unknown = try await cli.run(["enable", "bluetooth"])
        #expect(unknown.status == 1 && unknown.stderr.contains("bluetooth is not a check-in method; use one of nfc, gps, qr, wifi, wired"))
        #expect(try await cli.run(["disable", "gps"]).stdout.contains("already off"))
    }

    /// `export --format json` then `import` into an empty database gives the
    /// same `days --json`: origins, sources, times and notes kept (three
    /// short days stay short, an import stays an import under a manual record).
    @Test func anExportImportsBackAsItWas() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\nmin_hours = 4\n")
        let today = ["--today", "2026-11-20"]
        let csv = cli.folder.appendingPathComponent("clock.csv").path
        try "date,status\n2026-11-09,office\n2026-11-10,office\n2026-11-13,vacation\n".write(toFile: csv, atomically: true, encoding: .utf8)
        for arguments in [["import", csv], ["checkin", "--date", "2026-11-10", "--status", "remote", "--note", "dentist"],
                          ["event", "--source", "nfc", "--at", "2026-11-02T08:00:00Z"],
                          ["event", "--source", "wifi", "--at", "2026-11-03T08:00:00Z"],
                          ["event", "--source", "wifi", "--at", "2026-11-03T10:30:00Z", "--leave"],
                          ["event", "--source", "external", "--at", "2026-11-04T09:00:00Z"],
                          ["event", "--source", "wifi", "--at", "2026-11-05T07:45:00.250Z"],
                          ["event", "--source", "wifi", "--at", "2026-11-05T16:10:00Z", "--leave"],
                          ["event", "--source", "gps", "--at", "2026-11-05T08:05:00Z"]] {
            let result = try await cli.run(arguments + today)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let range = ["days", "--json", "--from", "2026-11-01", "--to", "2026-11-20"] + today
        let before = try await cli.run(range).stdout
        let exported = cli.folder.appendingPathComponent("export.json").path
        try (try await cli.run(["export", "--format", "json"] + today).stdout).write(toFile: exported, atomically: true, encoding: .utf8)

        let fresh = try CLIRunner()
        defer { fresh.cleanup() }
        try fresh.writeConfig("[policy]\ntimezone = \"UTC\"\nmin_hours = 4\n")
        let imported = try await fresh.run(["import", exported] + today)
        #expect(imported.status == 0 && imported.stdout.contains("as they were exported"), "\(imported.stdout)\(imported.stderr)")
        let after = try await fresh.run(range).stdout
        #expect(after == before, "before:\n\(before)\nafter:\n\(after)")
        let days = try await fresh.run(["days", "--from", "2026-11-02", "--to", "2026-11-05"] + today).stdout
        #expect(days.components(separatedBy: "short of 4 h").count == 4, "three short days: \(days)")
        #expect(try await fresh.run(["explain", "2026-11-10"] + today).stdout.contains("import"))
    }

    @Test func aWeeklyRuleShowsThisWeek() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntarget = { kind = \"days_per_week\", value = 3 }\n")
        let today = ["--today", "2026-11-18"]
        #expect(try await cli.run(["checkin", "--date", "2026-11-16"] + today).status == 0)
        let text = try await cli.run(["status"] + today)
        #expect(text.stdout.contains("This week: 1 of 3 office days."), "\(text.stdout)\(text.stderr)")
        for arguments in [["status", "--format", "json"], ["report", "--json"]] {
            let json = try await cli.run(arguments + today)
            let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
            let week = object?["week"] as? [String: Any]
            #expect(week?["start"] as? String == "2026-11-16" && week?["office"] as? Int == 1 && week?["required"] as? Int == 3
                    && week?["met"] as? Bool == false, "\(arguments): \(json.stdout)")
        }
        let waybar = try await cli.run(["status", "--format", "waybar"] + today)
        #expect(waybar.stdout.contains("This week: 1 of 3 office days."), "\(waybar.stdout)")
        try cli.writeConfig("[policy]\ntarget = { kind = \"percent\", value = 60 }\n")
        let percent = try await cli.run(["report", "--json"] + today)
        #expect(!percent.stdout.contains("\"week\""), "\(percent.stdout)")
    }

    /// Smaller things a person reads: `days` says "manual", not "manual:
    /// manual"; `report --html FILE` says where it wrote; the text report
    /// calls a week not over yet so, not "not met".
    @Test func smallWordsSayWhatHappened() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntarget = { kind = \"days_per_week\", value = 2 }\n")
        let today = ["--today", "2026-11-18"]
        #expect(try await cli.run(["checkin", "--date", "2026-11-16"] + today).status == 0)
        let days = try await cli.run(["days", "--from", "2026-11-16", "--to", "2026-11-16"] + today)
        #expect(days.stdout.contains("manual") && !days.stdout.contains("manual: manual"), "\(days.stdout)")
        let page = cli.folder.appendingPathComponent("report.html").path
        let html = try await cli.run(["report", "--html", page] + today)
        #expect(html.status == 0 && html.stdout.contains("Wrote \(page): Q4 2026."), "\(html.stdout)\(html.stderr)")
        let json = try await cli.run(["report", "--json", "--html", page] + today)
        #expect(json.stderr.contains("Wrote \(page)") && !json.stdout.contains("Wrote"), "\(json.stderr)")
        let text = try await cli.run(["report"] + today)
        let weeks = text.stdout.split(separator: "\n").filter { $0.hasPrefix("  2026-") }
        #expect(weeks.first { $0.contains("2026-11-16") }?.hasSuffix("not over yet") == true, "\(text.stdout)")
        #expect(weeks.first { $0.contains("2026-12-21") }?.hasSuffix("not over yet") == true, "\(text.stdout)")
        #expect(weeks.first { $0.contains("2026-11-09") }?.hasSuffix("not met") == true, "\(text.stdout)")
    }

    /// `config check` warns, exit 0, of a rule that cannot work as written.
    @Test func configCheckWarnsOfARuleThatCannotWork() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("""
            [policy]
            min_hours = 4
            target = { kind = "days_per_week", value = 6 }

            [nfc]
            enabled = true

            [[nfc.tags]]
            name = "desk"
            uid = "04A2246A2F6E80"
            """)
        let check = try await cli.run(["config", "check"])
        #expect(check.status == 0 && check.stdout.contains("warning: the rule asks 6 office days a week, but a week has 5 workdays")
                && check.stdout.contains("warning: min_hours is set, but every enabled method (nfc) sees arrivals only")
                && check.stdout.hasSuffix("OK\n"), "\(check.stdout)\(check.stderr)")
        try cli.writeConfig("[policy]\ntarget = { kind = \"days_per_week\", value = 3 }\n")
        #expect(try await cli.run(["config", "check"]).stdout.contains("warning") == false)
    }

    /// A mistyped `--status` names the nearest status; one that is nowhere
    /// near lists them. Nothing is written either way.
    @Test func aMistypedStatusSaysDidYouMean() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let typo = try await cli.run(["checkin", "--status", "ofice"])
        #expect(typo.status != 0 && typo.stderr.contains("\"ofice\" is not a status; did you mean office?"), "\(typo.stderr)")
        let import_ = try await cli.run(["import", "/nonexistent.csv", "--status", "remtoe"])
        #expect(import_.status != 0 && import_.stderr.contains("did you mean remote?"), "\(import_.stderr)")
        let far = try await cli.run(["checkin", "--status", "banana"])
        #expect(far.status != 0 && !far.stderr.contains("did you mean") && far.stderr.contains("office, travel, remote"), "\(far.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.database))
    }

    /// `calendar` shows the whole current period, the months ahead too (a
    /// vacation planned in December is there); `--from` and `--months` any months.
    @Test func theCalendarShowsTheWholePeriod() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let today = ["--today", "2026-11-18"]
        #expect(try await cli.run(["checkin", "--from", "2026-12-21", "--to", "2026-12-24", "--status", "vacation"] + today).status == 0)
        let period = try await cli.run(["calendar"] + today)
        for month in ["October 2026", "November 2026", "December 2026"] {
            #expect(period.stdout.contains(month), "\(month): \(period.stdout)")
        }
        #expect(!period.stdout.contains("January 2027"), "\(period.stdout)")
        let asked = try await cli.run(["calendar", "--from", "2027-01", "--months", "2"] + today)
        #expect(asked.stdout.contains("January 2027") && asked.stdout.contains("February 2027") && !asked.stdout.contains("March 2027"),
                "\(asked.stdout)")
        let bad = try await cli.run(["calendar", "--from", "2027-13"] + today)
        #expect(bad.status == 1 && bad.stderr.contains("--from 2027-13 is not a month"), "\(bad.stderr)")
    }

    /// A JSON list of other objects is refused in one sentence (exit 1),
    /// not imported as "0 records"; an export's days without a record
    /// (`"status": null`) are still skipped quietly.
    @Test func aJSONListOfOtherObjectsIsRefused() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let other = cli.folder.appendingPathComponent("other.json").path
        try #"[{"date": "2026-11-16", "state": "office"}]"#.write(toFile: other, atomically: true, encoding: .utf8)
        let refused = try await cli.run(["import", other])
        #expect(refused.status == 1 && refused.stderr.contains("no entry has a \"status\"") && !refused.stdout.contains("Imported"),
                "\(refused.stdout)\(refused.stderr)")
        let export = cli.folder.appendingPathComponent("export.json").path
        try #"[{"date": "2026-11-16", "status": null, "workday": true}, {"date": "2026-11-17", "status": "office"}]"#
            .write(toFile: export, atomically: true, encoding: .utf8)
        let imported = try await cli.run(["import", export])
        #expect(imported.status == 0 && imported.stdout.contains("Imported 1 record"), "\(imported.stdout)\(imported.stderr)")
    }
}

/// Date arithmetic on `YYYY-MM-DD` text for tests that read JSON.
enum LocalDateText {
    static func adding(_ days: Int, to text: String) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.string(from: formatter.date(from: text)!.addingTimeInterval(Double(days) * 86_400))
    }
}
