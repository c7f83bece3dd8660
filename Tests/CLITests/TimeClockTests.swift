import Foundation
import Testing
import Spawn
import TestSupport

/// Time clocks (docs/cli.md `import`, "Time clocks"): a German export
/// `Datum;Kommen;Gehen` gives time on site through `day_starts_at`, a
/// night shift stays one day, `clear --origin import` takes it back, the
/// JSON export carries it to an empty database, and `reconcile` reads a
/// date-time's time instead of dropping it.
@Suite struct TimeClockTests {
    static let config = """
    [policy]
    timezone = "Europe/Berlin"
    day_starts_at = "04:00"
    min_hours = 4

    """
    /// 9 Nov: a short morning (3.6 h); 10 Nov: a full day; 11 Nov: not at
    /// work (empty cells); 12 Nov: a night shift ending at 02:29 on the 13th;
    /// 13 Nov: vacation, said by the remark column.
    static let export = """
    Datum;Kommen;Gehen;Bemerkung
    09.11.2026;08:33;12:10;
    10.11.2026;08:00;17:00:30;
    11.11.2026;;;
    12.11.2026;22:00;02:29;Nachtschicht
    13.11.2026;;;Urlaub

    """
    static let environment = ["DESKDAYS_TODAY": "2026-11-20"]

    func days(_ cli: CLIRunner) async throws -> [String: [String: Any]] {
        let result = try await cli.run(["days", "--json", "--from", "2026-11-09", "--to", "2026-11-13"], environment: Self.environment)
        try #require(result.status == 0, "\(result.stderr)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { ($0["date"] as! String, $0) })
    }

    @Test func aTimeClockExportGivesTimeOnSite() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let file = cli.folder.appendingPathComponent("zeiterfassung.csv")
        try Self.export.write(to: file, atomically: true, encoding: .utf8)
        let imported = try await cli.run(["import", file.path, "--in-column", "Kommen", "--out-column", "gehen",
                                          "--status-column", "Bemerkung"], environment: Self.environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("times of 3 days"), "\(imported.stdout)")
        #expect(imported.stdout.contains("Imported 1 record"), "the vacation row is a record: \(imported.stdout)")
        // A row with times is a check-in: its remark ("Nachtschicht", no status word) is not read as a status.
        #expect(imported.stderr.isEmpty, "\(imported.stderr)")

        var days = try await self.days(cli)
        #expect(days["2026-11-09"]?["status"] is NSNull, "3.6 h is short of min_hours 4")
        #expect(days["2026-11-09"]?["hours"] as? Double == 3.6)
        #expect(days["2026-11-09"]?["first_seen"] as? String == "08:33" && days["2026-11-09"]?["last_seen"] as? String == "12:10")
        #expect(days["2026-11-10"]?["status"] as? String == "office" && days["2026-11-10"]?["hours"] as? Double == 9)
        #expect(days["2026-11-10"]?["sources"] as? [String] == ["import"])
        #expect(days["2026-11-11"]?["status"] is NSNull && days["2026-11-11"]?["hours"] is NSNull)
        // The night shift is the 12th's: 22:00 to 02:29 through day_starts_at 04:00, 4.5 h.
        #expect(days["2026-11-12"]?["status"] as? String == "office" && days["2026-11-12"]?["hours"] as? Double == 4.5)
        #expect(days["2026-11-12"]?["last_seen"] as? String == "02:29")
        #expect(days["2026-11-13"]?["status"] as? String == "vacation" && days["2026-11-13"]?["origin"] as? String == "import")

        // Importing the same file again changes nothing.
        let again = try await cli.run(["import", file.path, "--in-column", "Kommen", "--out-column", "gehen",
                                       "--status-column", "Bemerkung"], environment: Self.environment)
        #expect(again.status == 0)
        let before = try await cli.run(["days", "--json", "--from", "2026-11-09", "--to", "2026-11-13"], environment: Self.environment)

