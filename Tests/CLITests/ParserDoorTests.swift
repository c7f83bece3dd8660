import Foundation
import Testing

/// The parsers' doors: status words are whole values at the flag
/// and in imports, an unterminated CSV quote is named in `import` and
/// `reconcile`, and an iCalendar file can neither crash a command (as an
/// import or as `holidays_ics`) nor leave an event open.
@Suite struct ParserDoorTests {
    static let today = ["--today", "2026-11-20"]

    /// Phrases that contain a status word but name none.
    static let phrases = ["Out of office", "Office closed", "Not in office", "Out of Office: Vacation"]

    /// A runner whose database exists (a named database must): one office day on Friday the 13th.
    func seeded() async throws -> CLIRunner {
        let cli = try CLIRunner()
        let result = try await cli.run(["checkin", "--date", "2026-11-13"] + Self.today)
        try #require(result.status == 0, "\(result.stderr)")
        return cli
    }

    func write(_ cli: CLIRunner, _ name: String, _ text: String) async throws -> String {
        let path = cli.folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The resolved status of each date of `days --json` ("-" for none).
    func statuses(_ cli: CLIRunner, from: String, to: String) async throws -> [String: String] {
        let result = try await cli.run(["days", "--from", from, "--to", to, "--json"] + Self.today)
        try #require(result.status == 0, "\(result.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var out: [String: String] = [:]
        for row in rows { out[row["date"] as? String ?? "?"] = row["status"] as? String ?? "-" }
        return out
    }

    @Test(arguments: phrases)
    func aPhraseIsNoStatusAtTheFlag(phrase: String) async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let result = try await cli.run(["checkin", "--date", "2026-11-16", "--status", phrase] + Self.today)
        #expect(result.status == 1, "exit \(result.status): \(result.stdout)")
        #expect(result.stderr.contains(phrase) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        let found = try await statuses(cli, from: "2026-11-16", to: "2026-11-16")
        #expect(found == ["2026-11-16": "-"])
    }

    @Test func homeOfficeAtTheFlagIsRemote() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let result = try await cli.run(["checkin", "--date", "2026-11-16", "--status", "Home Office"] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        let found = try await statuses(cli, from: "2026-11-16", to: "2026-11-16")
        #expect(found == ["2026-11-16": "remote"])
    }

