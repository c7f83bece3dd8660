import Localization
import Foundation
import DeskDaysCore
import Testing
import Spawn
import TestSupport

/// The CLI in the user's language (docs/cli.md "Languages", docs/testing.md):
/// catalogs compiled from po/ by msgfmt, chosen by LANGUAGE, LC_ALL,
/// LC_MESSAGES and LANG; a pseudo-locale made from the template shows any
/// message that escapes gettext; JSON is the same bytes in every language.
@Suite(.enabled(if: Catalogs.available, "msgfmt not installed: apt-get install gettext"))
struct LanguageTests {
    static let today = "2026-11-18"

    /// A runner with some October–November 2026 history and a configuration
    /// that names a sync folder, so that every command has something to say.
    func seeded() async throws -> CLIRunner {
        let cli = try CLIRunner()
        let sync = cli.folder.appendingPathComponent("sync").path
        try FileManager.default.createDirectory(atPath: sync, withIntermediateDirectories: true)
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n\n[sync]\nfolder = \"\(sync)\"\ndevice_name = \"x7\"\n")
        for date in ["2026-10-26", "2026-10-27", "2026-11-02", "2026-11-03", "2026-11-09", "2026-11-10"] {
            let result = try await cli.run(["checkin", "--date", date, "--today", Self.today])
            #expect(result.status == 0, "\(result.stderr)")
        }
        try await cli.run(["event", "--source", "nfc", "--at", "2026-11-16T08:30:00Z", "--rule", "hq7"])
        try await cli.run(["checkin", "--date", "2026-11-17", "--status", "sick", "--today", Self.today])
        return cli
    }

    /// Every command's human output (stdout and stderr), one run each, in `environment`.
    func everyCommand(_ cli: CLIRunner, _ environment: [String: String]) async throws -> [(String, String)] {
        let folder = cli.folder.path
        let employer = folder + "/employer.csv"
        try "Date,Location\n2026-11-02,Office\n2026-11-03,Office\n2026-11-04,Office\n".write(toFile: employer, atomically: true, encoding: .utf8)
        let broken = folder + "/broken.toml"
        try "[policy]\nshare = \"most\"\nweekdays = [\"Funday\"]\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let history = folder + "/history.csv"
        try "date,status,note\n2026-09-01,office,\n2026-09-02,remote,\n".write(toFile: history, atomically: true, encoding: .utf8)
        let runs: [[String]] = [
            ["status", "--today", Self.today],
            ["status", "--format", "waybar", "--today", Self.today],
            ["status", "--format", "i3blocks", "--today", Self.today],
            ["report", "--today", Self.today],
            ["report", "--period", "previous", "--today", Self.today],
            ["days", "--from", "2026-11-01", "--to", "2026-11-18", "--today", Self.today],
            ["explain", "2026-11-16", "--today", Self.today],
            ["explain", "2026-11-17", "--today", Self.today],
            ["explain", "2026-11-14", "--today", Self.today],
            ["calendar", "--months", "2", "--today", Self.today],
            ["checkin", "--date", "2026-11-18", "--today", Self.today],
            ["checkin", "--from", "2026-12-21", "--to", "2026-12-24", "--status", "vacation", "--today", Self.today],
            ["clear", "--date", "2026-11-18", "--today", Self.today],
            ["clear", "--date", "2026-11-16", "--origin", "automatic", "--today", Self.today],
            // What was removed, as explain lists it (kept in the database in fixed words).
            ["explain", "2026-11-18", "--today", Self.today],
            ["explain", "2026-11-16", "--today", Self.today],
            ["import", history, "--today", Self.today],
            ["reconcile", employer, "--from", "2026-11-01", "--to", "2026-11-18", "--today", Self.today],
            ["evidence", "--period", "current", "--out", folder + "/evidence.html", "--today", Self.today],
            ["report", "--html", folder + "/report.html", "--today", Self.today],
            ["chart", "weeks", "--out", folder + "/weeks.svg", "--today", Self.today],
            ["plan", "--prefer", "tue,thu", "--avoid", "2026-11-20", "--today", Self.today],
            ["plan", "--avoid", "2026-11-19..2026-12-31", "--today", Self.today],
            ["plan", "--write", "--today", Self.today],
            ["event", "--source", "nfc", "--at", "2026-11-18T09:00:00Z", "--rule", "hq7"],
            ["days", "--missing", "--today", Self.today],
            ["chart", "burndown", "--out", folder + "/burndown.svg", "--today", Self.today],
            ["holidays", "--region", "DE-BY", "--year", "2026"],
            ["doctor"],
            ["backup", folder + "/backup.sqlite"],
            ["sync", "status"],
            ["sync", "forget", "nobody"],
            ["config", "check"],
            ["config", "show"],
            // Mistakes, each answered with one sentence.
            ["checkin", "--date", "2026-13-40"],
            ["checkin", "--status", "beach"],
            ["explain", "yesterday"],
            ["report", "--period", "someday"],
            ["plan", "--avoid", "someday"],
            ["import", folder + "/missing.csv"],
            ["config", "check", "--config", broken],
            ["status", "--config", folder + "/absent.toml"],
            ["checkin", "--from", "2026-11-21", "--to", "2026-11-22", "--today", Self.today],
            ["clear", "--from", "2026-11-20", "--to", "2026-11-10", "--today", Self.today],
            ["holidays", "--region", "DE-BYY"],
            // Last, as they change what the commands above would say: the shared policy, a method turned on.
            ["policy", "share"],
            ["sync", "status"],
            ["enable", "gps"],
        ]
        var outputs: [(String, String)] = []
        for arguments in runs {
            let result = try await cli.run(arguments, environment: environment)
            outputs.append((arguments.joined(separator: " "), result.stdout + result.stderr))
        }
        return outputs
    }

    /// The lines swift-argument-parser writes itself (its help layout and
    /// built-in options), which no catalog of ours can reach.
    static let frameworkLines = ["Show help information.", "Show the version.", "See 'deskdays help <subcommand>' for detailed help."]

    @Test func noMessageEscapesTheCatalog() async throws {
        let locale = try await Catalogs.compiled([], pseudo: true)
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        let environment = ["LC_ALL": "", "LANG": "C.UTF-8", "LANGUAGE": Catalogs.pseudo, "DESKDAYS_LOCALEDIR": locale.path]
        var escaped: [String] = []
        var wrapped = 0
        for (command, output) in try await everyCommand(cli, environment) {
            wrapped += output.components(separatedBy: Catalogs.open).count - 1
            // `holidays` lists each day under the holiday library's names (the local one, then its English one): data, not messages.
            let shown = command.hasPrefix("holidays --region DE-BY") ? output.replacing(/(?m)^[0-9-]{10} .*$/, with: "") : output
            for line in Catalogs.untranslated(shown) where !Self.frameworkLines.contains(where: line.contains) {
                escaped.append("deskdays \(command): \(line)")
            }
        }
        #expect(wrapped > 50, "the pseudo-locale was not used")
        #expect(escaped.isEmpty, "English outside the catalog:\n\(escaped.joined(separator: "\n"))")
    }

    @Test func helpIsTranslated() async throws {
        let locale = try await Catalogs.compiled([], pseudo: true)
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let environment = ["LC_ALL": "", "LANG": "C.UTF-8", "LANGUAGE": Catalogs.pseudo, "DESKDAYS_LOCALEDIR": locale.path]
        var escaped: [String] = []
        for command in [[], ["status"], ["report"], ["checkin"], ["days"], ["explain"], ["calendar"], ["sync"],
                        ["reconcile"], ["evidence"], ["doctor"], ["agent"], ["enroll", "nfc"], ["holidays"]] {
            let result = try await cli.run(command + ["--help"], paths: false, environment: environment)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            // Left: swift-argument-parser's own layout (USAGE, OPTIONS, -h), flag and option names.
            // and the "(values: …)"/"(default: …)" it adds after an option's help.
            let library = [#"\((values|default):\s[^)]*\)"#, #"See 'deskdays help [a-z ]*<subcommand>' for detailed help\."#]
            for line in Catalogs.untranslated(result.stdout, ignoring: library) where !Self.frameworkLines.contains(where: line.contains)
                && !line.trimmingCharacters(in: .whitespaces).hasPrefix("USAGE:") {
                escaped.append("deskdays \(command.joined(separator: " ")) --help: \(line)")
            }
        }
        #expect(escaped.isEmpty, "English outside the catalog:\n\(escaped.joined(separator: "\n"))")
    }

    @Test func jsonIsTheSameBytesInEveryLanguage() async throws {
        let locale = try await Catalogs.compiled(Catalogs.languages, pseudo: true)
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        let commands = [["status", "--format", "json", "--today", Self.today], ["report", "--json", "--today", Self.today],
                        ["plan", "--json", "--today", Self.today],
                        ["days", "--json", "--from", "2026-10-01", "--to", "2026-11-18", "--today", Self.today],
                        ["reconcile", cli.folder.path + "/none.csv", "--json"],
                        ["holidays", "--region", "DE-BY", "--year", "2026", "--json"]]
        var english: [String] = []
        for command in commands { english.append(try await cli.run(command).stdout) }
        for language in Catalogs.languages + [Catalogs.pseudo] {
            let environment = ["LC_ALL": "", "LANG": "\(language).UTF-8", "LANGUAGE": language, "DESKDAYS_LOCALEDIR": locale.path]
            for (index, command) in commands.enumerated() {
                #expect(try await cli.run(command, environment: environment).stdout == english[index], "\(language): \(command)")
            }
        }
    }

    @Test func cAndUnknownLocalesGiveTheEnglishBytes() async throws {
        let locale = try await Catalogs.compiled(Catalogs.languages)
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        let command = ["status", "--today", Self.today]
        let english = try await cli.run(command, environment: ["DESKDAYS_LOCALEDIR": locale.path])
        #expect(english.stdout.contains("office days"))
        // LC_ALL=C wins over LANGUAGE and LANG (POSIX; gettext ignores LANGUAGE under "C").
        let c = try await cli.run(command, environment: ["LC_ALL": "C", "LANGUAGE": "de", "LANG": "de_DE.UTF-8",
                                                   "DESKDAYS_LOCALEDIR": locale.path])
        #expect(c.stdout == english.stdout)
        // A language without a catalog: English, not an error (its dates in ICU's English, as under en_US).
        let unknown = try await cli.run(command, environment: ["LC_ALL": "", "LANG": "xx_YY.UTF-8", "DESKDAYS_LOCALEDIR": locale.path])
        #expect(unknown.status == 0 && unknown.stderr.isEmpty, "\(unknown.stderr)")
        let american = try await cli.run(command, environment: ["LC_ALL": "", "LANG": "en_US.UTF-8", "DESKDAYS_LOCALEDIR": locale.path])
        #expect(unknown.stdout == american.stdout)
        #expect(unknown.stdout.contains("office days") && unknown.stdout.contains("Oct 1, 2026: `deskdays checkin --date 2026-10-01`"), "\(unknown.stdout)")
    }

    @Test func languageListFallsBackInOrder() async throws {
        try #require(Catalogs.languages.contains("de") && Catalogs.languages.contains("fr"), "po/de.po and po/fr.po")
        let both = try await Catalogs.compiled(["de", "fr"])
        let frenchOnly = try await Catalogs.compiled(["fr"])
        defer { try? FileManager.default.removeItem(at: both); try? FileManager.default.removeItem(at: frenchOnly) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        let command = ["status", "--today", Self.today]
        func run(_ folder: URL, _ variables: [String: String]) async throws -> String {
            try await cli.run(command, environment: ["LC_ALL": "", "DESKDAYS_LOCALEDIR": folder.path].merging(variables) { $1 }).stdout
        }
        let english = try await cli.run(command).stdout
        let german = try await run(both, ["LANG": "de_DE.UTF-8"])
        let french = try await run(both, ["LANG": "fr_FR.UTF-8"])
        #expect(german != english && french != english && german != french)
        // LANGUAGE=de:fr: German when there is a German catalog, else French (dates and numbers follow LC_TIME, LC_NUMERIC).
        #expect(try await run(both, ["LANG": "en_US.UTF-8", "LC_TIME": "de_DE.UTF-8", "LC_NUMERIC": "de_DE.UTF-8", "LANGUAGE": "de:fr"]) == german)
        #expect(try await run(frenchOnly, ["LANG": "en_US.UTF-8", "LANGUAGE": "de:fr"]).contains(french.split(separator: "\n")[1]))
        // LC_MESSAGES decides messages when LC_ALL is unset, over LANG.
        #expect(try await run(both, ["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8", "LC_TIME": "de_DE.UTF-8",
                               "LC_NUMERIC": "de_DE.UTF-8"]) == german)
    }

    @Test func arabicHTMLIsRightToLeft() async throws {
        try #require(Catalogs.languages.contains("ar"), "po/ar.po")
        let locale = try await Catalogs.compiled(["ar"])
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        let page = cli.folder.appendingPathComponent("report.html").path
        let result = try await cli.run(["report", "--html", page, "--today", Self.today],
                                 environment: ["LC_ALL": "", "LANG": "ar_EG.UTF-8", "DESKDAYS_LOCALEDIR": locale.path])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("lang=\"ar\"") && html.contains("dir=\"rtl\""))
        // The charts are laid out right to left too (the period starts on the right), and say so.
        #expect(html.contains("<svg direction=\"rtl\"") && !html.contains("<svg direction=\"ltr\""))
        let english = cli.folder.appendingPathComponent("english.html").path
        try await cli.run(["report", "--html", english, "--today", Self.today])
        let englishHTML = try String(contentsOfFile: english, encoding: .utf8)
        #expect(englishHTML.contains("lang=\"en\"") && englishHTML.contains("dir=\"ltr\""))
    }

    /// `status`, `report` and `calendar` in German and Japanese against
    /// Golden/languages/ (`DESKDAYS_REGENERATE_GOLDEN=1` rewrites them;
    /// review the diff): translations, plural forms, dates and numbers.
    @Test(arguments: [("de", "de_DE.UTF-8"), ("ja", "ja_JP.UTF-8")])
    func goldenOutputs(language: String, locale: String) async throws {
        try #require(Catalogs.languages.contains(language), "po/\(language).po")
        let catalogs = try await Catalogs.compiled([language])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        let environment = ["LC_ALL": "", "LANG": locale, "DESKDAYS_LOCALEDIR": catalogs.path]
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/languages")
        for (name, command) in [("status", ["status"]), ("report", ["report"]), ("calendar", ["calendar", "--months", "2"])] {
            let result = try await cli.run(command + ["--today", Self.today], environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            let url = folder.appendingPathComponent("\(language)-\(name).txt")
            if ProcessInfo.processInfo.environment["DESKDAYS_REGENERATE_GOLDEN"] == "1" {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try result.stdout.write(to: url, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try String(contentsOf: url, encoding: .utf8)
            #expect(result.stdout == expected, "\(language) \(name) differs from Golden/languages/\(url.lastPathComponent):\n\(result.stdout)")
        }
    }

    /// The weeks of a weekly rule in columns in German and French, where
    /// dates differ in length ("5. Okt. 2026" beside "28. Sept. 2026").
    @Test(arguments: [("de", "de_DE.UTF-8"), ("fr", "fr_FR.UTF-8")])
    func weekDatesLineUp(language: String, locale: String) async throws {
        let catalogs = try await Catalogs.compiled([language])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n\n[policy.target]\nkind = \"days_per_week\"\nvalue = 3\n")
        #expect(try await cli.run(["checkin", "--date", "2026-10-05", "--today", Self.today]).status == 0)
        let result = try await cli.run(["report", "--today", Self.today],
                                       environment: ["LC_ALL": "", "LANG": locale, "DESKDAYS_LOCALEDIR": catalogs.path])
        #expect(result.status == 0, "\(result.stderr)")
        // Each week's line: two spaces, the date, then its count "0/N" in one column.
        let weeks = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.contains("/") }
        #expect(weeks.count >= 13, "\(result.stdout)")
        let columns = Set(weeks.compactMap { line in line.range(of: #"\d+/\d+"#, options: .regularExpression).map { line[..<$0.lowerBound].count } })
        #expect(columns.count == 1, "the counts start at columns \(columns.sorted()):\n\(weeks.joined(separator: "\n"))")
    }

    /// The calendar heatmap's legend stays inside its chart in every
    /// language (it wraps onto more lines: Portuguese lost "feriado"'s last
    /// letter at the edge), measured as the chart lays it out, by display width.
    @Test func theHeatmapLegendFitsInEveryLanguage() async throws {
        let catalogs = try await Catalogs.compiled(Catalogs.languages)
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        var overflowing: [String] = []
        for language in Catalogs.languages {
            let page = cli.folder.appendingPathComponent("report-\(language).html").path
            let result = try await cli.run(["report", "--html", page, "--today", Self.today],
                                           environment: ["LC_ALL": "", "LANG": "C.UTF-8", "LANGUAGE": language, "DESKDAYS_LOCALEDIR": catalogs.path])
            #expect(result.status == 0, "\(language): \(result.stderr)")
            let html = try String(contentsOfFile: page, encoding: .utf8)
            let start = try #require(html.range(of: "<svg[^>]*aria-labelledby=\"heatmap-title[^>]*>", options: .regularExpression),
                                     "\(language): no heatmap")
            let svgTag = String(html[start])
            let chart = String(html[start.upperBound...].prefix { _ in true }).components(separatedBy: "</svg>")[0]
            let width = try #require(svgTag.firstMatch(of: /width="([0-9.]+)"/).flatMap { Double($0.1) })
            let rtl = svgTag.contains("direction=\"rtl\"")
            for match in chart.matches(of: /<rect class="k-[a-z]+"[^>]*\/><text class="fg" x="([0-9.\-]+)"[^>]*>([^<]*)<\/text>/) {
                guard let x = Double(match.1) else { continue }
                let label = String(match.2)
                let drawn = Double(Localization.displayWidth(label)) * 7
                if rtl ? x - drawn < 0 : x + drawn > width { overflowing.append("\(language): \"\(label)\" at \(x) in \(width)") }
            }
        }
        #expect(overflowing.isEmpty, "\(overflowing)")
    }

    /// The evidence page's log of records written and removed says the
    /// statuses in the reader's language ("Eintrag Urlaub geschrieben",
    /// "entfernt: Eintrag (Homeoffice)"), never the stored English words.
    @Test func theEvidenceLogSaysStatusesInTheLanguage() async throws {
        let catalogs = try await Catalogs.compiled(["de"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try await seeded()
        defer { cli.cleanup() }
        for arguments in [["checkin", "--date", "2026-11-11", "--status", "vacation"], ["checkin", "--date", "2026-11-12", "--status", "remote"],
                          ["clear", "--date", "2026-11-12"]] {
            #expect(try await cli.run(arguments + ["--today", Self.today]).status == 0)
        }
        let page = cli.folder.appendingPathComponent("evidence.html").path
        let result = try await cli.run(["evidence", "--out", page, "--today", Self.today],
                                       environment: ["LC_ALL": "", "LANG": "de_DE.UTF-8", "DESKDAYS_LOCALEDIR": catalogs.path])
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let log = try #require(html.range(of: "Geschriebene und entfernte Einträge").map { String(html[$0.lowerBound...]) })
        #expect(log.contains("Urlaub") && log.contains("Homeoffice"), "\(log.prefix(2000))")
        for english in ["vacation", "remote record", "office record", "sick record"] {
            #expect(!log.contains(english), "\"\(english)\" in the German log")
        }
        // The policy's "Counts" row too: "Urlaub als …", not "vacation as excused".
        for english in ["vacation", "excused", "travel"] {
            #expect(!html.contains(">\(english) ") && !html.contains(" \(english)<") && !html.contains(" \(english),"), "\"\(english)\" on the German page")
        }
    }

    /// A fiscal year from October: English names it by the year it ends in
    /// ("Q1 FY2027" for October 2026), Japanese by the year it starts in
    /// (年度: "2026年度第1四半期"), as a Japanese reader expects.
    @Test func aFiscalYearIsNamedAsTheLanguageNamesIt() async throws {
        let catalogs = try await Catalogs.compiled(["ja"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\nfiscal_year_start_month = 10\n")
        #expect(try await cli.run(["checkin", "--date", "2026-10-01", "--today", "2026-10-15"]).status == 0)
        let english = try await cli.run(["status", "--today", "2026-10-15"])
        #expect(english.stdout.hasPrefix("Q1 FY2027"), "\(english.stdout)")
        let japanese = try await cli.run(["status", "--today", "2026-10-15"],
                                         environment: ["LC_ALL": "", "LANG": "ja_JP.UTF-8", "DESKDAYS_LOCALEDIR": catalogs.path])
        #expect(japanese.stdout.hasPrefix("2026年度第1四半期"), "\(japanese.stdout)")
    }

    /// A day short of min_hours reads "unter 4 h" (below 4 h) in German, not
    /// "4 h zu wenig" (4 hours too few), in `days` and `explain`.
    @Test func germanSaysBelowMinHours() async throws {
        let catalogs = try await Catalogs.compiled(["de"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\nmin_hours = 4\n")
        #expect(try await cli.run(["event", "--source", "nfc", "--at", "2026-11-16T08:30:00Z", "--rule", "desk"]).status == 0)
        let environment = ["LC_ALL": "", "LANGUAGE": "", "LANG": "de_DE.UTF-8", "DESKDAYS_LOCALEDIR": catalogs.path]
        let days = try await cli.run(["days", "--from", "2026-11-16", "--to", "2026-11-16", "--today", Self.today], environment: environment)
        #expect(days.stdout.contains("(unter 4 h)") && !days.stdout.contains("zu wenig"), "\(days.stdout)")
        let explain = try await cli.run(["explain", "2026-11-16", "--today", Self.today], environment: environment)
        #expect(!explain.stdout.contains("zu wenig"), "\(explain.stdout)")
    }
}
