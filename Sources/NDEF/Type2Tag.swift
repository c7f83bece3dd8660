import Localization

/// The memory layout of an NFC Forum Type 2 tag (NTAG21x, MIFARE
/// Ultralight), read 4-byte page by page.
///
/// Pages 0–2 hold the UID, check bytes and static lock bits; page 3 is the
/// capability container `E1 <version> <size/8> <access>`; from page 4 the
/// data area holds TLVs: `00` NULL (one byte), `01` Lock Control, `02`
/// Memory Control, `03` NDEF message, `FD` proprietary, `FE` terminator.
/// A TLV length is one byte, or `FF` and two big-endian bytes
/// (`0x00FF`–`0xFFFE`). Example data area: `03 0C D1 01 08 54 02 65 6E …  FE`.
///
/// Reserved areas that Lock/Memory Control TLVs announce are only skipped
/// as TLVs, not cut out of the NDEF value: NTAG21x and Ultralight keep
/// their lock and configuration bytes after the data area, so there are none
/// inside it.
public enum Type2Tag {
    /// The page of the capability container.
    public static let capabilityContainerPage = 3
    /// The first page of the data area.
    public static let firstDataPage = 4
    /// Bytes per page.
    public static let pageSize = 4

    /// The size in bytes of the data area the capability container declares
    /// (at most 255 × 8 = 2040: the most a reader of this tag ever allocates).
    public static func dataAreaSize(capabilityContainer cc: [UInt8]) throws(NDEFError) -> Int {
        guard cc.count >= 4 else { throw .bufferUnderflow(needed: 4, available: cc.count) }
        guard cc[0] == 0xE1, cc[1] >> 4 == 1 else { throw .notNDEFFormatted }
        return Int(cc[2]) * 8
    }

    /// What a scan of the data area read so far concludes.
    public enum Scan: Sendable, Equatable {
        /// The first NDEF TLV's value (the message bytes), or nil when the
        /// area holds no NDEF TLV before its terminator or end.
        case complete(ndef: [UInt8]?)
        /// The TLVs run on: read until the data area holds `byteCount` bytes.
        case needMore(byteCount: Int)
    }

    /// Walks the TLVs in `area` (the data area from page 4, possibly only
    /// its first part) of a tag whose data area is `capacity` bytes.
    public static func scan(dataArea area: [UInt8], capacity: Int) throws(NDEFError) -> Scan {
        var offset = 0
        while true {
            if offset >= capacity { return .complete(ndef: nil) }
            guard offset < area.count else { return .needMore(byteCount: offset + 1) }
            let tag = area[offset]
            switch tag {
            case 0x00:
                offset += 1
                continue
            case 0xFE:
                return .complete(ndef: nil)
            case 0x01, 0x02, 0x03, 0xFD:
                break
            default:
                throw .malformedTLV(tr("unknown TLV type 0x\(String(tag, radix: 16))"))
            }
            guard offset + 2 <= area.count else { return .needMore(byteCount: min(offset + 2, capacity)) }
            var valueStart = offset + 2
            var length = Int(area[offset + 1])
            if length == 0xFF {
                guard offset + 4 <= area.count else {
                    return .needMore(byteCount: min(offset + 4, capacity))
                }
                length = Int(area[offset + 2]) << 8 | Int(area[offset + 3])
                valueStart = offset + 4
                guard length != 0xFFFF else { throw .malformedTLV(tr("length 0xFFFF is reserved")) }
            }
            let valueEnd = valueStart + length
            guard valueEnd <= capacity else {
                throw .lengthExceedsInput(declared: UInt64(length), available: max(0, capacity - valueStart))
            }
            if tag == 0x03 {
                guard valueEnd <= area.count else { return .needMore(byteCount: valueEnd) }
                return .complete(ndef: Array(area[valueStart..<valueEnd]))
            }
            offset = valueEnd
        }
    }

    /// The NDEF message bytes in a whole memory image (from page 0), or nil
    /// when the tag is formatted but carries no NDEF TLV.
    public static func ndefMessage(memory: [UInt8]) throws(NDEFError) -> [UInt8]? {
        let ccStart = capabilityContainerPage * pageSize
        guard memory.count >= ccStart + pageSize else {
            throw .bufferUnderflow(needed: ccStart + pageSize, available: memory.count)
        }
        let capacity = try dataAreaSize(capabilityContainer: Array(memory[ccStart..<ccStart + pageSize]))
        let dataStart = firstDataPage * pageSize
        let area = Array(memory[dataStart..<min(memory.count, dataStart + capacity)])
        switch try scan(dataArea: area, capacity: capacity) {
        case let .complete(ndef): return ndef
        case .needMore: throw .bufferUnderflow(needed: capacity, available: area.count)
        }
    }
}
