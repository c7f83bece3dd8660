/// One BSS from a `GET_SCAN` dump (`NL80211_CMD_NEW_SCAN_RESULTS` with a
/// nested `NL80211_ATTR_BSS`).
public struct ScannedBSS: Sendable, Equatable {
    public var interfaceIndex: UInt32?
    public var bssid: MACAddress
    public var status: NL80211.BSSStatus?
    public var ssid: SSID?
    /// Signal in dBm (from mBm), when the driver reports it.
    public var signalDBm: Int?

    public init(interfaceIndex: UInt32? = nil, bssid: MACAddress, status: NL80211.BSSStatus? = nil,
                ssid: SSID? = nil, signalDBm: Int? = nil) {
        self.interfaceIndex = interfaceIndex
        self.bssid = bssid
        self.status = status
        self.ssid = ssid
        self.signalDBm = signalDBm
    }

    /// Reads a scan-result message's attributes. The SSID comes from the
    /// probe-response IEs, else the beacon IEs (element 0, as `iw` does).
    public init(attributes: [NetlinkAttribute]) throws {
        guard let bss = attributes.first(NL80211.Attribute.bss) else {
            throw NetlinkError.badAttribute(type: NL80211.Attribute.bss, length: 0)
        }
        interfaceIndex = try attributes.first(NL80211.Attribute.ifindex)?.uint32()
        let nested = try bss.nested()
        guard let bssidAttribute = nested.first(NL80211.BSSAttribute.bssid),
              let bssid = MACAddress(bytes: bssidAttribute.payload) else {
            throw NetlinkError.badAttribute(type: NL80211.BSSAttribute.bssid,
                                            length: nested.first(NL80211.BSSAttribute.bssid)?.payload.count ?? 0)
        }
        self.bssid = bssid
        status = try nested.first(NL80211.BSSAttribute.status).map { NL80211.BSSStatus(rawValue: try $0.uint32()) } ?? nil
        if let signal = nested.first(NL80211.BSSAttribute.signalMBm) {
            signalDBm = Int(Int32(bitPattern: try signal.uint32())) / 100
        }
        let elements = nested.first(NL80211.BSSAttribute.informationElements)
            ?? nested.first(NL80211.BSSAttribute.beaconIEs)
        ssid = try elements.flatMap { try InformationElements.ssid(in: $0.payload) }
    }

    public var isAssociated: Bool { status == .associated }
}
