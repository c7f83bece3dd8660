import Localization
import DeskDaysCore
import Foundation
import Testing
import Spawn
import TestSupport

/// The report files and `days` in the languages whose scripts broke the
/// layout, through the real CLI
/// with the catalogs compiled from po/.
@Suite(.enabled(if: Catalogs.available, "msgfmt not installed: apt-get install gettext"))
struct ScriptsCLITests {
    static let today = "2026-11-18"

    func seeded() async throws -> CLIRunner {
        let cli = try CLIRunner()
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n\n[[holidays]]\ndate = \"2026-11-11\"\nname = \"Armistice\"\n")
        for date in ["2026-11-02", "2026-11-03", "2026-11-09"] {
            #expect(try await cli.run(["checkin", "--date", date, "--today", Self.today]).status == 0)
        }
        return cli
    }

    static func environment(_ locale: String, _ catalogs: URL) -> [String: String] {
        ["LC_ALL": "", "LANGUAGE": "", "LANG": locale, "DESKDAYS_LOCALEDIR": catalogs.path]
    }

    /// Drawn width at the charts' 12 px: a wide (CJK) character a full em, anything else about 0.6 em.
    static func drawnWidth(_ text: String) -> Double {
        text.unicodeScalars.reduce(0) { $0 + (Localization.displayWidth(String($1)) == 2 ? 12 : 7.2) }
    }

    /// The legend entries of a chart as (swatch's x, label's x, label).
    static func legend(_ svg: String) -> [(swatch: Double, text: Double, label: String)] {
        let regex = try! NSRegularExpression(pattern: #"<g transform="translate\(([0-9.]+) [0-9.]+\)">.*?<text class="fg" x="([0-9.-]+)" y="0">([^<]*)</text></g>"#)
        let string = svg as NSString
        return regex.matches(in: svg, range: NSRange(location: 0, length: string.length)).map { match in
            let origin = Double(string.substring(with: match.range(at: 1)))!
            return (origin, origin + Double(string.substring(with: match.range(at: 2)))!, string.substring(with: match.range(at: 3)))
        }
    }

    /// In Japanese each legend label ends before the next entry's swatch.
    @Test func japaneseLegendsLeaveRoomForTheirLabels() async throws {
        let catalogs = try await Catalogs.compiled(["ja"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        for kind in ["burndown", "weeks"] {
            let path = cli.folder.appendingPathComponent("\(kind).svg").path
            let result = try await cli.run(["chart", kind, "--out", path, "--today", Self.today], environment: Self.environment("ja_JP.UTF-8", catalogs))
            #expect(result.status == 0, "\(result.stderr)")
            let entries = Self.legend(try String(contentsOfFile: path, encoding: .utf8))
            #expect(entries.count >= 5, "\(kind): \(entries)")
            #expect(entries.contains { $0.label.unicodeScalars.contains { Localization.displayWidth(String($0)) == 2 } }, "not Japanese: \(entries)")
            for (entry, next) in zip(entries, entries.dropFirst()) {
                #expect(entry.text + Self.drawnWidth(entry.label) < next.swatch, "\(kind): \(entry.label) runs into the next swatch")
            }
        }
    }

    /// Arabic: the charts are right to left, figures in one digit system, and
    /// the count of workdays takes its own plural form (66 → يومَ, not أيام).
    @Test func arabicChartsAreRightToLeftWithOneDigitSystem() async throws {
        let catalogs = try await Catalogs.compiled(["ar"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        let arabic = Self.environment("ar_EG.UTF-8", catalogs)
        let page = cli.folder.appendingPathComponent("report.html").path
        #expect(try await cli.run(["report", "--html", page, "--today", Self.today], environment: arabic).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.components(separatedBy: "<svg direction=\"rtl\"").count == 4, "three right-to-left charts")
        // Text the reader sees (not markup, styles or coordinates) has no Latin digit.
        let body = html.replacingOccurrences(of: "<style>[^<]*</style>", with: "", options: .regularExpression)
        let texts = body.split(separator: "<").compactMap { $0.split(separator: ">", maxSplits: 1).dropFirst().first }.map(String.init)
        let latin = texts.filter { $0.range(of: "[0-9]", options: .regularExpression) != nil }
        #expect(latin.isEmpty, "Latin digits beside Arabic-Indic ones: \(latin.prefix(5))")
        #expect(html.contains("٢٠٢٦"))
        // The pending marker is not the middle dot that reads as ٠.
        let calendar = try await cli.run(["calendar", "--today", Self.today], environment: arabic).stdout
        #expect(!calendar.contains("·") && calendar.contains("–"), "\(calendar)")
        #expect(!calendar.contains("أيام عمل") && calendar.contains("يومَ عمل"), "\(calendar)")
    }

    /// In the C locale the HTML report and the calendar's figures write dates ISO.
    @Test func neutralDatesAreISO() async throws {
        let cli = try await seeded()
        defer { cli.cleanup() }
        let page = cli.folder.appendingPathComponent("report.html").path
        #expect(try await cli.run(["report", "--html", page, "--today", Self.today]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("2026-10-01 – 2026-12-31"), "the period in the subtitle")
        #expect(html.contains("<th scope=\"row\">2026-11-18</th>"))
        #expect(!html.contains("Nov 18, 2026") && !html.contains("Oct 1, 2026"))
        let calendar = try await cli.run(["calendar", "--today", Self.today]).stdout
        #expect(calendar.contains("Q4 2026: 2026-10-01 – 2026-12-31, today 2026-11-18"), "\(calendar)")
    }

    /// `days` names what a date without a status is, distinctly, in every language.
    @Test func daysMarksHolidaysUnrecordedAndPendingDates() async throws {
        let catalogs = try await Catalogs.compiled(Catalogs.languages)
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        for language in [nil] + Catalogs.languages {
            let environment = language.map { Self.environment("\($0).UTF-8", catalogs) } ?? [:]
            let result = try await cli.run(["days", "--from", "2026-11-10", "--to", "2026-11-20", "--today", Self.today], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = Catalogs.plainFigures(result.stdout).split(separator: "\n").map(String.init)
            func status(_ date: String) -> String {
                // The date, the weekday, then the status word(s).
                let line = lines.first { $0.hasPrefix(date) } ?? ""
                return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).joined(separator: " ")
            }
            let holiday = status("2026-11-11"), unrecorded = status("2026-11-10"), pending = status("2026-11-19")
            #expect(!holiday.isEmpty && !unrecorded.isEmpty && !pending.isEmpty, "\(language ?? "C"): \(result.stdout)")
            #expect(Set([holiday, unrecorded, pending]).count == 3, "\(language ?? "C"): \(result.stdout)")
            #expect(![holiday, unrecorded, pending].contains("-"))
            #expect(status("2026-11-14").isEmpty, "a Saturday stays blank")
        }
        #expect(try await cli.run(["days", "--from", "2026-11-10", "--to", "2026-11-19", "--today", Self.today]).stdout
                .contains("2026-11-11  wed  holiday"))
    }
}
