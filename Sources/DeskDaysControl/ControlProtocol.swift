import Localization
import AgentSocket
import DeskDaysCore
import Foundation

/// The control protocol's requests in DeskDays' own types (dates,
/// statuses, sources), read and written on `WireObject`s. The protocol
/// itself (its version, the commands, fields and codes, the one decision
/// whether an answer is the asker's) is `ControlMessage` in AgentSocket,
/// shared with the launcher; docs/cli.md, "The control socket", lists
/// every request and reply.
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
/// - `{"cmd":"hello"}` → `{"ok":true,"database":"…","config":"…"}`: what the agent
///   serves, refused as `status` is for another database or configuration;
/// - `{"cmd":"advance","seconds":5}` → `{"ok":true,"now":"<RFC 3339>"}`: moves a manual clock
///   on (an agent started with `DESKDAYS_CLOCK=manual`, for tests); any other agent refuses it.
///
/// Every request carries `"version":1` and may name what its sender's answer
/// depends on (`database`, `config`, `clock`, `locale`: `AnswerScope`); the
/// agent refuses what is not its own (`ControlMessage.refusal`) and the
/// sender does the work itself. Every reply carries the agent's `version`.
/// Errors are `{"ok":false,"code":"…","error":"…"}`.
public enum ControlProtocol {
    public typealias Failure = ControlFailure

    /// One request: the protocol's one list of them (`cmd` is its name on the wire).
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
        /// What the agent serves (no answer computed).
        case hello
        /// `plan [--json]` with these flags (the agent adds its `[plan]`).
        case plan(prefer: Set<Weekday>, avoid: [DateSpan], json: Bool)

        /// The request's name (`"cmd"`), which `parse` reads back.
        public var cmd: String {
            switch self {
            case .status: "status"
            case .report: "report"
            case .checkin: "checkin"
            case .clear: "clear"
            case .event: "event"
            case .subscribe: "subscribe"
            case .advance: "advance"
            case .hello: "hello"
            case .plan: "plan"
            }
        }

