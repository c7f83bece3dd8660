import Localization

/// The control protocol's definitions, once for the agent, the CLI and the
/// launcher (docs/cli.md, "The control socket"): its version, the fields,
/// the error codes, and the one decision whether the agent's answer is the
/// asker's. The requests are listed once, typed: `ControlProtocol.Request`
/// (DeskDaysControl), whose `cmd` is the name sent.
///
/// Every request and every reply is one `WireObject` on one line. Clients
/// send `"version":1` in every request, and every reply carries the agent's
/// `version`: an agent refuses a request of another version (`version`)
/// before acting on it, and a client treats a reply of another version, or
/// none (an agent from before the protocol had one), as no agent.
public enum ControlMessage {
    /// The protocol's version: raised on any change a peer of the previous version would misread.
    public static let version = 1

    /// The longest request line an agent reads, newline excluded.
    public static let maximumRequestLength = 64 * 1024
    /// The longest reply line a client reads (a report is a few kilobytes).
    public static let maximumReplyLength = 16 * 1024 * 1024

    /// Every field a request or a reply may carry; any other key is ignored.
    public enum Field: String, Sendable, CaseIterable {
        case version, cmd
        // What the asker's answer depends on (`AnswerScope`).
        case database, config, clock, locale
        // Requests.
        case format, date, dates, status, note, source, at, rule, origin, kind, seconds, prefer, avoid
        /// A write's request id (`WriteRequest`): carried out once or not at all.
        case request
        // Replies.
        case ok, code, error, output, reloading, now, removed, stored
        /// `hello`: the sync folder the agent merges (null: none).
        case sync
    }

    /// The stable `code`s of error replies (scripts may rely on them).
    public enum Code {
        public static let badRequest = "bad_request"
        public static let tooLong = "too_long"
        /// The request's protocol version is not the agent's.
        public static let version = "version"
        public static let otherDatabase = "other_database"
        public static let otherConfiguration = "other_configuration"
        public static let fixedClock = "fixed_clock"
        public static let otherLanguage = "other_language"
        public static let forbidden = "forbidden"
        public static let busy = "busy"
        public static let failed = "failed"
        /// The write's request was carried out already, by its client writing directly.
        public static let alreadyDone = "already_done"
        // Said by the client itself, never sent.
        public static let disconnected = "disconnected"
        public static let timeout = "timeout"
        public static let badReply = "bad_reply"
    }

    /// `message` with the protocol's version: what is sent (every request, every reply).
    public static func stamped(_ message: WireObject) -> [UInt8] {
        var message = message
        message[.version] = .number(String(version))
        return message.line()
    }

    /// A request named `cmd` (`ControlProtocol.Request.cmd`) asking within `scope`.
    public static func request(_ cmd: String, format: String? = nil, scope: AnswerScope) -> WireObject {
        var request = scope.fields
        request[.cmd] = .string(cmd)
        if let format { request[.format] = .string(format) }
        return request
    }

    /// An error reply.
    public static func reply(_ failure: ControlFailure) -> WireObject {
        var reply = failure.reply
        reply[.ok] = .bool(false)
        reply[.code] = .string(failure.code)
        reply[.error] = .string(failure.message)
        return reply
    }

    /// Why an agent does not read `request`: another protocol version. Nil
    /// when it is this one (or names none: a request typed by hand is read as version 1).
    public static func versionProblem(_ request: WireObject) -> ControlFailure? {
        guard let value = request[.version], value != .null else { return nil }
        if request.int(.version) == version { return nil }
        let theirs: String
        if case .number(let text) = value { theirs = String(text.prefix(20)) } else { theirs = "?" }
        return ControlFailure(code: Code.version, message: "this agent speaks version \(version) of the control protocol, not \(theirs)")
    }

