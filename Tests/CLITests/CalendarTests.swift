import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `[calendar]`: a vdir of events from Outlook, Google, Thunderbird, Apple
/// Calendar and khal (Tests/Fixtures/calendar) read at each command, the
/// agent following the folder, and `write = true` (docs/cli.md "Calendar").
@Suite struct CalendarTests {
    static let now = ["DESKDAYS_NOW": "2026-11-20T12:00:00Z"]
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/calendar/vdir")

    /// A copy of the fixture vdir in the runner's folder, configured; its path.
    static func vdir(_ cli: CLIRunner, extra: String = "") throws -> String {
        let folder = cli.folder.appendingPathComponent("calendars/work").path
        try FileManager.default.createDirectory(atPath: (folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyAsOwn(atPath: fixtures.path, toPath: folder)
        try cli.writeConfig("[calendar]\nfolder = \"\(folder)\"\n" + extra)
        return folder
    }

    /// `deskdays ARGS` with the runner's configuration and the default
    /// database (absent until something is written: reading creates nothing).
    static func run(_ cli: CLIRunner, _ arguments: [String]) async throws -> CLIRunner.Result {
        try await cli.run(arguments + ["--config", cli.config], paths: false, environment: now)
    }

    /// The same history entered as imports and `[[holidays]]` gives the same
    /// `report --json`; the broken file is named, the rest still counts.
    @Test func aVdirGivesTheReportOfTheSameHistoryImported() async throws {
        let calendar = try CLIRunner()
        defer { calendar.cleanup() }
        _ = try Self.vdir(calendar)
        let fromCalendar = try await Self.run(calendar, ["report", "--json"])
        #expect(fromCalendar.status == 0, "\(fromCalendar.stderr)")
        #expect(fromCalendar.stderr.contains("broken.ics is skipped"), "\(fromCalendar.stderr)")
        #expect(!fromCalendar.stderr.contains("notes.txt") && fromCalendar.stderr.split(separator: "\n").count == 1,
                "\(fromCalendar.stderr)")

        let imported = try CLIRunner()
        defer { imported.cleanup() }
        try imported.writeConfig("""
            [[holidays]]
            date = 2026-11-26
            name = "Holiday"
            [[holidays]]
            date = 2026-12-24
            name = "Holiday"
            """)
        // Google's WFH Fridays (one moved to the Thursday before by a
        // RECURRENCE-ID), Outlook's home days (three Mondays, the last by a UTC UNTIL in its
        // Windows zone), Google's vacation over one of them and its PTO,
        // khal's sick day, and Thunderbird's office plans from today on
        // (the past ones are plans that did not happen; one date excluded).
        let csv = imported.folder.appendingPathComponent("history.csv").path
        try """
            date,status
            2026-10-02,remote
            2026-10-05,remote
            2026-10-08,remote
            2026-10-12,remote
            2026-10-16,remote
            2026-10-19,vacation
            2026-10-23,remote
            2026-11-10,sick
            2026-11-16,vacation
            2026-11-17,vacation
            2026-11-24,office
            2026-12-08,office

            """.write(toFile: csv, atomically: true, encoding: .utf8)
        #expect(try await imported.run(["import", csv], environment: Self.now).status == 0)
        let fromImports = try await imported.run(["report", "--json"], environment: Self.now)
        #expect(fromImports.status == 0)
        #expect(fromCalendar.stdout == fromImports.stdout, "\(fromCalendar.stdout)\n---\n\(fromImports.stdout)")
        #expect(fromCalendar.stdout.contains("\"planned_office\" : 2") && fromCalendar.stdout.contains("\"excused\" : 4"),
                "\(fromCalendar.stdout)")
        // Nothing of the calendar was stored: there is no database at all.
        let data = calendar.folder.appendingPathComponent("xdg-data").path
        #expect(!FileManager.default.fileExists(atPath: data + "/deskdays"), "\(data)")
    }

