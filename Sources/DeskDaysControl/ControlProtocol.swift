import DeskDaysCore
import Foundation

/// The control socket's wire format: one JSON object per line each way.
///
/// Requests (`cmd` names the request; unknown keys are ignored):
/// - `{"cmd":"status","format":"json"}` (text, json, waybar, i3blocks; default json) →
///   `{"ok":true,"output":"…"}`, `output` being exactly what `deskdays status --format F` prints;
/// - `{"cmd":"report"}` → `{"ok":true,"output":"…"}`, exactly what `deskdays report --json` prints;
/// - `{"cmd":"checkin","date":"2026-11-18","status":"office","note":"…"}` (or `"dates":[…]`;
///   no date means the agent's today) → `{"ok":true,"dates":[…],"status":"office"}` once committed;
/// - `{"cmd":"clear","date":"…","origin":"manual|automatic|import|fallback|all"}` (origin
///   defaults to manual) → `{"ok":true,"removed":["office record", …]}`;
/// - `{"cmd":"event","source":"nfc","at":"<RFC 3339>","rule":"desk"}` → `{"ok":true,"stored":true,"date":"…"}`
///   (`"kind":"departure"` for a departure; `stored` is then false);
/// - `{"cmd":"subscribe","format":"json"}` → a status reply now and one after every change.
/// - `{"cmd":"advance","seconds":5}` → `{"ok":true,"now":"<RFC 3339>"}`: moves a manual clock
///   on (an agent started with `DESKDAYS_CLOCK=manual`, for tests); any other agent refuses it.
///
/// Any request may name the `database` its sender means; an agent serving
/// another file answers `other_database` so the sender writes its file itself.
/// Replies to `status`, `report` and `subscribe` also name the `config` file
/// the agent loaded and its `clock` ("system", or "set" by `DESKDAYS_NOW`):
/// a sender with another configuration or its own "now" computes the answer itself.
/// Errors are `{"ok":false,"code":"…","error":"…"}`.
public enum ControlProtocol {
    /// The longest request line accepted, newline excluded.
    public static let maximumLineLength = 64 * 1024
    /// Deeper JSON nesting than any request needs is refused before parsing.
    static let maximumNesting = 8

    /// One parsed request.
    public enum Request: Equatable, Sendable {
        case status(StatusFormat)
        case report
        case checkin(dates: [LocalDate]?, status: AttendanceStatus, note: String?)
        case clear(date: LocalDate, origins: Set<Origin>)
        /// `kind` is `departure` for `event --leave` (absent on the wire: an arrival).
        case event(source: Source, rule: String?, at: Date, kind: CheckInEvent.Kind = .arrival)
        case subscribe(StatusFormat)
        /// Moves the agent's manual clock on by this many seconds (tests; docs/testing.md "Timers").
        case advance(seconds: Double)
    }

    /// A request and the database its sender means, if it said.
    public struct Envelope: Equatable, Sendable {
        public var request: Request
        public var database: String?
    }

    /// Why a request was refused; `code` is stable for scripts.
    public struct Failure: Error, Equatable, Sendable {
        public var code: String
        public var message: String

        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }

