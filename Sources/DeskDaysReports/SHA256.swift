import CNettle

/// SHA-256 (FIPS 180-4) through Nettle: the digest printed on the evidence
/// page and by `deskdays evidence`, so that a printed page can be matched
/// with the file it came from. Nettle rather than a hand-written hash:
/// small, with no network or TLS code, from Debian's nettle-dev.
public enum SHA256 {
    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    public static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var context = sha256_ctx()
        nettle_sha256_init(&context)
        let array = Array(bytes)
        array.withUnsafeBufferPointer { buffer in
            nettle_sha256_update(&context, buffer.count, buffer.baseAddress)
        }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        digest.withUnsafeMutableBufferPointer { buffer in
            nettle_sha256_digest(&context, buffer.count, buffer.baseAddress)
        }
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digest of `text`'s UTF-8 bytes.
    public static func hex(_ text: String) -> String { hex(Array(text.utf8)) }
}
