import Foundation
import Testing
import Spawn
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
        pre.id = "result";
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

    /// `page` with `script` appended, as headless Chromium lays it out: the
    /// text of the `<pre id="result">` the script writes.
    static func laidOut(_ page: URL, script: String, in folder: URL, name: String) async throws -> String? {
        var html = try String(contentsOf: page, encoding: .utf8)
        html = html.replacingOccurrences(of: "<meta http-equiv=\"Content-Security-Policy\"[^>]*>", with: "", options: .regularExpression)
        html = html.replacingOccurrences(of: "</body>", with: script + "</body>")
        let measured = folder.appendingPathComponent("\(name)-measured.html"), dom = folder.appendingPathComponent("\(name)-dom.html")
        try html.write(to: measured, atomically: true, encoding: .utf8)
        let chromium = try await Child.start("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                                          "--user-data-dir=\(folder.appendingPathComponent("profile-\(name)").path)",
                                                          "--window-size=1000,800", "--dump-dom", measured.absoluteString],
                                             stdout: .file(dom.path))
        let ended = await chromium.wait(seconds: 120)
        if ended == nil { chromium.signal(SIGKILL) }
        #expect(ended != nil, "chromium still ran after 120 s")
        let printed = try String(contentsOf: dom, encoding: .utf8)
        guard let range = printed.range(of: #"<pre id="result">([^<]*)</pre>"#, options: .regularExpression) else { return nil }
        return String(printed[range]).replacingOccurrences(of: "<pre id=\"result\">", with: "").replacingOccurrences(of: "</pre>", with: "")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    func boxes(language: String, locale: String, catalogs: URL, cli: CLIRunner) async throws -> [Box] {
        let page = cli.folder.appendingPathComponent("\(language).html")
        let result = try await cli.run(["report", "--html", page.path, "--today", Self.today],
                                 environment: ["LC_ALL": "", "LANGUAGE": "", "LANG": locale, "DESKDAYS_LOCALEDIR": catalogs.path])
        #expect(result.status == 0, "\(result.stderr)")
        guard let json = try await Self.laidOut(page, script: Self.measure, in: cli.folder, name: language) else {
            Issue.record("Chromium printed no boxes")
            return []
        }
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

    /// The thirteen languages and the locale each is tried under.
    static let languages = [("en", "en_US.UTF-8"), ("en_GB", "en_GB.UTF-8"), ("de", "de_DE.UTF-8"), ("fr", "fr_FR.UTF-8"),
                            ("es", "es_ES.UTF-8"), ("it", "it_IT.UTF-8"), ("nl", "nl_NL.UTF-8"), ("pt_BR", "pt_BR.UTF-8"),
                            ("ru", "ru_RU.UTF-8"), ("ja", "ja_JP.UTF-8"), ("ko", "ko_KR.UTF-8"), ("zh_CN", "zh_CN.UTF-8"),
                            ("ar", "ar_EG.UTF-8")]

    /// What the page says of itself as Chromium lays it out: its `dir` and
    /// `lang`, every box whose text runs out of it (or a page wider than the
    /// window, or a chart's text outside its chart), and the text people
    /// read, line by line (the digested day table and code left out: they keep 0–9).
    static let pageCheck = """
        <script>
        const found = {dir: document.documentElement.dir, lang: document.documentElement.lang, overflow: [], lines: []};
        // A probe that runs out of its box, so the check is seen to catch one.
        const probe = document.createElement("p");
        probe.style = "width: 20px; white-space: nowrap";
        probe.textContent = "a probe wider than its box";
        document.body.appendChild(probe);
        if (document.documentElement.scrollWidth > window.innerWidth + 1)
          found.overflow.push("the page is " + document.documentElement.scrollWidth + " px wide in a " + window.innerWidth + " px window");
        document.querySelectorAll("body *").forEach(el => {
          if (el.closest("svg") || el.tagName === "SCRIPT") return;
          if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "visible")
            found.overflow.push(el.tagName.toLowerCase() + ": " + el.textContent.trim().slice(0, 80));
        });
        document.querySelectorAll("svg").forEach(svg => {
          const box = svg.getBoundingClientRect();
          svg.querySelectorAll("text").forEach(text => {
            const r = text.getBoundingClientRect();
            if (text.textContent.trim() !== "" && (r.left < box.left - 1 || r.right > box.right + 1))
              found.overflow.push("chart text “" + text.textContent + "” outside its chart");
            found.lines.push(text.textContent);
          });
        });
        found.probeCaught = found.overflow.some(text => text.includes("a probe wider than its box"));
        found.overflow = found.overflow.filter(text => !text.includes("a probe wider than its box"));
        probe.remove();
        document.querySelectorAll("table.days, code, svg").forEach(el => el.remove());
        found.lines = found.lines.concat(document.body.innerText.split("\\n"));
        const pre = document.createElement("pre");
        pre.id = "result";
        pre.textContent = JSON.stringify(found);
        document.body.appendChild(pre);
        </script>
        """

    /// The HTML report and the evidence page in each of the thirteen
    /// languages: nothing overflows its box, `lang` and `dir` are the
    /// language's, and in Arabic every figure is Arabic-Indic and isolated.
    @Test func everyLanguageFitsItsPagesAndWritesItsFigures() async throws {
        let catalogs = try await Catalogs.compiled(Catalogs.languages)
        defer { try? FileManager.default.removeItem(at: catalogs) }
        #expect(Set(Self.languages.map(\.0)).subtracting(["en"]) == Set(Catalogs.languages), "a language without a page check")
        let cli = try await LanguageTests().seeded()
        defer { cli.cleanup() }
        try cli.writeConfig(try String(contentsOfFile: cli.config, encoding: .utf8).replacingOccurrences(of: "[policy]\n", with: "[policy]\nmin_hours = 4\n"))
        for arguments in [["checkin", "--date", "2026-11-11", "--status", "vacation"], ["checkin", "--date", "2026-11-12", "--status", "remote"],
                          ["clear", "--date", "2026-11-12"]] {
            #expect(try await cli.run(arguments + ["--today", LanguageTests.today]).status == 0)
        }
        var problems: [String] = []
        for (language, locale) in Self.languages {
            let environment = ["LC_ALL": "", "LANGUAGE": "", "LANG": locale, "DESKDAYS_LOCALEDIR": catalogs.path]
            for (name, command) in [("report", ["report", "--html"]), ("evidence", ["evidence", "--out"])] {
                let page = cli.folder.appendingPathComponent("\(name)-\(language).html")
                let result = try await cli.run(command + [page.path, "--today", LanguageTests.today], environment: environment)
                #expect(result.status == 0, "\(language) \(name): \(result.stderr)")
                guard let json = try await Self.laidOut(page, script: Self.pageCheck, in: cli.folder, name: "\(name)-\(language)"),
                      let found = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
                    problems.append("\(language) \(name): Chromium printed nothing")
                    continue
                }
                let tag = language == "en" ? "en" : language.replacingOccurrences(of: "_", with: "-")
                if found["lang"] as? String != tag { problems.append("\(language) \(name): lang=\(found["lang"] ?? "")") }
                if found["probeCaught"] as? Bool != true { problems.append("\(language) \(name): the overflow probe was not caught") }
                if found["dir"] as? String != (language == "ar" ? "rtl" : "ltr") { problems.append("\(language) \(name): dir=\(found["dir"] ?? "")") }
                for overflow in found["overflow"] as? [String] ?? [] { problems.append("\(language) \(name): \(overflow)") }
                let lines = found["lines"] as? [String] ?? []
                if lines.count < 20 { problems.append("\(language) \(name): only \(lines.count) lines of text") }
                if language == "ar" {
                    for line in lines { for problem in RightToLeftTests.problems(line) { problems.append("ar \(name): \(problem): \(line)") } }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count):\n\(problems.prefix(60).joined(separator: "\n"))")
    }
}
