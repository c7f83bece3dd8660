import AgentSocket
import DeskDaysControl
import DeskDaysCore
import Foundation
import Testing
@testable import DeskDaysAgent

/// Request parsing for the control socket: every bad input is a `Failure`,
/// never a crash.
struct ControlProtocolTests {
    static func parse(_ text: String) -> Result<ControlProtocol.Envelope, ControlProtocol.Failure> {
        ControlProtocol.parse(Array(text.utf8))
    }

    @Test func goodRequests() throws {
        #expect(try Self.parse(#"{"cmd":"status"}"#).get().request == .status(.json))
        let waybar = try Self.parse(#"{"cmd":"status","format":"waybar","database":"/d","version":1}"#).get()
        #expect(waybar.request == .status(.waybar) && waybar.scope.database == "/d")
        #expect(try Self.parse(#"{"cmd":"report"}"#).get().request == .report)
        #expect(try Self.parse(#"{"cmd":"subscribe","x":[1,{"y":2}]}"#).get().request == .subscribe(.json))
        #expect(try Self.parse(#"{"cmd":"subscribe","format":"text"}"#).get().request == .subscribe(.text))
        let checkin = try Self.parse(#"{"cmd":"checkin","date":"2026-11-18","status":"sick","note":"flu","database":"/d"}"#).get()
        #expect(checkin.request == .checkin(dates: [LocalDate("2026-11-18")!], status: .sick, note: "flu"))
        #expect(checkin.scope == AnswerScope(database: "/d"))
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
        #expect(try Self.parse(#"{"cmd":"advance","seconds":2.5e1}"#).get().request == .advance(seconds: 25))
    }

    @Test(arguments: [
        "", "   ", "null", "42", "\"status\"", "[]", "{}", #"{"cmd":null}"#, #"{"cmd":["status"]}"#,
        #"{"cmd":"status""#, #"{"cmd":"STATUS"}"#, #"{"cmd":"checkin","date":"18/11/2026"}"#,
        #"{"cmd":"checkin","date":7}"#, #"{"cmd":"checkin","dates":"2026-11-18"}"#, #"{"cmd":"checkin","dates":[7]}"#,
        #"{"cmd":"checkin","status":"Office"}"#, #"{"cmd":"event","source":"fallback","at":"2026-11-18T08:00:00Z"}"#,
        #"{"cmd":"event","source":"nfc"}"#, #"{"cmd":"clear","date":"2026-13-01"}"#,
        String(repeating: "[", count: 100_000), String(repeating: "{\"a\":", count: 20) + "1" + String(repeating: "}", count: 20),
        "\u{FEFF}\u{0}{}", #"{"cmd":"status","format":"xml"}"#, #"{"cmd":"subscribe","format":7}"#,
        #"{"cmd":"checkin","date":"0001-01-01"}"#, #"{"cmd":"checkin","dates":["2026-11-18","2100-01-01"]}"#,
        #"{"cmd":"clear","date":"9999-12-31"}"#, #"{"cmd":"clear","date":"2026-01-02","origin":"checkin"}"#,
        #"{"cmd":"event","source":"wifi","at":"2026-11-18T08:00:00Z","kind":"leave"}"#,
        #"{"cmd":"status"} {}"#, #"{"cmd":"status",}"#, #"{"cmd":"st\u0061tus\ud800"}"#, #"{"cmd":"status","seconds":01}"#,
        #"{"cmd":"advance","seconds":"5"}"#, #"{"cmd":"advance","seconds":1e999}"#, "{\"cmd\":\"sta\ntus\"}",
    ])
    func badRequestsAreFailures(_ text: String) {
        guard case .failure(let failure) = Self.parse(text) else {
            Issue.record("accepted: \(text.prefix(50))")
            return
        }
        #expect(!failure.message.isEmpty)
    }

    @Test func oversizedIsRefusedBeforeParsing() {
        let line = [UInt8](repeating: UInt8(ascii: " "), count: ControlMessage.maximumRequestLength + 1)
        #expect(ControlProtocol.parse(line) == .failure(ControlProtocol.Failure(code: "too_long",
            message: "request longer than \(ControlMessage.maximumRequestLength) bytes")))
    }

    /// What clients send is what the agent reads, version included.
    @Test func requestsRoundTrip() throws {
        let requests: [ControlProtocol.Request] = [
            .status(.i3blocks), .report, .subscribe(.waybar), .clear(date: LocalDate("2026-01-02")!, origins: [.automatic]),
            .checkin(dates: [LocalDate("2026-01-02")!, LocalDate("2026-01-05")!], status: .vacation, note: "ski \"trip\"\n\t\u{1}é😀"),
            .event(source: .gps, rule: nil, at: Date(timeIntervalSince1970: 1_763_452_500.5)),
            .event(source: .wifi, rule: "hq", at: Date(timeIntervalSince1970: 1_763_452_500.5), kind: .departure),
            .advance(seconds: 0.25),
        ]
        let scope = AnswerScope(database: "/home/u/db.sqlite", config: "/home/u/c.toml", clock: .system, locale: "C:::::")
        for request in requests {
            let line = ControlMessage.stamped(ControlProtocol.encode(request, scope: scope))
            #expect(line.last == UInt8(ascii: "\n"))
            #expect(line.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil, "one line, even with a newline in a note")
            #expect(String(decoding: line, as: UTF8.self).contains(#""version":1"#))
            let parsed = try ControlProtocol.parse(line.dropLast()).get()
            #expect(parsed.request == request)
            #expect(parsed.scope == scope)
        }
    }

    /// A request of another version is refused before anything in it is read; one without is version 1.
    @Test func anotherVersionIsRefused() {
        for text in [#"{"cmd":"checkin","version":2}"#, #"{"cmd":"status","version":"1"}"#, #"{"cmd":"nonsense","version":0}"#] {
            guard case .failure(let failure) = Self.parse(text) else {
                Issue.record("accepted: \(text)")
                continue
            }
            #expect(failure.code == "version", "\(text): \(failure)")
            #expect(failure.message.contains("version 1 of the control protocol"))
        }
        #expect((try? Self.parse(#"{"cmd":"status","version":1}"#).get()) != nil)
        #expect((try? Self.parse(#"{"cmd":"status","version":null}"#).get()) != nil)
    }
}

