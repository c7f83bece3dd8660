import ArgumentParser
import DeskDaysCLI
import DeskDaysConfig
import DeskDaysCore
import Foundation
import Logging
import NFCAdapter

/// `deskdays enroll nfc`: wait for one tap, show what the tag holds, and add
/// a `[[nfc.tags]]` rule for it. The UID and NDEF text are shown on the
/// user's own terminal and written to their config; they are never logged.
struct EnrollNFC: AsyncParsableCommand {
    init() {}

    static let configuration = CommandConfiguration(
        commandName: "nfc",
        abstract: Hardware.abstract("enroll", "nfc"),
        discussion: """
        Waits up to --timeout seconds for a tag on the reader of [nfc] (PC/SC or libnfc), \
        prints its UID and NDEF texts/URIs, and appends a [[nfc.tags]] block matching it \
        by UID (or, with --by-ndef, by its first NDEF text or URI).
        """
    )

    /// Which backend to wait on; `auto` as in `[nfc] backend`.
    enum BackendChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, pcsc, libnfc
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: "Name of the rule, reported in check-ins.")
    var name = "desk"

    @Option(help: "Seconds to wait for a tap.")
    var timeout: Double = 30

    @Option(help: "Reader backend (default: [nfc] backend).")
    var backend: BackendChoice?

    @Option(help: "libnfc device, e.g. pn532_uart:/dev/ttyUSB0 (default: [nfc] connstring).")
    var connstring: String?

    @Flag(help: "Match the tag by its NDEF text or URI instead of its UID.")
    var byNdef = false

    func validate() throws {
        if let problem = RuleName.problem(name) {
            throw ValidationError("--name \(name): \(problem).")
        }
        guard timeout > 0, timeout <= 3600 else {
            throw ValidationError("--timeout must be between 1 and 3600 seconds.")
        }
    }
}

/// The enrolment's work.
extension EnrollNFC {
    func run() async throws {
        var settings = try ConfigLoader.load(path: global.configPath).nfc
        if let backend { settings.backend = NFCSettings.Backend(rawValue: backend.rawValue)! }
        if let connstring { settings.connstring = connstring }
        var logger = Logger(label: "deskdays.enroll.nfc")
        logger.logLevel = .warning
        let reader = NFCTagReader.configured(settings, logger: logger)
        printError("Present the tag to the reader (\(reader.backend.rawValue)); waiting \(Int(timeout)) s…")
        guard let reading = try await firstTap(reader) else {
            throw CLIError("no tag was presented within \(Int(timeout)) s; hold the tag on the reader for a second, or raise --timeout.")
        }
        print("UID: \(reading.uidHex)")
        let strings: [String]
        switch reading.ndef {
        case let .strings(found):
            strings = found
            print(found.isEmpty ? "NDEF: no text or URI records" : found.map { "NDEF: \($0)" }.joined(separator: "\n"))
        case .absent, .notRead: strings = []; print("NDEF: none")
        case .unreadable: strings = []; print("NDEF: not readable (not a Type 2 tag)")
        case let .malformed(error): strings = []; print("NDEF: malformed (\(error))")
        }
        let match: String
        if byNdef {
            guard let first = strings.first else {
                throw CLIError("the tag holds no NDEF text or URI to match; enroll it by UID (without --by-ndef).")
            }
            match = "ndef = \(ConfigEditor.quoted(first))"
        } else {
            match = "uid = \(ConfigEditor.quoted(reading.uidHex))"
        }
        let block = "[[nfc.tags]]\nname = \(ConfigEditor.quoted(name))\n\(match)\n"
        try Enrollment.append(block, rule: "NFC tag \(ConfigEditor.quoted(name))", to: global.configPath)
        Enrollment.remindIfOff(settings.enabled, method: "NFC", section: "nfc")
    }

    /// The first tap, or nil after `timeout`; leaving the stream aborts the reader.
    private func firstTap(_ reader: NFCTagReader) async throws -> TagReading? {
        try await withThrowingTaskGroup(of: TagReading?.self) { group in
            group.addTask {
                for try await reading in reader.taps(wantsNDEF: { _ in true }) { return reading }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
