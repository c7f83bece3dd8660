import Localization
import ArgumentParser
import CommandSupport
import DeskDaysConfig
import DeskDaysCore
import NFCAdapter
import Foundation
import Logging

/// `deskdays enroll nfc`: wait for one tap, show what the tag holds, and add
/// a `[[nfc.tags]]` rule for it. The UID and NDEF text are shown on the
/// user's own terminal and written to their config; they are never logged.
package struct EnrollNFC: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "nfc",
        abstract: tr("Add a rule for the next NFC tag presented to the reader."),
        discussion: tr("""
        Waits up to --timeout seconds for a tag on the reader of [nfc] (PC/SC or libnfc), \
        presented twice, prints its UID and NDEF texts/URIs, and appends a [[nfc.tags]] block \
        matching it by UID (or, with --by-ndef, by its first NDEF text or URI, after one tap). \
        A card whose UID is random or changes between taps (many employee badges and phones) \
        is refused, with what works instead.
        """)
    )

    /// Which backend to wait on; `auto` as in `[nfc] backend`.
    enum BackendChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, pcsc, libnfc
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(tr("Name of the rule, reported in check-ins.")))
    var name = "desk"

    @Option(help: ArgumentHelp(tr("Seconds to wait for a tap.")))
    var timeout: Double = 30

    @Option(help: ArgumentHelp(tr("Reader backend (default: [nfc] backend).")))
    var backend: BackendChoice?

    @Option(help: ArgumentHelp(tr("libnfc device, e.g. pn532_uart:/dev/ttyUSB0 (default: [nfc] connstring).")))
    var connstring: String?

    @Flag(help: ArgumentHelp(tr("Match the tag by its NDEF text or URI instead of its UID.")))
    var byNdef = false

    package func validate() throws {
        try checkRuleName(name)
        guard timeout > 0, timeout <= 3600 else {
            throw ValidationError(tr("--timeout must be between 1 and 3600 seconds."))
        }
    }
}

/// The enrolment's work.
extension EnrollNFC {
    package func run() async throws {
        var settings = try ConfigLoader.load(path: global.configPath).nfc
        if let backend { settings.backend = NFCSettings.Backend(rawValue: backend.rawValue)! }
        if let connstring { settings.connstring = connstring }
        // Learning a tag no rule knows yet: the reader is not told to refuse it.
        settings.feedback = false
        var logger = Logger(label: "deskdays.enroll.nfc")
        logger.logLevel = .warning
        let reader = NFCTagReader.configured(settings, logger: logger)
        // No service, or no reader: say so now, not after waiting for a tap that cannot come.
        if reader.backend == .pcsc {
            switch NFCTagReader.pcscAnswer() {
            case .unreachable:
                throw CLIError(tr("pcscd does not answer, so no reader can be used; start it (sudo systemctl start pcscd.socket) and run `deskdays doctor`."))
            case .refused:
                throw CLIError(tr("pcscd refused this user (polkit); see `deskdays doctor` for the rule that lets you use the reader."))
            case .readers(let names) where names.isEmpty:
                throw CLIError(tr("pcscd lists no reader; plug the reader in (or check it with `deskdays doctor`)."))
            case .readers: break
            }
        }
        printError(tr("Present the tag to the reader (\(reader.backend.rawValue)); waiting \(Int(timeout)) s…"))
        // Two taps: a card with a random or changing UID is found out before it becomes a rule that never matches.
        let taps = try await reader.firstTaps(byNdef ? 1 : 2, within: timeout) {
            if !byNdef { printError(tr("Now take it away and present it once more…")) }
        }
        guard let reading = taps.first else {
            throw CLIError(tr("no tag was presented within \(Int(timeout)) s; hold the tag on the reader for a second, or raise --timeout."))
        }
        if !byNdef {
            if reading.hasRandomUID, let problem = TagMatcher.enrolmentProblem(first: reading, second: reading) {
                throw CLIError(problem)
            }
            guard taps.count == 2 else {
                throw CLIError(tr("the tag was presented once within \(Int(timeout)) s; present it twice (away in between), or raise --timeout."))
            }
            if let problem = TagMatcher.enrolmentProblem(first: taps[0], second: taps[1]) { throw CLIError(problem) }
        }
        print("UID: \(reading.uidHex)")
        let strings: [String]
        switch reading.ndef {
        case let .strings(found):
            strings = found
            print(found.isEmpty ? tr("NDEF: no text or URI records") : found.map { "NDEF: \($0)" }.joined(separator: "\n"))
        case .absent, .notRead: strings = []; print(tr("NDEF: none"))
        case .unreadable: strings = []; print(tr("NDEF: not readable (not a Type 2 tag)"))
        case let .malformed(error): strings = []; print(tr("NDEF: malformed (\(error))"))
        }
        let match: String
        if byNdef {
            guard let first = strings.first else {
                throw CLIError(tr("the tag holds no NDEF text or URI to match; enroll it by UID (without --by-ndef)."))
            }
            match = "ndef = \(ConfigEditor.quoted(first))"
        } else {
            match = "uid = \(ConfigEditor.quoted(reading.uidHex))"
        }
        let block = "[[nfc.tags]]\nname = \(ConfigEditor.quoted(name))\n\(match)\n"
        try Enrollment.append(block, rule: tr("NFC tag \(ConfigEditor.quoted(name))"), to: global.configPath)

        Enrollment.remindIfOff(settings.enabled, method: "NFC", section: "nfc")
    }
}
