import Foundation
import Testing

/// `status` and `report` remember their last answer (`OutputMemo`) and
/// replay it only while nothing it depends on has changed.
///
/// How a replay is told apart from a fresh answer: after the first run the
/// test appends a marker to the remembered answer. A replay prints the
/// marker; a fresh run cannot.
@Suite struct OutputMemoTests {
    static let marker = "remembered\n"

    /// Everything a run might be invalidated by: a configuration with a
    /// holiday calendar beside it, and a database with two office days.
    func seeded() throws -> CLIRunner {
        let cli = try CLIRunner()
        try cli.writeConfig("""
            [policy]
            timezone = "UTC"
            holidays_ics = "holidays.ics"
            [policy.target]
            kind = "days_per_week"
            value = 3

            """)
        try Self.calendar(holiday: "20270101").write(toFile: calendarPath(cli), atomically: true, encoding: .utf8)
        for date in ["2026-11-16", "2026-11-17"] {
            let result = try cli.run(["checkin", "--date", date, "--today", "2026-11-18"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        return cli
    }

    static func calendar(holiday: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:1@test\r\n"
            + "DTSTART;VALUE=DATE:\(holiday)\r\nSUMMARY:Holiday\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    func calendarPath(_ cli: CLIRunner) -> String {
        (cli.config as NSString).deletingLastPathComponent + "/holidays.ics"
    }

    static func memoFolder(_ cli: CLIRunner) -> String {
        cli.folder.appendingPathComponent("xdg-cache/deskdays/answers").path
    }

    static func memos(_ cli: CLIRunner) -> [String] {
        let folder = memoFolder(cli)
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
    }

    /// Files changed a moment ago make an answer too fresh to remember
    /// (50 ms, or two seconds where the file system keeps whole-second time
    /// stamps); wait until the seeded ones are older.
    static func settle() {
        Thread.sleep(forTimeInterval: 3.1)
    }

    enum Change: String, CaseIterable, CustomTestStringConvertible {
        case nothing, checkIn, configuration, holidayCalendar, otherToday, otherVariable, cacheOff, looseMemo,
             damagedDatabase, replacedDatabase
        var testDescription: String { rawValue }
    }

    @Test(arguments: Change.allCases)
    func replaysOnlyWhileNothingChanged(_ change: Change) throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        Self.settle()
        let today = ["DESKDAYS_TODAY": "2026-11-18"]
        let first = try cli.run(["status", "--format", "json"], environment: today)
        #expect(first.status == 0, "\(first.stderr)")
        let memos = Self.memos(cli)
        try #require(memos.count == 1, "one answer remembered")
        let memo = try #require(FileHandle(forWritingAtPath: memos[0]))
        memo.seekToEndOfFile()
        memo.write(Data(Self.marker.utf8))
        try memo.close()

        var environment = today
        switch change {
        case .nothing: break
        case .checkIn:
            let result = try cli.run(["checkin", "--date", "2026-11-18", "--today", "2026-11-18"])
            #expect(result.status == 0, "\(result.stderr)")
        case .configuration:
            let text = try String(contentsOfFile: cli.config, encoding: .utf8)
            try cli.writeConfig(text.replacingOccurrences(of: "value = 3", with: "value = 2"))
        case .holidayCalendar:
            try Self.calendar(holiday: "20261118").write(toFile: calendarPath(cli), atomically: true, encoding: .utf8)
        case .otherToday: environment["DESKDAYS_TODAY"] = "2026-11-19"
        case .otherVariable: environment["DESKDAYS_TEST_UNRELATED"] = "1"
        case .cacheOff: environment["DESKDAYS_NO_CACHE"] = "1"
        case .looseMemo: try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: memos[0])
        case .damagedDatabase:
            let database = try #require(FileHandle(forWritingAtPath: cli.database))
            database.write(Data("this is not an SQLite file".utf8))
            try database.close()
        case .replacedDatabase:
            // Same bytes, another file: the fingerprint names the file, not only its content.
            let copy = cli.database + ".copy"
            try FileManager.default.copyItem(atPath: cli.database, toPath: copy)
            try FileManager.default.removeItem(atPath: cli.database)
            try FileManager.default.moveItem(atPath: copy, toPath: cli.database)
        }
        let second = try cli.run(["status", "--format", "json"], environment: environment)
        switch change {
        case .nothing:
            #expect(second.stdout == first.stdout + Self.marker)
        case .damagedDatabase:
            #expect(second.status == 2, "\(second.stderr)")
            #expect(second.stdout.isEmpty)
            #expect(second.stderr.split(separator: "\n").count == 1)
        default:
            #expect(second.status == 0, "\(second.stderr)")
            #expect(!second.stdout.contains("remembered"))
            #expect(try Self.object(second.stdout)["office"] != nil)
        }
        switch change {
        case .checkIn: #expect(try Self.object(second.stdout)["office"] as? Int == 3)
        case .holidayCalendar:
            // The new holiday is in this quarter, the old one was not.
            #expect(try Self.object(second.stdout)["workdays"] as? Int == (try Self.object(first.stdout)["workdays"] as? Int).map { $0 - 1 })
        case .configuration:
            #expect(try Self.object(second.stdout)["required"] as? Int != (try Self.object(first.stdout)["required"] as? Int))
        case .replacedDatabase, .otherVariable, .cacheOff, .looseMemo:
            #expect(second.stdout == first.stdout)
        default: break
        }
    }

    static func object(_ json: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// With "today" from the clock, an answer belongs to its local day: one
    /// remembered for an earlier day is not replayed.
    @Test(arguments: [false, true])
    func answersFromTheClockLastTheirDay(moveToYesterday: Bool) throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        Self.settle()
        let first = try cli.run(["report", "--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let memos = Self.memos(cli)
        try #require(memos.count == 1)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: memos[0])))
        // The request ends with an empty field ("\0\0"); the day's first and
        // last second follow it as decimal text.
        let end = try #require(bytes.indices.dropLast().first { bytes[$0] == 0 && bytes[$0 + 1] == 0 }) + 2
        let fields = bytes[end...].split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
        let start = try #require(Int(String(decoding: fields[0], as: UTF8.self)))
        let stop = try #require(Int(String(decoding: fields[1], as: UTF8.self)))
        #expect(stop - start >= 82_800 && stop - start <= 90_000, "one local day")
        #expect(Double(start) <= Date().timeIntervalSince1970 && Date().timeIntervalSince1970 < Double(stop))
        if moveToYesterday {
            let window = "\(start - 86_400)\0\(stop - 86_400)\0"
            let old = "\(start)\0\(stop)\0"
            #expect(window.utf8.count == old.utf8.count)
            bytes.replaceSubrange(end..<(end + old.utf8.count), with: Array(window.utf8))
        }
        bytes += Array(Self.marker.utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: memos[0]))
        let second = try cli.run(["report", "--json"])
        #expect(second.status == 0)
        #expect(second.stdout == (moveToYesterday ? first.stdout : first.stdout + Self.marker))
    }

    /// A run right after a change does not remember its answer (a later
    /// change within the same second could leave every time stamp as it
    /// was). Made independent of the machine's speed: the database's time
    /// stamp is put an hour ahead, which must count as "just changed" too.
    @Test func freshChangesAreNotRemembered() throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(3600)],
                                              ofItemAtPath: cli.database)
        Self.settle()
        let result = try cli.run(["status"], environment: ["DESKDAYS_TODAY": "2026-11-18"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.memos(cli).isEmpty)
    }

