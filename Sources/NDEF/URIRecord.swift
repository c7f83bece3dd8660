import Localization

/// A well-known URI record ("U", NFC Forum RTD-URI 1.0).
///
/// Payload: one identifier code that abbreviates a prefix, then the rest of
/// the URI in UTF-8. Example: `03 6E 66 63 70 79` is "http://nfcpy".
public struct URIRecord: Sendable, Equatable {
    /// The URI with its prefix expanded.
    public var uri: String

    public init(uri: String) { self.uri = uri }

    /// The 36 identifier codes 0x00–0x23 (RTD-URI table 3); 0x24–0xFF are RFU.
    public static let prefixes: [String] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
        "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://",
        "ftp://", "dav://", "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:",
        "sips:", "tftp:", "btspp://", "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://",
        "file://", "urn:epc:id:", "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:",
        "urn:nfc:",
    ]

    /// Decodes a URI record payload. Control characters are rejected, as
    /// RFC 3987 does not allow them in an IRI.
    public init(payload: [UInt8]) throws(NDEFError) {
        var reader = ByteReader(payload)
        let code = Int(try reader.byte())
        guard code < Self.prefixes.count else {
            throw .invalidPayload(tr("decoding of URI identifier \(code) is not defined"))
        }
        let rest = try reader.bytes(UInt64(reader.remaining))
        guard let field = String(validating: rest, as: UTF8.self) else {
            throw .invalidPayload(tr("URI field is not valid UTF-8 data"))
        }
        guard !field.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            throw .invalidPayload(tr("URI field contains invalid characters"))
        }
        uri = Self.prefixes[code] + field
    }
}
