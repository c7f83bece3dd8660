import NL80211

/// One default gateway the machine routes through now: on which interface,
/// at which address, and (once the kernel has resolved it) its MAC. Never
/// logged or stored; only the interface name and the family are.
public struct Gateway: Sendable, Equatable {
    /// The interface and the gateway's address: what the presence tracker
    /// follows side by side (an IPv4 and an IPv6 router on one dock are two).
    public struct Key: Sendable, Hashable {
        public var interfaceIndex: Int32
        public var address: IPAddress
        public init(interfaceIndex: Int32, address: IPAddress) {
            self.interfaceIndex = interfaceIndex
            self.address = address
        }
    }

    public var key: Key
    public var interfaceName: String
    public var mac: MACAddress?

    public init(key: Key, interfaceName: String, mac: MACAddress?) {
        self.key = key
        self.interfaceName = interfaceName
        self.mac = mac
    }

    public var family: IPAddress.Family { key.address.family }
}
