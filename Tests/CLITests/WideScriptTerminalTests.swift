import Localization
import DeskDaysCore
import Foundation
import Testing
import Spawn
import TestSupport

/// Korean and Chinese in the terminal (docs/cli.md "Languages"): a Hangul
/// or Han character takes two columns, so `calendar`, `days` and `report`
/// lay their columns out by display width, as for Japanese.
@Suite(.enabled(if: Catalogs.available, "msgfmt not installed: apt-get install gettext"))
struct WideScriptTerminalTests {
    static let today = "2026-11-18"

    /// The display columns at which each run of characters ends: of
    /// non-blank ones, or only of digits (a day's number, not its mark).
    static func runEnds(_ line: String, digits: Bool = false) -> [Int] {
        var ends: [Int] = [], column = 0, inRun = false
        for character in line {
            let blank = digits ? !character.isASCII || !character.isNumber : character == " "
            if blank, inRun { ends.append(column) }
            inRun = !blank
            column += Localization.displayWidth(String(character))
        }
        if inRun { ends.append(column) }
        return ends
    }

    /// The display column each field (runs separated by two or more spaces) starts at.
    static func fieldStarts(_ line: String) -> [Int] {
        var starts: [Int] = [], column = 0, spaces = 0
        for (index, character) in line.enumerated() {
            if character == " " {
                spaces += 1
            } else {
                if index == 0 || spaces >= 2 { starts.append(column) }
                spaces = 0
            }
            column += Localization.displayWidth(String(character))
        }
        return starts
    }

    @Test func theCheckMeasuresDisplayWidth() {
        #expect(Self.runEnds(" 월   화") == [3, 8])
        #expect(Self.runEnds("  2●   3●", digits: true) == [3, 8], "a day's number without its mark")
        #expect(Self.runEnds(" 16?  17? [18·] 19·", digits: true) == [3, 8, 13, 18])
        #expect(Self.fieldStarts("2026-11-16  월  기록 없음   08:30") == [0, 12, 16, 28])
    }

    @Test(arguments: [("ko", "ko_KR.UTF-8"), ("zh_CN", "zh_CN.UTF-8")])
    func columnsLineUpByDisplayWidth(language: String, locale: String) async throws {
        let catalogs = try await Catalogs.compiled([language])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\nmin_hours = 4\n\n[policy.target]\nkind = \"days_per_week\"\nvalue = 3\n")
        for date in ["2026-11-02", "2026-11-03", "2026-11-09"] {
            #expect(try await cli.run(["checkin", "--date", date, "--today", Self.today]).status == 0)
        }
        #expect(try await cli.run(["checkin", "--date", "2026-11-04", "--status", "remote", "--today", Self.today]).status == 0)
        #expect(try await cli.run(["event", "--source", "nfc", "--at", "2026-11-16T08:30:00Z", "--rule", "desk"]).status == 0)
        let environment = ["LC_ALL": "", "LANGUAGE": "", "LANG": locale, "DESKDAYS_LOCALEDIR": catalogs.path]

        // calendar: each weekday's name ends in the column its day numbers end in.
        let calendar = try await cli.run(["calendar", "--months", "2", "--today", Self.today], environment: environment)
        #expect(calendar.status == 0, "\(calendar.stderr)")
        let lines = calendar.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let isDigit = { (character: Character) in character.isASCII && character.isNumber }
        let headers = lines.filter { line in Self.runEnds(line).count == 7 && !line.contains(where: isDigit) }
        #expect(headers.count == 2, "two weekday headers:\n\(calendar.stdout)")
        #expect(headers.allSatisfy { $0.contains { Localization.displayWidth(String($0)) == 2 } }, "the headers are in wide characters")
        // Full weeks: seven day numbers and their marks, nothing else.
        let weeks = lines.filter { line in
            Self.runEnds(line, digits: true).count == 7 && line.allSatisfy { isDigit($0) || " ●○~?+·*[]#o-".contains($0) }
        }
        #expect(weeks.count >= 6, "\(calendar.stdout)")
        for week in weeks {
            #expect(Self.runEnds(week, digits: true) == Self.runEnds(headers[0]), "\(language): “\(week)” under “\(headers[0])”")
        }

        // days: the status and the times start in one column on every line.
        let days = try await cli.run(["days", "--from", "2026-11-02", "--to", "2026-11-18", "--today", Self.today], environment: environment)
        #expect(days.status == 0, "\(days.stderr)")
        let rows = days.stdout.split(separator: "\n").map(String.init).filter { Self.fieldStarts($0).count >= 3 }
        #expect(rows.count >= 10, "\(days.stdout)")
        #expect(Set(rows.map { Self.fieldStarts($0)[2] }).count == 1, "\(language): the statuses start in different columns:\n\(days.stdout)")
        #expect(rows.contains { $0.contains("08:30") }, "the tap's time on site:\n\(days.stdout)")

        // report: each week's count in one column (the dates are as wide as the language writes them).
        let report = try await cli.run(["report", "--today", Self.today], environment: environment)
        #expect(report.status == 0, "\(report.stderr)")
        let counted = report.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  ") && $0.contains("/") }
        #expect(counted.count >= 13, "\(report.stdout)")
        let columns = Set(counted.compactMap { line in
            line.range(of: #"\d+/\d+"#, options: .regularExpression).map { Localization.displayWidth(String(line[..<$0.lowerBound])) }
        })
        #expect(columns.count == 1, "\(language): the counts start at display columns \(columns.sorted()):\n\(counted.joined(separator: "\n"))")
    }
}
