import Localization
import Syscall
#if canImport(Glibc)
import Glibc
#endif

/// A client's connection to the agent's control socket, for the launcher
/// and the CLI alike (no Foundation): requests go out stamped with the
/// protocol's version, and a reply counts only when it carries the same.
///
/// `connect` tells "no agent" (no socket file, or nobody listening: the
/// client then does the work itself) apart from real failures, and checks
/// that the socket and the process behind it are this user's before a byte is sent.
public final class ControlConnection {
    public let path: String
    private let fd: Int32
    private var splitter = LineSplitter(limit: ControlMessage.maximumReplyLength)
    /// Lines read and not yet taken; nil for one longer than `maximumReplyLength`.
    private var lines: [[UInt8]?] = []
    /// Whether the last read ended because the reply timeout passed.
    private var timedOut = false

    /// The outcome of trying to reach the agent.
    public enum Outcome {
        case connected(ControlConnection)
        /// No agent is running on that path.
        case noAgent
        /// The socket exists but cannot be used (permissions, …): one sentence.
        case failed(String)
        /// Something is listening, but it is not proven to be this user's agent
        /// (another user's folder or socket, a loose folder mode, another
        /// peer uid): nothing is sent; why, in a few words.
        case untrusted(String)
    }

    /// What a client waits for: the one table of how long it waits for
    /// each reply before it does without the agent.
    public enum Wait: Sendable {
        /// An answer or a look (status, report, plan, hello, doctor, a second
        /// agent's check): 2 s; then the client computes the answer itself.
        case answer
        /// A write, which the agent commits before it replies: 5 s; then the
        /// client writes directly under the same request id.
        case write
        /// A follower's pushes, which come when something changes: for ever.
        case follow

        var seconds: Int? {
            switch self {
            case .answer: 2
            case .write: 5
            case .follow: nil
            }
        }
    }

    private init(path: String, fd: Int32, timeout: Int?) {
        self.path = path
        self.fd = fd
        if let timeout { UnixSocket.setTimeout(fd, option: SO_RCVTIMEO, seconds: timeout) }
        UnixSocket.setTimeout(fd, option: SO_SNDTIMEO, seconds: min(timeout ?? 10, 10))
    }

    deinit { close(fd) }

    /// Connects to the agent at `path`, to wait for its replies as `waiting` says.
    public static func connect(path: String, waiting: Wait) -> Outcome {
        let timeout = waiting.seconds
        if let doubt = SocketTrust.doubt(about: path) { return .untrusted(doubt) }
        let fd: Int32
        do {
            fd = try UnixSocket.connect(to: path, timeout: min(timeout ?? 5, 5))
        } catch let failure as UnixSocket.Failure {
            if [ENOENT, ECONNREFUSED, ENOTDIR].contains(failure.code) { return .noAgent }
            return .failed(tr("cannot reach the agent at \(path): \(String(cString: strerror(failure.code)))"))
        } catch {
            return .failed(tr("cannot reach the agent at \(path): \(error)"))
        }
        // The peer is checked after connecting, before a byte is sent.
        guard UnixSocket.peerUID(fd) == getuid() else {
            close(fd)
            return .untrusted(tr("the process listening on it runs as another user"))
        }
        return .connected(ControlConnection(path: path, fd: fd, timeout: timeout))
    }

    /// Sends one request and reads its reply.
    public func ask(_ request: WireObject) -> Result<WireObject, ControlFailure> {
        guard send(request) else { return .failure(Self.disconnected) }
        return nextReply()
    }

    /// Sends one request, stamped with the protocol's version.
    public func send(_ request: WireObject) -> Bool {
        UnixSocket.sendAll(fd, ControlMessage.stamped(request))
    }

    /// The next reply: the object, or the failure it carries (an error
    /// reply, another protocol version), or why none came.
    public func nextReply() -> Result<WireObject, ControlFailure> {
        guard let next = nextLine() else {
            return .failure(timedOut ? ControlFailure(code: ControlMessage.Code.timeout, message: tr("the agent did not answer in time"))
                                     : Self.disconnected)
        }
        guard let line = next, case .success(let reply) = WireObject.parse(line) else {
            return .failure(ControlFailure(code: ControlMessage.Code.badReply, message: tr("the agent's reply is not a JSON object")))
        }
        guard reply.int(.version) == ControlMessage.version else {
            // An agent of another version (one from before versions sends none: 0).
            let theirs = reply.int(.version) ?? 0
            return .failure(ControlFailure(code: ControlMessage.Code.version,
                                           message: "the agent speaks control protocol \(theirs), not \(ControlMessage.version)",
                                           reply: WireObject([.version: .number(String(theirs))])))
        }
        if reply.bool(.ok) == false {
            return .failure(ControlFailure(code: reply.string(.code) ?? ControlMessage.Code.failed,
                                           message: reply.string(.error) ?? tr("the agent refused the request"), reply: reply))
        }
        return .success(reply)
    }

