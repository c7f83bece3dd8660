import DeskDaysConfig
import NL80211

/// Which `[[wifi.networks]]` rule a link satisfies: SSID bytes equal, the
/// BSSID in the pinned list (when there is one, so the same name elsewhere
/// does not count), the signal at least `min_signal_dbm` (when set; an
/// unknown signal does not pass a threshold). Pure.
public struct NetworkMatcher: Sendable {
    struct Rule: Sendable {
        var name: String
        var ssid: SSID
        var bssids: Set<MACAddress>
        var minSignalDBm: Int?
    }

    let rules: [Rule]

    public init(_ settings: WiFiSettings) {
        rules = settings.networks.compactMap { network in
            guard let ssid = SSID(network.ssid) else { return nil }
            return Rule(name: network.name, ssid: ssid, bssids: Set(network.bssids.compactMap(MACAddress.init)),
                        minSignalDBm: network.minSignalDBm)
        }
    }

    /// The first rule (in file order) the link satisfies.
    public func rule(for link: Link) -> String? {
        rules.first { rule in
            guard rule.ssid == link.ssid else { return false }
            if !rule.bssids.isEmpty {
                guard let bssid = link.bssid, rule.bssids.contains(bssid) else { return false }
            }
            if let minimum = rule.minSignalDBm {
                guard let signal = link.signalDBm, signal >= minimum else { return false }
            }
            return true
        }?.name
    }
}
