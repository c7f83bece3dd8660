/// A network name as the air carries it: 0–32 arbitrary bytes, not always
/// UTF-8. Compared as bytes; shown escaped, never decoded lossily.
public struct SSID: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public static let maximumLength = 32

    /// Nil when longer than 32 bytes (802.11 allows no more).
    public init?(bytes: [UInt8]) {
        guard bytes.count <= Self.maximumLength else { return nil }
        self.bytes = bytes
    }

    /// The bytes of a configured name (TOML strings are UTF-8).
    public init?(_ text: String) { self.init(bytes: Array(text.utf8)) }

    /// Printable ASCII as is, everything else (and the backslash) as `\xHH`,
    /// the way `iw` prints SSIDs: unambiguous and safe on any terminal.
    public var description: String {
        var text = ""
        for byte in bytes {
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += "\\x" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        return text
    }

    /// The SSID as a string when it is valid UTF-8 (what a TOML file can hold).
    public var utf8String: String? {
        String(validating: bytes, as: UTF8.self)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
