import NDEF
import Testing

/// Type 2 memory images built around the ndeflib messages (no permissively
/// licensed NTAG dump exists): every TLV layout a tag may use.
@Suite struct Type2TagTests {
    /// How the NDEF TLV sits in the data area.
    enum Layout: String, CaseIterable, Sendable {
        case plain, nullPadding, lockAndMemoryControl, threeByteLength, proprietaryFirst
        func area(_ message: [UInt8]) -> [UInt8] {
            let length: [UInt8] = message.count < 0xFF && self != .threeByteLength
                ? [UInt8(message.count)]
                : [0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
            let ndef = [0x03] + length + message + [0xFE]
            switch self {
            case .plain, .threeByteLength: return ndef
            case .nullPadding: return [0x00, 0x00, 0x00] + ndef
            case .lockAndMemoryControl:
                return [0x01, 0x03, 0xA0, 0x10, 0x44, 0x02, 0x03, 0xF0, 0x02, 0x03] + ndef
            case .proprietaryFirst: return [0xFD, 0x02, 0xAB, 0xCD] + ndef
            }
        }
    }

    /// The well-known short record `type` carrying `payload`, as a one-record message.
    static func message(type: String, payload: [UInt8]) -> [UInt8] {
        [0xD1, 0x01, UInt8(payload.count)] + Array(type.utf8) + payload
    }

    /// A whole tag: UID pages, capability container (NTAG213-sized when it
    /// fits), data area padded with zeros.
    static func image(area: [UInt8]) -> [UInt8] {
        let capacity = max(144, (area.count + 7) / 8 * 8)
        let header: [UInt8] = [0x04, 0xA2, 0x24, 0x0E, 0x6A, 0x2F, 0x6E, 0x80, 0xAD, 0x48, 0x00, 0x00,
                               0xE1, 0x10, UInt8(capacity / 8), 0x00]
        return header + area + [UInt8](repeating: 0, count: capacity - area.count)
    }

    static let messages: [[UInt8]] =
        Vectors.valid("TestTextRecord").map { message(type: "T", payload: $0.payload) }
        + Vectors.valid("TestUriRecord").map { message(type: "U", payload: $0.payload) }

    @Test(arguments: Layout.allCases)
    func everyVectorMessageIsFoundInEveryLayout(_ layout: Layout) throws {
        for message in Self.messages {
            let memory = Self.image(area: layout.area(message))
            #expect(try Type2Tag.ndefMessage(memory: memory) == message)
        }
    }

    @Test(arguments: Layout.allCases)
    func readingSixteenBytesAtATimeStopsWhenTheTLVIsComplete(_ layout: Layout) throws {
        let message = Self.message(type: "U", payload: [0x04] + Array("deskdays.example/office/hq".utf8))
        let memory = Self.image(area: layout.area(message))
        let capacity = try Type2Tag.dataAreaSize(capabilityContainer: Array(memory[12..<16]))
        var area: [UInt8] = []
        var reads = 0
        while true {
            let scan = try Type2Tag.scan(dataArea: area, capacity: capacity)
            if case let .complete(ndef) = scan {
                #expect(ndef == message)
                break
            }
            guard case let .needMore(byteCount) = scan, byteCount <= capacity else {
                Issue.record("asked beyond the data area")
                return
            }
            let start = 16 + area.count
            area += memory[start..<min(start + 16, memory.count)]
            reads += 1
        }
        #expect(reads <= (layout.area(message).count + 15) / 16)
    }

    @Test func longMessageNeedsTheThreeByteLength() throws {
        let text = String(repeating: "desk ", count: 80)
        let payload = [0x02] + Array("en".utf8) + Array(text.utf8)
        let length = UInt32(payload.count)
        let message: [UInt8] = [0xC1, 0x01] + (0..<4).map { UInt8(truncatingIfNeeded: length >> (24 - 8 * $0)) }
            + [0x54] + payload
        let memory = Self.image(area: Layout.plain.area(message))
        let found = try #require(try Type2Tag.ndefMessage(memory: memory))
        let records = try NDEFMessage.decode(found)
        #expect(try TextRecord(payload: records[0].payload).text == text)
    }

    @Test func terminatorBeforeAnyNDEFMeansNoMessage() throws {
        #expect(try Type2Tag.ndefMessage(memory: Self.image(area: [0x00, 0xFE, 0x03, 0x00])) == nil)
        #expect(try Type2Tag.ndefMessage(memory: Self.image(area: [])) == nil)
    }

    @Test func emptyNDEFMessageOfAFreshTag() throws {
        #expect(try Type2Tag.ndefMessage(memory: Self.image(area: [0x03, 0x00, 0xFE])) == [])
    }

    @Test(arguments: [
        ([0x03, 0xFF, 0xFF, 0xFE], NDEFError.lengthExceedsInput(declared: 0xFFFE, available: 140)),
        ([0x03, 0xFF, 0xFF, 0xFF], .malformedTLV("length 0xFFFF is reserved")),
        ([0x03, 0xFA], .lengthExceedsInput(declared: 0xFA, available: 142)),
        ([0x42, 0x00], .malformedTLV("unknown TLV type 0x42")),
    ] as [([UInt8], NDEFError)])
    func corruptTLVAreasAreTypedErrors(_ area: [UInt8], _ expected: NDEFError) {
        #expect(throws: expected) { try Type2Tag.ndefMessage(memory: Self.image(area: area)) }
    }

    @Test func unformattedTagIsNotNDEF() {
        var memory = Self.image(area: [])
        memory[12] = 0x00
        #expect(throws: NDEFError.notNDEFFormatted) { try Type2Tag.ndefMessage(memory: memory) }
    }

    @Test func truncatedImageIsAnError() {
        #expect(throws: NDEFError.self) { try Type2Tag.ndefMessage(memory: [0x04, 0xA2]) }
    }
}
