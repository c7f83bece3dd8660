import Foundation
import Testing

/// `deskdays reconcile` against three shapes of employer export written
/// here, with planted disagreements; `event --leave`, `days --json` time on
/// site with a night shift; `evidence` from the command line.
@Suite struct ReconcileTests {
    static let config = """
    [policy]
    timezone = "Europe/London"
    period = "month"
    day_starts_at = "04:00"
    min_hours = 4

    """

    /// March 2026 up to Fri the 20th (GMT): office on the 9th, 10th and 16th
    /// (08:52–17:40), a short NFC day on the 17th, a night shift on the 18th
    /// (22:00 to 03:30, with a 02:00 tap), a manual office day on the 13th
    /// with a note, remote on the 19th.
    static func prepare(_ cli: CLIRunner) async throws {
        try cli.writeConfig(config)
        let socket = cli.folder.appendingPathComponent("no-agent.sock").path
        let events: [[String]] = [
            ["external", "2026-03-09T09:00:00Z"], ["external", "2026-03-09T17:00:00Z", "leave"],
            ["external", "2026-03-10T09:00:00Z"], ["external", "2026-03-10T17:00:00Z", "leave"],
            ["nfc", "2026-03-16T08:52:00Z"], ["wifi", "2026-03-16T08:55:00Z"], ["wifi", "2026-03-16T17:40:00Z", "leave"],
            ["nfc", "2026-03-17T09:00:00Z"],
            ["gps", "2026-03-18T22:00:00Z"], ["nfc", "2026-03-19T02:00:00Z"], ["gps", "2026-03-19T03:30:00Z", "leave"],
        ]
        for event in events {
            var arguments = ["event", "--source", event[0], "--at", event[1], "--rule", "secret-rule", "--socket", socket]
            if event.count == 3 { arguments.append("--leave") }
            let result = try await cli.run(arguments, environment: ["DESKDAYS_TODAY": "2026-03-20"])
            try #require(result.status == 0, "\(arguments): \(result.stderr)")
            if event.count == 3 { #expect(result.stdout.contains("departure")) }
        }
        for (date, status, note) in [("2026-03-13", "office", "visitor book at reception"), ("2026-03-19", "remote", "")] {
            var arguments = ["checkin", "--date", date, "--status", status]
            if !note.isEmpty { arguments += ["--note", note] }
            try #require(try await cli.run(arguments, environment: ["DESKDAYS_TODAY": "2026-03-20"]).status == 0)
        }
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func reconcile(_ cli: CLIRunner, _ csv: String, _ extra: [String] = [], json: Bool = true) async throws -> CLIRunner.Result {
        let file = cli.folder.appendingPathComponent("employer-\(UUID().uuidString).csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        return try await cli.run(["reconcile", file.path] + extra + (json ? ["--json"] : []), environment: ["DESKDAYS_TODAY": "2026-03-20"])
    }

    /// The disagreements as "date employer status".
    func disagreements(_ output: [String: Any]) -> [String] {
        (output["days"] as? [[String: Any]] ?? []).map { day in
            let ours = day["ours"] as? [String: Any] ?? [:]
            return "\(day["date"] as? String ?? "?") \(day["employer"] as? String ?? "?") \(ours["status"] as? String ?? "-")"
        }
    }

    func summary(_ output: [String: Any]) -> [Int] {
        let summary = output["summary"] as? [String: Any] ?? [:]
        return ["agree", "employer_only", "ours_only"].map { summary[$0] as? Int ?? -1 }
    }

    @Test func timeOnSiteWithANightShift() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await Self.prepare(cli)
        let days = try await cli.run(["days", "--from", "2026-03-16", "--to", "2026-03-19", "--json"], environment: ["DESKDAYS_TODAY": "2026-03-20"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]])
        func row(_ index: Int) -> [String] {
            let day = list[index]
            return [day["status"] as? String ?? "-", day["first_seen"] as? String ?? "-", day["last_seen"] as? String ?? "-",
                    (day["hours"] as? Double).map { String($0) } ?? "-", (day["sources"] as? [String] ?? []).joined(separator: ",")]
        }
        #expect(row(0) == ["office", "08:52", "17:40", "8.8", "nfc,wifi"])
        // One tap is no time on site: short of 4 hours, no status.
        #expect(row(1) == ["-", "09:00", "09:00", "0.0", "nfc"])
        // The night shift and its 02:00 tap are one day, the 18th.
        #expect(row(2) == ["office", "22:00", "03:30", "5.5", "nfc,gps"])
        #expect(row(3) == ["remote", "-", "-", "-", "manual"])
        let report = try Self.json(try await cli.run(["report", "--json"], environment: ["DESKDAYS_TODAY": "2026-03-20"]).stdout)
        #expect(report["short_days"] as? Int == 1)
        let explain = try await cli.run(["explain", "2026-03-18"], environment: ["DESKDAYS_TODAY": "2026-03-20"])
        #expect(explain.stdout.contains("Time on site: 22:00–03:30, 5.5 h"), "\(explain.stdout)")
        #expect(explain.stdout.contains("first arrival 22:00 and left 03:30"), "\(explain.stdout)")
    }

    /// One row per swipe, with times: the 02:10 swipe belongs to the night before.
    @Test func perSwipeExport() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await Self.prepare(cli)
        let csv = """
        Employee,Swipe time,Door
        E1,2026-03-09 08:58:10,Main
        E1,2026-03-09 17:02:44,Main
        E1,2026-03-10 09:01,Main
        E1,2026-03-16 08:50:11,Main
        E1,2026-03-16 17:41:02,Main
        E1,2026-03-17 09:00:00,Main
        E1,2026-03-18 21:55:00,Side
        E1,2026-03-19 02:10:00,Side

        """
        let result = try await reconcile(cli, csv)
        #expect(result.status == 0, "\(result.stderr)")
        let output = try Self.json(result.stdout)
        #expect(disagreements(output) == ["2026-03-13 absent office", "2026-03-17 in -"])
        #expect(summary(output) == [13, 1, 1])
        let days = try #require(output["days"] as? [[String: Any]])
        let ours13 = try #require(days[0]["ours"] as? [String: Any])
        #expect(ours13["origin"] as? String == "manual")
        #expect(ours13["note"] as? String == "visitor book at reception")
        #expect(ours13["first_seen"] is NSNull)
        let ours17 = try #require(days[1]["ours"] as? [String: Any])
        #expect(ours17["sources"] as? [String] == ["nfc"])
        #expect(ours17["first_seen"] as? String == "09:00")
        #expect(ours17["last_seen"] as? String == "09:00")
        #expect(ours17["status"] is NSNull)

        let text = try await reconcile(cli, csv, json: false)
        #expect(text.status == 0)
        #expect(text.stdout.contains("13 days agree, 1 only the employer has in, 1 only DeskDays has in"), "\(text.stdout)")
        #expect(text.stdout.contains("2026-03-13 Fri  employer: absent  DeskDays: office (manual) — \"visitor book at reception\""),
                "\(text.stdout)")
        #expect(text.stdout.contains("2026-03-17 Tue  employer: in"))
        #expect(!text.stdout.contains("2026-03-16 Mon"), "agreements are only counted")
        #expect(!text.stdout.contains("secret-rule") && !result.stdout.contains("secret-rule"))
    }

    /// One row per day, dates only, with a planted extra day (the 19th, remote for us).
    @Test func perDayExport() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await Self.prepare(cli)
        let result = try await reconcile(cli, """
        Day,Status
        2026-03-09,Present
        2026-03-10,Present
        2026-03-16,Present
        2026-03-17,Present
        2026-03-18,Present
        2026-03-19,Present

        """)
        #expect(result.status == 0, "\(result.stderr)")
        let output = try Self.json(result.stdout)
        #expect(disagreements(output) == ["2026-03-13 absent office", "2026-03-17 in -", "2026-03-19 in remote"])
        #expect(summary(output) == [12, 2, 1])
        // A narrower range: only the week of the 16th.
        let week = try Self.json(try await reconcile(cli, "Day\n2026-03-16\n2026-03-17\n", ["--from", "2026-03-16", "--to", "2026-03-20"]).stdout)
        #expect(disagreements(week) == ["2026-03-17 in -", "2026-03-18 absent office"])
        #expect(summary(week) == [3, 1, 1])
        let narrow = try await reconcile(cli, "Day\n2026-03-09\n2026-03-16\n2026-03-17\n", ["--from", "2026-03-16"], json: false)
        #expect(narrow.stdout.contains("The file also has 1 date outside the range (2026-03-09 to 2026-03-09)"), "\(narrow.stdout)")
    }

    /// The date column under another name, with offsets: found with --date-column.
    @Test func namedDateColumnWithOffsets() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await Self.prepare(cli)
        let csv = """
        Badge,Zugang (UTC)
        1,2026-03-09T09:00:00Z
        1,2026-03-10T10:00:00+01:00
        1,2026-03-17T09:00:00Z
        1,2026-03-19T03:10:00+01:00

        """
        let refused = try await reconcile(cli, csv)
        #expect(refused.status == 1)
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(refused.stderr.contains(":1: no date column") && refused.stderr.contains("--date-column"), "\(refused.stderr)")
        let result = try await reconcile(cli, csv, ["--date-column", "zugang (utc)"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try Self.json(result.stdout)
        // 02:10 UTC on the 19th is the night shift of the 18th; the 16th is missing from this export.
        #expect(disagreements(output) == ["2026-03-13 absent office", "2026-03-16 absent office", "2026-03-17 in -"])
        #expect(summary(output) == [12, 1, 2])
    }

    @Test func badFilesAreOneSentenceNamingTheLine() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await Self.prepare(cli)
        for (csv, line, words) in [("Date\n2026-03-09\n14/03/2026\n", ":3:", "is not a date"),
                                   ("Date,Door\n2026-03-09,A\n,B\n", ":3:", "is empty"),
                                   ("", ":1:", "empty"),
                                   ("Date\n2026-03-09 25:00\n", ":2:", "is not a date")] {
            let result = try await reconcile(cli, csv)
            #expect(result.status == 1, "\(csv)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(line) && result.stderr.contains(words), "\(result.stderr)")
        }
        let missing = try await cli.run(["reconcile", cli.folder.appendingPathComponent("nope.csv").path])
        #expect(missing.status == 1 && missing.stderr.contains("Cannot read"))
    }

    @Test func evidenceFromTheCommandLine() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await Self.prepare(cli)
        let clear = try await cli.run(["clear", "--date", "2026-03-10", "--origin", "automatic"], environment: ["DESKDAYS_TODAY": "2026-03-20"])
        #expect(clear.status == 0, "\(clear.stderr)")
        let out = cli.folder.appendingPathComponent("evidence.html").path
        let result = try await cli.run(["evidence", "--period", "2026-03-05", "--out", out], environment: ["DESKDAYS_TODAY": "2026-03-20"])
        #expect(result.status == 0, "\(result.stderr)")
        let digest = try #require(result.stdout.split(separator: "\n").last?.split(separator: " ").last.map(String.init))
        #expect(digest.count == 64)
        let page = try String(contentsOfFile: out, encoding: .utf8)
        #expect(page.contains("<code>\(digest)</code>"))
        #expect(page.contains("<td>2026-03-18</td><td>wed</td><td>workday</td><td>office</td><td>automatic</td><td class=\"text\"><span>nfc 02:00</span>; <span>gps 22:00–03:30</span></td>"),
                "\(page)")
        #expect(page.contains("removed: external check-in"))
        #expect(page.contains("visitor book at reception"))
        #expect(!page.contains("secret-rule"))
        let attributes = try FileManager.default.attributesOfItem(atPath: out)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // The same data gives the same digest.
        let again = try await cli.run(["evidence", "--period", "2026-03-05", "--out", out], environment: ["DESKDAYS_TODAY": "2026-03-20"])
        #expect(again.stdout.hasSuffix(digest + "\n"))
        let bad = try await cli.run(["evidence", "--period", "someday", "--out", out])
        #expect(bad.status == 1 && bad.stderr.split(separator: "\n").count == 1)
    }
}
