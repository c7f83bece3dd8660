import CNettle

/// SHA-256 (FIPS 180-4) through Nettle: the digest printed on the evidence
/// page and by `deskdays evidence` (a printed page matched with its file),
/// and what an inbox file held when it was last read (a file rewritten in
/// place is read again). Nettle rather than a hand-written hash: small,
/// with no network or TLS code, from Debian's nettle-dev.
public struct SHA256: Sendable {
    private var context = sha256_ctx()

    public init() { nettle_sha256_init(&context) }

    /// Adds `bytes` to what is hashed.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        nettle_sha256_update(&context, bytes.count, base.assumingMemoryBound(to: UInt8.self))
    }

    /// The digest of everything added so far, as 64 lowercase hexadecimal
    /// digits (a copy is finished: more may be added after).
    public func hex() -> String {
        var copy = context
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_SIZE))
        digest.withUnsafeMutableBufferPointer { buffer in
            nettle_sha256_digest(&copy, buffer.count, buffer.baseAddress)
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

    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    public static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var hash = SHA256()
        Array(bytes).withUnsafeBytes { hash.update($0) }
        return hash.hex()
    }

    /// The digest of `text`'s UTF-8 bytes.
    public static func hex(_ text: String) -> String { hex(Array(text.utf8)) }
}
