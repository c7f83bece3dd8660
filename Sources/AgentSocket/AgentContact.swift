#if canImport(Glibc)
import Glibc
#endif

/// What one invocation learnt from its one connection to the agent
/// (docs/cli.md, "Ask once"). The launcher asks; when the agent does not
/// answer, it hands what it learnt to `deskdays-cli` in `DESKDAYS_ASKED`
/// (with its process id, which `execv` keeps, and the socket's path), and
/// the CLI asks no more: it says why, and computes.
public enum AgentContact: Equatable, Sendable {
    /// It answered this process's request.
    case answered
    /// No agent is listening on the socket.
    case noAgent
    /// Something listens there that is not proven to be this user's agent: why.
    case untrusted(String)
    /// The socket cannot be used: one sentence.
    case failed(String)
    /// The agent refused (another database, configuration, clock, language
    /// or protocol version), was too busy, or did not reply.
    case refused(ControlFailure)

    /// Whether the agent serves this database and configuration (and so
    /// merges the sync folder itself): it answered, or refused only for
    /// this process's "now" or language.
    public var servesFiles: Bool {
        switch self {
        case .answered: true
        case .refused(let failure): [ControlMessage.Code.fixedClock, ControlMessage.Code.otherLanguage].contains(failure.code)
        default: false
        }
    }

    /// A connection attempt that did not connect.
    public init?(_ outcome: ControlConnection.Outcome) {
        switch outcome {
        case .connected: return nil
        case .noAgent: self = .noAgent
        case .untrusted(let doubt): self = .untrusted(doubt)
        case .failed(let reason): self = .failed(reason)
        }
    }

    /// The environment variable that carries it from the launcher to `deskdays-cli`.
    public static let variable = "DESKDAYS_ASKED"

    /// Puts it in this process's environment for the program `execv` starts next.
    public func hand(socket: String) {
        let (kind, detail): (String, String)
        switch self {
        case .answered: (kind, detail) = ("answered", "")
        case .noAgent: (kind, detail) = ("none", "")
        case .untrusted(let doubt): (kind, detail) = ("untrusted", doubt)
        case .failed(let reason): (kind, detail) = ("failed", reason)
        case .refused(let failure): (kind, detail) = ("refused", String(decoding: ControlMessage.reply(failure).line(), as: UTF8.self))
        }
        setenv(Self.variable, "\(getpid())\n\(socket)\n\(kind)\n\(detail)", 1)
    }

    /// What the launcher handed this process for `socket`; nil when it asked
    /// nothing (or asked another socket, or the value is not this process's).
    /// The variable is removed: a program this one starts asks for itself.
    public static func handed(socket: String) -> AgentContact? {
        guard let value = getenv(variable).map({ String(cString: $0) }) else { return nil }
        unsetenv(variable)
        let parts = value.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[0] == String(getpid()), AgentPaths.canonical(parts[1]) == AgentPaths.canonical(socket) else { return nil }
        switch parts[2] {
        case "answered": return .answered
        case "none": return .noAgent
        case "untrusted": return .untrusted(parts[3])
        case "failed": return .failed(parts[3])
        case "refused":
            guard case .success(let reply) = WireObject.parse(Array(parts[3].utf8)), let code = reply.string(.code) else { return nil }
            return .refused(ControlFailure(code: code, message: reply.string(.error) ?? "", reply: reply))
        default: return nil
        }
    }
}
