/// A bounds-checked cursor over input bytes. Every read checks what is left
/// first, so a declared length can only ever select bytes that exist: a
/// length of 2^32 fails here instead of allocating.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte() throws(NDEFError) -> UInt8 {
        guard remaining >= 1 else { throw .bufferUnderflow(needed: 1, available: remaining) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() throws(NDEFError) -> UInt16 {
        let high = try byte(), low = try byte()
        return UInt16(high) << 8 | UInt16(low)
    }

    mutating func uint32() throws(NDEFError) -> UInt32 {
        guard remaining >= 4 else { throw .bufferUnderflow(needed: 4, available: remaining) }
        var value: UInt32 = 0
        for _ in 0..<4 { value = value << 8 | UInt32(try byte()) }
        return value
    }

    /// The next `count` bytes; `count` is checked against the input before
    /// anything is copied.
    mutating func bytes(_ count: UInt64) throws(NDEFError) -> [UInt8] {
        guard count <= UInt64(remaining) else {
            throw .bufferUnderflow(needed: Int(clamping: count), available: remaining)
        }
        let n = Int(count)
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }
}
