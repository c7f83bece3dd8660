import DeskDaysCore
@testable import DeskDaysReports
import Foundation
import Testing

/// The HTML report for people who read it with assistive technology or in a
/// right-to-left language: `lang` and `dir` from the messages' language,
/// headings, tables with captions and column/row headers, each chart an
/// image with a title and a description and its figures as a table; checked
/// in the page's text and in the DOM headless Chromium builds from it.
@Suite struct AccessibleHTMLTests {
    static let english = ReportLocale(identifier: "en_GB")
    static let arabic = ReportLocale(time: Locale(identifier: "ar_EG"), numbers: Locale(identifier: "ar_EG"), messages: "ar")

    static func all(_ pattern: String, in text: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        let string = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: string.length)).map { match in
            (0..<match.numberOfRanges).map { match.range(at: $0).location == NSNotFound ? "" : string.substring(with: match.range(at: $0)) }
        }
    }

    /// What every report page must have, whoever serialised it (our own
    /// text, or Chromium's DOM after parsing it).
    static func checkStructure(_ page: String, lang: String, dir: String) {
        #expect(page.contains("<html lang=\"\(lang)\" dir=\"\(dir)\">"), "no lang=\(lang) dir=\(dir)")
        #expect(all("<h1>", in: page).count == 1)
        let headings = all("<h2>([^<]*)</h2>", in: page).map { $0[1] }
        #expect(headings.count == 5, "\(headings)")
        let tables = all("<table[^>]*>(.*?)</table>", in: page).map { $0[1] }
        #expect(tables.count == 5, "figures, three charts' data, days: \(tables.count)")
        for table in tables {
            // The caption comes first: the parser would move it otherwise.
            #expect(table.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("<caption>"), "a table without a caption first")
            #expect(!all("<th scope=\"(col|row)\">", in: table).isEmpty, "a table without headers")
            #expect(all("<th>", in: table).isEmpty, "a header cell without a scope")
        }
        // Column headers sit in a thead, row headers start their rows.
        #expect(all("<thead><tr>(<th scope=\"col\">[^<]*</th>)+</tr></thead>", in: page).count == 4)
        #expect(all("<tr><th scope=\"row\">", in: page).count > 60)
        // Each chart: one image, named and described by its own elements.
        let charts = all("<svg[^>]*role=\"img\" aria-labelledby=\"([a-z]+)-title ([a-z]+)-desc\"[^>]*>\\s*<title id=\"([a-z]+)-title\">[^<]+</title>\\s*<desc id=\"([a-z]+)-desc\">[^<]+</desc>", in: page)
        #expect(charts.count == 3, "charts with a title and a description: \(charts.count)")
        #expect(Set(charts.map { $0[1] }) == ["heatmap", "burndown", "weeks"])
        for chart in charts { #expect(Set(chart[1...4]).count == 1, "\(chart[1]) names another chart's title") }
        #expect(all("<svg", in: page).count == 3)
    }

    @Test func englishPageStructure() {
        let page = HTMLReport(data: Scenarios.workedExample(), locale: Self.english).html()
        Self.checkStructure(page, lang: "en", dir: "ltr")
        #expect(page.contains("<th scope=\"col\">Date</th>"))
        #expect(page.contains("<th scope=\"row\">18 Nov 2026</th>"))
        // The weeks chart's table holds the chart's figures: one row per week with its verdict.
        let weeks = Scenarios.workedExample().chartWeeks()
        #expect(Self.all("<td>(met|missed|not over yet|excused)</td></tr>", in: page).count == weeks.count)
    }

    @Test func arabicPageIsRightToLeft() {
        let page = HTMLReport(data: Scenarios.workedExample(), locale: Self.arabic).html()
        Self.checkStructure(page, lang: "ar", dir: "rtl")
        // Table cells align to the start of the line, which is the right in Arabic.
        #expect(!HTMLReport.pageStyle.contains("text-align:left") && !HTMLReport.pageStyle.contains("text-align:right"))
    }

    @Test func evidencePageHasLangAndHeaders() {
        let data = Scenarios.workedExample()
        let page = EvidencePage(policy: data.policy, report: data.report, resolved: data.days, presence: [:], records: [],
                                removals: [], settings: [], generated: Scenarios.stamp, locale: Self.arabic).html()
        #expect(page.contains("<html lang=\"ar\" dir=\"rtl\">"))
        #expect(page.contains("<th scope=\"col\">date</th>"))
        // The day table has a caption; the policy's and figures' tables are named by their headings.
        #expect(page.contains("<table class=\"days\">\n<caption>"))
        #expect(Self.all("<th>", in: page).isEmpty, "a header cell without a scope")
    }

    /// Chromium parses the page and prints its DOM: the language, the
    /// headings and every table's headers survive a real browser's parser
    /// (which would move stray captions, cells or rows out of place).
    @Test(.enabled(if: Tools.has("chromium"), "chromium not installed: apt-get install chromium"),
          arguments: ["en", "ar"])
    func chromiumKeepsLangHeadingsAndTableHeaders(_ language: String) async throws {
        let folder = try Tools.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = folder.appendingPathComponent("report.html"), dom = folder.appendingPathComponent("dom.html")
        let locale = language == "ar" ? Self.arabic : Self.english
        try HTMLReport(data: Scenarios.workedExample(), locale: locale).html().write(to: html, atomically: true, encoding: .utf8)
        let status = try await Tools.runCapturing("chromium", [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
            "--dump-dom", html.absoluteString,
        ], to: dom, timeout: 120)
        #expect(status == 0)
        let parsed = try String(contentsOf: dom, encoding: .utf8)
        #expect(parsed.contains("</html>"), "Chromium printed no DOM")
        Self.checkStructure(parsed, lang: language, dir: language == "ar" ? "rtl" : "ltr")
    }
}
