/// One netlink message: the 16-byte `struct nlmsghdr` and its payload.
///
/// | bytes | field |
/// |---|---|
/// | 0–3 | nlmsg_len (header included) |
/// | 4–5 | nlmsg_type (a generic-netlink family id, or NLMSG_ERROR/DONE) |
/// | 6–7 | nlmsg_flags (NLM_F_MULTI, NLM_F_DUMP_INTR, …) |
/// | 8–11 | nlmsg_seq |
/// | 12–15 | nlmsg_pid (port) |
public struct NetlinkMessage: Sendable, Equatable {
    public var type: UInt16
    public var flags: UInt16
    public var sequence: UInt32
    public var port: UInt32
    public var payload: [UInt8]

    public static let headerSize = 16
    public static let typeError: UInt16 = 2      // NLMSG_ERROR
    public static let typeDone: UInt16 = 3       // NLMSG_DONE
    public static let typeOverrun: UInt16 = 4    // NLMSG_OVERRUN
    public static let flagMulti: UInt16 = 0x2    // NLM_F_MULTI
    public static let flagDumpInterrupted: UInt16 = 0x10  // NLM_F_DUMP_INTR

    public init(type: UInt16, flags: UInt16 = 0, sequence: UInt32 = 0, port: UInt32 = 0, payload: [UInt8]) {
        self.type = type
        self.flags = flags
        self.sequence = sequence
        self.port = port
        self.payload = payload
    }

    /// Splits one datagram (as `recv` returns it) into its messages.
    public static func parseAll<Bytes: RandomAccessCollection>(_ bytes: Bytes) throws -> [NetlinkMessage]
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var messages: [NetlinkMessage] = []
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let available = bytes.endIndex - offset
            guard available >= headerSize else { throw NetlinkError.truncated(needed: headerSize, available: available) }
            let length = Int(bytes.readUInt32(at: offset))
            guard length >= headerSize else { throw NetlinkError.badLength(length) }
            guard length <= available else { throw NetlinkError.truncated(needed: length, available: available) }
            messages.append(NetlinkMessage(
                type: bytes.readUInt16(at: offset + 4), flags: bytes.readUInt16(at: offset + 6),
                sequence: bytes.readUInt32(at: offset + 8), port: bytes.readUInt32(at: offset + 12),
                payload: Array(bytes[(offset + headerSize)..<(offset + length)])))
            offset += min(align4(length), available)
        }
        return messages
    }

    /// For NLMSG_ERROR: the errno it carries (0 is an ACK), as a positive number.
    public func errorCode() throws -> Int32 {
        guard payload.count >= 4 else { throw NetlinkError.truncated(needed: 4, available: payload.count) }
        // Wrapping negation: a corrupt Int32.min must not trap.
        return 0 &- Int32(bitPattern: payload.readUInt32(at: 0))
    }

    /// The payload as a generic-netlink message.
    public func generic() throws -> GenericNetlinkMessage {
        try GenericNetlinkMessage(payload: payload)
    }

    /// Encodes the message (tests and fuzz seeds).
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendUInt32(UInt32(Self.headerSize + payload.count))
        bytes.appendUInt16(type)
        bytes.appendUInt16(flags)
        bytes.appendUInt32(sequence)
        bytes.appendUInt32(port)
        return bytes + payload + [UInt8](repeating: 0, count: align4(payload.count) - payload.count)
    }
}

/// A generic-netlink payload: `struct genlmsghdr` (command, version, 2
/// reserved bytes) followed by attributes.
public struct GenericNetlinkMessage: Sendable, Equatable {
    public var command: UInt8
    public var version: UInt8
    public var attributes: [NetlinkAttribute]

    public static let headerSize = 4

    public init(command: UInt8, version: UInt8 = 0, attributes: [NetlinkAttribute]) {
        self.command = command
        self.version = version
        self.attributes = attributes
    }

    public init<Bytes: RandomAccessCollection>(payload: Bytes) throws where Bytes.Element == UInt8, Bytes.Index == Int {
        guard payload.count >= Self.headerSize else {
            throw NetlinkError.truncated(needed: Self.headerSize, available: payload.count)
        }
        let start = payload.startIndex
        command = payload[start]
        version = payload[start + 1]
        attributes = try NetlinkAttribute.parse(payload[(start + Self.headerSize)...])
    }

    /// Encodes header and attributes (tests and fuzz seeds).
    public func encoded() -> [UInt8] {
        [command, version, 0, 0] + attributes.flatMap { $0.encoded() }
    }
}
