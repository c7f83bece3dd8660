import NL80211

/// What the adapter reads from rtnetlink, as plain values: one link, route or
/// neighbour entry as libnl-route parsed it from a dump or an event. Holds
/// addresses and MACs, so it is never logged or stored as a whole.
public enum RouteObject: Sendable, Equatable {
    case link(LinkEntry)
    case route(RouteEntry)
    case neighbour(NeighbourEntry)

    /// RTM_NEW… (or a dump entry) against RTM_DEL….
    public enum Change: Sendable, Equatable {
        case added, removed
    }
}

/// An IPv4 or IPv6 address (a gateway or a neighbour's).
public struct IPAddress: Sendable, Hashable {
    public enum Family: Sendable, Hashable, CustomStringConvertible {
        case ipv4, ipv6
        public var description: String { self == .ipv4 ? "IPv4" : "IPv6" }
    }

    public let family: Family
    public let bytes: [UInt8]

    /// Nil unless 4 bytes for IPv4 or 16 for IPv6.
    public init?(family: Family, bytes: [UInt8]) {
        guard bytes.count == (family == .ipv4 ? 4 : 16) else { return nil }
        self.family = family
        self.bytes = bytes
    }
}

/// One network interface (RTM_NEWLINK / RTM_DELLINK).
public struct LinkEntry: Sendable, Equatable {
    public var index: Int32
    public var name: String
    /// `ifi_flags` (IFF_UP, IFF_LOWER_UP, …).
    public var flags: UInt32
    public var change: RouteObject.Change

    public init(index: Int32, name: String, flags: UInt32, change: RouteObject.Change = .added) {
        self.index = index
        self.name = name
        self.flags = flags
        self.change = change
    }

    static let up: UInt32 = 0x1            // IFF_UP: configured up
    static let lowerUp: UInt32 = 0x1_0000  // IFF_LOWER_UP: the carrier (a cable, a dock's link)

    /// Administratively up with a carrier: what "plugged in" means here.
    public var isUp: Bool { change == .added && flags & Self.up != 0 && flags & Self.lowerUp != 0 }
}

/// One route (RTM_NEWROUTE / RTM_DELROUTE) with its next hops.
public struct RouteEntry: Sendable, Equatable {
    public struct NextHop: Sendable, Equatable {
        public var interfaceIndex: Int32
        public var gateway: IPAddress?
        public init(interfaceIndex: Int32, gateway: IPAddress?) {
            self.interfaceIndex = interfaceIndex
            self.gateway = gateway
        }
    }

    public var family: IPAddress.Family
    /// The destination's prefix length: 0 for a default route.
    public var prefixLength: UInt8
    public var table: UInt32
    /// `rtm_type` (RTN_UNICAST = 1).
    public var type: UInt8
    public var nextHops: [NextHop]
    public var change: RouteObject.Change

    public init(family: IPAddress.Family, prefixLength: UInt8, table: UInt32 = 254, type: UInt8 = 1,
                nextHops: [NextHop], change: RouteObject.Change = .added) {
        self.family = family
        self.prefixLength = prefixLength
        self.table = table
        self.type = type
        self.nextHops = nextHops
        self.change = change
    }

    static let unicast: UInt8 = 1      // RTN_UNICAST
    static let localTable: UInt32 = 255 // RT_TABLE_LOCAL

    /// A default route that goes through a gateway: any table but the
    /// kernel's local one (policy routing puts defaults in others), unicast
    /// only (not `unreachable` or `blackhole` defaults).
    public var isDefault: Bool {
        prefixLength == 0 && type == Self.unicast && table != Self.localTable
    }
}

/// One neighbour entry (ARP for IPv4, NDP for IPv6): an address on a link
/// and the hardware address it answered from.
public struct NeighbourEntry: Sendable, Equatable {
    public var interfaceIndex: Int32
    public var address: IPAddress
    /// The link-layer address as given (6 bytes on Ethernet), if any.
    public var lladdr: [UInt8]?
    /// `ndm_state` (NUD_*).
    public var state: UInt16
    public var change: RouteObject.Change

    public init(interfaceIndex: Int32, address: IPAddress, lladdr: [UInt8]?, state: UInt16, change: RouteObject.Change = .added) {
        self.interfaceIndex = interfaceIndex
        self.address = address
        self.lladdr = lladdr
        self.state = state
        self.change = change
    }

    /// NUD_REACHABLE, STALE, DELAY, PROBE and PERMANENT carry the address
    /// the neighbour answered from; INCOMPLETE and FAILED carry none worth
    /// trusting, NOARP none at all.
    static let resolvedStates: UInt16 = 0x02 | 0x04 | 0x08 | 0x10 | 0x80

    /// The neighbour's MAC, when the entry is resolved (and present).
    public var resolvedMAC: MACAddress? {
        guard change == .added, state & Self.resolvedStates != 0, let lladdr else { return nil }
        return MACAddress(bytes: lladdr)
    }
}
