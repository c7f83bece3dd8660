import NDEF
import Testing

/// Whole messages: ndeflib's message sets, chunking, malformed input.
@Suite struct MessageTests {
    @Test(arguments: Vectors.messageSet("test_message_set_1"))
    func validMessagesDecode(_ vector: (bytes: [UInt8], expected: String)) throws {
        let records = try NDEFMessage.decode(vector.bytes)
        // ndeflib keeps chunks apart; we reassemble them, so its
        // "[Record('unknown'), Record('unchanged')]" is one unknown record here.
        if vector.expected.contains("'unchanged'") {
            #expect(records == [NDEFRecord(typeNameFormat: .unknown)])
        } else {
            let expectedCount = vector.expected.hasPrefix("3 *") ? 3 : vector.expected.components(separatedBy: "Record()").count - 1
            #expect(records.count == expectedCount)
            #expect(records.allSatisfy { $0.typeNameFormat == .empty })
        }
    }

    @Test(arguments: Vectors.messageSet("test_message_set_2") + Vectors.messageSet("test_message_set_3"))
    func invalidMessagesThrow(_ vector: (bytes: [UInt8], expected: String)) {
        #expect(throws: NDEFError.self) { try NDEFMessage.decode(vector.bytes) }
    }

    @Test func chunkedTextRecordIsReassembled() throws {
        let payload = Array("\u{02}enHello, desk".utf8)
        let message: [UInt8] =
            [0xB1, 0x01, 0x05, 0x54] + payload[0..<5]            // MB CF SR, TNF 1, "T"
            + [0x36, 0x00, 0x04] + payload[5..<9]                // CF SR, TNF 6
            + [0x56, 0x00, UInt8(payload.count - 9)] + payload[9...]  // ME SR, TNF 6
        let records = try NDEFMessage.decode(message)
        #expect(records.count == 1)
        #expect(try TextRecord(payload: records[0].payload).text == "Hello, desk")
    }

    @Test func longRecordWithFourByteLengthAndIdentifier() throws {
        let payload = [UInt8](repeating: 0x41, count: 300)
        let message: [UInt8] = [0xCA, 0x01, 0x00, 0x00, 0x01, 0x2C, 0x02, 0x78, 0x69, 0x64] + payload
        let records = try NDEFMessage.decode(message)
        #expect(records == [NDEFRecord(typeNameFormat: .media, type: [0x78], identifier: [0x69, 0x64],
                                       payload: payload)])
    }

    /// Malformed input → the typed error that names the problem.
    @Test(arguments: [
        ([0xD1, 0x01, 0x05, 0x54, 0x02], NDEFError.bufferUnderflow(needed: 6, available: 2)),
        ([0x51, 0x01, 0x00, 0x54], .messageBeginFlag(recordIndex: 0)),
        ([0x91, 0x01, 0x00, 0x54], .messageEndMissing),
        ([0xD7, 0x00, 0x00], .typeNameFormat("TNF 7 is reserved")),
        ([0xD6, 0x00, 0x00], .chunking("TNF unchanged outside a chunked record")),
        ([0xB1, 0x01, 0x00, 0x54, 0x51, 0x01, 0x00, 0x54],
         .chunking("a middle or last chunk must be TNF unchanged without an ID")),
    ] as [([UInt8], NDEFError)])
    func malformedMessages(_ input: [UInt8], _ expected: NDEFError) {
        #expect(throws: expected) { try NDEFMessage.decode(input) }
    }

    @Test func declaredLengthOfFourGigabytesDoesNotAllocate() {
        // Long record, payload length 0xFFFFFFFF, 3 bytes actually present.
        let message: [UInt8] = [0xC1, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x54, 0x02, 0x65, 0x6E]
        #expect(throws: NDEFError.bufferUnderflow(needed: 0x1_0000_0000, available: 4)) {
            try NDEFMessage.decode(message)
        }
    }

    @Test func matchableStringsSkipBrokenRecords() throws {
        let message: [UInt8] =
            [0x91, 0x01, 0x02, 0x54, 0x00, 0x41]                  // Text with a zero language length
            + [0x11, 0x01, 0x05, 0x55, 0x04] + Array("a.bc".utf8) // URI https://a.bc
            + [0x51, 0x01, 0x04, 0x54, 0x02] + Array("en".utf8) + [0x78]  // Text "x"
        let records = try NDEFMessage.decode(message)
        #expect(NDEFContent.matchableStrings(in: records) == ["https://a.bc", "x"])
    }

    @Test func seededRandomInputNeverTraps() {
        var generator = SplitMix64(seed: 0xDE5C_DA75)
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 64)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if let records = try? NDEFMessage.decode(bytes) {
                #expect(records.reduce(0) { $0 + $1.payload.count } <= bytes.count)
            }
            _ = try? Type2Tag.scan(dataArea: bytes, capacity: 48)
        }
    }
}

/// A tiny deterministic generator so the random test repeats exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
