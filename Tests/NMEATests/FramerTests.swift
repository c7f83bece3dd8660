import Foundation
import NMEA
import Testing

/// Framer tables (docs/design.md, habit 7, after gpsd's tests/test_packet.c): every case
/// gives the same events fed byte by byte and all at once.
@Suite struct FramerTests {
    /// A table row: input, expected accepted bodies, expected rejections.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let input: String
        let accepted: [String]
        let rejected: [FramerEvent.Rejection]
        var testDescription: String { name }
    }

    static let gga = "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"
    static let ggaLine = "$\(gga)*47\r\n"
    static let rmc = "GPRMC,081836.75,A,3751.65,S,14507.36,E,000.0,360.0,130998,011.3,E"
    static var rmcLine: String { Sentence(rmc).description + "\r\n" }

    static let cases: [Case] = [
        Case(name: "one sentence", input: ggaLine, accepted: [gga], rejected: []),
        Case(name: "LF only", input: "$\(gga)*47\n", accepted: [gga], rejected: []),
        Case(name: "CR CR LF (Firefly-1a)", input: "$\(gga)*47\r\r\n", accepted: [gga], rejected: []),
        Case(name: "lower-case checksum hex", input: "$GPXTE,A,A,0.67,L,N*6f\r\n",
             accepted: ["GPXTE,A,A,0.67,L,N"], rejected: []),
        Case(name: "leading garbage", input: "\u{01}\u{FF}junk,*12" + ggaLine, accepted: [gga], rejected: []),
        Case(name: "garbage between sentences", input: ggaLine + "xx\u{00}yy" + rmcLine,
             accepted: [gga, rmc], rejected: []),
        Case(name: "doubled dollar (ST Teseo)", input: "$$\(gga)*47\r\n", accepted: [gga], rejected: []),
        Case(name: "bad checksum", input: "$\(gga)*48\r\n" + rmcLine, accepted: [rmc], rejected: [.badChecksum]),
        Case(name: "missing checksum (gpsd rejects it too)", input: "$\(gga)\r\n" + rmcLine,
             accepted: [rmc], rejected: [.missingChecksum]),
        Case(name: "spliced: a sentence cut by the next one",
             input: "$GPGSA,A,1,,,,,,,,,,,,,,,*1E$" + gga + "*47\r\n"
                 + "$GPGSV,3,1,11,23,87,270,,13,68,270,,24,60,270," + rmcLine,
             accepted: [gga, rmc], rejected: [.spliced, .spliced]),
        Case(name: "truncated line", input: "$GPRMC,000346.03,A,4808     \r\n" + ggaLine,
             accepted: [gga], rejected: [.missingChecksum]),
        Case(name: "control byte inside", input: "$GPGGA,1\u{07}23\r\n" + ggaLine, accepted: [gga], rejected: [.malformed]),
        Case(name: "three checksum digits", input: "$GPRMC,,V,,,,,,,,,,N*532\r\n" + ggaLine,
             accepted: [gga], rejected: [.malformed]),
        Case(name: "non-hex checksum", input: "$GPXTE,A,A,0.67,L,N*6g\r\n", accepted: [], rejected: [.malformed]),
        Case(name: "too long", input: "$GPTXT," + String(repeating: "x", count: 400) + "*00\r\n" + ggaLine,
             accepted: [gga], rejected: [.tooLong]),
        Case(name: "comment line with a dollar", input: "# One $GPGSV with bad checksum\n" + ggaLine,
             accepted: [gga], rejected: []),
        Case(name: "no line end yet: nothing", input: "$\(gga)*47", accepted: [], rejected: []),
    ]

    static func run(_ input: [UInt8], byteByByte: Bool) -> [FramerEvent] {
        var framer = NMEAFramer()
        if byteByByte {
            return input.flatMap { framer.feed([$0]) }
        }
        return framer.feed(input)
    }

    @Test(arguments: cases)
    func table(_ row: Case) {
        let input = Array(row.input.utf8)
        let whole = FramerTests.run(input, byteByByte: false)
        let bytewise = FramerTests.run(input, byteByByte: true)
        #expect(whole == bytewise)
        let accepted = whole.compactMap { event -> String? in
            if case .sentence(let sentence) = event { return String(decoding: sentence.body, as: UTF8.self) }
            return nil
        }
        let rejected = whole.compactMap { event -> FramerEvent.Rejection? in
            if case .rejected(let reason) = event { return reason }
            return nil
        }
        #expect(accepted == row.accepted)
        #expect(rejected == row.rejected)
    }

    @Test func statisticsCountRejections() {
        var framer = NMEAFramer()
        _ = framer.feed(Array(("$\(FramerTests.gga)*48\r\n$\(FramerTests.gga)\r\n" + FramerTests.ggaLine).utf8))
        #expect(framer.statistics.sentences == 1)
        #expect(framer.statistics.badChecksum == 1)
        #expect(framer.statistics.missingChecksum == 1)
    }

    @Test func garbageNeverGrowsTheBuffer() {
        var framer = NMEAFramer()
        let noise = [UInt8](repeating: UInt8(ascii: "A"), count: 100_000)
        let events = framer.feed([UInt8(ascii: "$")] + noise + Array(FramerTests.ggaLine.utf8))
        #expect(events.last == .sentence(Sentence(FramerTests.gga)))
        #expect(framer.statistics.tooLong == 1)
    }

    /// Every gpsd capture: one byte at a time, odd-sized chunks and all at
    /// once give the same fixes and the same counts.
    @Test(arguments: Fixtures.gpsdLogs)
    func capturesSplitAnyWay(_ log: String) throws {
        let bytes = try Fixtures.bytes(Fixtures.gpsd.appendingPathComponent(log))
        let whole = Fixtures.fixes(bytes)
        let single = Fixtures.fixes(bytes, chunk: 1)
        let odd = Fixtures.fixes(bytes, chunk: 37)
        #expect(!whole.fixes.isEmpty)
        #expect(single.fixes == whole.fixes)
        #expect(odd.fixes == whole.fixes)
        #expect(single.statistics == whole.statistics)
    }
}
