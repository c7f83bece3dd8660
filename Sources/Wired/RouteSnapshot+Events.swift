extension RouteSnapshot {
    /// Whether an rtnetlink event can change the gateways this snapshot
    /// gives, so that a re-read is worth it. Most events on a busy machine
    /// cannot: a Wi-Fi driver's link messages that change no flag, routes
    /// other than defaults, neighbours other than the gateways, the gateway's
    /// own entry ageing from REACHABLE to STALE with the same MAC.
    public func isChanged(by object: RouteObject) -> Bool {
        switch object {
        case .link(let link):
            guard let known = links.first(where: { $0.index == link.index }) else { return link.isUp }
            return known.isUp != link.isUp || known.name != link.name
        case .route(let route):
            // A default route changes the answer whether it comes or goes;
            // one without a gateway (a VPN's `default dev wg0`) never counts.
            return route.isDefault && route.nextHops.contains { $0.gateway != nil }
        case .neighbour(let neighbour):
            let key = Gateway.Key(interfaceIndex: neighbour.interfaceIndex, address: neighbour.address)
            guard let gateway = gateways.first(where: { $0.key == key }) else { return false }
            // Gone or unresolved: the last MAC stands (GatewayMemory); a new one counts.
            guard let mac = neighbour.resolvedMAC else { return false }
            return mac != gateway.mac
        }
    }
}
