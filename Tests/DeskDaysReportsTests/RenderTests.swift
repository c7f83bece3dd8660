import DeskDaysCore
import DeskDaysReports
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The SVGs and the HTML page: well-formed, self-contained, private, and
/// rendered for real by librsvg and headless Chromium.
@Suite struct RenderTests {
    let locale = ReportLocale(identifier: "en_GB")

    func charts(_ data: ReportData) -> [(name: String, svg: String, width: Int, height: Int)] {
        [("burndown", BurndownChart(data: data, locale: locale).svg(), BurndownChart.width, BurndownChart.height),
         ("weeks", WeeksChart(data: data, locale: locale).svg(), WeeksChart.width, WeeksChart.height),
         ("heatmap", CalendarHeatmap(data: data, locale: locale).svg(), 0, 0)]
    }

    @Test(arguments: ["worked", "weekly"])
    func svgIsWellFormedXML(_ scenario: String) {
        let data = scenario == "worked" ? Scenarios.workedExample() : Scenarios.weeklySundayStart()
        for chart in charts(data) {
            let parser = XMLParser(data: Data(chart.svg.utf8))
            #expect(parser.parse(), "\(chart.name): \(String(describing: parser.parserError))")
        }
    }

    @Test func svgReferencesNothingOutside() {
        for chart in charts(Scenarios.workedExample()) {
            // The namespace is a name, not a fetch; nothing else may look like an address.
            let body = chart.svg.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
            for forbidden in ["http:", "https:", "//", "href", "<script", "@import", "url(", "@font-face", "<image"] {
                #expect(!body.contains(forbidden), "\(chart.name) contains \(forbidden)")
            }
            #expect(chart.svg.contains("prefers-color-scheme: dark"), "\(chart.name) has no dark palette")
        }
    }

    @Test func htmlReferencesNothingOutside() {
        let page = HTMLReport(data: Scenarios.workedExample(), locale: locale).html()
        for forbidden in ["http:", "https:", "//", "src=", "href", "@import", "url(", "<script", "<link", "<iframe", "<img", "@font-face"] {
            #expect(!page.lowercased().contains(forbidden), "the page contains \(forbidden)")
        }
        #expect(page.contains("<svg"))
        #expect(page.contains("default-src 'none'"))
    }

    /// With min_hours set, the HTML table, the heatmap's hover titles and the
    /// calendar's figures show time on site; without it nothing changes.
    @Test func hoursShowOnlyWithMinHours() {
        var data = Scenarios.workedExample()
        let date = LocalDate("2026-11-16")!
        let at = Policy(timeZone: TimeZone(identifier: "UTC")!).instant(of: date, hour: 8, minute: 52)
        data.presence = DayPresence.days(
            // A departure counts after an arrival of its own source: Wi-Fi arrived with the tap.
            checkIns: [AutomaticCheckIn(date: date, source: .nfc, rule: nil, at: at),
                       AutomaticCheckIn(date: date, source: .wifi, rule: nil, at: at)],
            signs: [LatestSign(date: date, source: .wifi, at: at.addingTimeInterval(8 * 3600 + 48 * 60), kind: .departure)],
            policy: data.policy, now: at.addingTimeInterval(86_400 * 3))
        let plain = HTMLReport(data: data, locale: locale).html()
        #expect(!plain.contains("On site"))
        #expect(!CalendarHeatmap(data: data, locale: locale).svg().contains("on site"))
        data.policy.minHours = 4
        data.report.shortDays = 3
        let page = HTMLReport(data: data, locale: locale).html()
        #expect(page.contains("<th scope=\"col\">On site</th>"))
        #expect(page.contains("<td>08:52–17:40, 8.8 h</td>"))
        #expect(page.contains("Short days (under 4 h on site)"))
        #expect(CalendarHeatmap(data: data, locale: locale).svg().contains("on site 08:52–17:40, 8.8 h"))
        #expect(TerminalCalendar(data: data, locale: locale, colour: false).figures().contains("Short days (under 4 h on site): 3"))
    }

    @Test func htmlShowsSourceTypesButNoRulesOrNotes() {
        let page = HTMLReport(data: Scenarios.workedExample(), locale: locale).html()
        #expect(page.contains("NFC tag"))
        #expect(page.contains("Wi-Fi"))
        #expect(page.contains("manual entry"))
        for secret in ["hq-secret-rule", "Corp-SSID", "dentist"] {
            #expect(!page.contains(secret), "the page leaks \(secret)")
        }
        // Every workday of the period has its row; Christmas shows its holiday name.
        #expect(page.contains("<th scope=\"row\">18 Nov 2026</th>"))
        #expect(page.contains("Christmas Day"))
    }

    @Test(.enabled(if: Tools.has("rsvg-convert"), "rsvg-convert not installed: apt-get install librsvg2-bin"))
    func svgRendersWithLibrsvg() async throws {
        let folder = try Tools.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for chart in charts(Scenarios.workedExample()) {
            let svg = folder.appendingPathComponent("\(chart.name).svg"), png = folder.appendingPathComponent("\(chart.name).png")
            try chart.svg.write(to: svg, atomically: true, encoding: .utf8)
            #expect(try await Tools.run("rsvg-convert", ["--format", "png", "--output", png.path, svg.path]) == 0)
            let size = try #require(Tools.pngSize(try Data(contentsOf: png)), "\(chart.name) did not render a PNG")
            if chart.width > 0 {
                #expect(size.width == chart.width && size.height == chart.height)
            } else {
                #expect(size.width > 300 && size.height > 150)
            }
        }
    }

    @Test(.enabled(if: Tools.has("chromium"), "chromium not installed: apt-get install chromium"))
    func htmlRendersInHeadlessChromium() async throws {
        let folder = try Tools.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = folder.appendingPathComponent("report.html"), png = folder.appendingPathComponent("report.png")
        try HTMLReport(data: Scenarios.workedExample(), locale: locale).html().write(to: html, atomically: true, encoding: .utf8)
        let status = try await Tools.run("chromium", [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
            "--screenshot=\(png.path)", "--window-size=900,1600", html.absoluteString,
        ], timeout: 120)
        #expect(status == 0)
        let data = try Data(contentsOf: png)
        let size = try #require(Tools.pngSize(data), "Chromium wrote no PNG")
        #expect(size.width == 900 && size.height == 1600)
        // A blank page compresses to almost nothing; a drawn report does not.
        #expect(data.count > 20_000)
    }
}
