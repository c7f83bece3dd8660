import Foundation
import NMEA
import Testing

/// The hard cases of the gpsd captures, on the pure decoding path. (The
/// comparison with gpsd's TPV reports runs over a pseudo-terminal in
/// GPSAdapterTests.)
@Suite struct CaptureTests {
    static func log(_ name: String) throws -> [UInt8] {
        try Fixtures.bytes(Fixtures.gpsd.appendingPathComponent(name))
    }

    static func lines(_ bytes: [UInt8], prefix: String) -> Int {
        bytes.split(separator: 0x0A).filter { $0.starts(with: Array(prefix.utf8)) }.count
    }

    /// Every GGA of the Firefly-II has a wrong checksum: all are rejected,
    /// and the fixes come from RMC alone (no satellite count, which only GGA carries).
    @Test func fireflyIIAcceptsNoGGA() throws {
        let bytes = try CaptureTests.log("firefly-II.log")
        let (fixes, statistics) = Fixtures.fixes(bytes)
        let ggaLines = CaptureTests.lines(bytes, prefix: "$GPGGA")
        #expect(ggaLines == 23)
        #expect(statistics.badChecksum == ggaLines)
        #expect(fixes.count == 23)
        #expect(fixes.allSatisfy { $0.satellites == nil && $0.mode == .twoD })
    }

    /// Spliced and truncated lines, bad checksums and a garbage date: every
    /// rejected candidate is counted, and nothing that was accepted is broken.
    @Test func gp320ColdBootRejectsBrokenLines() throws {
        let bytes = try CaptureTests.log("gp-320fw-2019-04-07-coldboot.log")
        var framer = NMEAFramer()
        let events = framer.feed(bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        for case .sentence(let sentence) in events {
            // An accepted sentence appears in the capture whole, checksum included.
            #expect(text.contains(sentence.description))
        }
        let stats = framer.statistics
        #expect(stats.badChecksum >= 30)
        #expect(stats.spliced > 0)
        #expect(stats.rejected == events.count - stats.sentences)
        let (fixes, _) = Fixtures.fixes(bytes)
        #expect(fixes.contains { $0.mode >= .twoD })
    }

    /// Every sentence of the ST Teseo begins `$$`.
    @Test func stTeseoDoubleDollar() throws {
        let bytes = try CaptureTests.log("st-teseo-liv4f.log")
        let (fixes, statistics) = Fixtures.fixes(bytes)
        #expect(statistics.sentences > 300)
        #expect(statistics.badChecksum == 1) // "One $GPGSV with bad checksum" says its header
        #expect(fixes.contains { $0.mode == .threeD })
    }

    /// Lower-case checksum hex and empty fields.
    @Test func magellanLowerCaseChecksums() throws {
        let (fixes, statistics) = Fixtures.fixes(try CaptureTests.log("magellan-ec10.log"))
        #expect(statistics.badChecksum == 0)
        #expect(fixes.filter { $0.hasPosition }.count > 20)
    }

    /// GLL without a date: fixes carry the time of day only.
    @Test func sounderGLLWithoutDate() throws {
        let (fixes, _) = Fixtures.fixes(try CaptureTests.log("sounder.log"))
        #expect(fixes.count == 122)
        #expect(fixes.allSatisfy { $0.date == nil && $0.time != nil && $0.hasPosition })
        #expect(fixes[0].jsonLine.hasPrefix(#"{"time":"16:43:26.000Z","#))
    }

    /// The four captures with no fix at all produce no position; nor does the
    /// GPSmap 76S, which runs in simulator mode (GGA quality 8, RMC and GLL
    /// status V: gpsd too ends each of its cycles in mode 1).
    @Test func capturesWithoutAFix() throws {
        var noFix: [String] = []
        for log in Fixtures.gpsdLogs {
            let (fixes, _) = Fixtures.fixes(try Fixtures.bytes(Fixtures.gpsd.appendingPathComponent(log)))
            if !fixes.contains(where: { $0.hasPosition }) { noFix.append(log) }
        }
        #expect(noFix == ["GPSmap-76S.log", "eXplorist110.log", "holux-gm-210.log", "tn200.log", "ublox-lea-5q.log"])
    }
}

/// u-blox receivers with UBX enabled beside NMEA interleave binary frames
///: skipped whole, they change nothing.
@Suite struct UBXInterleavedTests {
    /// A UBX frame (sync, class, id, little-endian length, payload, checksum)
    /// whose payload holds what would break a naive NMEA reader: `$`, `*`,
    /// line ends and a whole sentence.
    static func ubx(class kind: UInt8, id: UInt8, payload: [UInt8]) -> [UInt8] {
        var body = [kind, id, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
        var a: UInt8 = 0, b: UInt8 = 0
        for byte in body { a &+= byte; b &+= a }
        body += [a, b]
        return [0xB5, 0x62] + body
    }

    static let nastyPayload: [UInt8] = Array("$GPGGA,1*47\r\n".utf8) + [0x00, 0xB5, 0x62, 0x24, 0x2A, 0x0D, 0x0A, 0xFF]
        + [UInt8](repeating: 0x24, count: 40)

    /// Every line of a gpsd capture, with UBX frames (NAV-PVT-sized, empty,
    /// nasty) between them, decodes to the same fixes and rejections as the capture alone.
    @Test(arguments: ["garmin-10x.log", "eXplorist110.log", "com-1289.log"])
    func interleavedCaptureDecodesTheSameFixes(_ name: String) throws {
        let plain = try CaptureTests.log(name)
        let frames = [Self.ubx(class: 0x01, id: 0x07, payload: [UInt8](repeating: 0x24, count: 92)),
                      Self.ubx(class: 0x05, id: 0x01, payload: []),
                      Self.ubx(class: 0x0A, id: 0x04, payload: Self.nastyPayload)]
        var mixed: [UInt8] = []
        var inserted = 0
        for (index, line) in plain.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            if index > 0 { mixed.append(0x0A) }
            if index > 0, line.first == UInt8(ascii: "$") {
                mixed += frames[index % frames.count]
                inserted += 1
            }
            mixed += line
        }
        let (expected, plainStats) = Fixtures.fixes(plain)
        for chunk in [1, 7, 4096] {
            let (fixes, stats) = Fixtures.fixes(mixed, chunk: chunk)
            #expect(fixes == expected, "\(name), chunks of \(chunk)")
            #expect(stats.rejected == plainStats.rejected && stats.sentences == plainStats.sentences)
            #expect(stats.ubxFrames == inserted)
        }
        #expect(inserted > 10)
    }

    /// Noise that merely starts like a frame is not allowed to swallow what follows.
    @Test func aFalseSyncWithAHugeLengthSwallowsNothing() {
        var framer = NMEAFramer()
        let gga = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n"
        let events = framer.feed([0xB5, 0x62, 0x01, 0x02, 0xFF, 0xFF] + Array(gga.utf8))
        #expect(events.count == 1 && framer.statistics.ubxFrames == 0)
    }
}
