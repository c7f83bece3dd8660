import Foundation
import Testing
import Spawn
import TestSupport

/// `calendar`, `chart` and `report --html` end to end, and the streak keys
/// of `report --json` and `status --format json`.
@Suite struct ReportsCLITests {
    /// A runner with a few weeks of October–November 2026: Mondays to
    /// Wednesdays in the office (one of them by an NFC event), a vacation.
    func seeded() async throws -> CLIRunner {
        let cli = try CLIRunner()
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n")
        // Four office days a week: 60 % of Q4 (62 eligible days) spread over a week is ceil(38 × 5 / 62) = 4.
        for date in ["2026-10-26", "2026-10-27", "2026-10-28", "2026-10-29", "2026-11-02", "2026-11-03", "2026-11-04",
                     "2026-11-05", "2026-11-09", "2026-11-10", "2026-11-11", "2026-11-12"] {
            let result = try await cli.run(["checkin", "--date", date, "--today", "2026-11-18"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        try await cli.run(["event", "--source", "nfc", "--at", "2026-11-16T08:30:00Z", "--rule", "desk-secret"])
        try await cli.run(["checkin", "--from", "2026-12-21", "--to", "2026-12-24", "--status", "vacation", "--note", "ski trip",
                     "--today", "2026-11-18"])
        return cli
    }

    @Test func calendarIsPlainWithoutATerminal() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let result = try await cli.run(["calendar", "--months", "2", "--today", "2026-11-18"], environment: ["LANG": "en_GB.UTF-8"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(result.stdout.contains("October 2026") && result.stdout.contains("November 2026"))
        #expect(result.stdout.contains("[18·]"))
        #expect(result.stdout.contains(" 16● "))
        #expect(result.stdout.contains("● office"))
        #expect(result.stdout.contains("Streak: 3 compliant weeks in a row"))
    }

    @Test func calendarFollowsTheLocale() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let result = try await cli.run(["calendar", "--months", "2", "--today", "2026-11-18"],
                                 environment: ["LANG": "de_DE.UTF-8", "LC_ALL": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Oktober 2026"))
        #expect(result.stdout.contains(" Mo   Di   Mi   Do   Fr   Sa   So"))
    }

    @Test func calendarRejectsABadMonthCount() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let result = try await cli.run(["calendar", "--months", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--months") && result.stderr.split(separator: "\n").count == 1)
    }

    @Test func chartsAreWrittenPrivateAndSelfContained() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        for kind in ["burndown", "weeks"] {
            let path = cli.folder.appendingPathComponent("\(kind).svg").path
            let result = try await cli.run(["chart", kind, "--out", path, "--today", "2026-11-18"])
            #expect(result.status == 0, "\(result.stderr)")
            let svg = try String(contentsOfFile: path, encoding: .utf8)
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(!svg.contains("desk-secret"))
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test func pngWithoutRsvgConvertIsAClearError() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let path = cli.folder.appendingPathComponent("chart.png").path
        let result = try await cli.run(["chart", "burndown", "--out", path, "--today", "2026-11-18"],
                                 environment: ["PATH": cli.folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("rsvg-convert") && result.stderr.contains("--format svg"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(.enabled(if: toolExists("rsvg-convert"), "rsvg-convert not installed: apt-get install librsvg2-bin"))
    func pngThroughRsvgConvert() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let path = cli.folder.appendingPathComponent("weeks.img").path
        let result = try await cli.run(["chart", "weeks", "--out", path, "--format", "png", "--today", "2026-11-18"])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        #expect(bytes.count == 24 && bytes[1...3] == [0x50, 0x4E, 0x47])
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect((width, height) == (800, 360))
    }

    @Test func htmlReportAndStreakKeys() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let path = cli.folder.appendingPathComponent("report.html").path
        let result = try await cli.run(["report", "--html", path, "--json", "--today", "2026-11-18"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        #expect(json["streak_weeks"] as? Int == 3)
        #expect(json["longest_streak_weeks"] as? Int == 3)
        for key in ["today", "period", "target", "workdays", "office", "required", "compliance_to_date", "status"] {
            #expect(json[key] != nil, "\(key) is missing")
        }
        let page = try String(contentsOfFile: path, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("NFC tag"))
        for leak in ["desk-secret", "ski trip", "http:", "https:", "src="] {
            #expect(!page.contains(leak), "the page contains \(leak)")
        }
        let status = try await cli.run(["status", "--format", "json", "--today", "2026-11-18"])
        let statusJSON = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as! [String: Any]
        #expect(statusJSON["streak_weeks"] as? Int == 3)
        let text = try await cli.run(["report", "--today", "2026-11-18"])
        #expect(text.stdout.contains("Streak: 3 compliant weeks in a row (longest 3)."))
    }

    /// Month and weekday names of the date locale (ICU's, not the catalog's), longest first.
    static let germanNames: [String] = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "de_DE")
        let names = [formatter.monthSymbols, formatter.shortMonthSymbols, formatter.standaloneMonthSymbols,
                     formatter.shortStandaloneMonthSymbols, formatter.weekdaySymbols, formatter.shortWeekdaySymbols,
                     formatter.shortStandaloneWeekdaySymbols].flatMap { $0 ?? [] }
        return Set(names.map { $0.replacingOccurrences(of: ".", with: "") }).sorted { $0.count > $1.count }
    }()

    /// The words left in the text nodes of an HTML page or an SVG once the
    /// pseudo-locale's messages and the date locale's names are taken out:
    /// any word of three letters or more is English that escaped the catalog.
    static func englishWords(_ markup: String) -> [String] {
        let body = markup.replacingOccurrences(of: "<style>[^<]*</style>", with: "", options: .regularExpression)
        return body.split(separator: "<").compactMap { $0.split(separator: ">", maxSplits: 1).dropFirst().first }
            .map { text -> String in
                var rest = Catalogs.unwrapped(text.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&"))
                for name in germanNames { rest = rest.replacingOccurrences(of: name, with: " ") }
                return rest
            }
            .filter { $0.range(of: "[A-Za-z]{3,}", options: .regularExpression) != nil }
    }

    /// The files this area writes, in the pseudo-locale (docs/testing.md
    /// "Languages"; LanguageTests checks every command's standard output):
    /// the HTML report's and the charts' text nodes (titles, descriptions,
    /// captions, headers, legends) all come from the catalog, with German
    /// dates from LC_TIME; `<html lang>` is the catalog's language.
    @Test(.enabled(if: Catalogs.available, "msgfmt not installed: apt-get install gettext"))
    func reportFilesTakeEveryWordFromTheCatalog() async throws {
        let locale = try await Catalogs.compiled([], pseudo: true)
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        let pseudo = ["LC_ALL": "", "LANG": "de_DE.UTF-8", "LANGUAGE": Catalogs.pseudo, "DESKDAYS_LOCALEDIR": locale.path]
        let today = ["--today", "2026-11-18"]
        let path = cli.folder.appendingPathComponent("pseudo.html").path
        #expect(try await cli.run(["report", "--html", path] + today, environment: pseudo).status == 0)
        let page = try String(contentsOfFile: path, encoding: .utf8)
        #expect(page.contains("<html lang=\"\(Catalogs.pseudo)\" dir=\"ltr\">"))
        #expect(page.components(separatedBy: Catalogs.open).count > 100, "the pseudo-locale was not used")
        #expect(Self.englishWords(page).isEmpty, "the page left English outside the catalog: \(Self.englishWords(page))")
        for kind in ["burndown", "weeks"] {
            let svg = cli.folder.appendingPathComponent("\(kind).svg").path
            #expect(try await cli.run(["chart", kind, "--out", svg] + today, environment: pseudo).status == 0)
            let words = Self.englishWords(try String(contentsOfFile: svg, encoding: .utf8))
            #expect(words.isEmpty, "the \(kind) chart left English outside the catalog: \(words)")
        }
    }

    /// Milestones (docs/policy.md "Milestones"): five months in the office
    /// under a monthly 40 % rule are 110 office days (level 100, next 250),
    /// a 20-week run (level 13) and 5 months met (level 4); November, under
    /// way, is not counted. A rolling window has no whole periods to count.
    @Test func milestonesCountTheHistory() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\nperiod = \"month\"\n[policy.target]\nkind = \"percent\"\nvalue = 40\n")
        let environment = ["DESKDAYS_TODAY": "2026-11-20"]
        #expect(try await cli.run(["checkin", "--from", "2026-06-01", "--to", "2026-10-31"], environment: environment).status == 0)
        let json = try await cli.run(["report", "--json"], environment: environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stderr)")
        let milestones = try #require(object["milestones"] as? [String: [String: Int]], "\(json.stdout)")
        #expect(milestones["office_days"] == ["count": 110, "reached": 100, "next": 250])
        #expect(milestones["weeks_in_a_row"] == ["count": 20, "reached": 13, "next": 26])
        #expect(milestones["periods_met"] == ["count": 5, "reached": 4, "next": 8])
        let text = try await cli.run(["report"], environment: environment)
        #expect(text.stdout.contains("Milestones: 100 office days, 13 compliant weeks in a row, and 4 periods met. Next milestone: 250 office days (140 more)."),
                "\(text.stdout)")

        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\nperiod = \"rolling\"\nrolling_weeks = 12\n")
        let rolling = try await cli.run(["report", "--json"], environment: environment)
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(rolling.stdout.utf8)) as? [String: Any], "\(rolling.stderr)")
        #expect((keys["milestones"] as? [String: Any])?["periods_met"] == nil && (keys["milestones"] as? [String: Any])?["office_days"] != nil,
                "\(rolling.stdout)")
    }
}
