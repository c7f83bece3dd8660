import Foundation
import Testing
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
}
