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
