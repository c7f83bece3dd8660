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

    /// The lines `bytes` complete, fed `chunk` bytes at a time.
    static func split(_ bytes: [UInt8], chunk: Int = 1 << 16) -> (lines: [InboxLine.Splitter.Line], splitter: InboxLine.Splitter) {
        var splitter = InboxLine.Splitter()
        var lines: [InboxLine.Splitter.Line] = []
        var at = 0
        while at < bytes.count {
            splitter.feed(bytes[at..<min(at + chunk, bytes.count)]) { lines.append($0) }
            at += chunk
        }
        splitter.finish { lines.append($0) }
        return (lines, splitter)
    }

    @Test func readsEncodingsAndWaitsForATornLine() {
        for chunk in [1, 2, 3, 7, 1 << 16] {
            let (utf8, splitter) = Self.split(Array("\u{FEFF}a\r\nb\nc".utf8), chunk: chunk)
            #expect(utf8.map(\.text) == ["a", "b"] && utf8.map(\.start) == [0, 6] && splitter.complete == 8 && splitter.torn)
            let (latin1, whole) = Self.split([0x42, 0xFC, 0x0A], chunk: chunk)
            #expect(latin1.map(\.text) == ["Bü"] && !whole.torn)
            var le: [UInt8] = [0xFF, 0xFE], be: [UInt8] = [0xFE, 0xFF]
            for unit in "x\ny\nz".utf16 {
                le += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
                be += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
            }
            for bytes in [le, be] {
                let (lines, splitter) = Self.split(bytes, chunk: chunk)
                #expect(lines.map(\.text) == ["x", "y"] && lines.map(\.start) == [2, 6] && splitter.complete == 10 && splitter.torn)
            }
            // A lone surrogate is not text; a very long line is not read.
            #expect(Self.split([0xFF, 0xFE, 0x00, 0xD8, 0x0A, 0x00], chunk: chunk).lines.map(\.text) == [nil])
            #expect(Self.split(Array(String(repeating: "x", count: 600).utf8) + [0x0A], chunk: chunk).lines.map(\.text) == [nil])
        }
    }

    /// CR alone ends a line (old Mac files), as CRLF and LF do; a BOM at the
    /// start of any line is dropped (files appended to each other); blank
    /// lines get no ordinal, whatever their number.
    @Test func crLineEndsMidFileMarksAndFreeBlankLines() {
        for chunk in [1, 2, 5, 1 << 16] {
            let bytes = Array("a\rb\r\n\u{FEFF}c\n \t\n\n\rd\r".utf8)
            let (lines, splitter) = Self.split(bytes, chunk: chunk)
            #expect(lines.map(\.text) == ["a", "b", "c", " \t", "", "", "d"], "chunk \(chunk)")
            #expect(lines.map(\.number) == Array(1...7))
            #expect(lines.map(\.ordinal) == [1, 2, 3, nil, nil, nil, 4])
            #expect(splitter.complete == bytes.count && !splitter.torn)
        }
        // A CR at the end of one read and the LF that follows it in the next
        // are one line end: the read goes on from its saved state.
        var first = InboxLine.Splitter()
        var lines: [InboxLine.Splitter.Line] = []
        first.feed(Array("a\r".utf8)) { lines.append($0) }
        first.finish { lines.append($0) }
        var second = InboxLine.Splitter(state: first.state, complete: first.complete)!
        second.feed(Array("\nb\n".utf8)) { lines.append($0) }
        #expect(lines.map(\.text) == ["a", "b"] && lines.map(\.number) == [1, 2] && second.complete == 5)
        #expect(InboxLine.Splitter(state: "utf8 1 x 0", complete: 3) == nil)
        // A million empty lines: nothing kept, and no ordinal spent.
        var splitter = InboxLine.Splitter()
        var kept = 0
        splitter.feed([UInt8](repeating: 0x0A, count: 1_000_000)) { if $0.ordinal != nil { kept += 1 } }
        #expect(kept == 0 && splitter.lines == 1_000_000 && splitter.ordinals == 0)
    }
}
