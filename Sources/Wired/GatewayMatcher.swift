import DeskDaysConfig
import NL80211

/// Which `[[wired.networks]]` rule a gateway's MAC names: the first in file
/// order that lists it. Pure.
public struct GatewayMatcher: Sendable {
    let rules: [(name: String, macs: Set<MACAddress>)]

    public init(_ settings: WiredSettings) {
        rules = settings.networks.map { ($0.name, Set($0.gatewayMACs.compactMap(MACAddress.init))) }
    }

    /// The rule the gateway is, or nil (not an office gateway, or its MAC not resolved yet).
    public func rule(for gateway: Gateway) -> String? {
        guard let mac = gateway.mac else { return nil }
        return rules.first { $0.macs.contains(mac) }?.name
    }
}
