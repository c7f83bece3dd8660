import Foundation
import Testing
import TestSupport

/// The HTML report in Arabic, Japanese and Brazilian Portuguese as headless
/// Chromium lays it out with real fonts: no two text
/// boxes of a chart overlap, and in Arabic the heatmap's first column (the
/// week's first day) is on the right.
@Suite(.enabled(if: Catalogs.available && toolExists("chromium"), "msgfmt or chromium not installed: apt-get install gettext chromium"))
struct ChromiumLayoutTests {
    static let today = "2026-11-18"

    /// Appended to a copy of the page (whose policy forbids scripts, so the
    /// copy drops it): every chart text's box, written into the DOM Chromium prints.
    static let measure = """
        <script>
        const boxes = [];
        document.querySelectorAll("svg").forEach((svg, chart) => svg.querySelectorAll("text").forEach(text => {
          const r = text.getBoundingClientRect();
          if (text.textContent.trim() !== "") boxes.push([chart, text.textContent, r.left, r.top, r.right, r.bottom]);
        }));
        const pre = document.createElement("pre");
        pre.id = "boxes";
        pre.textContent = JSON.stringify(boxes);
        document.body.appendChild(pre);
        </script>
        """

    struct Box {
        var chart: Int, text: String, left: Double, top: Double, right: Double, bottom: Double

        func overlaps(_ other: Box) -> Bool {
            // A pixel of anti-aliasing is not an overlap.
            min(right, other.right) - max(left, other.left) > 1 && min(bottom, other.bottom) - max(top, other.top) > 1
        }
    }

    func boxes(language: String, locale: String, catalogs: URL, cli: CLIRunner) async throws -> [Box] {
        let page = cli.folder.appendingPathComponent("\(language).html")
        let result = try await cli.run(["report", "--html", page.path, "--today", Self.today],
                                 environment: ["LC_ALL": "", "LANGUAGE": "", "LANG": locale, "DESKDAYS_LOCALEDIR": catalogs.path])
        #expect(result.status == 0, "\(result.stderr)")
        var html = try String(contentsOf: page, encoding: .utf8)
        html = html.replacingOccurrences(of: "<meta http-equiv=\"Content-Security-Policy\"[^>]*>", with: "", options: .regularExpression)
        html = html.replacingOccurrences(of: "</body>", with: Self.measure + "</body>")
        let measured = cli.folder.appendingPathComponent("\(language)-measured.html"), dom = cli.folder.appendingPathComponent("\(language)-dom.html")
        try html.write(to: measured, atomically: true, encoding: .utf8)
        let chromium = try await Child.start("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                                          "--user-data-dir=\(cli.folder.appendingPathComponent("profile-\(language)").path)",
                                                          "--window-size=1000,800", "--dump-dom", measured.absoluteString],
                                             stdout: .file(dom.path))
        let ended = await chromium.wait(seconds: 120)
        if ended == nil { chromium.signal(SIGKILL) }
        #expect(ended != nil, "chromium still ran after 120 s")
        let printed = try String(contentsOf: dom, encoding: .utf8)
        guard let range = printed.range(of: #"<pre id="boxes">([^<]*)</pre>"#, options: .regularExpression) else {
            Issue.record("Chromium printed no boxes")
            return []
        }
        let json = String(printed[range]).replacingOccurrences(of: "<pre id=\"boxes\">", with: "").replacingOccurrences(of: "</pre>", with: "")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[Any]])
        return rows.map { row in
            Box(chart: row[0] as! Int, text: row[1] as! String, left: (row[2] as! NSNumber).doubleValue, top: (row[3] as! NSNumber).doubleValue,
                right: (row[4] as! NSNumber).doubleValue, bottom: (row[5] as! NSNumber).doubleValue)
        }
    }

    @Test(arguments: [("ar", "ar_EG.UTF-8"), ("ja", "ja_JP.UTF-8"), ("pt_BR", "pt_BR.UTF-8")])
    func chartTextNeverOverlaps(_ language: String, _ locale: String) async throws {
        let catalogs = try await Catalogs.compiled([language])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n")
        for date in ["2026-10-05", "2026-10-06", "2026-11-02", "2026-11-03", "2026-11-09", "2026-11-16"] {
            #expect(try await cli.run(["checkin", "--date", date, "--today", Self.today]).status == 0)
        }
        let boxes = try await boxes(language: language, locale: locale, catalogs: catalogs, cli: cli)
        #expect(Set(boxes.map(\.chart)) == [0, 1, 2], "three charts measured")
        for chart in 0..<3 {
            let texts = boxes.filter { $0.chart == chart }
            for (index, box) in texts.enumerated() {
                for other in texts[(index + 1)...] where box.overlaps(other) {
                    Issue.record("\(language), chart \(chart): “\(box.text)” overlaps “\(other.text)”")
                }
            }
        }
        // The heatmap (the first chart): each month's title, then its seven weekday headers, the week's first day first.
        let heatmap = boxes.filter { $0.chart == 0 }
        let headers = Array(heatmap.dropFirst().prefix(7))
        #expect(headers.count == 7)
        let first = (headers[0].left + headers[0].right) / 2, last = (headers[6].left + headers[6].right) / 2
        if language == "ar" {
            #expect(first > last, "Arabic: the first column on the right (\(first) vs \(last))")
        } else {
            #expect(first < last, "\(language): the first column on the left")
        }
    }
}
