import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `deskdays setup` in Arabic and Japanese on a real terminal (tmux): the
/// numbers it shows are in the language's digits, one system per line
/// ("أجب برقم من ١ إلى ٥"), and it takes an answer typed in the digits
/// it shows ("٢") or full width ("２"), as it takes 0–9.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") && Catalogs.available,
                             "tmux or msgfmt missing: apt-get install tmux gettext"))
struct SetupLanguageTests {
    /// Starts setup under `language` in tmux; the terminal, ended by the caller.
    func setup(_ cli: CLIRunner, language: String, locale: URL) async throws -> SetupTests.Terminal {
        let environment = ["HOME": cli.folder.path, "LC_ALL": "", "LANGUAGE": "", "LANG": language, "TZ": "UTC",
                           "DESKDAYS_LOCALEDIR": locale.path, "PATH": "/usr/bin:/bin"]
        let exports = environment.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        return try await SetupTests.Terminal("env \(exports) \(CLIRunner.binary) setup --config \(cli.config) --database \(cli.database); sleep 600",
                                             in: cli.folder)
    }

    @Test func arabicSetupShowsAndTakesArabicIndicDigits() async throws {
        let locale = try await Catalogs.compiled(["ar"])
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let terminal = try await setup(cli, language: "ar_EG.UTF-8", locale: locale)
        defer { terminal.kill() }
        // The sync folder first (none: Enter), then the rule.
        #expect(await terminal.waitFor("Syncthing"), "\(terminal.screen)")
        await terminal.type("")
        #expect(await terminal.waitFor("كيف تحسب جهة عملك"), "\(terminal.screen)")
        // The options and the default in Arabic-Indic digits.
        #expect(terminal.screen.contains("٢.") && terminal.screen.contains("[١]"), "\(terminal.screen)")
        await terminal.type("9")
        #expect(await terminal.waitFor("أجب برقم من"), "\(terminal.screen)")
        let refusal = try #require(terminal.screen.split(separator: "\n").first { $0.contains("أجب برقم من") })
        // One digit system: from ١ to the last option's, no 0–9.
        #expect(refusal.contains("١") && refusal.contains { ("٢"..."٩").contains($0) } && !refusal.contains { ("0"..."9").contains($0) },
                "\(refusal)")
        await terminal.type("٢")
        #expect(await terminal.waitFor("كم يومًا في المكتب أسبوعيًا"), "\(terminal.screen)")
    }

    @Test func japaneseSetupTakesFullWidthDigits() async throws {
        let locale = try await Catalogs.compiled(["ja"])
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let terminal = try await setup(cli, language: "ja_JP.UTF-8", locale: locale)
        defer { terminal.kill() }
        #expect(await terminal.waitFor("Syncthing"), "\(terminal.screen)")
        await terminal.type("")
        #expect(await terminal.waitFor("番号 [1]"), "\(terminal.screen)")
        // A full-width question mark in Japanese.
        #expect(terminal.screen.contains("雇用主は出社日をどのように数えますか？"), "\(terminal.screen)")
        await terminal.type("２")
        #expect(await terminal.waitFor("週間の出社日は何日ですか"), "\(terminal.screen)")
    }
}
