import Foundation
import Testing
import Spawn
import TestSupport

/// Every command in every catalog (docs/cli.md "Languages"): the
/// pseudo-locale proves every message goes through a catalog; this proves
/// each catalog answers all of them under its own locale (dates and numbers
/// through ICU): no English sentence is left in the output, and every
/// command ends with the exit status it has in English.
@Suite(.enabled(if: Catalogs.available, "msgfmt not installed: apt-get install gettext"))
struct EveryCatalogTests {
    static let locales = ["ar": "ar_EG.UTF-8", "de": "de_DE.UTF-8", "es": "es_ES.UTF-8", "fr": "fr_FR.UTF-8", "it": "it_IT.UTF-8",
                          "ja": "ja_JP.UTF-8", "ko": "ko_KR.UTF-8", "nl": "nl_NL.UTF-8", "pt_BR": "pt_BR.UTF-8", "ru": "ru_RU.UTF-8",
                          "zh_CN": "zh_CN.UTF-8", "en_GB": "en_GB.UTF-8"]

    /// Whether `line` reads as an English sentence: three English words or
    /// more, not a command to type, a path, a key or a table of codes.
    static func isEnglishProse(_ line: String) -> Bool {
        let spoken = line.replacing(/`[^`]*`/, with: "").split(separator: " ").filter { !$0.contains("/") && !$0.contains("…") }
            .joined(separator: " ")
        guard !spoken.contains("="), !spoken.hasPrefix("["), !spoken.hasPrefix("#"), !spoken.hasPrefix("{") else { return false }
        let words = spoken.split { !$0.isLetter || !$0.isASCII }.filter { $0.count >= 3 && $0.first!.isLowercase || $0.count >= 4 }
        return words.count >= 3
    }

    @Test func theCheckTellsProseFromCodes() {
        #expect(Self.isEnglishProse("Recorded an office day for today."))
        #expect(!Self.isEnglishProse("timezone = \"UTC\""))
        #expect(!Self.isEnglishProse("2026-11-16  Mo  Büro  nfc"))
        #expect(!Self.isEnglishProse("…/config/config.toml: OK"))
    }

    @Test func noCatalogLeavesAnEnglishSentence() async throws {
        let catalogs = try await Catalogs.compiled(Catalogs.languages)
        defer { try? FileManager.default.removeItem(at: catalogs) }
        #expect(Set(Self.locales.keys) == Set(Catalogs.languages), "a catalog without a locale here")
        @Sendable func outputs(_ environment: [String: String]) async throws -> [(String, String)] {
            let language = LanguageTests()
            let cli = try await language.seeded()
            defer { cli.cleanup() }
            // The folder's name differs per run: paths are left out of the comparison.
            return try await language.everyCommand(cli, environment).map { command, output in
                (command.replacing(cli.folder.path, with: "…"), output.replacing(cli.folder.path, with: "…"))
            }
        }
        let english = try await outputs(["LC_ALL": "C.UTF-8"])
        // The languages two at a time, each in a folder of its own: the two cores a machine has at least.
        let languages = Self.locales.sorted(by: { $0.key < $1.key }).filter { $0.key != "en_GB" }
        var outputsByLanguage: [String: [(String, String)]] = [:]
        for pair in stride(from: 0, to: languages.count, by: 2).map({ Array(languages[$0..<min($0 + 2, languages.count)]) }) {
            try await withThrowingTaskGroup(of: (String, [(String, String)]).self) { group in
                for (name, locale) in pair {
                    group.addTask { (name, try await outputs(["LC_ALL": "", "LANGUAGE": "", "LANG": locale, "DESKDAYS_LOCALEDIR": catalogs.path])) }
                }
                for try await (name, output) in group { outputsByLanguage[name] = output }
            }
        }
        var left: [String] = [], isoDates: [String] = []
        for (name, _) in languages {
            let translated = outputsByLanguage[name] ?? []
            #expect(translated.count == english.count)
            for ((command, englishOutput), (_, output)) in zip(english, translated) {
                isoDates += Self.isoDatesInSentences(output, command: command).map { "\(name): deskdays \(command): \($0)" }
                let prose = Set(englishOutput.split(separator: "\n").map(String.init).filter(Self.isEnglishProse))
                for line in output.split(separator: "\n").map(String.init) where prose.contains(line)
                    && !LanguageTests.frameworkLines.contains(where: line.contains) {
                    left.append("\(name): deskdays \(command): \(line)")
                }
            }
        }
        #expect(left.isEmpty, "\(left.count) English lines:\n\(left.prefix(80).joined(separator: "\n"))")
        #expect(isoDates.isEmpty, "\(isoDates.count) sentences with an ISO date:\n\(isoDates.prefix(80).joined(separator: "\n"))")
    }

    /// The lines of `output` that write a date the machine's way (2026-11-18)
    /// where a person reads it: outside a `command` to type, a table's first
    /// column (`days`, `holidays`, `reconcile`), the configuration's text, or
    /// the answer to a date typed wrong, which shows how to type one
    /// (docs/cli.md "Languages").
    static func isoDatesInSentences(_ output: String, command: String) -> [String] {
        guard !["config show", "checkin --date 2026-13-40", "explain yesterday"].contains(where: command.hasPrefix) else { return [] }
        return output.split(separator: "\n").map(String.init).filter { line in
            let plain = Catalogs.plainFigures(line).replacing(/`[^`]*`/, with: "")
            if plain.wholeMatch(of: /\s*\d{4}-\d\d-\d\d\s.*/) != nil { return false }
            return plain.contains(/\d{4}-\d\d-\d\d/)
        }
    }

    @Test func theDateCheckFindsAnISODateInASentence() {
        #expect(Self.isoDatesInSentences("  2026-11-05: `deskdays checkin --date 2026-11-05`", command: "status") .count == 1)
        #expect(Self.isoDatesInSentences("  5. Nov. 2026: `deskdays checkin --date 2026-11-05`", command: "status").isEmpty)
        #expect(Self.isoDatesInSentences("2026-11-16  Mo  Büro  nfc", command: "days").isEmpty)
    }

    /// swift-argument-parser writes its errors in English; each shape it
    /// produces is said again in the catalog's words (ParserWords).
    @Test func argumentErrorsSpeakTheCatalog() async throws {
        let catalogs = try await Catalogs.compiled(Catalogs.languages)
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let mistakes: [[String]] = [["checkin", "--status", "wfhh"], ["status", "--format", "xml"], ["status", "--bogus"],
                                    ["checkin", "--date"], ["status", "extra"]]
        let english = ["is invalid for", "Unknown option", "Missing value for", "Unexpected argument", "Please provide"]
        for (name, locale) in Self.locales.sorted(by: { $0.key < $1.key }) where name != "en_GB" {
            let environment = ["LC_ALL": "", "LANGUAGE": "", "LANG": locale, "DESKDAYS_LOCALEDIR": catalogs.path]
            for arguments in mistakes {
                let result = try await cli.run(arguments, environment: environment)
                #expect(result.status == 1, "\(name): deskdays \(arguments.joined(separator: " "))")
                let left = english.filter(result.stderr.contains)
                #expect(left.isEmpty, "\(name): deskdays \(arguments.joined(separator: " ")): \(result.stderr)")
            }
        }
    }

    /// British English is a catalog of its own: its spellings and its
    /// financial year, not a copy of the template.
    @Test func britishEnglishSaysItsOwnWords() async throws {
        let catalogs = try await Catalogs.compiled(["en_GB"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\ntimezone = \"Europe/London\"\nfiscal_year_start_month = 4\n")
        #expect(try await cli.run(["checkin", "--date", "2026-11-16", "--today", "2026-11-18"]).status == 0)
        let environment = ["LC_ALL": "", "LANGUAGE": "", "LANG": "en_GB.UTF-8", "DESKDAYS_LOCALEDIR": catalogs.path]
        let status = try await cli.run(["status", "--today", "2026-11-18"], environment: environment)
        let american = try await cli.run(["status", "--today", "2026-11-18"], environment: ["LC_ALL": "", "LANGUAGE": "", "LANG": "en_US.UTF-8"])
        #expect(status.status == 0 && american.status == 0)
        #expect(status.stdout != american.stdout, "en_GB:\n\(status.stdout)\nen_US:\n\(american.stdout)")
    }
}
