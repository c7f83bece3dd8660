import ArgumentParser
import DeskDaysCLI
import DeskDaysConfig
import Foundation
import Logging
import NFCAdapter

/// The enrolment's work (the definition is `EnrollNFC` in DeskDaysCLI).
extension EnrollNFC {
    func runEnroll() async throws {
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
