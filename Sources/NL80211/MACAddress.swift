/// A 6-byte IEEE 802 address (an interface MAC or a BSSID).
public struct MACAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Nil unless exactly 6 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.bytes = bytes
    }

    /// Parses `aa:bb:cc:dd:ee:ff` (either case).
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard part.count == 2, let byte = UInt8(part, radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    /// Lower-case, colon-separated, as the configuration stores it.
    public var description: String {
        bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: ":")
    }
}
