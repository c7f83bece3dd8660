import ArgumentParser
import DeskDaysCore
import Foundation

/// `deskdays enroll nfc`: wait for one tap, show what the tag holds, and add
/// a `[[nfc.tags]]` rule for it. The UID and NDEF text are shown on the
/// user's own terminal and written to their config; they are never logged.
package struct EnrollNFC: HardwareCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "nfc",
        abstract: "Add a rule for the next NFC tag presented to the reader.",
        discussion: """
        Waits up to --timeout seconds for a tag on the reader of [nfc] (PC/SC or libnfc), \
        prints its UID and NDEF texts/URIs, and appends a [[nfc.tags]] block matching it \
        by UID (or, with --by-ndef, by its first NDEF text or URI).
        """
    )

    /// Which backend to wait on; `auto` as in `[nfc] backend`.
    package enum BackendChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, pcsc, libnfc
    }

    @OptionGroup package var global: GlobalOptions

    @Option(help: "Name of the rule, reported in check-ins.")
    package var name = "desk"

    @Option(help: "Seconds to wait for a tap.")
    package var timeout: Double = 30

    @Option(help: "Reader backend (default: [nfc] backend).")
    package var backend: BackendChoice?

    @Option(help: "libnfc device, e.g. pn532_uart:/dev/ttyUSB0 (default: [nfc] connstring).")
    package var connstring: String?

    @Flag(help: "Match the tag by its NDEF text or URI instead of its UID.")
    package var byNdef = false

    package func validate() throws {
        if let problem = RuleName.problem(name) {
            throw ValidationError("--name \(name): \(problem).")
        }
        guard timeout > 0, timeout <= 3600 else {
            throw ValidationError("--timeout must be between 1 and 3600 seconds.")
        }
    }
}
