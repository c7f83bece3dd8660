import Foundation
import Spawn
import TestSupport
import Testing

/// A departure needs an arrival (docs/policy.md "Time on site"): time on
/// site pairs each source's departure with that source's arrival on the
/// date. A lone departure (a phone's `leave`, another device's sign) is
/// shown by `explain` and adds nothing; once it turned 2.5 h into 5.0 h and
/// a short day into an office day.
@Suite struct TimeOnSiteCLITests {
    @Test func aLoneDepartureOfAnotherSourceAddsNoTime() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\nmin_hours = 4\ntimezone = \"UTC\"\n")
        let today = ["--today", "2026-11-18"]
        for (source, leave, at) in [("wifi", false, "08:00"), ("wifi", true, "10:30"), ("gps", true, "13:00")] {
            let event = try await cli.run(["event", "--source", source, "--rule", "hq", "--at", "2026-11-18T\(at):00Z"]
                                          + (leave ? ["--leave"] : []) + today)
            #expect(event.status == 0, "\(event.stderr)")
        }
        let days = try await cli.run(["days", "--from", "2026-11-18", "--to", "2026-11-18", "--json"] + today)
        let row = try #require((try JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(row["hours"] as? Double == 2.5 && row["last_seen"] as? String == "10:30", "\(days.stdout)")
        let explain = try await cli.run(["explain", "2026-11-18"] + today)
        #expect(explain.stdout.contains("Time on site: 08:00–10:30, 2.5 h.")
                && explain.stdout.contains("gps       left 13:00, with no arrival of its own that date: no time on site")
                && explain.stdout.contains("Shorter than min_hours = 4"), "\(explain.stdout)")
        // The long history's short days agree (the report reads them in bulk).
        let report = try await cli.run(["report", "--json"] + today)
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        #expect(figures["short_days"] as? Int == 0 && figures["office"] as? Int == 0, "today is not over: \(report.stdout)")
        let tomorrow = try await cli.run(["report", "--json", "--today", "2026-11-19"])
        let later = try #require(try JSONSerialization.jsonObject(with: Data(tomorrow.stdout.utf8)) as? [String: Any])
        #expect(later["short_days"] as? Int == 1 && later["office"] as? Int == 0, "\(tomorrow.stdout)")
    }
}
