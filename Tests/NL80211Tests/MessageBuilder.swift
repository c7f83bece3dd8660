import NL80211

/// Builds nl80211 messages the way the kernel lays them out, for cases the
/// shared vectors lack (GET_INTERFACE replies, station info, bad lengths).
enum Build {
    static func u32(_ type: UInt16, _ value: UInt32) -> NetlinkAttribute {
        NetlinkAttribute(type: type, payload: withUnsafeBytes(of: value.littleEndian, Array.init))
    }

    static func bytes(_ type: UInt16, _ payload: [UInt8]) -> NetlinkAttribute {
        NetlinkAttribute(type: type, payload: payload)
    }

    static func nested(_ type: UInt16, _ children: [NetlinkAttribute]) -> NetlinkAttribute {
        NetlinkAttribute(type: type, isNestedFlag: true, payload: children.flatMap { $0.encoded() })
    }

    /// A `NEW_INTERFACE` reply as `GET_INTERFACE` returns it.
    static func interface(index: UInt32, name: String, type: NL80211.InterfaceType,
                          mac: [UInt8] = [2, 0, 0, 0, 1, 0], ssid: [UInt8]? = nil) -> [UInt8] {
        var attributes = [u32(NL80211.Attribute.ifindex, index), bytes(NL80211.Attribute.ifname, Array(name.utf8) + [0]),
                          u32(NL80211.Attribute.wiphy, 0), u32(NL80211.Attribute.iftype, type.rawValue),
                          bytes(NL80211.Attribute.mac, mac)]
        if let ssid { attributes.append(bytes(NL80211.Attribute.ssid, ssid)) }
        return message(NL80211.Command.newInterface, attributes)
    }

    /// A `NEW_STATION` reply with a signal (signed dBm byte) and its average.
    static func station(mac: [UInt8], signal: Int8, average: Int8? = nil) -> [UInt8] {
        var info = [bytes(NL80211.StationInfoAttribute.signal, [UInt8(bitPattern: signal)])]
        if let average { info.append(bytes(NL80211.StationInfoAttribute.signalAverage, [UInt8(bitPattern: average)])) }
        return message(NL80211.Command.newStation, [u32(NL80211.Attribute.ifindex, 3), bytes(NL80211.Attribute.mac, mac),
                                                    nested(NL80211.Attribute.stationInfo, info)])
    }

    /// A scan result for one BSS with the given status and IEs.
    static func bss(bssid: [UInt8], ssidElement: [UInt8], status: NL80211.BSSStatus?, signalMBm: Int32 = -4000) -> [UInt8] {
        var fields = [bytes(NL80211.BSSAttribute.bssid, bssid),
                      bytes(NL80211.BSSAttribute.informationElements, [0, UInt8(ssidElement.count)] + ssidElement + [1, 1, 0x82]),
                      u32(NL80211.BSSAttribute.signalMBm, UInt32(bitPattern: signalMBm))]
        if let status { fields.append(u32(NL80211.BSSAttribute.status, status.rawValue)) }
        return message(NL80211.Command.newScanResults, [u32(NL80211.Attribute.ifindex, 3), nested(NL80211.Attribute.bss, fields)])
    }

    static func message(_ command: UInt8, _ attributes: [NetlinkAttribute]) -> [UInt8] {
        NetlinkMessage(type: 0x1C, flags: NetlinkMessage.flagMulti, sequence: 7,
                       payload: GenericNetlinkMessage(command: command, version: 1, attributes: attributes).encoded()).encoded()
    }
}