        static func badRequest(_ message: String) -> Failure { Failure(code: "bad_request", message: message) }
    }

    private struct Wire: Decodable {
        var cmd: String
        var date: String?
        var dates: [String]?
        var status: String?
        var note: String?
        var source: String?
        var at: String?
        var rule: String?
        var database: String?
        var format: String?
        var origin: String?
        var kind: String?
        var seconds: Double?
    }

    // MARK: - Parsing

    /// Parses one request line (without its newline).
    public static func parse(_ line: Data) -> Result<Envelope, Failure> {
        guard line.count <= maximumLineLength else {
            return .failure(Failure(code: "too_long", message: tr("request longer than \(maximumLineLength) bytes")))
        }
        guard nesting(of: line) <= maximumNesting else {
            return .failure(.badRequest(tr("request nested too deeply")))
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: line)
        } catch DecodingError.keyNotFound(let key, _) where key.stringValue == "cmd" {
            return .failure(.badRequest(tr("a request needs \"cmd\"")))
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            return .failure(.badRequest(key.isEmpty ? tr("a request is one JSON object") : tr("\"\(key)\" has the wrong type")))
        } catch {
            return .failure(.badRequest(tr("not a JSON object")))
        }
        return request(from: wire).map { Envelope(request: $0, database: wire.database) }
    }

    private static func request(from wire: Wire) -> Result<Request, Failure> {
        switch wire.cmd {
        case "status", "subscribe":
            let text = wire.format ?? "json"
            guard let format = StatusFormat(rawValue: text) else {
                return .failure(.badRequest(tr("unknown format \"\(text.prefix(20))\" (text, json, waybar, i3blocks)")))
            }
            return .success(wire.cmd == "status" ? .status(format) : .subscribe(format))
        case "report": return .success(.report)
        case "checkin":
            let status: AttendanceStatus
            if let text = wire.status {
                guard let parsed = AttendanceStatus(rawValue: text) else {
                    let known = AttendanceStatus.allCases.map(\.rawValue).joined(separator: ", ")
                    return .failure(.badRequest(tr("unknown status \"\(text)\" (one of \(known))")))
                }
                status = parsed
            } else {
                status = .office
            }
            var texts = wire.dates ?? []
            if let date = wire.date { texts.append(date) }
            if wire.dates != nil, texts.isEmpty { return .failure(.badRequest(tr("\"dates\" is empty"))) }
            guard texts.count <= 400 else { return .failure(.badRequest(tr("more than 400 dates in one request"))) }
            var dates: [LocalDate] = []
            for text in texts {
                guard let date = LocalDate(text) else { return .failure(.badRequest(tr("\"\(text)\" is not a YYYY-MM-DD date"))) }
                guard date.isSupported else { return .failure(.badRequest(tr("\(text) is \(LocalDate.unsupportedPhrase)"))) }
                dates.append(date)
            }
            if let note = wire.note, note.utf8.count > 1000 { return .failure(.badRequest(tr("note longer than 1000 bytes"))) }
            return .success(.checkin(dates: dates.isEmpty ? nil : dates, status: status, note: wire.note))
        case "clear":
            guard let text = wire.date, let date = LocalDate(text) else {
                return .failure(.badRequest(tr("clear needs \"date\" as YYYY-MM-DD")))
            }
            guard date.isSupported else { return .failure(.badRequest(tr("\(text) is \(LocalDate.unsupportedPhrase)"))) }
            guard let origins = ClearScope(rawValue: wire.origin ?? "manual")?.origins else {
                return .failure(.badRequest(tr("clear takes \"origin\": manual, automatic, import, fallback or all")))
            }
            return .success(.clear(date: date, origins: origins))
        case "event":
            guard let text = wire.source, let source = Source(rawValue: text), source.isAutomatic else {
                let known = Source.automatic.map(\.rawValue).joined(separator: ", ")
                return .failure(.badRequest(tr("event needs \"source\", one of \(known)")))
            }
            guard let at = wire.at.flatMap(parseTime) else {
                return .failure(.badRequest(tr("event needs \"at\" as an RFC 3339 time")))
            }
            if let rule = wire.rule, let problem = RuleName.problem(rule) { return .failure(.badRequest("\"rule\": \(problem)")) }
            guard let kind = CheckInEvent.Kind(rawValue: wire.kind ?? "arrival") else {
                return .failure(.badRequest(tr("event takes \"kind\": arrival or departure")))
            }
            return .success(.event(source: source, rule: wire.rule, at: at, kind: kind))
        case "advance":
            guard let seconds = wire.seconds, seconds.isFinite, seconds >= 0, seconds <= 366 * 86_400 else {
                return .failure(.badRequest("advance needs \"seconds\" from 0 to a year"))
            }
            return .success(.advance(seconds: seconds))
        default:
            return .failure(.badRequest(tr("unknown cmd \"\(wire.cmd.prefix(40))\" (status, report, checkin, clear, event, subscribe)")))
        }
    }

    /// The deepest nesting of arrays and objects, outside strings.
    static func nesting(of line: Data) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in line {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// RFC 3339, with or without fractional seconds.
    public static func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    // MARK: - Encoding

    /// A request as one line (with its newline), for clients.
    public static func encode(_ request: Request, database: String? = nil) -> Data {
        var object: [String: Any] = [:]
        switch request {
        case .status(let format):
            object["cmd"] = "status"
            object["format"] = format.rawValue
        case .report: object["cmd"] = "report"
        case .subscribe(let format):
            object["cmd"] = "subscribe"
            object["format"] = format.rawValue
        case let .checkin(dates, status, note):
            object["cmd"] = "checkin"
            if let dates { object["dates"] = dates.map(\.description) }
            object["status"] = status.rawValue
            if let note { object["note"] = note }
        case let .clear(date, origins):
            object["cmd"] = "clear"
            object["date"] = date.description
            object["origin"] = ClearScope.allCases.first { $0.origins == origins }?.rawValue ?? "manual"
        case let .event(source, rule, at, kind):
            object["cmd"] = "event"
            if kind == .departure { object["kind"] = kind.rawValue }
            object["source"] = source.rawValue
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            object["at"] = formatter.string(from: at)
            if let rule { object["rule"] = rule }
        case .advance(let seconds):
            object["cmd"] = "advance"
            object["seconds"] = seconds
        }
        if let database { object["database"] = database }
        return line(object)
    }

    /// An error reply line.
    public static func encode(_ failure: Failure) -> Data {
        line(["ok": false, "code": failure.code, "error": failure.message])
    }

    /// A JSON object as one line with its newline (keys sorted, so replies are stable).
    public static func line(_ object: [String: Any]) -> Data {
        var data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// An encodable value (a report) as one line with its newline.
    public static func line<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// Reads a reply line: the object, or the failure it carries.
    public static func decodeReply(_ line: Data) -> Result<[String: Any], Failure> {
        guard let object = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] else {
            return .failure(Failure(code: "bad_reply", message: tr("the agent's reply is not a JSON object")))
        }
        if object["ok"] as? Bool == false {
            return .failure(Failure(code: object["code"] as? String ?? "failed",
                                    message: object["error"] as? String ?? tr("the agent refused the request")))
        }
        return .success(object)
    }
}
