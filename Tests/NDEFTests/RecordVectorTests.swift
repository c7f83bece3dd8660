import NDEF
import Testing

/// Text, URI and Smart Poster payloads from ndeflib's own tests.
@Suite struct RecordVectorTests {
    @Test(arguments: Vectors.valid("TestTextRecord"))
    func textDecodes(_ vector: Vectors.Case) throws {
        let record = try TextRecord(payload: vector.payload)
        #expect(record.text == vector.args[0] as? String)
        #expect(record.language == vector.args[1] as? String)
        #expect(record.encoding.rawValue == vector.args[2] as? String)
    }

    @Test(arguments: Vectors.invalid("TestTextRecord"))
    func textRejects(_ vector: Vectors.Rejection) {
        #expect(throws: NDEFError.self) { try TextRecord(payload: vector.payload) }
    }

    @Test func allThirtySixURIPrefixCodesAreCovered() {
        let codes = Set(Vectors.valid("TestUriRecord").map { $0.payload[0] })
        #expect(codes == Set(0...0x23))
        #expect(URIRecord.prefixes.count == 36)
    }

    @Test(arguments: Vectors.valid("TestUriRecord"))
    func uriDecodes(_ vector: Vectors.Case) throws {
        #expect(try URIRecord(payload: vector.payload).uri == vector.args[0] as? String)
    }

    @Test(arguments: Vectors.invalid("TestUriRecord"))
    func uriRejectsWithTheSameReason(_ vector: Vectors.Rejection) {
        do {
            _ = try URIRecord(payload: vector.payload)
            Issue.record("accepted \(hex(vector.payload))")
        } catch {
            #expect(error.description.contains(vector.message))
        }
    }

    @Test(arguments: Vectors.valid("TestActionRecord"))
    func actionDecodes(_ vector: Vectors.Case) throws {
        let action = try SmartPoster.action(vector.payload)
        #expect("\(action)" == vector.args[0] as? String)
    }

    @Test(arguments: Vectors.invalid("TestActionRecord"))
    func actionRejects(_ vector: Vectors.Rejection) {
        #expect(throws: NDEFError.self) { try SmartPoster.action(vector.payload) }
    }

    @Test(arguments: Vectors.valid("TestSmartposterRecord"))
    func smartPosterDecodes(_ vector: Vectors.Case) throws {
        let poster = try SmartPoster(payload: vector.payload)
        let args = vector.args
        #expect(poster.uri == args[0] as? String)
        if args.count > 1 {
            if let title = args[1] as? String {
                #expect(poster.titles == [TextRecord(text: title, language: "en")])
            } else if let titles = args[1] as? [String: String] {
                #expect(poster.titles.map { [$0.language: $0.text] } == titles.map { [$0.key: $0.value] })
            } else {
                #expect(poster.titles.isEmpty)
            }
        }
        if args.count > 2 { #expect(poster.action.map { "\($0)" } == args[2] as? String) }
        if args.count > 3 {
            if let icon = args[3] as? String {
                #expect(poster.icons.count == 1 && icon.hasPrefix("b'\\x89PNG"))
                #expect(poster.icons.first?.data.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
            } else if let icons = args[3] as? [String: String] {
                #expect(poster.icons.map(\.mediaType) == Array(icons.keys))
            } else {
                #expect(poster.icons.isEmpty)
            }
        }
        if args.count > 4 { #expect(poster.resourceSize.map(Int.init) == args[4] as? Int) }
        if args.count > 5 { #expect(poster.resourceType == args[5] as? String) }
    }

    @Test(arguments: Vectors.invalid("TestSmartposterRecord"))
    func smartPosterRejects(_ vector: Vectors.Rejection) {
        do {
            _ = try SmartPoster(payload: vector.payload)
            Issue.record("accepted \(hex(vector.payload))")
        } catch {
            #expect(error.description.contains(vector.message))
        }
    }

    @Test(arguments: Vectors.valid("TestSizeRecord"))
    func sizeRecordInsideAPoster(_ vector: Vectors.Case) throws {
        // A bare "s" payload is only meaningful inside a poster: wrap it.
        let message: [UInt8] = [0x91, 0x01, 0x01, 0x55, 0x00, 0x51, 0x01, 0x04, 0x73] + vector.payload
        #expect(try SmartPoster(payload: message).resourceSize.map(Int.init) == vector.args[0] as? Int)
    }

    @Test(arguments: Vectors.valid("TestTypeRecord"))
    func typeRecordInsideAPoster(_ vector: Vectors.Case) throws {
        let message: [UInt8] = [0x91, 0x01, 0x01, 0x55, 0x00, 0x51, 0x01, UInt8(vector.payload.count), 0x74]
            + vector.payload
        #expect(try SmartPoster(payload: message).resourceType == vector.args[0] as? String)
    }

    @Test func typeRecordRejectsBadUTF8() {
        let message: [UInt8] = [0x91, 0x01, 0x01, 0x55, 0x00, 0x51, 0x01, 0x01, 0x74, 0xFF]
        #expect(throws: NDEFError.self) { try SmartPoster(payload: message) }
    }
}