        // The JSON export carries the times to an empty database.
        let exported = cli.folder.appendingPathComponent("export.json")
        let export = try await cli.run(["export", "--format", "json", "--from", "2026-11-01", "--to", "2026-11-30"], environment: Self.environment)
        #expect(export.status == 0, "\(export.stderr)")
        try export.stdout.write(to: exported, atomically: true, encoding: .utf8)
        let other = try CLIRunner()
        defer { other.cleanup() }
        try other.writeConfig(Self.config)
        let restored = try await other.run(["import", exported.path], environment: Self.environment)
        #expect(restored.status == 0, "\(restored.stderr)")
        let after = try await other.run(["days", "--json", "--from", "2026-11-09", "--to", "2026-11-13"], environment: Self.environment)
        #expect(after.stdout == before.stdout)

        // `clear --origin import` takes the time clock back, and leaves the others' entries.
        #expect(try await cli.run(["checkin", "--date", "2026-11-10", "--status", "remote"], environment: Self.environment).status == 0)
        let cleared = try await cli.run(["clear", "--from", "2026-11-09", "--to", "2026-11-13", "--origin", "import"],
                                        environment: Self.environment)
        #expect(cleared.status == 0, "\(cleared.stderr)")
        days = try await self.days(cli)
        #expect(days["2026-11-12"]?["status"] is NSNull && days["2026-11-12"]?["hours"] is NSNull)
        #expect(days["2026-11-13"]?["status"] is NSNull)
        #expect(days["2026-11-10"]?["status"] as? String == "remote", "the manual record stays")
    }

    @Test func aBadTimeNamesItsLineAndWritesNothing() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        #expect(try await cli.run(["checkin", "--date", "2026-11-02"], environment: Self.environment).status == 0)
        let file = cli.folder.appendingPathComponent("zeit.csv")
        try "Datum;Kommen;Gehen\n09.11.2026;08:33;12:10\n10.11.2026;8.00;17:00\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try await cli.run(["import", file.path, "--in-column", "Kommen", "--out-column", "Gehen"], environment: Self.environment)
        #expect(result.status == 1)
        #expect(result.stderr.contains("zeit.csv:3:") && result.stderr.contains("\"8.00\""), "\(result.stderr)")
        #expect(try await days(cli)["2026-11-09"]?["hours"] is NSNull, "nothing of the file is written")
        // A row stamped in the future is refused whole, too.
        try "Datum;Kommen;Gehen\n09.11.2026;08:33;12:10\n09.12.2026;08:00;17:00\n".write(to: file, atomically: true, encoding: .utf8)
        let ahead = try await cli.run(["import", file.path, "--in-column", "Kommen", "--out-column", "Gehen"],
                                      environment: ["DESKDAYS_NOW": "2026-11-20T12:00:00Z"])
        #expect(ahead.status == 1 && ahead.stderr.contains("zeit.csv:3:"), "\(ahead.stderr)")
        #expect(try await days(cli)["2026-11-09"]?["hours"] is NSNull)
    }

    /// `reconcile` with `--date-format "DD.MM.YYYY HH:mm"`: a swipe at 02:29
    /// is the night before's (no false dispute); with `--in-column` a row's
    /// arrival decides its day and a row without one is not "in".
    @Test func reconcileKeepsTheTimeOfADateTime() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let file = cli.folder.appendingPathComponent("zeiterfassung.csv")
        try Self.export.write(to: file, atomically: true, encoding: .utf8)
        #expect(try await cli.run(["import", file.path, "--in-column", "Kommen", "--out-column", "Gehen"], environment: Self.environment).status == 0)

        let swipes = cli.folder.appendingPathComponent("swipes.csv")
        try "Zeitpunkt\n10.11.2026 08:00\n12.11.2026 22:00\n13.11.2026 02:29\n".write(to: swipes, atomically: true, encoding: .utf8)
        let dated = try await cli.run(["reconcile", swipes.path, "--date-column", "Zeitpunkt", "--date-format", "DD.MM.YYYY HH:mm",
                                       "--from", "2026-11-10", "--to", "2026-11-13", "--json"], environment: Self.environment)
        #expect(dated.status == 0, "\(dated.stderr)")
        let summary = try #require((try JSONSerialization.jsonObject(with: Data(dated.stdout.utf8)) as? [String: Any])?["summary"] as? [String: Int])
        #expect(summary == ["agree": 4, "employer_only": 0, "ours_only": 0], "\(dated.stdout)")

        let clocked = try await cli.run(["reconcile", file.path, "--in-column", "Kommen", "--out-column", "Gehen",
                                         "--from", "2026-11-09", "--to", "2026-11-13", "--json"], environment: Self.environment)
        #expect(clocked.status == 0, "\(clocked.stderr)")
        let output = try #require(try JSONSerialization.jsonObject(with: Data(clocked.stdout.utf8)) as? [String: Any])
        // The 9th: the employer has a short morning in, DeskDays a day short of min_hours.
        #expect(output["summary"] as? [String: Int] == ["agree": 4, "employer_only": 1, "ours_only": 0], "\(clocked.stdout)")
        #expect((output["days"] as? [[String: Any]])?.first?["date"] as? String == "2026-11-09")
    }

    /// A row is one shift (docs/policy.md "Time on site: time-clock rows"):
    /// 22:00–06:00 gives 8 h and 18:00–07:00 13 h on the arrival's date
    /// with `day_starts_at` at midnight. Rows without times are named
    /// (FILE:LINE, and a count) until `--status-column` reads them; the same
    /// file again changes nothing.
    @Test func aShiftCountsForItsArrivalsDateAndRowsWithoutTimesAreNamed() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\nmin_hours = 4\n")
        let file = cli.folder.appendingPathComponent("schichten.csv")
        try "Datum;Kommen;Gehen;Bemerkung\n09.11.2026;22:00;06:00;\n10.11.2026;18:00;07:00;\n12.11.2026;;;Urlaub\n13.11.2026;;;krank\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let times = try await cli.run(["import", file.path, "--in-column", "Kommen", "--out-column", "Gehen"], environment: Self.environment)
        #expect(times.status == 0, "\(times.stderr)")
        #expect(times.stdout.contains("times of 2 days"), "\(times.stdout)")
        #expect(times.stderr.contains("schichten.csv:4: a row without an arrival or departure time")
                && times.stderr.contains("schichten.csv:5:") && times.stderr.contains("2 rows of \(file.path) were skipped"), "\(times.stderr)")
        var days = try await self.days(cli)
        #expect(days["2026-11-09"]?["hours"] as? Double == 8 && days["2026-11-09"]?["status"] as? String == "office", "\(days)")
        #expect(days["2026-11-09"]?["last_seen"] as? String == "06:00")
        #expect(days["2026-11-10"]?["hours"] as? Double == 13 && days["2026-11-10"]?["status"] as? String == "office", "\(days)")
        #expect(days["2026-11-11"]?["hours"] is NSNull, "no lone departure on the next date: \(days)")

        let statuses = try await cli.run(["import", file.path, "--in-column", "Kommen", "--out-column", "Gehen",
                                          "--status-column", "Bemerkung"], environment: Self.environment)
        #expect(statuses.status == 0 && statuses.stderr.isEmpty, "\(statuses.stderr)")
        #expect(statuses.stdout.contains("Imported 2 records"), "\(statuses.stdout)")
        days = try await self.days(cli)
        #expect(days["2026-11-12"]?["status"] as? String == "vacation" && days["2026-11-13"]?["status"] as? String == "sick", "\(days)")
        let again = try await cli.run(["import", file.path, "--in-column", "Kommen", "--out-column", "Gehen",
                                       "--status-column", "Bemerkung"], environment: Self.environment)
        #expect(again.status == 0 && again.stdout.contains("Nothing changed"), "\(again.stdout)")
    }

    /// An import that fails while it writes leaves nothing of its file: one
    /// transaction (the failure here a trigger that refuses the 10th's sign).
    @Test(.enabled(if: toolExists("sqlite3"), "sqlite3 not installed: apt-get install sqlite3"))
    func anImportThatFailsWritingLeavesNothing() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        #expect(try await cli.run(["checkin", "--date", "2026-11-02"], environment: Self.environment).status == 0)
        let trigger = try await Program.run("/usr/bin/env", ["sqlite3", cli.database, """
            CREATE TRIGGER interrupted BEFORE INSERT ON sign WHEN NEW.date = '2026-11-10' BEGIN SELECT RAISE(ABORT, 'interrupted'); END;
            """])
        try #require(trigger.status == 0, "\(trigger.stderr)")
        let file = cli.folder.appendingPathComponent("zeit.csv")
        try "Datum;Kommen;Gehen\n09.11.2026;08:00;17:00\n10.11.2026;08:00;17:00\n".write(to: file, atomically: true, encoding: .utf8)
        let result = try await cli.run(["import", file.path, "--in-column", "Kommen", "--out-column", "Gehen"], environment: Self.environment)
        #expect(result.status != 0, "\(result.stdout)")
        #expect(try await days(cli)["2026-11-09"]?["hours"] is NSNull, "nothing of the file is written")
    }

    /// A badge system's many rows a date (a lunch break, a second swipe at
    /// the same minute, an arrival earlier than the first row's, a row after
    /// midnight) leave the store as importing each row on its own does: the
    /// import keeps only the swipes that decide a date (the earliest arrival,
    /// the latest sign), which is what makes a million rows fit in memory.
    @Test func aFileOfManySwipesADateLeavesWhatItsRowsOneByOneWould() async throws {
        let rows = [
            "09.11.2026;08:10;12:00", "09.11.2026;12:30;17:45", "09.11.2026;07:55;08:05", "09.11.2026;17:45;17:45:30",
            "10.11.2026;09:00;13:00", "10.11.2026;14:00;18:00", "10.11.2026;14:00;18:00", "10.11.2026;22:00;01:30",
            "11.11.2026;;12:00", "11.11.2026;13:00;", "12.11.2026;08:00;16:00",
        ]
        let whole = try CLIRunner(), single = try CLIRunner()
        defer { whole.cleanup(); single.cleanup() }
        for cli in [whole, single] { try cli.writeConfig(Self.config) }
        let file = whole.folder.appendingPathComponent("badges.csv")
        try (["Datum;Kommen;Gehen"] + rows).joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let imported = try await whole.run(["import", file.path, "--in-column", "Kommen", "--out-column", "Gehen"], environment: Self.environment)
        #expect(imported.status == 0 && imported.stdout.contains("times of 4 days"), "\(imported.stdout)\(imported.stderr)")
        for (index, row) in rows.enumerated() {
            let one = single.folder.appendingPathComponent("row\(index).csv")
            try "Datum;Kommen;Gehen\n\(row)\n".write(to: one, atomically: true, encoding: .utf8)
            let result = try await single.run(["import", one.path, "--in-column", "Kommen", "--out-column", "Gehen"], environment: Self.environment)
            try #require(result.status == 0, "\(row): \(result.stderr)")
        }
        let days = try await self.days(whole), expected = try await self.days(single)
        for date in ["2026-11-09", "2026-11-10", "2026-11-11", "2026-11-12"] {
            for key in ["first_seen", "last_seen", "hours", "status"] {
                #expect("\(days[date]?[key] ?? "none")" == "\(expected[date]?[key] ?? "none")", "\(date) \(key)")
            }
        }
        #expect(days["2026-11-09"]?["first_seen"] as? String == "07:55" && days["2026-11-10"]?["last_seen"] as? String == "01:30", "\(days)")
        let again = try await whole.run(["import", file.path, "--in-column", "Kommen", "--out-column", "Gehen"], environment: Self.environment)
        #expect(again.stdout.contains("Nothing changed"), "\(again.stdout)")
    }

    /// Rows left out are named up to twenty, then counted: a file of
    /// unknown words costs no more memory than its count.
    @Test func skippedRowsAreNamedThenCounted() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let file = cli.folder.appendingPathComponent("words.csv")
        let rows = (1...25).map { String(format: "2026-10-%02d,gleitzeit", $0) }
        try (["date,status", "2026-10-26,office"] + rows).joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let result = try await cli.run(["import", file.path], environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let named = result.stderr.split(separator: "\n").filter { $0.contains("words.csv:") }
        #expect(named.count == 20 && named.first?.contains("words.csv:3:") == true, "\(result.stderr)")
        #expect(result.stderr.contains("… and 5 more rows with an unknown status") && result.stderr.contains("25 rows of"), "\(result.stderr)")
        #expect(result.stdout.contains("Imported 1 record"), "\(result.stdout)")
    }
}
