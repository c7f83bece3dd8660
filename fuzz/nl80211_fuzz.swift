// libFuzzer entry point over the nl80211 parser: built from Sources/NL80211
// alone by fuzz/nl80211.sh. Any bytes, read as a netlink datagram, a
// generic-netlink payload or a bare attribute stream, must neither crash
// nor trap, and whatever parses must re-encode to something that parses
// to the same attributes.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNL80211(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    if let messages = try? NetlinkMessage.parseAll(bytes) {
        for message in messages {
            _ = try? message.errorCode()
            if let generic = try? message.generic() { exercise(generic.attributes); _ = try? MLMEEvent(generic) }
        }
    }
    if let generic = try? GenericNetlinkMessage(payload: bytes) { exercise(generic.attributes) }
    if let attributes = try? NetlinkAttribute.parse(bytes) {
        exercise(attributes)
        let again = try? NetlinkAttribute.parse(attributes.flatMap { $0.encoded() })
        if again.map({ $0.map(\.payload) != attributes.map(\.payload) || $0.map(\.type) != attributes.map(\.type) }) ?? true {
            fatalError("re-encoding changed the attributes")
        }
    }
    _ = try? InformationElements.ssid(in: bytes)
    _ = SSID(bytes: Array(bytes.prefix(32)))?.description
    return 0
}

/// Everything the adapter reads from a message's attributes, nested ones included.
func exercise(_ attributes: [NetlinkAttribute]) {
    _ = try? WirelessInterface(attributes: attributes)
    _ = try? ScannedBSS(attributes: attributes)
    _ = try? StationInfo(attributes: attributes)
    _ = try? ControlFamily(attributes: attributes)
    for attribute in attributes {
        _ = try? attribute.uint32()
        _ = try? attribute.uint16()
        _ = try? attribute.uint8()
        if let nested = try? attribute.nested() {
            _ = try? ScannedBSS(attributes: [NetlinkAttribute(type: 47, payload: attribute.payload)] + nested)
        }
        _ = try? InformationElements.ssid(in: attribute.payload)
    }
}
