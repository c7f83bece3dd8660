import ArgumentParser
import DeskDaysCore
import Foundation

/// `deskdays enroll wifi`: add the network this machine is connected to now
/// as a `[[wifi.networks]]` rule (with `--pin`, only its current access
/// point). The SSID is shown on the user's own terminal, escaped, and
/// written to their config; it is never logged.
package struct EnrollWiFi: HardwareCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "wifi",
        abstract: "Add the Wi-Fi network you are connected to as a check-in rule.",
        discussion: """
        Reads the current link of every Wi-Fi station interface over nl80211 and appends a \
        [[wifi.networks]] block for it. With --pin the rule also lists the access point's \
        BSSID, so the same network name elsewhere does not count.
        """
    )

    @OptionGroup package var global: GlobalOptions

    @Option(help: "Name of the rule, reported in check-ins.")
    package var name = "office"

    @Flag(help: "Also require the current access point (its BSSID).")
    package var pin = false

    @Option(help: "Only check in when the signal is at least this strong (dBm, e.g. -70).")
    package var minSignal: Int?

    @Option(help: "Interface to read when several are connected (e.g. wlan0).")
    package var interface: String?

    package func validate() throws {
        if let problem = RuleName.problem(name) {
            throw ValidationError("--name \(name): \(problem).")
        }
        if let minSignal, !(-120...0).contains(minSignal) {
            throw ValidationError("--min-signal must be between -120 and 0 dBm.")
        }
    }
}
