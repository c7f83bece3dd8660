import Localization

/// A well-known Text record ("T", NFC Forum RTD-Text 1.0).
///
/// Payload: a status byte `UTF16(1) RFU(1) LANGLEN(6)`, the IANA language
/// code in ASCII, then the text in UTF-8 or UTF-16 (with an optional BOM;
/// big-endian without one). Example: `02 65 6E 48 65 6C 6C 6F` is "Hello" in "en".
public struct TextRecord: Sendable, Equatable {
    /// The encoding bit of the status byte.
    public enum Encoding: String, Sendable { case utf8 = "UTF-8", utf16 = "UTF-16" }

    public var text: String
    public var language: String
    public var encoding: Encoding

    public init(text: String, language: String, encoding: Encoding = .utf8) {
        self.text = text
        self.language = language
        self.encoding = encoding
    }

    /// Decodes a Text record payload.
    public init(payload: [UInt8]) throws(NDEFError) {
        var reader = ByteReader(payload)
        let status = try reader.byte()
        let languageLength = Int(status & 0x3F)
        guard languageLength > 0 else {
            throw .invalidPayload(tr("language code length can not be zero"))
        }
        guard languageLength <= reader.remaining else {
            throw .invalidPayload(tr("language code length exceeds payload"))
        }
        let languageBytes = try reader.bytes(UInt64(languageLength))
        guard languageBytes.allSatisfy({ $0 < 0x80 }) else {
            throw .invalidPayload(tr("language code is not ASCII"))
        }
        language = String(decoding: languageBytes, as: UTF8.self)
        let body = try reader.bytes(UInt64(reader.remaining))
        if status & 0x80 != 0 {
            encoding = .utf16
            text = try Self.decodeUTF16(body)
        } else {
            encoding = .utf8
            guard let decoded = String(validating: body, as: UTF8.self) else {
                throw .invalidPayload(tr("text can't be decoded as UTF-8"))
            }
            text = decoded
        }
    }

    private static func decodeUTF16(_ bytes: [UInt8]) throws(NDEFError) -> String {
        guard bytes.count % 2 == 0 else {
            throw .invalidPayload(tr("text can't be decoded as UTF-16 (odd length)"))
        }
        var littleEndian = false
        var start = 0
        if bytes.count >= 2 {
            if bytes[0] == 0xFF, bytes[1] == 0xFE { littleEndian = true; start = 2 }
            else if bytes[0] == 0xFE, bytes[1] == 0xFF { start = 2 }
        }
        let units = stride(from: start, to: bytes.count, by: 2).map { (i: Int) -> UInt16 in
            let first = UInt16(bytes[i]), second = UInt16(bytes[i + 1])
            return littleEndian ? second << 8 | first : first << 8 | second
        }
        guard let decoded = String(validating: units, as: UTF16.self) else {
            throw .invalidPayload(tr("text can't be decoded as UTF-16"))
        }
        return decoded
    }
}
