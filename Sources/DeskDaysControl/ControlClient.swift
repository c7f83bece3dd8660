import DeskDaysCore
import AgentSocket
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The CLI's side of the control socket.
///
/// `connect` tells "no agent" (no socket file, or nobody listening: the
/// CLI then writes the database itself) apart from real failures.
public final class ControlClient {
    private let fd: Int32
    private var pending = LineSplitter(limit: 16 * 1024 * 1024)
    private var lines: [Data] = []
    /// Whether the last `nextLine()` ended because the reply timeout passed.
    private var timedOut = false

    /// The outcome of trying to reach the agent.
    public enum Connection {
        case connected(ControlClient)
        /// No agent is running on that path.
        case noAgent
        /// The socket exists but cannot be used (permissions, …): one sentence.
        case failed(String)
        /// Something is listening, but it is not proven to be this user's agent
        /// (another user's folder or socket, a loose folder mode, another
        /// peer uid): nothing is sent; why, in a few words.
        case untrusted(String)
    }

    private init(fd: Int32, timeout: Int?) {
        self.fd = fd
        if let timeout { UnixSocket.setTimeout(fd, option: SO_RCVTIMEO, seconds: timeout) }
        UnixSocket.setTimeout(fd, option: SO_SNDTIMEO, seconds: 10)
    }

    deinit { close(fd) }

    /// Connects to the agent at `path`. `timeout` bounds each wait for a reply (nil: wait forever, for subscriptions).
    public static func connect(path: String, timeout: Int? = 30) -> Connection {
        do {
            if let doubt = doubt(about: path) { return .untrusted(doubt) }
            let fd = try UnixSocket.connect(to: path)
            // The peer is checked after connecting, before a byte is sent.
            guard let uid = UnixSocket.peerUID(fd), uid == getuid() else {
                close(fd)
                return .untrusted(tr("the process listening on it runs as another user"))
            }
            return .connected(ControlClient(fd: fd, timeout: timeout))
        } catch let failure as UnixSocket.Failure {
            if [ENOENT, ECONNREFUSED, ENOTDIR].contains(failure.code) { return .noAgent }
            return .failed(tr("cannot reach the agent at \(path): \(String(cString: strerror(failure.code)))"))
        } catch {
            return .failed(tr("cannot reach the agent at \(path): \(error)"))
        }
    }

    /// Why the socket at `path` cannot be trusted to be this user's agent (`SocketTrust`).
    static func doubt(about path: String) -> String? {
        SocketTrust.doubt(about: path)
    }

    /// Sends one request and waits for its reply.
    public func send(_ request: ControlProtocol.Request, database: String? = nil) -> Result<[String: Any], ControlProtocol.Failure> {
        guard UnixSocket.sendAll(fd, ControlProtocol.encode(request, database: database)) else {
            return .failure(ControlProtocol.Failure(code: "disconnected", message: tr("the agent closed the connection")))
        }
        guard let line = nextLine() else {
            if timedOut {
                return .failure(ControlProtocol.Failure(code: "timeout", message: tr("the agent did not answer in time")))
            }
            return .failure(ControlProtocol.Failure(code: "disconnected", message: tr("the agent closed the connection")))
        }
        return ControlProtocol.decodeReply(line)
    }

    /// A reply carrying the agent's current answer (`status`, `report`).
    public struct Answer: Decodable, Sendable {
        public var ok: Bool
        public var output: String?
        public var config: String?
        public var clock: String?
        public var locale: String?
    }

    /// Asks for the agent's current answer. Typed both ways (no
    /// `JSONSerialization` and its dynamic casts): this is the path a status
    /// bar takes many times a day, and start-up costs dominate it.
    public func answer(_ request: ControlProtocol.Request, database: String) -> Answer? {
        struct Wire: Encodable { var cmd: String; var format: String?; var database: String }
        let wire: Wire
        switch request {
        case .status(let format): wire = Wire(cmd: "status", format: format.rawValue, database: database)
        case .report: wire = Wire(cmd: "report", format: nil, database: database)
        default: return nil
        }
        guard var data = try? JSONEncoder().encode(wire) else { return nil }
        data.append(UInt8(ascii: "\n"))
        guard UnixSocket.sendAll(fd, data), let line = nextLine() else { return nil }
        return try? JSONDecoder().decode(Answer.self, from: line)
    }

    /// Sends raw bytes (for `subscribe` followed by `nextLine()` calls).
    public func sendRaw(_ data: Data) -> Bool {
        UnixSocket.sendAll(fd, data)
    }

    /// The next line from the agent, or nil when it closed the connection (or the timeout passed).
    public func nextLine() -> Data? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while lines.isEmpty {
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            timedOut = count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
            if count <= 0 { return nil }
            for piece in pending.append(Data(buffer[0..<count])) {
                if case .line(let line) = piece { lines.append(line) }
            }
        }
        return lines.removeFirst()
    }
}

/// Where the control socket lives (`AgentPaths.socket`).
public enum ControlSocketPath {
    public static func `default`(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        AgentPaths { environment[$0] }.socket
    }
}
