import DeskDaysCore
import Foundation
import Testing

/// The inbox line parser and the file reader (encodings, CRLF, torn lines).
@Suite struct InboxLineTests {
    func checkIn(_ text: String) -> InboxLine? {
        if case .checkIn(let line) = InboxLine.parse(text) { return line }
        return nil
    }

    func isBad(_ text: String) -> Bool {
        if case .bad = InboxLine.parse(text) { return true }
        return false
    }

    @Test func parsesTheLine() throws {
        let line = try #require(checkIn("2026-11-18T08:52:10+01:00 arrive hq"))
        #expect(line.time == Date(timeIntervalSince1970: 1_794_988_330) && line.kind == .arrival && line.rule == "hq")
        #expect(checkIn("2026-11-18T07:52:10Z leave hq")?.kind == .departure)
        #expect(checkIn("2026-11-18t07:52:10.250z  LEAVE\thq\r")?.time == Date(timeIntervalSince1970: 1_794_988_330.25))
        #expect(checkIn("2026-11-18T02:52:10-05:00 Arrive hq")?.time == line.time)
        #expect(InboxLine.parse("") == .nothing && InboxLine.parse("  \r") == .nothing && InboxLine.parse("# note") == .nothing)
    }

    @Test func refusesWhatIsNotTheLine() {
        for text in ["2026-11-18T08:52:10 arrive hq", "2026-11-18 arrive hq", "2026-11-18T08:52:10+01:00 arrive",
                     "2026-11-18T08:52:10+01:00 arrive hq extra", "2026-02-30T08:52:10Z arrive hq", "2026-11-18T24:00:00Z arrive hq",
                     "2026-11-18T08:60:00Z arrive hq", "2026-11-18T08:52:60Z arrive hq", "2026-11-18T08:52:10+1:00 arrive hq",
                     "2026-11-18T08:52:10.Z arrive hq", "2026-11-18T08:52:10.1234567890Z arrive hq",
                     "2026-11-18T08:52:10Z stay hq", "2026-11-18T08:52:10Z arrive 52.5,13.4", "2026-11-18T08:52:10Z arrive "
                         + String(repeating: "r", count: 33), "+2026-11-18T08:52:10Z arrive hq", "٢٠٢٦-11-18T08:52:10Z arrive hq"] {
            #expect(isBad(text), "\(text)")
        }
    }

    @Test func readsEncodingsAndWaitsForATornLine() {
        let utf8 = InboxLine.text(Array("\u{FEFF}a\r\nb\nc".utf8))
        #expect(utf8.lines == ["a\r", "b"] && utf8.starts == [3, 6] && utf8.complete == 8 && utf8.torn)
        let latin1 = InboxLine.text([0x42, 0xFC, 0x0A])
        #expect(latin1.lines == ["Bü"] && !latin1.torn)
        var le: [UInt8] = [0xFF, 0xFE], be: [UInt8] = [0xFE, 0xFF]
        for unit in "x\ny\nz".utf16 {
            le += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            be += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        for bytes in [le, be] {
            let text = InboxLine.text(bytes)
            #expect(text.lines == ["x", "y"] && text.starts == [2, 6] && text.complete == 10 && text.torn)
        }
        // A lone surrogate is not text; a very long line is not read.
        #expect(InboxLine.text([0xFF, 0xFE, 0x00, 0xD8, 0x0A, 0x00]).lines == [nil])
        #expect(InboxLine.text(Array(String(repeating: "x", count: 600).utf8) + [0x0A]).lines == [nil])
    }
}
