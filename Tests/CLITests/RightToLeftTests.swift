import Foundation
import Testing
import Spawn
import TestSupport

/// Arabic as an Arabic reader reads it (docs/cli.md "Languages"): every
/// figure a person reads (a count, a date, a time, hours, a percentage) in
/// Arabic-Indic digits, and isolated (U+2068 … U+2069) so that the
/// right-to-left sentence around it cannot reorder it ("من 2026-10-01" read
/// "01-10-2026"). Commands to type, paths and names keep their own letters.
@Suite(.enabled(if: Catalogs.available, "msgfmt not installed: apt-get install gettext"))
struct RightToLeftTests {
    /// What is wrong with one line of Arabic output, if anything; `typed`:
    /// what the user typed (echoed back as typed).
    static func problems(_ line: String, typed: [String] = []) -> [String] {
        // Only sentences: a line with no Arabic letter is a path, a table of codes or JSON.
        guard line.unicodeScalars.contains(where: { (0x0621...0x064A).contains($0.value) }), !line.hasPrefix("{") else { return [] }
        // A command to type keeps the digits it is typed with.
        let spoken = line.replacing(/`[^`]*`/, with: "")
        let separators = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\u{2066}\u{2067}\u{2068}\u{2069}«»()،؛,;\"'"))
        func tokens(_ text: String) -> [String] {
            text.components(separatedBy: separators).filter { token in
                token.unicodeScalars.contains { $0.properties.numericType == .decimal } && !typed.contains(token)
                    && !token.unicodeScalars.contains { $0.isASCII && $0.properties.isAlphabetic && $0 != "T" && $0 != "Z" }
            }
        }
        var found: [String] = []
        // Figures left once every isolate is taken out: not isolated.
        var outside = spoken
        while let isolate = outside.firstMatch(of: /\u{2068}[^\u{2068}\u{2069}]*\u{2069}/) {
            outside.replaceSubrange(isolate.range, with: " ")
        }
        for token in tokens(outside) { found.append("“\(token)” outside an isolate") }
        // A figure in Latin digits.
        for token in tokens(spoken) where token.unicodeScalars.contains(where: { ("0"..."9").contains($0) }) {
            found.append("Latin digits in “\(token)”")
        }
        return Array(Set(found)).sorted()
    }

    @Test func theCheckItselfCatchesWhatAReaderWouldSee() {
        #expect(!Self.problems("من 2026-10-01").isEmpty)
        #expect(!Self.problems("من \u{2068}2026-10-01\u{2069}").isEmpty, "isolated, but Latin")
        #expect(!Self.problems("٣ من ٤٠ يومًا").isEmpty, "Arabic-Indic, but not isolated")
        #expect(Self.problems("من \u{2068}٢٠٢٦-١٠-٠١\u{2069} بالأمر `deskdays checkin --date 2026-11-18`").isEmpty)
        #expect(Self.problems("الملف \u{2068}/tmp/x7/report2026.html\u{2069}").isEmpty, "a path keeps its digits")
        #expect(Self.problems("2026-11-18 plain English line").isEmpty)
        #expect(Self.problems("خلاصة SHA-256 لجدول الأيام").isEmpty, "a name with digits")
        #expect(!Self.problems("خلاصة ٣ لجدول").isEmpty)
    }

    /// Every command's output in Arabic, one digit system, each figure isolated.
    @Test func everyCommandWritesArabicFiguresIsolated() async throws {
        try #require(Catalogs.languages.contains("ar"), "po/ar.po")
        let catalogs = try await Catalogs.compiled(["ar"])
        defer { try? FileManager.default.removeItem(at: catalogs) }
        let language = LanguageTests()
        let cli = try await language.seeded()
        defer { cli.cleanup() }
        let environment = ["LC_ALL": "", "LANG": "ar_EG.UTF-8", "LANGUAGE": "", "DESKDAYS_LOCALEDIR": catalogs.path]
        var wrong: [String] = []
        var arabicLines = 0
        for (command, output) in try await language.everyCommand(cli, environment) {
            for line in output.split(separator: "\n").map(String.init) {
                if line.unicodeScalars.contains(where: { (0x0621...0x064A).contains($0.value) }) { arabicLines += 1 }
                // `doctor` and `holidays` name a library's version ("zbar 0.23.92", "holidays 0.109"): its name, as the library writes it.
                let versions = command.hasPrefix("doctor") || command.hasPrefix("holidays")
                    ? line.matches(of: /[0-9]+(\.[0-9]+)+/).map { String($0.output.0) } : []
                for problem in Self.problems(line, typed: command.split(separator: " ").map(String.init) + versions) { wrong.append("deskdays \(command): \(problem): \(line)") }
            }
        }
        #expect(arabicLines > 100, "the Arabic catalog was not used (\(arabicLines) lines)")
        #expect(wrong.isEmpty, "\(wrong.count) lines:\n\(wrong.prefix(60).joined(separator: "\n"))")
    }
}
