/// One interface from an `NL80211_CMD_NEW_INTERFACE` message (the reply to
/// `GET_INTERFACE`): index, name, type, MAC and, when the kernel includes
/// it, the SSID (for a station on 6.1 it often does not; see `Link`).
public struct WirelessInterface: Sendable, Equatable {
    public var index: UInt32
    /// The interface name as bytes (kernel names are ASCII in practice).
    public var name: [UInt8]
    public var type: NL80211.InterfaceType?
    public var mac: MACAddress?
    public var ssid: SSID?

    public init(index: UInt32, name: [UInt8] = [], type: NL80211.InterfaceType? = nil,
                mac: MACAddress? = nil, ssid: SSID? = nil) {
        self.index = index
        self.name = name
        self.type = type
        self.mac = mac
        self.ssid = ssid
    }

    /// Reads the attributes of one interface message. IFINDEX is required;
    /// a present attribute with a wrong size rejects the message.
    public init(attributes: [NetlinkAttribute]) throws {
        guard let index = attributes.first(NL80211.Attribute.ifindex) else {
            throw NetlinkError.badAttribute(type: NL80211.Attribute.ifindex, length: 0)
        }
        self.index = try index.uint32()
        name = attributes.first(NL80211.Attribute.ifname)?.cString() ?? []
        type = try attributes.first(NL80211.Attribute.iftype).map { NL80211.InterfaceType(rawValue: try $0.uint32()) } ?? nil
        mac = try attributes.first(NL80211.Attribute.mac).map { attribute in
            guard let mac = MACAddress(bytes: attribute.payload) else {
                throw NetlinkError.badAttribute(type: attribute.type, length: attribute.payload.count)
            }
            return mac
        }
        ssid = try attributes.first(NL80211.Attribute.ssid).map { attribute in
            guard let ssid = SSID(bytes: attribute.payload) else {
                throw NetlinkError.badAttribute(type: attribute.type, length: attribute.payload.count)
            }
            return ssid
        }
    }

    public var isStation: Bool { type == .station || type == .p2pClient }

    /// The name for logs (names are not private; SSIDs are).
    public var displayName: String { String(decoding: name, as: UTF8.self) }
}
