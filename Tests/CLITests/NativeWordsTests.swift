import Localization
import Foundation
import Testing
import Spawn
import TestSupport

/// What a native reader wrote down (issue 58), one check each: lists in the
/// language's own pattern and agreement, quarters and dates in its words,
/// and the per-language slips it named.
@Suite(.enabled(if: Catalogs.available, "msgfmt not installed: apt-get install gettext"))
struct NativeWordsTests {
    static let today = "2026-11-18"

    /// A database with a manual office day (Mon 2 Nov) and an imported one (Tue 3 Nov).
    func keptDates() async throws -> CLIRunner {
        let cli = try CLIRunner()
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n")
        #expect(try await cli.run(["checkin", "--date", "2026-11-02", "--today", Self.today]).status == 0)
        let history = cli.folder.appendingPathComponent("history.csv").path
        try "date,status,note\n2026-11-03,office,\n".write(toFile: history, atomically: true, encoding: .utf8)
        #expect(try await cli.run(["import", history, "--today", Self.today]).status == 0)
        return cli
    }

    /// "Kept 2 dates …: 1 manual and 1 imported": each count a message of its
    /// own (agreeing with "dates", the number where the language puts it),
    /// listed by ICU's pattern for the language.
    @Test func theKeptDatesAreListedInTheLanguagesWords() async throws {
        let catalogs = try await Catalogs.compiled(["fr", "es", "ja", "ar"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let expected = [("C.UTF-8", "1 manual and 1 imported"), ("fr_FR.UTF-8", "1 manuelle et 1 importée"),
                        ("es_ES.UTF-8", "1 manual y 1 importada"), ("ja_JP.UTF-8", "手動1件、インポート1件"),
                        ("ar_EG.UTF-8", "يدوية: ⁨١⁩")]
        for (locale, words) in expected {
            let cli = try await keptDates()
            defer { cli.cleanup() }
            let result = try await cli.run(["checkin", "--from", "2026-11-02", "--to", "2026-11-04", "--today", Self.today],
                                           environment: ["LC_ALL": "", "LANGUAGE": "", "LANG": locale, "DESKDAYS_LOCALEDIR": catalogs.path])
            #expect(result.status == 0 && result.stdout.contains(words), "\(locale): \(result.stdout)\(result.stderr)")
            if locale.hasPrefix("ar") { #expect(!result.stdout.contains(", "), "\(result.stdout)") }
        }
    }

    /// A list of dates in Arabic has no English comma (`plan`'s weeks).
    @Test func arabicListsHaveNoEnglishComma() async throws {
        let catalogs = try await Catalogs.compiled(["ar"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n")
        #expect(try await cli.run(["checkin", "--date", "2026-11-16", "--today", Self.today]).status == 0)
        let result = try await cli.run(["plan", "--today", Self.today],
                                       environment: ["LC_ALL": "", "LANGUAGE": "", "LANG": "ar_EG.UTF-8", "DESKDAYS_LOCALEDIR": catalogs.path])
        #expect(result.status == 0 && result.stdout.contains("نوفمبر"), "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains(","), "\(result.stdout)")
    }

    /// A small history: office days by hand, an nfc check-in, an imported remote day with a note, a sick day, an office Saturday.
    func history() async throws -> CLIRunner {
        let cli = try CLIRunner()
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n")
        for date in ["2026-11-02", "2026-11-03", "2026-11-14"] {
            #expect(try await cli.run(["checkin", "--date", date, "--today", Self.today]).status == 0)
        }
        #expect(try await cli.run(["event", "--source", "nfc", "--at", "2026-11-16T08:30:00Z", "--rule", "hq7"]).status == 0)
        #expect(try await cli.run(["checkin", "--date", "2026-11-17", "--status", "sick", "--today", Self.today]).status == 0)
        let file = cli.folder.appendingPathComponent("history.csv").path
        try "date,status,note\n2026-09-02,remote,my note\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try await cli.run(["import", file, "--today", Self.today]).status == 0)
        return cli
    }

    func run(_ cli: CLIRunner, _ locale: String, _ catalogs: URL, _ arguments: [String]) async throws -> String {
        let result = try await cli.run(arguments + ["--today", Self.today],
                                       environment: ["LC_ALL": "", "LANGUAGE": "", "LANG": locale, "DESKDAYS_LOCALEDIR": catalogs.path])
        #expect(result.status == 0, "\(locale) \(arguments): \(result.stderr)")
        return result.stdout
    }

    /// `explain` in the reader's words: the date and the times as the locale
    /// writes them (no RFC 3339), the note in the language's quotes, and its
    /// table's columns lined up by display width (wide characters count two).
    @Test func explainWritesTheReadersDatesQuotesAndColumns() async throws {
        let catalogs = try await Catalogs.compiled(["de", "ja"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try await history()
        defer { cli.cleanup() }
        let german = try await run(cli, "de_DE.UTF-8", catalogs, ["explain", "2026-11-16"])
        #expect(german.hasPrefix("16. Nov. 2026 (Montag)") && german.contains("um 16. Nov. 2026, 08:30:00"), "\(german)")
        #expect(!german.contains("T08:30"), "\(german)")
        let note = try await run(cli, "de_DE.UTF-8", catalogs, ["explain", "2026-09-02"])
        #expect(note.contains("„my note“") && !note.contains("\"my note\""), "\(note)")
        for locale in ["de_DE.UTF-8", "ja_JP.UTF-8"] {
            let text = try await run(cli, locale, catalogs, ["explain", "2026-11-16"])
            // The column "nfc" starts at in each row of the table.
            let columns = text.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.contains(" nfc ") }.map { line in
                Localization.displayWidth(String(line[..<line.range(of: " nfc ")!.lowerBound]))
            }
            #expect(columns.count == 2 && Set(columns).count == 1, "\(locale): \(columns)\n\(text)")
        }
        // The English bytes stay what scripts read.
        let english = try await cli.run(["explain", "2026-11-16", "--today", Self.today])
        #expect(english.stdout.contains("at 2026-11-16T08:30:00Z"), "\(english.stdout)")
    }

    /// A range a person reads is in the locale's dates and says both ends are in ("t/m").
    @Test func rangesAreInclusiveInWords() async throws {
        let catalogs = try await Catalogs.compiled(["nl"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try await history()
        defer { cli.cleanup() }
        let text = try await run(cli, "nl_NL.UTF-8", catalogs, ["checkin", "--from", "2026-12-21", "--to", "2026-12-24", "--status", "vacation"])
        #expect(text.contains("21 dec 2026 t/m 24 dec 2026"), "\(text)")
    }

    /// `checkin` and `clear` write their date as the reader does, the command to type keeps ISO, and an origin is a word.
    @Test func oneDateInASentenceIsTheReaders() async throws {
        let catalogs = try await Catalogs.compiled(["de"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try await history()
        defer { cli.cleanup() }
        let recorded = try await run(cli, "de_DE.UTF-8", catalogs, ["checkin", "--date", "2026-11-19"])
        #expect(recorded.hasPrefix("Büro für 19. Nov. 2026 erfasst."), "\(recorded)")
        let cleared = try await run(cli, "de_DE.UTF-8", catalogs, ["clear", "--date", "2026-11-19"])
        #expect(cleared.hasPrefix("Entfernt aus 19. Nov. 2026:") && cleared.contains("`deskdays explain 2026-11-19`"), "\(cleared)")
        let none = try await run(cli, "de_DE.UTF-8", catalogs, ["clear", "--date", "2026-11-19", "--origin", "import"])
        #expect(none.contains("importiert") && !none.contains(" import "), "\(none)")
    }

    /// The slips a native reader listed, one line each.
    @Test func theListedSlipsAreGone() async throws {
        let languages = ["de": "de_DE.UTF-8", "fr": "fr_FR.UTF-8", "es": "es_ES.UTF-8", "ru": "ru_RU.UTF-8", "ko": "ko_KR.UTF-8",
                         "ja": "ja_JP.UTF-8", "zh_CN": "zh_CN.UTF-8"]
        let catalogs = try await Catalogs.compiled(Array(languages.keys))
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try await history()
        defer { cli.cleanup() }
        func words(_ language: String, _ arguments: [String]) async throws -> String {
            try await run(cli, languages[language]!, catalogs, arguments)
        }
        let html = cli.folder.appendingPathComponent("report.html").path
        _ = try await words("de", ["report", "--html", html])
        let page = try String(contentsOfFile: html, encoding: .utf8)
        let german = try await words("de", ["explain", "2026-11-17"])
        #expect(!german.contains("Krankheit") && german.contains("krank") && !page.contains("(Tempo)"), "\(german)")
        let french = try await words("fr", ["report"]) + words("fr", ["explain", "2026-11-17"])
        #expect(french.contains("1er oct. 2026") && !french.contains("enreg."), "\(french)")
        let spanish = try await words("es", ["explain", "2026-11-17"])
        #expect(spanish.contains("Prioridad") && !spanish.contains("reserva"), "\(spanish)")
        let russian = try await words("ru", ["explain", "2026-11-14"])
        #expect(russian.contains("не засчитывается") && !russian.contains("Засчитывается: не засчитывается"), "\(russian)")
        let korean = try await words("ko", ["checkin", "--date", "2026-11-18", "--status", "remote"])
        #expect(!korean.contains("(으)로") && !korean.contains("을(를)"), "\(korean)")
        for language in ["ja", "zh_CN"] {
            let status = try await words(language, ["status"])
            #expect(!status.contains("。 ") && !status.contains(" Q4") && status.contains("年第4"), "\(language): \(status)")
            let calendar = try await words(language, ["calendar", "--months", "1"])
            #expect(!calendar.contains { "●○·".contains($0) }, "\(language): \(calendar)")
        }
    }
}