    private static let disconnected = ControlFailure(code: ControlMessage.Code.disconnected, message: tr("the agent closed the connection"))

    /// The next line (nil inside: one too long), or nil when none came.
    private func nextLine() -> [UInt8]?? {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while lines.isEmpty {
            let read = buffer.withUnsafeMutableBytes { Syscall.read(fd, into: $0) }
            timedOut = read == .failure(.wouldBlock)
            guard case .success(let count) = read, count > 0 else { return nil }
            for piece in splitter.append(buffer[0..<count]) {
                switch piece {
                case .line(let line): lines.append(line)
                case .tooLong: lines.append(nil)
                }
            }
        }
        return lines.removeFirst()
    }

    // MARK: - Following

    /// How following ended.
    public enum FollowEnd: Equatable {
        case noAgent
        case untrusted(String)
        case failed(String)
        /// The agent refused to be followed, or speaks another protocol version.
        case refused(ControlFailure)
        /// The agent went away (or the output could not be written) after
        /// `replies` answers; 0: before the first.
        case stopped(replies: Int)
    }

    /// How long a follower waits for the next agent after a reload (a loaded machine may take seconds).
    static let reloadWaitMilliseconds = 30_000

    /// Subscribes with `request` and hands each pushed `output` to `print`
    /// (not one equal to the one before; false: stop), following the next
    /// agent on `path` across a reload (`"reloading":true`). When the agent
    /// it followed goes away (stopped, restarted, upgraded), `waiting` is
    /// called once and the follower waits for an agent to serve `path`
    /// again, then follows it: a status bar never freezes on its last line.
    /// Without `waiting` (or before the first answer) it ends there.
    public static func follow(path: String, request: WireObject, waiting: (() -> Void)? = nil,
                              _ print: (String) -> Bool) -> FollowEnd {
        var last: String?
        var replies = 0
        var reloaded = false, gone = false
        while true {
            let connection: ControlConnection
            switch gone ? returned(path) : reloaded ? reconnect(path) : connect(path: path, waiting: .follow) {
            case .connected(let connected): connection = connected
            case .noAgent:
                guard replies > 0, let waiting, !gone else { return reloaded ? .stopped(replies: replies) : .noAgent }
                waiting()
                gone = true
                continue
            case .untrusted(let doubt): return .untrusted(doubt)
            case .failed(let reason): return .failed(reason)
            }
            reloaded = false
            gone = false
            var lost = !connection.send(request)
            while !reloaded && !lost {
                switch connection.nextReply() {
                case .failure(let failure) where [ControlMessage.Code.disconnected, ControlMessage.Code.timeout].contains(failure.code):
                    lost = true
                case .failure(let failure):
                    return .refused(failure)
                case .success(let reply):
                    if reply.bool(.reloading) == true {
                        reloaded = true
                        continue
                    }
                    let output = reply.string(.output) ?? ""
                    replies += 1
                    if output != last, !print(output) { return .stopped(replies: replies) }
                    last = output
                }
            }
            if lost {
                guard replies > 0, let waiting else { return .stopped(replies: replies) }
                waiting()
                gone = true
            }
        }
    }

    /// An agent on `path` again after the one followed went away: tried
    /// once a second, for as long as it takes (the follower's reader ends
    /// it). Until one is connected, whatever is there (no socket, one being
    /// set up whose mode or owner is not yet right, one refusing) is waited
    /// past: nothing is sent to a socket that is not trusted.
    static func returned(_ path: String, attempt: (String) -> Outcome = { connect(path: $0, waiting: .follow) }) -> Outcome {
        while true {
            let outcome = attempt(path)
            if case .connected = outcome { return outcome }
            var pause = timespec(tv_sec: 1, tv_nsec: 0)
            nanosleep(&pause, nil)
        }
    }

    /// The next agent on `path` after a reload: its socket comes back within
    /// moments (waited for, bounded; meanwhile, as for `returned`, whatever
    /// is not yet a trusted agent is waited past). `.noAgent` when the wait
    /// ends without one: the follower then waits as for an agent gone away.
    static func reconnect(_ path: String, attempt: (String) -> Outcome = { connect(path: $0, waiting: .follow) }) -> Outcome {
        var waited = 0
        while waited < reloadWaitMilliseconds {
            let outcome = attempt(path)
            if case .connected = outcome { return outcome }
            var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
            nanosleep(&pause, nil)
            waited += 50
        }
        return .noAgent
    }
}
