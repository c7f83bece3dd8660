/// 802.11 information elements (a BSS's beacon / probe-response body):
/// a run of `id, length, value` triples.
///
/// ```
/// 00 09 54 65 73 74 2d 57 49 46 49   01 08 82 84 8b 96 ...
/// SSID "Test-WIFI"                   Supported Rates
/// ```
public enum InformationElements {
    public static let ssidElementID: UInt8 = 0

    /// Splits the elements; a truncated last element rejects the whole run
    /// (a half-read SSID must never be matched).
    public static func parse(_ bytes: [UInt8]) throws -> [(id: UInt8, value: [UInt8])] {
        var elements: [(id: UInt8, value: [UInt8])] = []
        var offset = 0
        while offset < bytes.count {
            guard bytes.count - offset >= 2 else { throw NetlinkError.truncated(needed: 2, available: bytes.count - offset) }
            let length = Int(bytes[offset + 1])
            guard offset + 2 + length <= bytes.count else {
                throw NetlinkError.truncated(needed: length, available: bytes.count - offset - 2)
            }
            elements.append((bytes[offset], Array(bytes[(offset + 2)..<(offset + 2 + length)])))
            offset += 2 + length
        }
        return elements
    }

    /// Element 0 (SSID), as `iw link` reads it; nil when absent or longer than 32 bytes.
    public static func ssid(in bytes: [UInt8]) throws -> SSID? {
        guard let element = try parse(bytes).first(where: { $0.id == ssidElementID }) else { return nil }
        return SSID(bytes: element.value)
    }
}
