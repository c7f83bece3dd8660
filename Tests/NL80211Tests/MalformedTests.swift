import NL80211
import Testing

/// Bad lengths are rejected, never trusted, and nothing crashes on any
/// prefix or corruption of a real message.
@Suite struct MalformedTests {
    @Test("attribute headers that lie", arguments: [
        [0x03, 0x00, 0x01, 0x00],                    // nla_len < 4
        [0x0C, 0x00, 0x01, 0x00, 0xAA, 0xBB],        // nla_len past the end
        [0x08, 0x00],                                // half a header
        [0x08, 0x00, 0x01, 0x00, 1, 0, 0, 0, 0xFF],  // trailing garbage
    ] as [[UInt8]])
    func badAttributeStreams(bytes: [UInt8]) {
        #expect(throws: NetlinkError.self) { try NetlinkAttribute.parse(bytes) }
    }

    @Test func missingFinalPaddingIsAccepted() throws {
        let attributes = try NetlinkAttribute.parse([0x05, 0x00, 0x01, 0x00, 0x2A])
        #expect(attributes == [NetlinkAttribute(type: 1, payload: [0x2A])])
    }

    @Test func messageHeadersThatLie() {
        #expect(throws: NetlinkError.self) { try NetlinkMessage.parseAll([0x08, 0, 0, 0] + [UInt8](repeating: 0, count: 12)) }
        #expect(throws: NetlinkError.self) { try NetlinkMessage.parseAll([0xFF, 0, 0, 0] + [UInt8](repeating: 0, count: 12)) }
        #expect(throws: NetlinkError.self) { try NetlinkMessage.parseAll([0x10, 0, 0]) }
        #expect(throws: NetlinkError.self) { try GenericNetlinkMessage(payload: [0x22, 0x01]) }
    }

    @Test func wrongSizedValuesAreRejected() throws {
        let shortMAC = [Build.u32(NL80211.Attribute.ifindex, 3), Build.bytes(NL80211.Attribute.mac, [1, 2, 3])]
        #expect(throws: NetlinkError.self) { try WirelessInterface(attributes: shortMAC) }
        let longSSID = [Build.u32(NL80211.Attribute.ifindex, 3), Build.bytes(NL80211.Attribute.ssid, [UInt8](repeating: 0x41, count: 33))]
        #expect(throws: NetlinkError.self) { try WirelessInterface(attributes: longSSID) }
        let shortIndex = [Build.bytes(NL80211.Attribute.ifindex, [3, 0])]
        #expect(throws: NetlinkError.self) { try WirelessInterface(attributes: shortIndex) }
        #expect(throws: NetlinkError.self) { try WirelessInterface(attributes: []) }
        // A nested BSS whose inner stream is broken.
        let brokenNest = [NetlinkAttribute(type: NL80211.Attribute.bss, payload: [0x0A, 0x00, 0x01, 0x00, 2, 0])]
        #expect(throws: NetlinkError.self) { try ScannedBSS(attributes: brokenNest) }
        let prevBSSID = try #require(Vector.named("test_prev_bssid_invalid_len").first)
        #expect(MACAddress(bytes: try NetlinkAttribute.parse(prevBSSID.bytes)[0].payload) == nil)
    }

    @Test func truncatedSSIDElementIsRejected() throws {
        #expect(throws: NetlinkError.self) { try InformationElements.ssid(in: [0x00, 0x09, 0x54, 0x65]) }
        #expect(throws: NetlinkError.self) { try InformationElements.parse([0x00]) }
        #expect(try InformationElements.ssid(in: [0x01, 0x01, 0x82]) == nil)
    }

    @Test("every prefix and every single-byte corruption of every vector: throws or parses, never crashes",
          arguments: Vector.all.filter { $0.layout != .opaque }.map(\.index))
    func prefixesAndCorruptions(index: Int) {
        let bytes = Vector.all[index].bytes
        for length in 0...bytes.count { exercise(Array(bytes.prefix(length))) }
        for position in bytes.indices {
            for value: UInt8 in [0x00, 0xFF, 0x03, 0x80] {
                var corrupted = bytes
                corrupted[position] = value
                exercise(corrupted)
            }
        }
    }

    /// Everything the adapter does with untrusted bytes.
    func exercise(_ bytes: [UInt8]) {
        for stream in [bytes, Array(bytes.dropFirst(4)), Array(bytes.dropFirst(16)), Array(bytes.dropFirst(20))] {
            guard let attributes = try? NetlinkAttribute.parse(stream) else { continue }
            _ = try? WirelessInterface(attributes: attributes)
            _ = try? ScannedBSS(attributes: attributes)
            _ = try? StationInfo(attributes: attributes)
            _ = try? ControlFamily(attributes: attributes)
            for attribute in attributes { _ = try? InformationElements.ssid(in: attribute.payload) }
        }
        for message in (try? NetlinkMessage.parseAll(bytes)) ?? [] {
            if let generic = try? message.generic() { _ = try? MLMEEvent(generic) }
            _ = try? message.errorCode()
        }
    }
}
