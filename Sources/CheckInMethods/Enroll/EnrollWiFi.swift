import Localization
import ArgumentParser
import CommandSupport
import DeskDaysConfig
import DeskDaysCore
import WiFiAdapter
import Foundation
import NL80211

/// `deskdays enroll wifi`: add the network this machine is connected to now
/// as a `[[wifi.networks]]` rule pinned to the network's access points in
/// the last scan (`--no-pin`: by its name alone). The SSID is shown on the user's own terminal, escaped, and
/// written to their config; it is never logged.
package struct EnrollWiFi: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "wifi",
        abstract: tr("Add the Wi-Fi network you are connected to as a check-in rule."),
        discussion: tr("""
        Reads the current link of every Wi-Fi station interface over nl80211 and appends a \
        [[wifi.networks]] block for it. The rule also lists the BSSIDs of the network's \
        access points in the last scan (the connected one and the rest of a mesh or \
        building), so the same network name elsewhere (at home, a corporate remote access \
        point) does not count; --no-pin matches the network by its name alone.
        """)
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp(tr("Name of the rule, reported in check-ins.")))
    var name = "office"

    /// On by default: an unpinned office network counts wherever its name
    /// is seen (a corporate remote access point at home, a café).
    @Flag(inversion: .prefixedNo, help: ArgumentHelp(tr("Require the network's access points seen in the last scan (their BSSIDs).")))
    var pin = true

    @Option(help: ArgumentHelp(tr("Only check in when the signal is at least this strong (dBm, e.g. -70).")))
    var minSignal: Int?

    @Option(help: ArgumentHelp(tr("Interface to read when several are connected (e.g. wlan0).")))
    var interface: String?

    package func validate() throws {
        try checkRuleName(name)
        if let minSignal, !(-120...0).contains(minSignal) {
            throw ValidationError(tr("--min-signal must be between -120 and 0 dBm."))
        }
    }
}

/// The enrolment's work.
extension EnrollWiFi {
    package func run() async throws {
        let configuration = try ConfigLoader.load(path: global.configPath)
        let links = try Self.currentLinks()
        let candidates = interface.map { wanted in links.filter { $0.interfaceName == wanted } } ?? links
        guard let link = candidates.first else {
            throw CLIError(interface.map { tr("\($0) is not connected to a Wi-Fi network; connect it first.") }
                           ?? tr("no Wi-Fi interface is connected; join the office network first."))
        }
        if candidates.count > 1 {
            throw CLIError(tr("several interfaces are connected (\(candidates.map(\.interfaceName).joined(separator: ", "))); choose one with --interface."))
        }
        guard let ssid = link.ssid.utf8String else {
            throw CLIError(tr("the network name \(link.ssid) is not UTF-8, which the configuration file cannot hold; this network cannot be enrolled."))
        }
        // Whole sentences: which of the access point and the signal are known decides the one shown.
        let connected: String
        switch (link.bssid, link.signalDBm) {
        case let (bssid?, signal?): connected = tr("Connected on \(link.interfaceName) to \"\(link.ssid)\" via \(bssid), signal \(signal) dBm")
        case let (bssid?, nil): connected = tr("Connected on \(link.interfaceName) to \"\(link.ssid)\" via \(bssid)")
        case let (nil, signal?): connected = tr("Connected on \(link.interfaceName) to \"\(link.ssid)\", signal \(signal) dBm")
        case (nil, nil): connected = tr("Connected on \(link.interfaceName) to \"\(link.ssid)\"")
        }
        print(connected)
        var block = "[[wifi.networks]]\nname = \(ConfigEditor.quoted(name))\nssid = \(ConfigEditor.quoted(ssid))\n"
        if pin {
            let bssids = link.networkBSSIDs.isEmpty ? link.bssid.map { [$0] } ?? [] : link.networkBSSIDs
            if bssids.isEmpty {
                printError(tr("note: no access point of this network is known on \(link.interfaceName); the rule matches the network name alone (enroll again once connected to pin it)."))
            } else {
                if bssids.count > 1 {
                    print(trn("Pinning \(bssids.count) access point of this network (the last scan's).",
                              "Pinning \(bssids.count) access points of this network (the last scan's).", bssids.count))
                }

                block += "bssids = [\(bssids.map { ConfigEditor.quoted($0.description) }.joined(separator: ", "))]\n"
            }
        }
        if let minSignal { block += "min_signal_dbm = \(minSignal)\n" }
        try Enrollment.append(block, rule: tr("Wi-Fi network \(ConfigEditor.quoted(name))"), to: global.configPath)

        Enrollment.remindIfOff(configuration.wifi.enabled, method: "Wi-Fi", section: "wifi")
    }

    /// Every connected station's link now, or one sentence saying why not.
    static func currentLinks() throws -> [Link] {
        do {
            return try WiFiLinks.current()
        } catch let error as WiFiUnavailable {
            throw CLIError(tr("cannot read Wi-Fi: \(error); connect a Wi-Fi device, then try again."))
        } catch {
            throw CLIError(tr("cannot read Wi-Fi over nl80211 (\(error)); run `deskdays doctor`."))
        }
    }
}
