import NL80211

/// Keeps a gateway's MAC while the same gateway stays the default on a link
/// that stays up, even when its neighbour entry is deleted or being
/// re-resolved (garbage collection, a failed probe while the router
/// reboots): the gateway did not change, so the user did not leave. The
/// kernel flushes a link's neighbours when its carrier goes, which the link
/// state already reports as a departure. Pure.
public struct GatewayMemory: Sendable {
    private var known: [Gateway.Key: MACAddress] = [:]

    public init() {}

    /// The gateways with a remembered MAC filled in where the snapshot has
    /// none; forgets gateways that are no longer there.
    public mutating func resolve(_ gateways: [Gateway]) -> [Gateway] {
        var next: [Gateway.Key: MACAddress] = [:]
        let resolved = gateways.map { gateway in
            var gateway = gateway
            if gateway.mac == nil { gateway.mac = known[gateway.key] }
            if let mac = gateway.mac { next[gateway.key] = mac }
            return gateway
        }
        known = next
        return resolved
    }
}