    /// Rows whose status is no known word are skipped and named `FILE:LINE`;
    /// the rest is imported; none of the phrases becomes an office day.
    @Test func importSkipsAndNamesUnknownStatuses() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let rows = zip(["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19"], Self.phrases).map { "\($0),\($1)" }
        let file = try await write(cli, "history.csv", (["date,status"] + rows + ["2026-11-20,Home Office"]).joined(separator: "\n") + "\n")
        let result = try await cli.run(["import", file] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Imported 1 record"), "\(result.stdout)")
        for (index, phrase) in Self.phrases.enumerated() {
            #expect(result.stderr.contains("\(file):\(index + 2): unknown status \"\(phrase)\""), "\(result.stderr)")
        }
        let found = try await statuses(cli, from: "2026-11-16", to: "2026-11-20")
        #expect(found
                == ["2026-11-16": "-", "2026-11-17": "-", "2026-11-18": "-", "2026-11-19": "-", "2026-11-20": "remote"])
    }

    @Test func importSkipsAndNamesAnEventWithAnUnknownTitle() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let file = try await write(cli, "hr.ics", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261116\r\nSUMMARY:Out of Office: Vacation\r\n"
                             + "END:VEVENT\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261117\r\nSUMMARY:Vacation\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        let result = try await cli.run(["import", file] + Self.today)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(file):2: unknown status \"Out of Office: Vacation\""), "\(result.stderr)")
        let found = try await statuses(cli, from: "2026-11-16", to: "2026-11-17")
        #expect(found == ["2026-11-16": "-", "2026-11-17": "vacation"])
    }

    /// An unterminated quote is exit 1 naming the line it opens on; nothing is imported.
    @Test func importNamesAnUnterminatedQuote() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let file = try await write(cli, "history.csv", "date,status,note\n2026-11-16,office,\"client\n2026-11-17,office,\n2026-11-18,office,\n")
        let result = try await cli.run(["import", file] + Self.today)
        #expect(result.status == 1, "exit \(result.status): \(result.stdout)")
        #expect(result.stderr.contains("\(file):2:") && result.stderr.contains("quote"), "\(result.stderr)")
        let found = try await statuses(cli, from: "2026-11-16", to: "2026-11-18")
        #expect(found.values.allSatisfy { $0 == "-" })
    }

    /// The employer's CSV with an unterminated quote: exit 1 naming the
    /// line, never the swallowed dates counted as agreeing (exit 0).
    @Test func reconcileNamesAnUnterminatedQuote() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let file = try await write(cli, "employer.csv", "Date,Door\n2026-11-16,Main\n2026-11-17,\"Main\n2026-11-18,Main\n2026-11-19,Main\n")
        let result = try await cli.run(["reconcile", file, "--from", "2026-11-16", "--to", "2026-11-19", "--json"] + Self.today)
        #expect(result.status == 1, "exit \(result.status): \(result.stdout)")
        #expect(result.stderr.contains("\(file):3:") && result.stderr.contains("quote"), "\(result.stderr)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
    }

    static let hugeInterval = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261118\r\nRRULE:FREQ=YEARLY;INTERVAL=9223372036854775807\r\n"
        + "SUMMARY:Vacation\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    /// A yearly rule with an interval of Int64.max: one date, no crash.
    @Test func importOfAHugeIntervalDoesNotCrash() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let file = try await write(cli, "huge.ics", Self.hugeInterval)
        let result = try await cli.run(["import", file] + Self.today)
        #expect(result.status == 0, "exit \(result.status): \(result.stderr)")
        #expect(result.stdout.contains("Imported 1 record"), "\(result.stdout)")
    }

    /// The same file as `holidays_ics`: every command still answers, and its date is a holiday.
    @Test func aHugeIntervalAsHolidaysDoesNotCrashCommands() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let file = try await write(cli, "holidays.ics", Self.hugeInterval)
        try cli.writeConfig("[policy]\nholidays_ics = \"\(file)\"\n")
        for arguments in [["status"], ["report", "--json"], ["checkin", "--date", "2026-11-16"]] {
            let result = try await cli.run(arguments + Self.today)
            #expect(result.status == 0, "\(arguments): exit \(result.status): \(result.stderr)")
        }
        let days = try await cli.run(["days", "--from", "2026-11-18", "--to", "2026-11-18", "--json"] + Self.today)
        #expect(days.status == 0 && days.stdout.contains("\"workday\" : false"), "\(days.stdout)\(days.stderr)")
    }

    /// A BEGIN:VEVENT without END:VEVENT is exit 1 naming its line, as an import and as `holidays_ics`.
    @Test func aMissingEndIsNamed() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let file = try await write(cli, "open.ics", "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261116\r\nSUMMARY:Vacation\r\n"
                             + "BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261117\r\nSUMMARY:Vacation\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        let result = try await cli.run(["import", file] + Self.today)
        #expect(result.status == 1, "exit \(result.status): \(result.stdout)")
        #expect(result.stderr.contains("\(file):2:") && result.stderr.contains("END:VEVENT"), "\(result.stderr)")
        let found = try await statuses(cli, from: "2026-11-16", to: "2026-11-17")
        #expect(found.values.allSatisfy { $0 == "-" })
        try cli.writeConfig("[policy]\nholidays_ics = \"\(file)\"\n")
        let status = try await cli.run(["status"] + Self.today)
        #expect(status.status == 1 && status.stderr.contains("END:VEVENT"), "exit \(status.status): \(status.stderr)")
    }
}