    /// Outlook's holiday calendar as `holidays_ics` (libical, as the vdir):
    /// yearly midnight-to-midnight events in `W. Europe Standard Time` are
    /// holidays on their own dates, and Neujahr's UNTIL, written in UTC,
    /// ends it after 2028.
    @Test func anOutlookHolidayCalendarAsHolidaysICS() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let file = cli.folder.appendingPathComponent("feiertage.ics").path
        try FileManager.default.copyAsOwn(atPath: Self.fixtures.deletingLastPathComponent().appendingPathComponent("holidays/outlook-feiertage.ics").path,
                                         toPath: file)
        try cli.writeConfig("[policy]\nholidays_ics = \"\(file)\"\n")
        var workdays: [String: Bool] = [:]
        for (from, to) in [("2026-12-24", "2026-12-28"), ("2027-12-31", "2028-01-03"), ("2028-12-29", "2029-01-02")] {
            let days = try await Self.run(cli, ["days", "--from", from, "--to", to, "--json"])
            try #require(days.status == 0, "\(days.stderr)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(days.stdout.utf8)) as? [[String: Any]])
            for row in rows { workdays[row["date"] as? String ?? "?"] = row["workday"] as? Bool }
        }
        #expect(workdays["2026-12-24"] == true && workdays["2026-12-25"] == false && workdays["2026-12-28"] == true, "\(workdays)")
        // Neujahr 2027 is a Friday, 2029 a Monday after the rule's end.
        #expect(workdays["2027-12-31"] == true && workdays["2029-01-01"] == true, "\(workdays)")
        let explained = try await Self.run(cli, ["explain", "2026-12-25"])
        #expect(explained.status == 0 && explained.stdout.contains("Weihnachten"), "\(explained.stdout)\(explained.stderr)")
    }

    /// `explain` names the event behind a date; `days --json` says `calendar`;
    /// removing the file removes its effect at the next command.
    @Test func explainNamesTheEventAndRemovingItsFileRemovesItsEffect() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = try Self.vdir(cli)
        let explained = try await Self.run(cli, ["explain", "2026-11-16"]).stdout
        #expect(explained.contains("Resolved: vacation, from the calendar event \"PTO\" (google-pto.ics)."), "\(explained)")
        let plan = try await Self.run(cli, ["explain", "2026-11-17"]).stdout
        #expect(plan.contains("\"Office\" in thunderbird-office.ics (a plan on a past date: not attendance)"), "\(plan)")
        let holiday = try await Self.run(cli, ["explain", "2026-12-24"]).stdout
        #expect(holiday.contains("is a holiday (Holiday)"), "\(holiday)")
        let days = try await Self.run(cli, ["days", "--from", "2026-11-16", "--to", "2026-11-16", "--json"]).stdout
        #expect(days.contains("\"origin\" : \"calendar\"") && days.contains("\"status\" : \"vacation\""), "\(days)")

        // Edited in place, same size (the cache of parsed files must notice): PTO becomes WFH.
        let pto = folder + "/google-pto.ics"
        let edited = try String(contentsOfFile: pto, encoding: .utf8).replacingOccurrences(of: "SUMMARY:PTO", with: "SUMMARY:WFH")
        let handle = try #require(FileHandle(forWritingAtPath: pto))
        try handle.write(contentsOf: Data(edited.utf8))
        try handle.close()
        let remote = try await Self.run(cli, ["days", "--from", "2026-11-16", "--to", "2026-11-16", "--json"]).stdout
        #expect(remote.contains("\"status\" : \"remote\"") && remote.contains("\"note\" : \"WFH\""), "\(remote)")
        try FileManager.default.removeItem(atPath: pto)
        let after = try await Self.run(cli, ["days", "--from", "2026-11-16", "--to", "2026-11-16", "--json"]).stdout
        #expect(!after.contains("calendar") && !after.contains("vacation"), "\(after)")
        // A manual record wins over the calendar; the timed "Office" stand-up counts for nothing.
        #expect(try await Self.run(cli, ["checkin", "--date", "2026-11-10", "--status", "remote"]).status == 0)
        let manual = try await Self.run(cli, ["explain", "2026-11-10"]).stdout
        #expect(manual.contains("Resolved: remote, from the manual record.") && manual.contains("sick — \"Sick\" in khal-sick.ics"),
                "\(manual)")
        let standup = try await Self.run(cli, ["explain", "2026-11-19"]).stdout
        #expect(standup.contains("Resolved: no status.") && !standup.contains("google-standup"), "\(standup)")
    }

    /// The cache of parsed files answers as parsing every file does: after
    /// a file is added, removed, renamed or edited, and when the cache file
    /// is cut short or not one at all, `days --json` with the cache equals
    /// `days --json` with an empty cache folder (every file parsed).
    @Test func theCacheAnswersAsParsingEveryFileDoes() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = try Self.vdir(cli)
        let manager = FileManager.default
        let arguments = ["days", "--from", "2026-11-01", "--to", "2026-12-31", "--json"]
        var fresh = 0
        func check(_ step: String) async throws {
            let cached = try await Self.run(cli, arguments)
            fresh += 1
            let empty = cli.folder.appendingPathComponent("empty-cache-\(fresh)").path
            let parsed = try await cli.run(arguments + ["--config", cli.config], paths: false,
                                           environment: Self.now.merging(["XDG_CACHE_HOME": empty]) { $1 })
            #expect(cached.status == 0 && parsed.status == 0, "\(step): \(cached.stderr)\(parsed.stderr)")
            #expect(cached.stdout == parsed.stdout, "\(step): with the cache\n\(cached.stdout)\nparsed\n\(parsed.stdout)")
            #expect(cached.stderr == parsed.stderr, "\(step): \(cached.stderr) / \(parsed.stderr)")
        }
        try await check("first read")
        let cacheFolder = cli.folder.appendingPathComponent("xdg-cache/deskdays").path
        let cacheFile = try #require(try manager.contentsOfDirectory(atPath: cacheFolder).first { $0.hasSuffix(".cache") })
        // Sorts before, between and after the fixture's names.
        for name in ["0-first.ics", "m-middle.ICS", "zz-last.ics"] {
            try """
                BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:\(name)@example.org\r
                DTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:20261203\r\nDTEND;VALUE=DATE:20261204\r\nSUMMARY:PTO\r
                END:VEVENT\r\nEND:VCALENDAR\r\n
                """.write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
        }
        try await check("three files added")
        try manager.removeItem(atPath: folder + "/m-middle.ICS")
        try await check("one removed")
        try manager.moveItem(atPath: folder + "/0-first.ics", toPath: folder + "/n-renamed.ics")
        try await check("one renamed")
        let last = folder + "/zz-last.ics"
        try String(contentsOfFile: last, encoding: .utf8).replacingOccurrences(of: "20261203", with: "20261210")
            .write(toFile: last, atomically: false, encoding: .utf8)
        try await check("one edited")
        let cachePath = cacheFolder + "/" + cacheFile
        let whole = try Data(contentsOf: URL(fileURLWithPath: cachePath))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cachePath))
        try await check("the cache cut short")
        try Data("DeskDays calendar cache 5\n".utf8 + [UInt8](repeating: 0xff, count: 64)).write(to: URL(fileURLWithPath: cachePath))
        try await check("a cache of nonsense")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cachePath)).count > 64, "a damaged cache is written again whole")
    }

    /// `write = true` with a calendar folder that cannot be written (a
    /// read-only mount): the check-in is stored, the command says so beside
    /// the calendar's trouble, and succeeds.
    @Test(.enabled(if: getuid() == 0, "needs root to mount a read-only tmpfs"))
    func aReadOnlyCalendarFolderStillStoresTheRecordAndSaysSo() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = cli.folder.appendingPathComponent("readonly-calendar").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(try await runTool(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", folder]).status == 0)
        defer { Task { _ = try? await runTool(["umount", folder]) } }
        try cli.writeConfig("[calendar]\nfolder = \"\(folder)\"\nwrite = true\noffice = [\"Office\"]\n")
        let checkin = try await Self.run(cli, ["checkin", "--date", "2026-11-19"])
        #expect(checkin.status == 0 && checkin.stdout.contains("Recorded office for 2026-11-19.")
                && checkin.stderr.contains("the record is stored"), "\(checkin.status) \(checkin.stdout)\(checkin.stderr)")
        #expect(try await Self.run(cli, ["days", "--from", "2026-11-19", "--to", "2026-11-19"]).stdout.contains("office"))
        _ = try await runTool(["umount", folder])
    }

    /// `write = true`: one file per manual office day, gone with `clear`,
    /// counted once; another client's file is never touched; khal reads it.
    @Test func writtenOfficeDaysAreOneFileEachAndGoWithClear() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = try Self.vdir(cli, extra: "write = true\noffice = [\"In office\", \"Office\"]\n")
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        // A temporary a writer killed mid-write left behind (its process gone) is tidied by the next write.
        let stale = folder + "/.deskdays-office-2026-11-18.ics.4194303.tmp"
        try "BEGIN:VCALENDAR\r\n".write(toFile: stale, atomically: false, encoding: .utf8)
        let checkin = try await Self.run(cli, ["checkin", "--date", "2026-11-19"])
        #expect(!FileManager.default.fileExists(atPath: stale), "the dead writer's temporary is gone")
        #expect(checkin.status == 0, "\(checkin.stderr)")
        let file = folder + "/deskdays-office-2026-11-19.ics"
        // 0600, as every file DeskDays writes (docs/cli.md "Where things live").
        #expect((try? FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("SUMMARY:In office\r\n") && text.contains("UID:deskdays-office-2026-11-19@deskdays")
                && text.contains("DTSTART;VALUE=DATE:20261119"), "\(text)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == before.union(["deskdays-office-2026-11-19.ics"]))
        // Counted once: the manual record, not also the event.
        let report = try await Self.run(cli, ["report", "--json"]).stdout
        #expect(report.contains("\"office\" : 1,"), "\(report)")
        let explained = try await Self.run(cli, ["explain", "2026-11-19"]).stdout
        #expect(explained.contains("from the manual record") && !explained.contains("deskdays-office"), "\(explained)")
        if toolExists("khal") {
            let config = cli.folder.appendingPathComponent("khal.conf").path
            try """
                [calendars]
                [[work]]
                path = \(folder)
                [locale]
                timeformat = %H:%M
                dateformat = %Y-%m-%d
                longdateformat = %Y-%m-%d
                datetimeformat = %Y-%m-%d %H:%M
                longdatetimeformat = %Y-%m-%d %H:%M

                """.write(toFile: config, atomically: true, encoding: .utf8)
            let khal = try await Program.run("/usr/bin/khal", ["-c", config, "list", "2026-11-19", "1d"],
                                             environment: ["HOME": cli.folder.path, "TZ": "UTC", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"])
            #expect(khal.status == 0 && khal.stdout.contains("In office"), "\(khal.stdout)\(khal.stderr)")
        } else {
            print("CalendarTests: khal is not installed (deps/apt-test.txt); khal's reading of the written event is not checked")
        }
        // Changing the day to remote, or clearing it, removes the file; the others stay.
        #expect(try await Self.run(cli, ["clear", "--date", "2026-11-19"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == before)
        // A file of DeskDays' name that it did not write is left alone.
        let foreign = folder + "/deskdays-office-2026-11-18.ics"
        try "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".write(toFile: foreign, atomically: true, encoding: .utf8)
        #expect(try await Self.run(cli, ["checkin", "--date", "2026-11-18", "--status", "remote"]).status == 0)
        #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
    }

    /// The agent reads the folder again when a file changes and pushes the
    /// new status to a follower.
    @Test func theAgentFollowsTheFolder() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = cli.folder.appendingPathComponent("vdir").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try cli.writeConfig("[calendar]\nfolder = \"\(folder)\"\n")
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let follower = try TestSocketClient(path: agent.socket, timeoutSeconds: 60)
        #expect(follower.send(#"{"cmd":"subscribe","format":"json"}"#))
        let first = try #require(follower.readLine())
        #expect(first.contains(#"\"excused\":0"#), "\(first)")
        // Sick today (the agent's fixed day), as khal writes it: renamed into place.
        let event = "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nUID:sick-today\nDTSTART;VALUE=DATE:20260310\nSUMMARY:Sick\nEND:VEVENT\nEND:VCALENDAR\n"
        try event.write(toFile: folder + "/sick.ics", atomically: true, encoding: .utf8)
        let second = try #require(follower.readLine())
        #expect(second.contains(#"\"excused\":1"#), "\(second)")
        try FileManager.default.removeItem(atPath: folder + "/sick.ics")
        let third = try #require(follower.readLine())
        #expect(third.contains(#"\"excused\":0"#), "\(third)")
        #expect(await agent.stop() == 0)
    }

    /// `write = true` with the agent: an office day given over the socket
    /// (as the tray or D-Bus give it) becomes its file; cleared, it goes.
    @Test func theAgentWritesOfficeDaysGivenToIt() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = cli.folder.appendingPathComponent("vdir").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try cli.writeConfig("[calendar]\nfolder = \"\(folder)\"\nwrite = true\n")
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let client = try TestSocketClient(path: agent.socket)
        let file = folder + "/deskdays-office-2026-03-09.ics"
        #expect(client.request(#"{"cmd":"checkin","date":"2026-03-09","status":"office"}"#)?["ok"] as? Bool == true)
        #expect(await eventually("\(file) written by the agent") { FileManager.default.fileExists(atPath: file) }, "\(agent.logText)")
        // A connection made just before asking (the agent closes one idle for 5 s, as the wait above may be).
        let again = try TestSocketClient(path: agent.socket)
        #expect(again.request(#"{"cmd":"clear","date":"2026-03-09","origin":"manual"}"#)?["ok"] as? Bool == true)
        #expect(await eventually("\(file) removed by the agent") { !FileManager.default.fileExists(atPath: file) }, "\(agent.logText)")
        #expect(await agent.stop() == 0)
    }
}
