/// One netlink attribute (`struct nlattr`): a 4-byte header (length, type)
/// then the payload, padded to 4 bytes.
///
/// ```
/// 0d 00 34 00  54 65 73 74 2d 57 49 46 49  00 00 00
/// len=13 type=52 (NL80211_ATTR_SSID) "Test-WIFI"  padding
/// ```
public struct NetlinkAttribute: Sendable, Equatable {
    /// The type without the NLA_F_NESTED / NLA_F_NET_BYTEORDER flag bits.
    public var type: UInt16
    /// NLA_F_NESTED was set (the kernel sets it only for some nests, so
    /// callers decide nesting by type, not by this flag).
    public var isNestedFlag: Bool
    public var payload: [UInt8]

    public init(type: UInt16, isNestedFlag: Bool = false, payload: [UInt8]) {
        self.type = type
        self.isNestedFlag = isNestedFlag
        self.payload = payload
    }

    static let headerSize = 4
    static let typeMask: UInt16 = 0x3FFF
    static let nestedFlag: UInt16 = 0x8000

    /// Parses a whole attribute stream. Padding after the last attribute may
    /// be missing (the kernel omits it at the end of some messages); every
    /// other length problem rejects the stream.
    public static func parse<Bytes: RandomAccessCollection>(_ bytes: Bytes) throws -> [NetlinkAttribute]
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var attributes: [NetlinkAttribute] = []
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let available = bytes.endIndex - offset
            guard available >= headerSize else { throw NetlinkError.truncated(needed: headerSize, available: available) }
            let length = Int(bytes.readUInt16(at: offset))
            let rawType = bytes.readUInt16(at: offset + 2)
            guard length >= headerSize else { throw NetlinkError.badLength(length) }
            guard length <= available else { throw NetlinkError.truncated(needed: length, available: available) }
            attributes.append(NetlinkAttribute(type: rawType & typeMask, isNestedFlag: rawType & nestedFlag != 0,
                                               payload: Array(bytes[(offset + headerSize)..<(offset + length)])))
            offset += min(align4(length), available)
        }
        return attributes
    }

    /// The payload as a nested attribute stream.
    public func nested() throws -> [NetlinkAttribute] { try Self.parse(payload) }

    /// The payload as a little-endian (host order on every Linux we target) u32.
    public func uint32() throws -> UInt32 {
        guard payload.count == 4 else { throw NetlinkError.badAttribute(type: type, length: payload.count) }
        return payload.readUInt32(at: 0)
    }

    /// The payload as a u16 (the kernel may pad it to 4 bytes; only 2 or 4 are accepted).
    public func uint16() throws -> UInt16 {
        guard payload.count == 2 || payload.count == 4 else { throw NetlinkError.badAttribute(type: type, length: payload.count) }
        return payload.readUInt16(at: 0)
    }

    /// The payload as a u8 (1 byte, or padded to 4).
    public func uint8() throws -> UInt8 {
        guard payload.count == 1 || payload.count == 4 else { throw NetlinkError.badAttribute(type: type, length: payload.count) }
        return payload[0]
    }

    /// A NUL-terminated string payload, without its terminator, as bytes.
    public func cString() -> [UInt8] {
        Array(payload.prefix { $0 != 0 })
    }

    /// Encodes the attribute with its padding (for tests, fuzz seeds and requests).
    public func encoded() -> [UInt8] {
        let length = Self.headerSize + payload.count
        var bytes: [UInt8] = []
        bytes.appendUInt16(UInt16(length))
        bytes.appendUInt16(type | (isNestedFlag ? Self.nestedFlag : 0))
        bytes += payload
        bytes += [UInt8](repeating: 0, count: align4(length) - length)
        return bytes
    }
}

extension Array where Element == NetlinkAttribute {
    /// The first attribute of a type (netlink allows repeats; nl80211 does not use them for what we read).
    public func first(_ type: UInt16) -> NetlinkAttribute? { first { $0.type == type } }
}

/// Rounds up to the netlink alignment of 4 bytes (NLA_ALIGN, NLMSG_ALIGN).
func align4(_ length: Int) -> Int { (length + 3) & ~3 }

extension RandomAccessCollection where Element == UInt8, Index == Int {
    func readUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }
    func readUInt32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16 | UInt32(self[offset + 3]) << 24
    }
}

extension Array where Element == UInt8 {
    mutating func appendUInt16(_ value: UInt16) {
        append(UInt8(value & 0xFF)); append(UInt8(value >> 8))
    }
    mutating func appendUInt32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }
}
