import Foundation
import Testing
import Spawn
import TestSupport

/// The hardware commands in the user's language (docs/cli.md "Languages"):
/// in a pseudo-locale made from the template, which wraps every catalog
/// message in ⟦…⟧, `doctor`'s lines, `enroll` and `qr` errors leave no
/// English outside the marks, and doctor's mark column widens to fit the
/// longest translated mark.
@Suite(.enabled(if: Catalogs.available, "msgfmt not installed: apt-get install gettext"))
struct HardwareLanguageTests {
    /// Every method enabled, each pointing at something that is not there.
    static let brokenConfig = """
    [gps]
    enabled = true
    source = "serial"
    device = "/dev/deskdays-no-such-gps"

    [nfc]
    enabled = true
    backend = "libnfc"
    connstring = "pn532_uart:/dev/deskdays-no-such-reader"

    [qr]
    enabled = true
    device = "/dev/deskdays-no-such-camera"

    [wifi]
    enabled = true

    [wired]
    enabled = true
    """

    /// What swift-argument-parser writes itself around a validation error.
    static let library = [#"(?m)^Usage: .*$"#, #"See 'deskdays [a-z ]*--help' for more information\."#]

    @Test func doctorAndEnrolmentErrorsComeFromTheCatalog() async throws {
        let locale = try await Catalogs.compiled([], pseudo: true)
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.brokenConfig)
        let environment = ["LC_ALL": "", "LANG": "C.UTF-8", "LANGUAGE": Catalogs.pseudo, "DESKDAYS_LOCALEDIR": locale.path]
        let folder = cli.folder.path
        let runs: [[String]] = [
            ["doctor", "--socket", folder + "/none.sock"],
            ["enroll", "qr", "--image", folder + "/missing.png"],
            ["enroll", "wired", "--interface", "deskdays-none0"],
            ["enroll", "gps", "--source", "serial", "--device", "/dev/deskdays-no-such-gps", "--seconds", "1"],
            ["enroll", "gps", "--radius", "5"],
            ["qr", "make", "--payload", "deskdays:office:hq", "--out", folder + "/no/such/folder/code.png"],
            ["qr", "scan", folder + "/missing.png"],
        ]
        var escaped: [String] = []
        var doctor = ""
        for arguments in runs {
            let result = try await cli.run(arguments, environment: environment)
            let output = result.stdout + result.stderr
            if arguments[0] == "doctor" { doctor = result.stdout }
            #expect(output.contains(Catalogs.open), "deskdays \(arguments.joined(separator: " ")): not from the catalog: \(output)")
            for line in Catalogs.untranslated(output, ignoring: Self.library) {
                escaped.append("deskdays \(arguments.joined(separator: " ")): \(line)")
            }
        }
        #expect(escaped.isEmpty, "English outside the catalog:\n\(escaped.joined(separator: "\n"))")

        // The marks are "⟦ok⟧", "⟦note⟧", "⟦warning⟧", "⟦PROBLEM⟧": the widest is 9 characters,
        // so a finding's text starts at column 2 + 9 + 1 and its fix line is indented as far.
        let lines = doctor.split(separator: "\n").map(String.init)
        let problem = try #require(lines.first { $0.hasPrefix("  ⟦PROBLEM⟧ ") }, "\(doctor)")
        #expect(problem.dropFirst(12).first != " ", "\(problem)")
        let fix = try #require(lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("⟦fix: ") }, "\(doctor)")
        #expect(fix.prefix { $0 == " " }.count == 12, "\(fix)")
        let ok = lines.first { $0.hasPrefix("  ⟦ok⟧") }
        #expect(ok.map { $0.hasPrefix("  ⟦ok⟧      ") && !$0.hasPrefix("  ⟦ok⟧       ") } ?? true, "ok padded to the column: \(doctor)")
    }
}
