import Foundation
import Testing

/// `calendar`, `chart` and `report --html` end to end, and the streak keys
/// of `report --json` and `status --format json`.
@Suite struct ReportsCLITests {
    /// A runner with a few weeks of October–November 2026: Mondays to
    /// Wednesdays in the office (one of them by an NFC event), a vacation.
    func seeded() throws -> CLIRunner {
        let cli = try CLIRunner()
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n")
        for date in ["2026-10-26", "2026-10-27", "2026-10-28", "2026-11-02", "2026-11-03", "2026-11-04",
                     "2026-11-09", "2026-11-10", "2026-11-11"] {
            let result = try cli.run(["checkin", "--date", date, "--today", "2026-11-18"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        try cli.run(["event", "--source", "nfc", "--at", "2026-11-16T08:30:00Z", "--rule", "desk-secret"])
        try cli.run(["checkin", "--from", "2026-12-21", "--to", "2026-12-24", "--status", "vacation", "--note", "ski trip",
                     "--today", "2026-11-18"])
        return cli
    }

    @Test func calendarIsPlainWithoutATerminal() throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        let result = try cli.run(["calendar", "--months", "2", "--today", "2026-11-18"], environment: ["LANG": "en_GB.UTF-8"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(result.stdout.contains("October 2026") && result.stdout.contains("November 2026"))
        #expect(result.stdout.contains("[18·]"))
        #expect(result.stdout.contains(" 16● "))
        #expect(result.stdout.contains("● office"))
        #expect(result.stdout.contains("Streak: 3 compliant weeks in a row"))
    }

    @Test func calendarFollowsTheLocale() throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        let result = try cli.run(["calendar", "--months", "2", "--today", "2026-11-18"],
                                 environment: ["LANG": "de_DE.UTF-8", "LC_ALL": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Oktober 2026"))
        #expect(result.stdout.contains(" Mo   Di   Mi   Do   Fr   Sa   So"))
    }

    @Test func calendarRejectsABadMonthCount() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let result = try cli.run(["calendar", "--months", "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--months") && result.stderr.split(separator: "\n").count == 1)
    }

    @Test func chartsAreWrittenPrivateAndSelfContained() throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        for kind in ["burndown", "weeks"] {
            let path = cli.folder.appendingPathComponent("\(kind).svg").path
            let result = try cli.run(["chart", kind, "--out", path, "--today", "2026-11-18"])
            #expect(result.status == 0, "\(result.stderr)")
            let svg = try String(contentsOfFile: path, encoding: .utf8)
            #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(!svg.contains("desk-secret"))
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
    }

    @Test func pngWithoutRsvgConvertIsAClearError() throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        let path = cli.folder.appendingPathComponent("chart.png").path
        let result = try cli.run(["chart", "burndown", "--out", path, "--today", "2026-11-18"],
                                 environment: ["PATH": cli.folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("rsvg-convert") && result.stderr.contains("--format svg"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(.enabled(if: toolExists("rsvg-convert"), "rsvg-convert not installed: apt-get install librsvg2-bin"))
    func pngThroughRsvgConvert() throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        let path = cli.folder.appendingPathComponent("weeks.img").path
        let result = try cli.run(["chart", "weeks", "--out", path, "--format", "png", "--today", "2026-11-18"])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(24))
        #expect(bytes.count == 24 && bytes[1...3] == [0x50, 0x4E, 0x47])
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect((width, height) == (800, 360))
    }

    @Test func htmlReportAndStreakKeys() throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        let path = cli.folder.appendingPathComponent("report.html").path
        let result = try cli.run(["report", "--html", path, "--json", "--today", "2026-11-18"])
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
        let status = try cli.run(["status", "--format", "json", "--today", "2026-11-18"])
        let statusJSON = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as! [String: Any]
        #expect(statusJSON["streak_weeks"] as? Int == 3)
        let text = try cli.run(["report", "--today", "2026-11-18"])
        #expect(text.stdout.contains("Streak: 3 compliant weeks in a row (longest 3)."))
    }

    /// A pseudo-language built from po/deskdays.pot: every message wrapped
    /// in «…» (both plural forms), compiled by msgfmt into `folder/locale/de`.
    static func pseudoCatalog(in folder: URL) throws -> URL {
        let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../po/deskdays.pot").standardized
        var entries: [String] = []
        for block in try String(contentsOf: template, encoding: .utf8).components(separatedBy: "\n\n") {
            // Each key's escaped text, its quoted pieces joined.
            var keys: [String: String] = [:], current = ""
            for line in block.split(separator: "\n").map(String.init) where !line.hasPrefix("#") {
                if let space = line.firstIndex(of: " "), !line.hasPrefix("\"") { current = String(line[..<space]) }
                if let open = line.firstIndex(of: "\""), line.last == "\"" {
                    keys[current, default: ""] += String(line[line.index(after: open)..<line.index(before: line.endIndex)])
                }
            }
            guard let id = keys["msgid"] else { continue }
            if id.isEmpty {
                entries.append("msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\nLanguage: de\\nPlural-Forms: nplurals=2; plural=(n != 1);\\n\"")
            } else if let plural = keys["msgid_plural"] {
                entries.append("msgid \"\(id)\"\nmsgid_plural \"\(plural)\"\nmsgstr[0] \"«\(id)»\"\nmsgstr[1] \"«\(plural)»\"")
            } else {
                entries.append("msgid \"\(id)\"\nmsgstr \"«\(id)»\"")
            }
        }
        let po = folder.appendingPathComponent("pseudo.po"), locale = folder.appendingPathComponent("locale")
        let messages = locale.appendingPathComponent("de/LC_MESSAGES")
        try FileManager.default.createDirectory(at: messages, withIntermediateDirectories: true)
        try entries.joined(separator: "\n\n").write(to: po, atomically: true, encoding: .utf8)
        let compiled = try runTool(["msgfmt", "-o", messages.appendingPathComponent("deskdays.mo").path, po.path])
        #expect(compiled.status == 0, "msgfmt refused the pseudo catalog")
        return locale
    }

    /// What is left of `text` once every «…» (nested ones too) is taken out:
    /// any word of three letters or more is English that escaped translation.
    /// Month and weekday names of the date locale (ICU's, not the catalog's), longest first.
    static let germanNames: [String] = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "de_DE")
        let names = [formatter.monthSymbols, formatter.shortMonthSymbols, formatter.standaloneMonthSymbols,
                     formatter.shortStandaloneMonthSymbols, formatter.weekdaySymbols, formatter.shortWeekdaySymbols,
                     formatter.shortStandaloneWeekdaySymbols].flatMap { $0 ?? [] }
        return Set(names.map { $0.replacingOccurrences(of: ".", with: "") }).sorted { $0.count > $1.count }
    }()

    static func unwrapped(_ text: String) -> [String] {
        var rest = text
        while let range = rest.range(of: "«[^«»]*»", options: .regularExpression) { rest.replaceSubrange(range, with: " ") }
        for name in germanNames { rest = rest.replacingOccurrences(of: name, with: " ") }
        return rest.split(separator: "\n").map(String.init).filter { $0.range(of: "[A-Za-z]{3,}", options: .regularExpression) != nil }
    }

    /// The issue's pseudo-locale check over this area's human output:
    /// `status` (text and i3blocks), `report`, `calendar` and the HTML page
    /// say nothing in English outside the catalog's messages (dates and
    /// numbers come from LC_TIME/LC_NUMERIC, German here); JSON is unchanged.
    @Test(.enabled(if: toolExists("msgfmt"), "msgfmt not installed: apt-get install gettext"))
    func everyReportWordComesFromTheCatalog() throws {
        let cli = try seeded()
        defer { cli.cleanup() }
        let pseudo = ["LC_ALL": "", "LANG": "de_DE.UTF-8", "DESKDAYS_LOCALEDIR": try Self.pseudoCatalog(in: cli.folder).path]
        let today = ["--today", "2026-11-18"]
        for command in [["status"], ["status", "--format", "i3blocks"], ["report"], ["calendar", "--months", "2"]] {
            let result = try cli.run(command + today, environment: pseudo)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("«"), "\(command): no message translated")
            // i3blocks' short text and colour are figures, not words.
            #expect(Self.unwrapped(result.stdout).filter { !$0.hasPrefix("#") }.isEmpty,
                    "\(command) left English unwrapped: \(Self.unwrapped(result.stdout))")
        }
        let path = cli.folder.appendingPathComponent("pseudo.html").path
        #expect(try cli.run(["report", "--html", path] + today, environment: pseudo).status == 0)
        let page = try String(contentsOfFile: path, encoding: .utf8)
        #expect(page.contains("<html lang=\"de\" dir=\"ltr\">"))
        let body = page.replacingOccurrences(of: "<style>[^<]*</style>", with: "", options: .regularExpression)
        let texts = body.split(separator: "<").compactMap { $0.split(separator: ">", maxSplits: 1).dropFirst().first }
            .map { $0.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&") }
        let english = texts.flatMap { Self.unwrapped($0) }
        #expect(english.isEmpty, "the page left English unwrapped: \(english)")
        for kind in ["burndown", "weeks"] {
            let svg = cli.folder.appendingPathComponent("\(kind).svg").path
            #expect(try cli.run(["chart", kind, "--out", svg] + today, environment: pseudo).status == 0)
            let chart = try String(contentsOfFile: svg, encoding: .utf8)
                .replacingOccurrences(of: "<style>[^<]*</style>", with: "", options: .regularExpression)
            let words = chart.split(separator: "<").compactMap { $0.split(separator: ">", maxSplits: 1).dropFirst().first }
                .flatMap { Self.unwrapped(String($0).replacingOccurrences(of: "&#39;", with: "'")) }
            #expect(words.isEmpty, "the \(kind) chart left English unwrapped: \(words)")
        }
        let plain = try cli.run(["report", "--json"] + today), translated = try cli.run(["report", "--json"] + today, environment: pseudo)
        #expect(plain.stdout == translated.stdout && plain.stdout.contains("\"label\" : \"Q4 2026\""))
    }
}
