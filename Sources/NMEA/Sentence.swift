/// One framed NMEA 0183 sentence whose checksum has been verified: the bytes
/// between the leading `$` and the `*` (e.g. `GPGGA,123519,4807.038,N,…`).
///
/// The body is kept as bytes, never as a `String`: decoding works on bytes
/// so a large capture decodes at least as fast as gpsd's own `gpsdecode`.
public struct Sentence: Sendable, Hashable, CustomStringConvertible {
    /// The sentence body: address field, commas and data fields, no `$`,
    /// no `*hh`, no line end.
    public let body: [UInt8]

    /// Wraps an already verified body (the framer's output, or a test's).
    public init(body: [UInt8]) {
        self.body = body
    }

    /// A body from text, for tests and tools: `"GPGGA,…"` (no `$`, no `*hh`).
    public init(_ text: String) {
        self.body = Array(text.utf8)
    }

    /// The address field: `GPGGA`, `GNRMC`, `PSTMANTENNASTATUS`.
    public var address: ArraySlice<UInt8> {
        body[..<(body.firstIndex(of: UInt8(ascii: ",")) ?? body.endIndex)]
    }

    /// The talker, e.g. `GP`, `GN`, `BD`; `P` for proprietary sentences.
    public var talker: String {
        let address = self.address
        if address.first == UInt8(ascii: "P") { return "P" }
        return String(decoding: address.prefix(2), as: UTF8.self)
    }

    /// The sentence formatter (`GGA`, `RMC`, …): the last three letters of a
    /// standard five-letter address; the whole address for proprietary ones.
    public var formatter: String {
        let address = self.address
        if address.count == 5, address.first != UInt8(ascii: "P") {
            return String(decoding: address.suffix(3), as: UTF8.self)
        }
        return String(decoding: address, as: UTF8.self)
    }

    /// The checksum NMEA defines: XOR of every byte of the body.
    public static func checksum(of body: some Sequence<UInt8>) -> UInt8 {
        body.reduce(0, ^)
    }

    /// The sentence as a receiver would send it: `$BODY*HH`.
    public var description: String {
        let sum = Sentence.checksum(of: body)
        let hex = Array("0123456789ABCDEF".utf8)
        return "$" + String(decoding: body, as: UTF8.self) + "*"
            + String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 0xF)]], as: UTF8.self)
    }
}