    /// Why the agent's answer to the request named `command` is not the
    /// asker's: the one place this is decided (the agent calls it for every request).
    ///
    /// - Every request: the database, when the request names one.
    /// - `status`, `report`, `subscribe`: the configuration file, when named.
    /// - `status`, `report`: "now" (both on the system clock, when the request
    ///   names its clock), and for a format with words (every status format but
    ///   json) the language, when named.
    ///
    /// A follower (`subscribe`) prints the agent's own answer, in the agent's
    /// language and at the agent's "now" (docs/cli.md): only the files count.
    public static func refusal(_ command: String, format: String?, asked: AnswerScope, served: AnswerScope) -> ControlFailure? {
        if let database = asked.database, !AnswerScope.names(database, served.database) {
            return ControlFailure(code: Code.otherDatabase, message: "this agent serves \(served.database ?? "no database"), not \(database)")
        }
        guard ["status", "report", "subscribe", "hello", "plan"].contains(command) else { return nil }
        if let config = asked.config, !AnswerScope.names(config, served.config) {
            var failure = ControlFailure(code: Code.otherConfiguration,
                                         message: "this agent runs with \(served.config ?? "no configuration file"), not \(config)")
            failure.reply[.config] = served.config.map(WireObject.Value.string) ?? .null
            return failure
        }
        if command == "subscribe" || command == "hello" { return nil }
        if let clock = asked.clock, clock != .system || served.clock != .system {
            return ControlFailure(code: Code.fixedClock, message: "this agent's or the request's \"now\" is fixed (DESKDAYS_NOW, --today)")
        }
        if command == "status" || command == "plan", format != "json", let locale = asked.locale, locale != served.locale {
            return ControlFailure(code: Code.otherLanguage, message: "this agent answers in another language (\(served.locale ?? ""))")
        }
        return nil
    }
}

/// What an answer depends on besides the database's contents: the database
/// and configuration files, the clock and the language
/// (`Localization.signature`). A client sends its own; the agent compares
/// it with the one it serves (`ControlMessage.refusal`). A field left out
/// (a request typed by hand) is not compared.
///
/// A client's paths are absolute, as it names them; the agent's are
/// canonical (`serving`). A path is made canonical (`AgentPaths.canonical`)
/// only when it is not already the agent's own (`names`): the usual
/// request, which names the agent's files as they are, costs no system call.
public struct AnswerScope: Equatable, Sendable {
    /// Whose "now" it is.
    public enum Clock: String, Sendable {
        /// The system clock's.
        case system
        /// Fixed or moved by hand (`DESKDAYS_NOW`, `--today`, a manual clock).
        case set
    }

    public var database: String?
    public var config: String?
    public var clock: Clock?
    public var locale: String?

    /// Paths are made absolute against this process's folder.
    public init(database: String?, config: String? = nil, clock: Clock? = nil, locale: String? = nil) {
        self.database = database.map(AgentPaths.absolute)
        self.config = config.map(AgentPaths.absolute)
        self.clock = clock
        self.locale = locale
    }

    /// The scope an agent serves: its paths canonical.
    public static func serving(database: String, config: String?, clock: Clock, locale: String?) -> AnswerScope {
        AnswerScope(database: AgentPaths.canonical(database), config: config.map(AgentPaths.canonical), clock: clock, locale: locale)
    }

    /// Whether `asked`, a path a request names, is the file at `served`, a
    /// canonical path: the same text, or the same once made canonical.
    static func names(_ asked: String, _ served: String?) -> Bool {
        asked == served || AgentPaths.canonical(asked) == served
    }

    /// What this process asks within: its files, its language and its
    /// clock, which is its own when `DESKDAYS_NOW` or `DESKDAYS_TODAY` is set
    /// or the command gives a day (`--today`).
    public static func asker(database: String, config: String, dayGiven: Bool = false) -> AnswerScope {
        let environment = AgentPaths.process.environment
        let fixed = dayGiven || !(environment("DESKDAYS_NOW") ?? "").isEmpty || !(environment("DESKDAYS_TODAY") ?? "").isEmpty
        return AnswerScope(database: database, config: config, clock: fixed ? .set : .system, locale: Localization.signature)
    }

    /// The scope a request names.
    public init(_ request: WireObject) {
        self.init(database: request.string(.database), config: request.string(.config),
                  clock: request.string(.clock).map { Clock(rawValue: $0) ?? .set }, locale: request.string(.locale))
    }

    /// The scope as a request's (or a reply's) fields.
    public var fields: WireObject {
        var object = WireObject()
        if let database { object[.database] = .string(database) }
        if let config { object[.config] = .string(config) }
        if let clock { object[.clock] = .string(clock.rawValue) }
        if let locale { object[.locale] = .string(locale) }
        return object
    }
}

/// Why a request was refused or could not be made; `code` is stable for
/// scripts (`ControlMessage.Code`), `reply` the error reply's other fields.
public struct ControlFailure: Error, Equatable, Sendable {
    public var code: String
    public var message: String
    public var reply: WireObject

    public init(code: String, message: String, reply: WireObject = WireObject()) {
        self.code = code
        self.message = message
        self.reply = reply
    }
}
