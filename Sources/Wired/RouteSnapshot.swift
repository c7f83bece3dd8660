import NL80211

/// The part of the kernel's routing state the wired method needs, as read
/// in one go (three dumps: links, routes, neighbours). Pure.
public struct RouteSnapshot: Sendable, Equatable {
    public let links: [LinkEntry]
    public let routes: [RouteEntry]
    public let neighbours: [NeighbourEntry]
    /// Every default gateway now (see `defaultGateways`), worked out once.
    public let gateways: [Gateway]

    public init(links: [LinkEntry] = [], routes: [RouteEntry] = [], neighbours: [NeighbourEntry] = []) {
        self.links = links
        self.routes = routes
        self.neighbours = neighbours
        gateways = Self.defaultGateways(links: links, routes: routes, neighbours: neighbours)
    }

    /// Every default gateway (IPv4 and IPv6, any interface) whose interface
    /// is up with a carrier, with the MAC its neighbour entry resolved to.
    /// The kernel keeps a route through an unplugged cable (flagged
    /// linkdown), so the link's own state decides. In interface, then
    /// address order, each gateway once.
    static func defaultGateways(links: [LinkEntry], routes: [RouteEntry], neighbours: [NeighbourEntry]) -> [Gateway] {
        let up = Dictionary(links.filter(\.isUp).map { ($0.index, $0.name) }, uniquingKeysWith: { first, _ in first })
        var macs: [Gateway.Key: MACAddress] = [:]
        for neighbour in neighbours {
            if let mac = neighbour.resolvedMAC {
                macs[Gateway.Key(interfaceIndex: neighbour.interfaceIndex, address: neighbour.address)] = mac
            }
        }
        var seen: Set<Gateway.Key> = []
        var found: [Gateway] = []
        for route in routes where route.isDefault && route.change == .added {
            for hop in route.nextHops {
                guard let address = hop.gateway, let name = up[hop.interfaceIndex] else { continue }
                let key = Gateway.Key(interfaceIndex: hop.interfaceIndex, address: address)
                guard seen.insert(key).inserted else { continue }
                found.append(Gateway(key: key, interfaceName: name, mac: macs[key]))
            }
        }
        return found.sorted { a, b in
            if a.key.interfaceIndex != b.key.interfaceIndex { return a.key.interfaceIndex < b.key.interfaceIndex }
            if a.family != b.family { return a.family == .ipv4 }
            return a.key.address.bytes.lexicographicallyPrecedes(b.key.address.bytes)
        }
    }
}