/// The one decision whether the agent's answer is the asker's.
struct AnswerScopeTests {
    static let agent = AnswerScope(database: "/data/d.sqlite", config: "/conf/c.toml", clock: .system, locale: "de_DE.UTF-8")

    static func refusal(_ command: String, _ format: String? = nil, _ asked: AnswerScope,
                        served: AnswerScope = agent) -> String? {
        ControlMessage.refusal(command, format: format, asked: asked, served: served)?.code
    }

    @Test func sameScopeIsServed() {
        for (command, format) in [("status", "waybar"), ("status", "json"), ("report", nil), ("subscribe", "i3blocks")] {
            #expect(Self.refusal(command, format, Self.agent) == nil)
        }
        // Typed by hand: nothing named, nothing compared.
        #expect(Self.refusal("status", "text", AnswerScope(database: nil), served: AnswerScope(database: "/x", clock: .set)) == nil)
    }

    @Test func eachDifferenceIsNamed() {
        var other = Self.agent
        other.database = "/data/other.sqlite"
        #expect(Self.refusal("checkin", nil, other) == "other_database")
        #expect(Self.refusal("subscribe", "json", other) == "other_database")
        other = Self.agent
        other.config = "/conf/other.toml"
        #expect(Self.refusal("checkin", nil, other) == nil, "a write does not depend on the configuration file")
        #expect(Self.refusal("report", nil, other) == "other_configuration")
        let failure = ControlMessage.refusal("subscribe", format: "json", asked: other, served: Self.agent)
        #expect(failure?.reply.string(.config) == "/conf/c.toml", "the refusal names the agent's file")
        other = Self.agent
        other.clock = .set
        #expect(Self.refusal("status", "json", other) == "fixed_clock")
        #expect(Self.refusal("status", "json", Self.agent, served: other) == "fixed_clock")
        #expect(Self.refusal("subscribe", "json", other) == nil, "a follower shows the agent's own now")
        other = Self.agent
        other.locale = "C"
        #expect(Self.refusal("status", "waybar", other) == "other_language")
        #expect(Self.refusal("status", "text", other) == "other_language")
        #expect(Self.refusal("status", "json", other) == nil, "JSON has no words")
        #expect(Self.refusal("report", nil, other) == nil)
        #expect(Self.refusal("subscribe", "waybar", other) == nil, "a follower shows the agent's language")
    }