        /// The status format asked for (`status`, `subscribe`); nil for the others.
        public var format: StatusFormat? {
            switch self {
            case .status(let format), .subscribe(let format): format
            case .plan(_, _, let json): json ? .json : .text
            default: nil
            }
        }
    }

    /// A request and what its sender's answer depends on (what it named).
    public struct Envelope: Equatable, Sendable {
        public var request: Request
        public var scope: AnswerScope
        /// A write's id (`"request"`): the client writes directly under the
        /// same id when the agent is slow, and the later of the two writes nothing.
        public var id: String?

        public init(request: Request, scope: AnswerScope, id: String? = nil) {
            self.request = request
            self.scope = scope
            self.id = id
        }
    }

    static func badRequest(_ message: String) -> Failure { Failure(code: ControlMessage.Code.badRequest, message: message) }

    // MARK: - Parsing

    /// Parses one request line (without its newline): its version first, then its fields.
    public static func parse(_ line: some Collection<UInt8>) -> Result<Envelope, Failure> {
        guard line.count <= ControlMessage.maximumRequestLength else {
            return .failure(Failure(code: ControlMessage.Code.tooLong,
                                    message: tr("request longer than \(ControlMessage.maximumRequestLength) bytes")))
        }
        let object: WireObject
        switch WireObject.parse(line) {
        case .success(let parsed): object = parsed
        case .failure(.tooDeep): return .failure(badRequest(tr("request nested too deeply")))
        case .failure(.notAnObject): return .failure(badRequest(tr("a request is one JSON object")))
        case .failure(.malformed): return .failure(badRequest(tr("not a JSON object")))
        }
        if let problem = ControlMessage.versionProblem(object) { return .failure(problem) }
        do throws(Failure) {
            let id = try text(object, .request)
            if let id, !Validation.isRequestID(id) { throw badRequest(tr("\"request\" is not a request id (8 to 64 of 0-9, a-f and -)")) }
            return .success(Envelope(request: try request(from: object), scope: AnswerScope(object), id: id))
        } catch {
            return .failure(error)
        }
    }

    /// A field's string: nil when absent or null, a failure when not a string.
    private static func text(_ object: WireObject, _ field: ControlMessage.Field) throws(Failure) -> String? {
        guard object.has(field) else { return nil }
        guard let text = object.string(field) else { throw badRequest(tr("\"\(field.rawValue)\" has the wrong type")) }
        return text
    }

    private static func request(from object: WireObject) throws(Failure) -> Request {
        guard let cmd = try text(object, .cmd) else { throw badRequest(tr("a request needs \"cmd\"")) }
        switch cmd {
        case "status", "subscribe":
            let text = try text(object, .format) ?? "json"
            guard let format = StatusFormat(rawValue: text) else {
                throw badRequest(tr("unknown format \"\(text.prefix(20))\" (text, json, waybar, i3blocks)"))
            }
            return cmd == "status" ? .status(format) : .subscribe(format)
        case "report": return .report
        case "hello": return .hello
        case "plan":
            let prefer = object.has(.prefer) ? object.strings(.prefer) : []
            let avoid = object.has(.avoid) ? object.strings(.avoid) : []
            guard let prefer, let avoid, prefer.count <= 7, avoid.count <= 400 else {
                throw badRequest(tr("plan takes \"prefer\" (weekdays) and \"avoid\" (at most 400 dates or ranges) as lists of strings"))
            }
            var spans: [DateSpan] = []
            for text in avoid {
                switch PlanOptions.dates(text) {
                case .success(let span): spans.append(span)
                case .failure(let problem): throw badRequest("\"avoid\": \(problem.sentence)")
                }
            }
            switch PlanOptions.weekdays(prefer) {
            case .success(let days): return .plan(prefer: days, avoid: spans, json: try text(object, .format) == "json")
            case .failure(let problem): throw badRequest("\"prefer\": \(problem.sentence)")
            }
        case "checkin":
            let status: AttendanceStatus
            if let text = try text(object, .status) {
                guard let parsed = AttendanceStatus(rawValue: text) else {
                    let known = AttendanceStatus.allCases.map(\.rawValue).joined(separator: ", ")
                    throw badRequest(tr("unknown status \"\(text)\" (one of \(known))"))
                }
                status = parsed
            } else {
                status = .office
            }
            var texts: [String] = []
            if object.has(.dates) {
                guard let list = object.strings(.dates) else { throw badRequest(tr("\"\(ControlMessage.Field.dates.rawValue)\" has the wrong type")) }
                guard !list.isEmpty else { throw badRequest(tr("\"dates\" is empty")) }
                texts = list
            }
            if let date = try text(object, .date) { texts.append(date) }
            guard texts.count <= 400 else { throw badRequest(tr("more than 400 dates in one request")) }
            var dates: [LocalDate] = []
            for text in texts {
                guard let date = LocalDate(text) else { throw badRequest(tr("\"\(text)\" is not a YYYY-MM-DD date")) }
                guard date.isSupported else { throw badRequest(tr("\(text) is \(LocalDate.unsupportedPhrase)")) }
                dates.append(date)
            }
            let note = try text(object, .note)
            if let note, note.utf8.count > 1000 { throw badRequest(tr("note longer than 1000 bytes")) }
            return .checkin(dates: dates.isEmpty ? nil : dates, status: status, note: note)
        case "clear":
            guard let text = try text(object, .date), let date = LocalDate(text) else {
                throw badRequest(tr("clear needs \"date\" as YYYY-MM-DD"))
            }
            guard date.isSupported else { throw badRequest(tr("\(text) is \(LocalDate.unsupportedPhrase)")) }
            guard let origins = ClearScope(rawValue: try self.text(object, .origin) ?? "manual")?.origins else {
                throw badRequest(tr("clear takes \"origin\": manual, automatic, import, fallback or all"))
            }
            return .clear(date: date, origins: origins)
        case "event":
            guard let text = try text(object, .source), let source = Source(rawValue: text), source.isAutomatic else {
                let known = Source.automatic.map(\.rawValue).joined(separator: ", ")
                throw badRequest(tr("event needs \"source\", one of \(known)"))
            }
            guard let at = try self.text(object, .at).flatMap(parseTime) else {
                throw badRequest(tr("event needs \"at\" as an RFC 3339 time"))
            }
            let rule = try self.text(object, .rule)
            if let rule, let problem = RuleName.problem(rule) { throw badRequest("\"rule\": \(problem)") }
            guard let kind = CheckInEvent.Kind(rawValue: try self.text(object, .kind) ?? "arrival") else {
                throw badRequest(tr("event takes \"kind\": arrival or departure"))
            }
            return .event(source: source, rule: rule, at: at, kind: kind)
        case "advance":
            guard let seconds = object.double(.seconds), seconds.isFinite, seconds >= 0, seconds <= 366 * 86_400 else {
                throw badRequest("advance needs \"seconds\" from 0 to a year")
            }
            return .advance(seconds: seconds)
        default:
            throw badRequest(tr("unknown cmd \"\(cmd.prefix(40))\" (status, report, checkin, clear, event, subscribe)"))
        }
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

    /// A request as a message, asking within `scope`, for clients (`ControlConnection` stamps the version).
    public static func encode(_ request: Request, scope: AnswerScope, id: String? = nil) -> WireObject {
        var object = ControlMessage.request(request.cmd, format: request.format?.rawValue, scope: scope)
        if let id { object[.request] = .string(id) }
        switch request {
        case .status, .report, .subscribe, .hello: break
        case let .plan(prefer, avoid, _):
            object[.prefer] = .strings(prefer.sorted().map(\.key))
            object[.avoid] = .strings(avoid.map { "\($0.start)..\($0.end)" })
        case let .checkin(dates, status, note):
            if let dates { object[.dates] = .strings(dates.map(\.description)) }
            object[.status] = .string(status.rawValue)
            if let note { object[.note] = .string(note) }
        case let .clear(date, origins):
            object[.date] = .string(date.description)
            object[.origin] = .string(ClearScope.allCases.first { $0.origins == origins }?.rawValue ?? "manual")
        case let .event(source, rule, at, kind):
            if kind == .departure { object[.kind] = .string(kind.rawValue) }
            object[.source] = .string(source.rawValue)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            object[.at] = .string(formatter.string(from: at))
            if let rule { object[.rule] = .string(rule) }
        case .advance(let seconds):
            object[.seconds] = .number(String(seconds))
        }
        return object
    }
}
