import Foundation
import Testing

/// The CLI end to end: the contract of docs/cli.md as a user meets it.
@Suite struct CLITests {
    /// The docs/policy.md worked example, entered through the CLI and read back as JSON.
    @Test func workedExampleThroughTheCLI() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("""
        [policy]
        timezone = "Europe/Berlin"

        [[holidays]]
        date = "2026-12-25"
        name = "Christmas Day"

        [[holidays]]
        date = "2026-12-28"
        name = "Bank holiday"
        """)
        // The 34 workdays before Wed 2026-11-18: 20 office, 13 remote, 1 unrecorded.
        var workdays: [String] = []
        var day = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
                                 year: 2026, month: 10, day: 1).date!
        let end = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"),
                                 year: 2026, month: 11, day: 18).date!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone(identifier: "UTC")
        while day < end {
            let weekday = calendar.component(.weekday, from: day)
            if weekday != 1 && weekday != 7 { workdays.append(formatter.string(from: day)) }
            day = calendar.date(byAdding: .day, value: 1, to: day)!
        }
        #expect(workdays.count == 34)
        for (index, date) in workdays.enumerated() where index < 33 {
            if index < 20 {
                // Office days arrive as automatic check-ins at 07:30 UTC.
                try #require(await cli.run(["event", "--source", "nfc", "--at", "\(date)T07:30:00Z", "--rule", "desk"]).status == 0)
            } else {
                try #require(await cli.run(["checkin", "--date", date, "--status", "remote", "--today", "2026-11-18"]).status == 0)
            }
        }
        try #require(await cli.run(["checkin", "--from", "2026-12-21", "--to", "2026-12-31", "--status", "vacation", "--today", "2026-11-18"]).status == 0)
        let result = try await cli.run(["report", "--json", "--today", "2026-11-18"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let expected: [String: Int] = ["workdays": 64, "excused": 7, "eligible": 57, "office": 20, "remote": 13,
                                       "unrecorded": 1, "elapsed": 34, "pending": 23, "planned_office": 0,
                                       "required": 35, "required_to_date": 21, "remaining_required": 15]
        for (key, value) in expected {
            #expect(json[key] as? Int == value, "\(key)")
        }
        #expect(json["status"] as? String == "behind")
        #expect(json["today"] as? String == "2026-11-18")
        #expect((json["compliance_to_date"] as? Double).map { abs($0 - 0.5882) < 1e-9 } == true)
        let period = try #require(json["period"] as? [String: Any])
        #expect(period["label"] as? String == "Q4 2026")
        #expect(period["start"] as? String == "2026-10-01")
        #expect(period["end"] as? String == "2026-12-31")
        let target = try #require(json["target"] as? [String: Any])
        #expect(target["kind"] as? String == "percent")
        #expect(target["value"] as? Int == 60)
        // The same figures in `status --format json`.
        let status = try await cli.run(["status", "--format", "json", "--today", "2026-11-18"])
        let statusJSON = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(statusJSON["required"] as? Int == 35)
    }

    @Test func manualBeatsAutomaticAndClearRestoresIt() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try #require(await cli.run(["event", "--source", "wifi", "--at", "2026-11-17T08:00:00Z", "--rule", "hq"]).status == 0)
        let again = try await cli.run(["event", "--source", "wifi", "--at", "2026-11-17T12:00:00Z", "--rule", "hq"])
        #expect(again.stdout.contains("already"))
        try #require(await cli.run(["checkin", "--date", "2026-11-17", "--status", "sick", "--today", "2026-11-18"]).status == 0)
        func day() async throws -> [String: Any] {
            let result = try await cli.run(["days", "--from", "2026-11-17", "--to", "2026-11-17", "--json", "--today", "2026-11-18"])
            let list = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            return try #require(list.first)
        }
        #expect(try await day()["status"] as? String == "sick")
        #expect(try await day()["origin"] as? String == "manual")
        #expect(try await day()["sources"] as? [String] == ["wifi", "manual"])
        let explain = try await cli.run(["explain", "2026-11-17", "--today", "2026-11-18"])
        #expect(explain.stdout.contains("wifi"))
        #expect(explain.stdout.contains("rule \"hq\""))
        try #require(await cli.run(["clear", "--date", "2026-11-17"]).status == 0)
        #expect(try await day()["status"] as? String == "office")
        #expect(try await day()["origin"] as? String == "automatic")
    }

    @Test func exportImportRoundTrip() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try #require(await cli.run(["checkin", "--date", "2026-11-16", "--status", "travel", "--note", "Client, Paris", "--today", "2026-11-18"]).status == 0)
        try #require(await cli.run(["event", "--source", "gps", "--at", "2026-11-17T08:00:00Z"]).status == 0)
        for format in ["csv", "json"] {
            let exported = try await cli.run(["export", "--format", format])
            #expect(exported.status == 0)
            let other = try CLIRunner()
            defer { other.cleanup() }
            let file = other.folder.appendingPathComponent("export.\(format)").path
            try exported.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            let imported = try await other.run(["import", file])
            #expect(imported.status == 0, "\(imported.stderr)")
            // CSV: the resolved days as imported records; JSON: the entries as they were (EverydayUseTests).
            #expect(imported.stdout.contains(format == "csv" ? "Imported 2 records" : "Imported the entries of 2 dates"),
                    "\(format): \(imported.stdout)")
            let days = try await other.run(["days", "--from", "2026-11-16", "--to", "2026-11-17", "--json"])
            let list = try #require(try JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]])
            #expect(list.map { $0["status"] as? String } == ["travel", "office"], "\(format)")
            #expect(list.map { $0["origin"] as? String } == (format == "csv" ? ["import", "import"] : ["manual", "automatic"]), "\(format)")
        }
        let ics = try await cli.run(["export", "--format", "ics"])
        #expect(ics.stdout.contains("DTSTART;VALUE=DATE:20261116"))
        let other = try CLIRunner()
        defer { other.cleanup() }
        let file = other.folder.appendingPathComponent("x.ics").path
        try ics.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try await other.run(["import", file]).stdout.contains("Imported 2 records"))
        // The note comes back from the event's DESCRIPTION, the comma unescaped.
        let back = try await other.run(["days", "--from", "2026-11-16", "--to", "2026-11-16", "--json"])
        let row = try #require((try JSONSerialization.jsonObject(with: Data(back.stdout.utf8)) as? [[String: Any]])?.first)
        #expect(row["note"] as? String == "Client, Paris", "\(back.stdout)")
    }

    @Test func configCheckListsEveryProblem() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"Nowhere/City\"\nperiod = \"decade\"\n\n[policy.target]\nvalue = 140\n")
        let result = try await cli.run(["config", "check"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 3, "\(result.stderr)")
        #expect(lines.allSatisfy { $0.hasPrefix(cli.config + ":") })
        #expect(lines.map { $0.split(separator: ":")[1] } == ["2", "3", "6"])
        try cli.writeConfig("[policy]\nperiod = \"month\"\n")
        #expect(try await cli.run(["config", "check"]).status == 0)
        #expect(try await cli.run(["config", "show"]).stdout.contains("period = 'month'"))
    }

    @Test func xdgDefaultsAndModes() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let result = try await cli.run(["checkin", "--date", "2026-11-16"], paths: false)
        #expect(result.status == 0, "\(result.stderr)")
        let path = cli.folder.appendingPathComponent("xdg-data/deskdays/deskdays.sqlite").path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)
        #expect(folder[.posixPermissions] as? Int == 0o700)
        // DESKDAYS_DATABASE overrides XDG.
        let other = cli.folder.appendingPathComponent("elsewhere.sqlite").path
        #expect(try await cli.run(["checkin", "--date", "2026-11-16"], paths: false, environment: ["DESKDAYS_DATABASE": other]).status == 0)
        #expect(FileManager.default.fileExists(atPath: other))
    }

    @Test func todayComesFromTheEnvironment() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        // A named database must exist to be read: one record first.
        #expect(try await cli.run(["checkin", "--date", "2025-01-06"]).status == 0)
        let a = try await cli.run(["report", "--json"], environment: ["DESKDAYS_TODAY": "2026-02-10"])
        #expect(a.stdout.contains("\"today\" : \"2026-02-10\""))
        // 23:30 UTC on 29 March is 30 March in Berlin.
        try cli.writeConfig("[policy]\ntimezone = \"Europe/Berlin\"\n")
        let b = try await cli.run(["report", "--json"], environment: ["DESKDAYS_NOW": "2026-03-29T23:30:00Z"])
        #expect(b.stdout.contains("\"today\" : \"2026-03-30\""))
    }
}