    /// One canonical form for a path, whoever names it and however.
    @Test func pathsAreComparedCanonically() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scope-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/real")
        let real = AgentPaths.canonical(folder + "/real/d.sqlite")
        #expect(AgentPaths.canonical(folder + "/link/d.sqlite") == real, "a file not there yet, through a link")
        #expect(AgentPaths.canonical(folder + "/real/../real/./d.sqlite") == real)
        // A client names the file as it is given; the agent serves its canonical path.
        let served = AnswerScope.serving(database: folder + "/link/d.sqlite", config: nil, clock: .system, locale: nil)
        #expect(served.database == real)
        for asked in [real, folder + "/link/d.sqlite", folder + "/real/../link/./d.sqlite"] {
            #expect(ControlMessage.refusal("status", format: "json", asked: AnswerScope(database: asked), served: served) == nil, "\(asked)")
        }
        #expect(ControlMessage.refusal("status", format: "json", asked: AnswerScope(database: folder + "/link/e.sqlite"), served: served)?.code
                == "other_database")
        #expect(AgentPaths.canonical("relative.sqlite").hasPrefix("/"))
    }
}

/// The codec: what is written is read back; any bytes at all give an object or one error.
struct WireObjectTests {
    @Test func valuesRoundTrip() throws {
        let object = WireObject([
            .output: .string("{\"text\":\"3/4 \\ on track\"}\n\u{0}\u{7f}\u{2028}é日本😀"), .ok: .bool(true), .stored: .bool(false),
            .removed: .strings(["a", "", "\"b\""]), .seconds: .number("-0.5e-3"), .config: .null,
        ])
        let line = object.line()
        #expect(line.last == UInt8(ascii: "\n") && line.dropLast().firstIndex(of: UInt8(ascii: "\n")) == nil)
        #expect(try WireObject.parse(line.dropLast()).get() == object)
        // Foundation reads it too, so hand-written clients and scripts can.
        let foundation = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        #expect(foundation["output"] as? String == object.string(.output))
    }

    @Test func foundationsJSONIsRead() throws {
        let text = try JSONSerialization.data(withJSONObject: ["output": "é\u{1}😀\"/", "ok": true, "version": 1, "dates": ["x"]])
        let object = try WireObject.parse(Array(text)).get()
        #expect(object.string(.output) == "é\u{1}😀\"/" && object.bool(.ok) == true && object.int(.version) == 1)
        #expect(try WireObject.parse(Array(#"{"output":"\ud83d\ude00\u00e9\/"}"#.utf8)).get().string(.output) == "😀é/")
    }

    /// Deterministic fuzzing: mutations of good lines and random bytes never crash and never hang.
    @Test func anyBytesGiveAnObjectOrOneError() {
        var generator = SplitMix(seed: 0x5EED)
        let seeds = [#"{"cmd":"checkin","dates":["2026-11-18"],"note":"a\"b\\c\u00e9","version":1,"x":[{"y":[1,2.5e3]}]}"#,
                     #"{"ok":true,"output":"{\"a\":1}\n","config":null,"stored":false}"#]
        for _ in 0..<5_000 {
            var bytes = Array(seeds[Int(generator.next() % 2)].utf8)
            for _ in 0..<(1 + generator.next() % 4) {
                let at = Int(generator.next() % UInt64(bytes.count + 1))
                switch generator.next() % 3 {
                case 0 where at < bytes.count: bytes.remove(at: at)
                case 1: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: at)
                default: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: generator.next()) }
                }
            }
            _ = WireObject.parse(bytes)
            _ = ControlProtocol.parse(bytes)
        }
    }

    struct SplitMix {
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
}

