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

/// One station from a `GET_STATION` dump: for a client interface, the AP
/// it is associated with and the signal it hears.
public struct StationInfo: Sendable, Equatable {
    public var mac: MACAddress
    public var signalDBm: Int?

    public init(mac: MACAddress, signalDBm: Int? = nil) {
        self.mac = mac
        self.signalDBm = signalDBm
    }

    /// `NL80211_STA_INFO_SIGNAL` is a signed byte in dBm; the average is
    /// preferred when present (steadier for a threshold).
    public init(attributes: [NetlinkAttribute]) throws {
        guard let macAttribute = attributes.first(NL80211.Attribute.mac),
              let mac = MACAddress(bytes: macAttribute.payload) else {
            throw NetlinkError.badAttribute(type: NL80211.Attribute.mac, length: 0)
        }
        self.mac = mac
        if let info = attributes.first(NL80211.Attribute.stationInfo) {
            let nested = try info.nested()
            if let signal = nested.first(NL80211.StationInfoAttribute.signalAverage) ?? nested.first(NL80211.StationInfoAttribute.signal) {
                signalDBm = Int(Int8(bitPattern: try signal.uint8()))
            }
        }
    }
}

/// What one `mlme` multicast message means for the link.
public enum MLMEEvent: Sendable, Equatable {
    case connect(interfaceIndex: UInt32?, success: Bool)
    case roam(interfaceIndex: UInt32?)
    case disconnect(interfaceIndex: UInt32?)
    /// AUTHENTICATE, ASSOCIATE and the rest: not a change of link by itself.
    case other(command: UInt8)

    /// Classifies an nl80211 message; CONNECT counts as success unless
    /// STATUS_CODE says otherwise.
    public init(_ message: GenericNetlinkMessage) throws {
        let index = try message.attributes.first(NL80211.Attribute.ifindex)?.uint32()
        switch message.command {
        case NL80211.Command.connect:
            let status = try message.attributes.first(NL80211.Attribute.statusCode)?.uint16()
            self = .connect(interfaceIndex: index, success: (status ?? 0) == 0)
        case NL80211.Command.roam: self = .roam(interfaceIndex: index)
        case NL80211.Command.disconnect: self = .disconnect(interfaceIndex: index)
        default: self = .other(command: message.command)
        }
    }

    /// Whether the adapter should re-read the links.
    public var changesLink: Bool {
        if case .other = self { return false }
        return true
    }
}
