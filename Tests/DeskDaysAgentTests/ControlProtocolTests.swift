import DeskDaysCore
import Foundation
import Testing
@testable import DeskDaysAgent

/// Request parsing and line splitting for the control socket: every bad
/// input is a `Failure`, never a crash.
struct ControlProtocolTests {
    static func parse(_ text: String) -> Result<ControlProtocol.Envelope, ControlProtocol.Failure> {
        ControlProtocol.parse(Data(text.utf8))
    }

    @Test func goodRequests() throws {
        #expect(try Self.parse(#"{"cmd":"status"}"#).get().request == .status(.json))
        let waybar = try Self.parse(#"{"cmd":"status","format":"waybar","database":"/d"}"#).get()
        #expect(waybar.request == .status(.waybar) && waybar.database == "/d")
        #expect(try Self.parse(#"{"cmd":"report"}"#).get().request == .report)
        #expect(try Self.parse(#"{"cmd":"subscribe","x":[1,{"y":2}]}"#).get().request == .subscribe(.json))
        #expect(try Self.parse(#"{"cmd":"subscribe","format":"text"}"#).get().request == .subscribe(.text))
        let checkin = try Self.parse(#"{"cmd":"checkin","date":"2026-11-18","status":"sick","note":"flu","database":"/d"}"#).get()
        #expect(checkin.request == .checkin(dates: [LocalDate("2026-11-18")!], status: .sick, note: "flu"))
        #expect(checkin.database == "/d")
        #expect(try Self.parse(#"{"cmd":"checkin"}"#).get().request == .checkin(dates: nil, status: .office, note: nil))
        #expect(try Self.parse(#"{"cmd":"clear","date":"2026-11-18"}"#).get().request == .clear(date: LocalDate("2026-11-18")!, origins: [.manual]))
        #expect(try Self.parse(#"{"cmd":"clear","date":"2026-11-18","origin":"all"}"#).get().request
                == .clear(date: LocalDate("2026-11-18")!, origins: Set(Origin.allCases).subtracting([.calendar])))
        let event = try Self.parse(#"{"cmd":"event","source":"wifi","at":"2026-11-18T08:55:00.250+01:00","rule":"hq"}"#).get()
        guard case let .event(source, rule, at, kind) = event.request else { Issue.record("not an event"); return }
        #expect(source == .wifi && rule == "hq" && kind == .arrival)
        let leaving = try Self.parse(#"{"cmd":"event","source":"gps","at":"2026-11-18T17:40:00Z","kind":"departure"}"#).get()
        guard case .event(_, _, _, .departure) = leaving.request else { Issue.record("not a departure"); return }
        #expect(abs(at.timeIntervalSince1970 - 1_794_988_500.25) < 0.001)
    }

    @Test(arguments: [
        "", "   ", "null", "42", "\"status\"", "[]", "{}", #"{"cmd":null}"#, #"{"cmd":["status"]}"#,
        #"{"cmd":"status""#, #"{"cmd":"STATUS"}"#, #"{"cmd":"checkin","date":"18/11/2026"}"#,
        #"{"cmd":"checkin","date":7}"#, #"{"cmd":"checkin","dates":"2026-11-18"}"#,
        #"{"cmd":"checkin","status":"Office"}"#, #"{"cmd":"event","source":"fallback","at":"2026-11-18T08:00:00Z"}"#,
        #"{"cmd":"event","source":"nfc"}"#, #"{"cmd":"clear","date":"2026-13-01"}"#,
        String(repeating: "[", count: 100_000), String(repeating: "{\"a\":", count: 20) + "1" + String(repeating: "}", count: 20),
        "\u{FEFF}\u{0}{}", #"{"cmd":"status","format":"xml"}"#, #"{"cmd":"subscribe","format":7}"#,
        #"{"cmd":"checkin","date":"0001-01-01"}"#, #"{"cmd":"checkin","dates":["2026-11-18","2100-01-01"]}"#,
        #"{"cmd":"clear","date":"9999-12-31"}"#, #"{"cmd":"clear","date":"2026-01-02","origin":"checkin"}"#,
        #"{"cmd":"event","source":"wifi","at":"2026-11-18T08:00:00Z","kind":"leave"}"#,
    ])
    func badRequestsAreFailures(_ text: String) {
        guard case .failure(let failure) = Self.parse(text) else {
            Issue.record("accepted: \(text.prefix(50))")
            return
        }
        #expect(!failure.message.isEmpty)
    }

    @Test func oversizedIsRefusedBeforeParsing() {
        let line = Data(repeating: UInt8(ascii: " "), count: ControlProtocol.maximumLineLength + 1)
        #expect(ControlProtocol.parse(line) == .failure(ControlProtocol.Failure(code: "too_long",
            message: "request longer than \(ControlProtocol.maximumLineLength) bytes")))
    }

    @Test func requestsRoundTrip() throws {
        let requests: [ControlProtocol.Request] = [
            .status(.i3blocks), .report, .subscribe(.waybar), .clear(date: LocalDate("2026-01-02")!, origins: [.automatic]),
            .checkin(dates: [LocalDate("2026-01-02")!, LocalDate("2026-01-05")!], status: .vacation, note: "ski \"trip\"\n"),
            .event(source: .gps, rule: nil, at: Date(timeIntervalSince1970: 1_763_452_500.5)),
            .event(source: .wifi, rule: "hq", at: Date(timeIntervalSince1970: 1_763_452_500.5), kind: .departure),
        ]
        for request in requests {
            let line = ControlProtocol.encode(request, database: "/home/u/db.sqlite")
            #expect(line.last == UInt8(ascii: "\n"))
            #expect(line.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil, "one line, even with a newline in a note")
            let parsed = try ControlProtocol.parse(line.dropLast()).get()
            #expect(parsed.request == request)
            #expect(parsed.database == "/home/u/db.sqlite")
        }
    }

    @Test func repliesDecode() {
        if case .failure(let failure) = ControlProtocol.decodeReply(ControlProtocol.encode(.init(code: "x", message: "m"))) {
            #expect(failure == .init(code: "x", message: "m"))
        } else {
            Issue.record("an error reply decoded as success")
        }
        #expect((try? ControlProtocol.decodeReply(Data(#"{"today":"2026-11-18"}"#.utf8)).get())?["today"] as? String == "2026-11-18")
        #expect((try? ControlProtocol.decodeReply(Data("garbage".utf8)).get()) == nil)
    }
}

/// Lines split the same whatever the chunking; an oversized line is one `.tooLong`.
struct LineSplitterTests {
    static func split(_ chunks: [String], limit: Int = 10) -> [LineSplitter.Piece] {
        var splitter = LineSplitter(limit: limit)
        return chunks.flatMap { splitter.append(Data($0.utf8)) }
    }

    @Test func chunkingDoesNotMatter() {
        let text = "a\nbb\n\nccc\n"
        let whole = Self.split([text])
        let bytewise = Self.split(text.map { String($0) })
        #expect(whole == bytewise)
        #expect(whole == ["a", "bb", "", "ccc"].map { .line(Data($0.utf8)) })
    }

    @Test func anOversizedLineIsReportedOnceAndSkipped() {
        #expect(Self.split(["0123456789AB", "CDEF\nok\n"]) == [.tooLong, .line(Data("ok".utf8))])
        #expect(Self.split(["0123456789ABCDEF\nok\n"]) == [.tooLong, .line(Data("ok".utf8))])
        #expect(Self.split(["0123456789", "\n"]) == [.line(Data("0123456789".utf8))], "exactly the limit is fine")
    }
}