/// Lines split the same whatever the chunking; an oversized line is one `.tooLong`.
struct LineSplitterTests {
    static func split(_ chunks: [String], limit: Int = 10) -> [LineSplitter.Piece] {
        var splitter = LineSplitter(limit: limit)
        return chunks.flatMap { splitter.append(Array($0.utf8)[...]) }
    }

    @Test func chunkingDoesNotMatter() {
        let text = "a\nbb\n\nccc\n"
        let whole = Self.split([text])
        let bytewise = Self.split(text.map { String($0) })
        #expect(whole == bytewise)
        #expect(whole == ["a", "bb", "", "ccc"].map { .line(Array($0.utf8)) })
    }

    @Test func anOversizedLineIsReportedOnceAndSkipped() {
        #expect(Self.split(["0123456789AB", "CDEF\nok\n"]) == [.tooLong, .line(Array("ok".utf8))])
        #expect(Self.split(["0123456789ABCDEF\nok\n"]) == [.tooLong, .line(Array("ok".utf8))])
        #expect(Self.split(["0123456789", "\n"]) == [.line(Array("0123456789".utf8))], "exactly the limit is fine")
    }
}

/// The client's side: whatever an agent (or anything on the socket) replies,
/// one reply or one failure, never a crash or a wait past the timeout.
@Suite(.serialized) struct ControlConnectionTests {
    /// A listener in a private folder that reads one request and writes `reply`, then closes.
    static func ask(after reply: [UInt8]) throws -> Result<WireObject, ControlFailure> {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conn-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/agent.sock"
        let listener = try UnixSocket.makeStream()
        defer { close(listener) }
        #expect(try UnixSocket.withAddress(path) { bind(listener, $0, $1) } == 0 && listen(listener, 1) == 0)
        let served = Thread {
            let peer = accept(listener, nil, nil)
            var byte: UInt8 = 0
            while read(peer, &byte, 1) == 1, byte != UInt8(ascii: "\n") {}
            _ = UnixSocket.sendAll(peer, reply)
            close(peer)
        }
        served.start()
        guard case .connected(let connection) = ControlConnection.connect(path: path, waiting: .write) else {
            throw CancellationError()
        }
        return connection.ask(ControlMessage.request("status", format: "json", scope: AnswerScope(database: "/d")))
    }

    @Test func aReplyOfThisVersionIsTaken() throws {
        let reply = try Self.ask(after: ControlMessage.stamped(WireObject([.ok: .bool(true), .output: .string("x\n")]))).get()
        #expect(reply.string(.output) == "x\n")
        let refused = Self.failure(try Self.ask(after: ControlMessage.stamped(ControlMessage.reply(
            ControlFailure(code: "other_database", message: "m")))))
        #expect(refused?.code == "other_database" && refused?.message == "m")
    }

    @Test func anotherVersionNoneOrGarbageIsOneFailure() throws {
        let none = Self.failure(try Self.ask(after: Array(#"{"ok":true,"output":"forged"}"#.utf8) + [0x0A]))
        #expect(none?.code == "version" && none?.reply.int(.version) == 0)
        let newer = Self.failure(try Self.ask(after: Array(#"{"ok":true,"version":2,"output":"x"}"#.utf8) + [0x0A]))
        #expect(newer?.code == "version" && newer?.reply.int(.version) == 2)
        #expect(Self.failure(try Self.ask(after: Array("ok 5\nhello".utf8)))?.code == "bad_reply")
        #expect(Self.failure(try Self.ask(after: []))?.code == "disconnected")
        var huge = Array(#"{"ok":true,"version":1,"output":""#.utf8)
        huge += [UInt8](repeating: UInt8(ascii: "a"), count: ControlMessage.maximumReplyLength)
        huge += Array("\"}\n".utf8)
        #expect(Self.failure(try Self.ask(after: huge))?.code == "bad_reply", "an oversized reply is one failure, not a wait")
    }

    static func failure(_ result: Result<WireObject, ControlFailure>) -> ControlFailure? {
        if case .failure(let failure) = result { return failure }
        Issue.record("taken: \(result)")
        return nil
    }
}