    /// Errors, `--follow` and `report --html` (which writes a file) are never remembered.
    @Test func onlyCompleteAnswersAreRemembered() throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        Self.settle()
        let html = cli.folder.appendingPathComponent("report.html").path
        let page = try cli.run(["report", "--html", html, "--today", "2026-11-18"])
        #expect(page.status == 0, "\(page.stderr)")
        let bad = try cli.run(["report", "--period", "2026-13-01"])
        #expect(bad.status == 1)
        let follow = try cli.run(["status", "--follow", "--socket", cli.folder.appendingPathComponent("none.sock").path])
        #expect(follow.status != 0)
        #expect(Self.memos(cli).isEmpty)
        // The same `report --html` again writes the page again.
        try FileManager.default.removeItem(atPath: html)
        #expect(try cli.run(["report", "--html", html, "--today", "2026-11-18"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: html))
    }

    /// The folder keeps a bounded number of answers, oldest dropped first.
    @Test func theMemoFolderStaysSmall() throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        Self.settle()
        for day in 1...40 {
            let date = String(format: "2026-10-%02d", (day - 1) % 31 + 1)
            let result = try cli.run(["report", "--json", "--period", date, "--today", day > 31 ? "2026-11-19" : "2026-11-18"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let memos = Self.memos(cli)
        #expect(memos.count <= 32 && memos.count >= 20, "\(memos.count) answers kept")
        let folder = try FileManager.default.attributesOfItem(atPath: Self.memoFolder(cli))
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        let file = try FileManager.default.attributesOfItem(atPath: memos[0])
        #expect((file[.posixPermissions] as? Int) == 0o600)
    }
}
