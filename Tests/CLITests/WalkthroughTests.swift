import Foundation
import Testing

/// What a user met walking through the commands: how `explain` counts a
/// date (the policy engine's own answer), local times, a finished period,
/// a check-in on a non-workday, and status words as people write them.
@Suite struct WalkthroughTests {
    static let config = """
    [policy]
    timezone = "Europe/Paris"

    [[holidays]]
    date = "2026-11-11"
    name = "Armistice"
    """
    static let now = ["DESKDAYS_NOW": "2026-11-24T21:30:00Z"]

    @Test func explainSaysHowEachKindOfDateCounts() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        func explain(_ date: String) async throws -> String { try await cli.run(["explain", date], environment: Self.now).stdout }
        // A weekend and a holiday count for nothing, recorded or not.
        try await cli.run(["checkin", "--date", "2026-11-22"], environment: Self.now)
        #expect(try await explain("2026-11-22").contains("Counts: not at all: it is not a workday (set count_non_workdays = true"))
        #expect(try await explain("2026-11-21").contains("Counts: not at all: it is not a workday."))
        let holiday = try await explain("2026-11-11")
        #expect(holiday.contains("is a holiday (Armistice, from [[holidays]] in the configuration)") && holiday.contains("Counts: not at all"), "\(holiday)")
        // A past workday without a record is unrecorded; a future one is still to come.
        #expect(try await explain("2026-11-20").contains("Counts: unrecorded"))
        #expect(try await explain("2026-11-30").contains("Counts: not yet: still to come"))
        // Times are shown in the policy's zone, the one the date is counted in.
        try await cli.run(["event", "--source", "gps", "--rule", "hq", "--at", "2026-11-18T07:00:00Z"], environment: Self.now)
        let automatic = try await explain("2026-11-18")
        #expect(automatic.contains("at 2026-11-18T08:00:00+01:00 rule \"hq\"") && automatic.contains("Counts: as an office day"),
                "\(automatic)")
    }

    @Test func aCheckInOnANonWorkdaySaysItDoesNotCount() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        let weekend = try await cli.run(["checkin", "--date", "2026-11-21"], environment: Self.now)
        #expect(weekend.stdout.contains("Note: 2026-11-21 does not count: it is not a workday"), "\(weekend.stdout)")
        let workday = try await cli.run(["checkin", "--date", "2026-11-20"], environment: Self.now)
        #expect(!workday.stdout.contains("does not count"))
        try cli.writeConfig(Self.config.replacingOccurrences(of: "timezone = \"Europe/Paris\"",
                                                              with: "timezone = \"Europe/Paris\"\ncount_non_workdays = true"))
        let counted = try await cli.run(["checkin", "--date", "2026-11-22"], environment: Self.now)
        #expect(!counted.stdout.contains("does not count"), "\(counted.stdout)")
    }

    @Test func aFinishedPeriodThatFellShortIsMissed() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        try await cli.run(["checkin", "--date", "2026-11-20"], environment: Self.now)
        let report = try await cli.run(["report", "--period", "2026-05-01"], environment: Self.now)
        #expect(report.stdout.contains("Status: missed"), "\(report.stdout)")
        #expect(report.stdout.contains("39 short") && !report.stdout.contains("still needed"), "\(report.stdout)")
        // The JSON contract keeps its word.
        let json = try await cli.run(["report", "--period", "2026-05-01", "--json"], environment: Self.now)
        #expect(json.stdout.contains("\"status\" : \"impossible\"") || json.stdout.contains("\"status\":\"impossible\""), "\(json.stdout)")
    }

    @Test(arguments: [("Office", "office"), ("WFH", "remote"), ("home", "remote"), ("Annual leave", "vacation"), ("PTO", "vacation")])
    func statusWordsAsPeopleWriteThem(word: String, status: String) async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let result = try await cli.run(["checkin", "--date", "2026-11-20", "--status", word], environment: Self.now)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Recorded \(status) for 2026-11-20."), "\(result.stdout)")
    }

    /// Two exports of the same history are the same bytes; the calendar is
    /// stamped with "now" and carries the notes; timed events are reported.
    @Test func exportsAreStableAndCarryNotes() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config)
        try await cli.run(["checkin", "--date", "2026-11-19", "--note", "client; visit, big"], environment: Self.now)
        try await cli.run(["checkin", "--date", "2026-11-20", "--status", "remote"], environment: Self.now)
        let first = try await cli.run(["export", "--format", "json"], environment: Self.now).stdout
        #expect(first == (try await cli.run(["export", "--format", "json"], environment: Self.now).stdout) && first.contains("client"))
        let ics = try await cli.run(["export", "--format", "ics"], environment: Self.now).stdout
        #expect(ics.contains("DTSTAMP:20261124T213000Z\r\n") && !ics.contains("1970"), "\(ics)")
        #expect(ics.contains("DESCRIPTION:client\\; visit\\, big\r\n"), "\(ics)")

        let calendar = cli.folder.appendingPathComponent("hr.ics").path
        try ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261102\r\nSUMMARY:WFH\r\nEND:VEVENT\r\n"
             + "BEGIN:VEVENT\r\nDTSTART:20261103T090000Z\r\nSUMMARY:Office standup\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
            .write(toFile: calendar, atomically: true, encoding: .utf8)
        let imported = try await cli.run(["import", calendar], environment: Self.now)
        #expect(imported.stdout.contains("Imported 1 record") && imported.stdout.contains("Skipped 1 timed event"), "\(imported.stdout)")
    }
}
