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
