import Foundation
import Spawn
import TestSupport
import Testing

/// The small rough edges of daily use, each through the real CLI: what a
/// command says when it succeeds, and that it never suggests the wrong thing.
@Suite struct DailyEdgesTests {
    static func at(_ time: String) -> [String: String] { ["DESKDAYS_NOW": time] }
    static let none = ["--socket", "/nonexistent/deskdays.sock"]

    /// A presence that began on Monday and ended after midnight: Tuesday has
    /// only the departure, so `last_seen` is that departure and no time on site.
    @Test func aDateWithOnlyADepartureShowsItsLastSeen() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        #expect(try await cli.run(["event", "--source", "wifi", "--rule", "hq", "--at", "2026-11-16T20:00:00Z"] + Self.none,
                                  environment: Self.at("2026-11-16T20:00:00Z")).status == 0)
        let left = try await cli.run(["event", "--source", "wifi", "--rule", "hq", "--leave", "--at", "2026-11-17T01:30:00Z"] + Self.none,
                                     environment: Self.at("2026-11-17T02:00:00Z"))
        #expect(left.stdout.contains("Noted the departure (wifi) on 2026-11-17."), "\(left.stdout)\(left.stderr)")
        let days = try await cli.run(["days", "--from", "2026-11-17", "--to", "2026-11-17", "--json"], environment: Self.at("2026-11-18T12:00:00Z"))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first?["last_seen"] as? String == "01:30", "\(days.stdout)")
        #expect(rows.first?["first_seen"] is NSNull && rows.first?["hours"] is NSNull, "\(days.stdout)")
        let explain = try await cli.run(["explain", "2026-11-17"], environment: Self.at("2026-11-18T12:00:00Z"))
        #expect(explain.stdout.contains("No arrival on this date: the last departure was at 01:30"), "\(explain.stdout)")
        #expect(!explain.stdout.contains("arrived on an earlier day"), "\(explain.stdout)")
    }

    /// A check-in on a date a manual record decides is stored, and the user is
    /// told that the record still decides the date (the day did not change).
    @Test func aCheckInUnderAManualRecordSaysTheRecordDecides() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let now = Self.at("2026-11-18T12:00:00Z")
        #expect(try await cli.run(["checkin", "--status", "remote"] + Self.none, environment: now).status == 0)
        let event = try await cli.run(["event", "--source", "nfc", "--at", "2026-11-18T11:00:00Z"] + Self.none, environment: now)
        #expect(event.status == 0)
        #expect(event.stdout.contains("Stored the check-in (nfc) of 2026-11-18."), "\(event.stdout)")
        #expect(event.stderr.contains("the manual record (remote) still decides 2026-11-18"), "\(event.stderr)")
        // Without a manual record nothing is added.
        let plain = try await cli.run(["event", "--source", "nfc", "--at", "2026-11-19T09:00:00Z"] + Self.none,
                                      environment: Self.at("2026-11-19T12:00:00Z"))
        #expect(plain.stderr.isEmpty, "\(plain.stderr)")
    }

    /// `status` suggests checking in only on a workday that has nothing yet.
    @Test func statusSuggestsACheckInOnlyWhereOneHelps() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        // A named database must exist: one remote day makes it.
        #expect(try await cli.run(["checkin", "--date", "2026-10-01", "--status", "remote"] + Self.none,
                                  environment: Self.at("2026-11-19T12:00:00Z")).status == 0)
        // Far behind late in the quarter: the hint on an empty Thursday…
        let thursday = try await cli.run(["status"], environment: Self.at("2026-11-19T12:00:00Z"))
        #expect(thursday.stdout.contains("Check in with `deskdays checkin`"), "\(thursday.stdout)")
        // …not on a Saturday (recorded or not), nor on a workday already recorded.
        #expect(try await cli.run(["checkin", "--date", "2026-11-21"] + Self.none, environment: Self.at("2026-11-21T12:00:00Z")).status == 0)
        let saturday = try await cli.run(["status"], environment: Self.at("2026-11-21T12:00:00Z"))
        #expect(saturday.status == 0 && !saturday.stdout.contains("Check in with"), "\(saturday.stdout)")
        #expect(try await cli.run(["checkin"] + Self.none, environment: Self.at("2026-11-19T12:00:00Z")).status == 0)
        let recorded = try await cli.run(["status"], environment: Self.at("2026-11-19T12:00:00Z"))
        #expect(!recorded.stdout.contains("Check in with"), "\(recorded.stdout)")
    }

    /// With `min_hours`, the text report says how many days fell short (as `report --json`'s `short_days`).
    @Test func theTextReportCountsShortDays() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\nmin_hours = 4\n")
        #expect(try await cli.run(["event", "--source", "wifi", "--rule", "hq", "--at", "2026-11-16T09:00:00Z"] + Self.none,
                                  environment: Self.at("2026-11-16T09:00:00Z")).status == 0)
        #expect(try await cli.run(["event", "--source", "wifi", "--rule", "hq", "--leave", "--at", "2026-11-16T10:00:00Z"] + Self.none,
                                  environment: Self.at("2026-11-16T10:00:00Z")).status == 0)
        let report = try await cli.run(["report"], environment: Self.at("2026-11-18T12:00:00Z"))
        #expect(report.stdout.contains("Short days (under 4 h on site): 1"), "\(report.stdout)")
    }

    @Test func chartSaysWhatItWrote() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        #expect(try await cli.run(["checkin", "--date", "2026-10-01"] + Self.none, environment: Self.at("2026-11-19T12:00:00Z")).status == 0)
        let out = cli.folder.appendingPathComponent("burndown.svg").path
        let chart = try await cli.run(["chart", "burndown", "--out", out], environment: Self.at("2026-11-19T12:00:00Z"))
        #expect(chart.status == 0 && chart.stdout == "Wrote \(out): Q4 2026.\n", "\(chart.stdout)\(chart.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    /// The root help's FILES and ENVIRONMENT lists fit 80 columns: no line
    /// wraps back to column 0 inside them.
    @Test func helpListsStayIndentedAt80Columns() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let help = try await cli.run(["--help"], environment: ["COLUMNS": "80"]).stdout
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "FILES"))
        let end = try #require(lines.firstIndex(of: "USAGE: deskdays <subcommand>"))
        for line in lines[start..<end] where !line.isEmpty && !["FILES", "ENVIRONMENT", "EXIT STATUS"].contains(line) {
            #expect(line.hasPrefix("  ") && line.count <= 80, "\(line)")
        }
    }
}
