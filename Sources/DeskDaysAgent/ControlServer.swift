import AgentSocket
import DeviceThread
import DeskDaysCore
import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The agent's control socket: AF_UNIX stream, one JSON object per line
/// each way, for the user who runs the agent only. It speaks the one
/// versioned control protocol (`ControlMessage`, shared with the CLI and the
/// launcher): every request is read with `ControlProtocol.parse` (a request
/// of another version is refused before anything is done), then checked with
/// `refusal` (`ControlMessage.refusal`: is the answer the sender's?), and
/// every reply and push goes out stamped with the protocol's version.
///
/// Access is checked twice: the socket is mode 0600 in a 0700 folder, and
/// every connection's peer uid (`SO_PEERCRED`) must be the agent's own uid.
/// Accepting and each connection run on their own threads with blocking
/// calls, so a slow or silent client never holds up the cooperative pool;
/// requests are handed to `handler` (async) one at a time per connection.
/// Bad input gets an error reply and never ends the agent.
public final class ControlServer: @unchecked Sendable {
    /// What the server needs from the agent.
    public typealias Handler = @Sendable (ControlProtocol.Envelope) async -> WireObject

    public let path: String
    private let handler: Handler
    /// Answers a request on the connection's own thread, without the async
    /// handler, when it can (the status and the report, read from the
    /// current answer): under a burst of writes a `status` then waits for
    /// no task of the cooperative pool; nil: the handler answers.
    private let immediate: @Sendable (ControlProtocol.Envelope) -> WireObject?
    /// Why this agent's answer is not the sender's (another database,
    /// configuration, clock or language), as the reply; nil when it is.
    private let refusal: @Sendable (ControlProtocol.Envelope) -> WireObject?
    private let summary: @Sendable (StatusFormat) -> WireObject
    private let logger: Logger
    private let lock = NSLock()
    private var listener: Int32 = -1
    /// Ends the accept loop's poll.
    private let wake = StopSignal()
    private var connections: [Int32: Connection] = [:]
    private var stopped = false
    /// Connections beyond this are refused, so a runaway client cannot use up the agent's descriptors.
    /// Followers (`subscribe`) count apart, up to `maximumFollowers`: status
    /// bars left open never make a command wait or write around the agent.
    static let maximumConnections = 64
    static let maximumFollowers = 256
    /// A connection that sends no complete request for this long is closed
    /// (a subscriber, once subscribed, is never timed out): idle clients
    /// cannot hold the agent's connection slots.
    static let idleSeconds = 5

    /// One client: its socket, a lock so pushes and replies never interleave, and whether it subscribed.
    final class Connection: @unchecked Sendable {
        let fd: Int32
        let writeLock = NSLock()
        /// The status format this connection subscribed to, if it did.
        var subscribed: StatusFormat?
        init(fd: Int32) { self.fd = fd }

        /// The last status line it was sent (its first, then each push),
        /// under `writeLock`: a follower gets a line when its own line
        /// changes, not when only another format's did.
        var lastStatus: [UInt8]?

        func send(_ data: [UInt8], nonBlocking: Bool = false) -> Bool {
            writeLock.lock()
            defer { writeLock.unlock() }
            return UnixSocket.sendAll(fd, data, nonBlocking: nonBlocking)
        }

        /// Sends a subscriber its status line, unless it is the one it has.
        func push(_ data: [UInt8]) -> Bool {
            writeLock.lock()
            defer { writeLock.unlock() }
            guard data != lastStatus else { return true }
            lastStatus = data
            return UnixSocket.sendAll(fd, data, nonBlocking: true)
        }
    }

    /// - Parameters:
    ///   - handler: answers every request but `subscribe`, after any write it causes is committed.
    ///   - summary: the reply a subscriber gets now and after every change, in its format.
    ///   - refusal: checked before every request, `subscribe` included.
    public init(path: String, logger: Logger, summary: @escaping @Sendable (StatusFormat) -> WireObject,
                refusal: @escaping @Sendable (ControlProtocol.Envelope) -> WireObject? = { _ in nil },
                immediate: @escaping @Sendable (ControlProtocol.Envelope) -> WireObject? = { _ in nil },
                handler: @escaping Handler) {
        self.path = path
        self.immediate = immediate
        self.refusal = refusal
        self.logger = logger
        self.summary = summary
        self.handler = handler
    }

    /// A reason the socket could not be set up, as one sentence.
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Creates the folder (0700) and socket (0600) and starts accepting.
    public func start() throws {
        let folder = (path as NSString).deletingLastPathComponent
        try Self.preparePrivateFolder(folder)
        try removeStaleSocket()
        let fd = try UnixSocket.makeStream()
        // The umask makes the socket 0600 from its first instant; chmod below is belt and braces.
        let oldMask = umask(0o177)
        let bound = try UnixSocket.withAddress(path) { bind(fd, $0, $1) }
        let bindError = errno
        umask(oldMask)
        guard bound == 0 else {
            close(fd)
            throw SetupError(description: tr("cannot create the control socket \(path): \(String(cString: strerror(bindError)))"))
        }
        chmod(path, 0o600)
        guard listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw SetupError(description: tr("cannot listen on \(path): \(String(cString: strerror(code)))"))
        }
        guard wake.descriptor >= 0 else {
            close(fd)
            throw SetupError(description: tr("cannot create a pipe: \(String(cString: strerror(errno)))"))
        }
        lock.withLock { listener = fd }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "deskdays-control"
        thread.start()
        logger.info("control socket ready", metadata: ["path": "\(path)"])
    }

    /// Stops accepting, closes every connection and removes the socket file.
    /// For a reload (`reloading`), each follower is told so first
    /// (`{"ok":true,"reloading":true}`) and follows
    /// the next agent on this path: a status bar does not go dead on a reload.
    public func stop(reloading: Bool = false) {
        let (fd, toClose) = lock.withLock { () -> (Int32, [Connection]) in
            if stopped { return (-1, []) }
            stopped = true
            return (listener, Array(connections.values))
        }
        guard fd >= 0 else { return }
        unlink(path)
        wake.stop()
        for connection in toClose {
            if reloading, connection.subscribed != nil {
                _ = connection.push(Self.reloadingLine)
            }
            // shutdown wakes the connection's blocking read; its thread closes it.
            shutdown(connection.fd, Int32(SHUT_RDWR))
        }
    }

    /// What a follower gets when the agent reloads (docs/cli.md "The control socket").
    static let reloadingLine = ControlMessage.stamped(WireObject([.ok: .bool(true), .reloading: .bool(true)]))

    /// Sends the summary line to every subscriber; one that cannot take it now is dropped.
    public func publish() {
        let subscribers = lock.withLock { connections.values.compactMap { c in c.subscribed.map { (c, $0) } } }
        guard !subscribers.isEmpty else { return }
        var lines: [StatusFormat: [UInt8]] = [:]
        for (connection, format) in subscribers {
            let line = lines[format] ?? ControlMessage.stamped(summary(format))
            lines[format] = line
            guard !connection.push(line) else { continue }
            logger.info("dropped a subscriber that stopped reading")
            shutdown(connection.fd, Int32(SHUT_RDWR))
        }
    }

    // MARK: - Folder and stale socket

    /// Makes `folder` (and missing parents) 0700; refuses a folder owned by someone else.
    static func preparePrivateFolder(_ folder: String) throws {
        var info = stat()
        if stat(folder, &info) != 0 {
            let parent = (folder as NSString).deletingLastPathComponent
            if !parent.isEmpty, parent != folder, stat(parent, &info) != 0 { try preparePrivateFolder(parent) }
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                throw SetupError(description: tr("cannot create the folder \(folder): \(String(cString: strerror(errno)))"))
            }
            guard stat(folder, &info) == 0 else {
                throw SetupError(description: tr("cannot read the folder \(folder): \(String(cString: strerror(errno)))"))
            }
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw SetupError(description: tr("\(folder) is not a folder; remove it or choose another --socket"))
        }
        guard info.st_uid == getuid() else {
            throw SetupError(description: tr("\(folder) belongs to another user; choose another --socket"))
        }
        if info.st_mode & 0o077 != 0, chmod(folder, 0o700) != 0 {
            throw SetupError(description: tr("cannot make \(folder) private (0700): \(String(cString: strerror(errno)))"))
        }
    }

    /// A socket file left by an agent that died is removed; a live agent is not displaced.
    private func removeStaleSocket() throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw SetupError(description: tr("\(path) exists and is not a socket; remove it or choose another --socket"))
        }
        if let fd = try? UnixSocket.connect(to: path) {
            let peer = UnixSocket.peerUID(fd)
            close(fd)
            // A socket another user's process listens on, planted in this
            // user's folder: removed, never taken for an agent (clients refuse it too).
            guard peer != getuid() || info.st_uid != getuid() else {
                throw SetupError(description: tr("another deskdays agent is already running on \(path); stop it first (systemctl --user stop deskdays)"))
            }
            logger.warning("removed a socket that another user's process listened on", metadata: ["path": "\(path)"])
        }
        unlink(path)
    }

    // MARK: - Accepting

    /// Accepts on one thread, and lets refused connections go on the same
    /// thread: each refused peer gets its reason, then its descriptor stays
    /// in this loop's poll until the peer has read and closed (or for
    /// `refusalSeconds`), so no thread is spent on a connection that is not served.
    private func acceptLoop() {
        let fd = lock.withLock { listener }
        var refused: [(fd: Int32, until: ContinuousClock.Instant)] = []
        var sink = [UInt8](repeating: 0, count: 4096)
        while true {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)]
            fds += refused.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let timeout = refused.map { entry -> Int32 in
                let left = ContinuousClock.now.duration(to: entry.until).components
                return Int32(clamping: max(0, left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000 + 1))
            }.min() ?? -1
            if case .failure(let error) = Syscall.poll(&fds, timeout: timeout) {
                logger.error("control socket poll failed: \(error)")
                break
            }
            if fds[1].revents != 0 { break }
            // A refused peer that sent more is drained; one that closed (or overstayed) is let go.
            let now = ContinuousClock.now
            refused = zip(refused, fds.dropFirst(2)).compactMap { entry, polled in
                var done = now >= entry.until
                if polled.revents != 0 {
                    switch sink.withUnsafeMutableBytes({ Syscall.recv(entry.fd, into: $0, flags: Int32(MSG_DONTWAIT)) }) {
                    case .success(let count): if count == 0 { done = true }
                    case .failure(let error): if error != .wouldBlock { done = true }
                    }
                }
                if done { close(entry.fd) }
                return done ? nil : entry
            }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let client: Int32
            switch Syscall.accept(fd) {
            case .success(let accepted): client = accepted
            case .failure(let error):
                // EMFILE and friends: back off briefly instead of spinning.
                if error != .wouldBlock, error != .connectionAbort { usleep(100_000) }
                continue
            }
            UnixSocket.setCloseOnExec(client)
            if let failure = admit(client) {
                // The reason, without blocking this thread; then only reads until the peer closes.
                _ = UnixSocket.sendAll(client, ControlMessage.stamped(ControlMessage.reply(failure)), nonBlocking: true)
                shutdown(client, Int32(SHUT_WR))
                refused.append((client, now + .seconds(Self.refusalSeconds)))
            }
        }
        for entry in refused { close(entry.fd) }
        lock.withLock {
            close(listener)
            listener = -1
        }
    }

    /// How long a refused peer may take to read why before its connection is closed.
    static let refusalSeconds: Int64 = 1

    /// Serves `fd` on a thread of its own, or says why not (the caller tells the peer).
    private func admit(_ fd: Int32) -> ControlProtocol.Failure? {
        guard let uid = UnixSocket.peerUID(fd), uid == getuid() else {
            // Another user reached the socket (its permissions were loosened): refuse and say why.
            logger.warning("refused a control connection from another user")
            return ControlProtocol.Failure(code: ControlMessage.Code.forbidden, message: "this agent serves only the user who started it")
        }
        let connection = Connection(fd: fd)
        let admitted = lock.withLock { () -> Bool in
            let asking = connections.values.filter { $0.subscribed == nil }.count
            guard !stopped, asking < Self.maximumConnections,
                  connections.count < Self.maximumConnections + Self.maximumFollowers else { return false }
            connections[fd] = connection
            return true
        }
        guard admitted else {
            return ControlProtocol.Failure(code: ControlMessage.Code.busy, message: "too many open connections to the agent")
        }
        // A reply that cannot be delivered within this time means a stuck client: give up on it.
        UnixSocket.setTimeout(fd, option: SO_SNDTIMEO, seconds: 10)
        UnixSocket.setTimeout(fd, option: SO_RCVTIMEO, seconds: Self.idleSeconds)
        let thread = Thread { [self] in serve(connection) }
        thread.name = "deskdays-client"
        thread.start()
        return nil
    }

    // MARK: - One connection

    private func serve(_ connection: Connection) {
        var splitter = LineSplitter(limit: ControlMessage.maximumRequestLength)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        reading: while true {
            let count: Int
            switch buffer.withUnsafeMutableBytes({ Syscall.read(connection.fd, into: $0) }) {
            case .success(let read): count = read
            case .failure(.wouldBlock):
                logger.debug("closed a control connection idle for \(Self.idleSeconds) s")
                break reading
            case .failure: break reading
            }
            if count == 0 { break }
            for piece in splitter.append(buffer[0..<count]) {
                let reply: WireObject?
                switch piece {
                case .tooLong:
                    reply = ControlMessage.reply(ControlProtocol.Failure(
                        code: ControlMessage.Code.tooLong, message: "request longer than \(ControlMessage.maximumRequestLength) bytes"))
                case .line(let line):
                    reply = answer(line, on: connection)
                }
                if let reply, !connection.send(ControlMessage.stamped(reply)) { break reading }
            }
        }
        lock.withLock { _ = connections.removeValue(forKey: connection.fd) }
        _ = connection.writeLock.withLock { close(connection.fd) }
    }

    /// The reply to one line (nil for a blank line, and for a subscription: its first reply is sent by `subscribe`).
    private func answer(_ line: [UInt8], on connection: Connection) -> WireObject? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        switch ControlProtocol.parse(line) {
        case .failure(let failure):
            logger.info("bad control request: \(failure.message)")
            return ControlMessage.reply(failure)
        case .success(let envelope):
            if let refused = refusal(envelope) { return refused }
            if case .subscribe(let format) = envelope.request {
                subscribe(connection, to: format)
                return nil
            }
            return immediate(envelope) ?? runHandler(envelope)
        }
    }

    /// Makes `connection` a subscriber and sends it the line of now, under
    /// its write lock: no push comes before that line, none is lost
    /// between, and one of the same bytes is not sent again. A subscriber
    /// only listens: it is no longer timed out (and wakes nothing while idle).
    private func subscribe(_ connection: Connection, to format: StatusFormat) {
        UnixSocket.setTimeout(connection.fd, option: SO_RCVTIMEO, seconds: 0)
        connection.writeLock.lock()
        defer { connection.writeLock.unlock() }
        lock.withLock { connection.subscribed = format }
        let first = ControlMessage.stamped(summary(format))
        connection.lastStatus = first
        _ = UnixSocket.sendAll(connection.fd, first, nonBlocking: false)
    }

    /// Waits, on this connection's own thread, for the async handler.
    private func runHandler(_ envelope: ControlProtocol.Envelope) -> WireObject {
        final class Box: @unchecked Sendable { var reply = WireObject() }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let handler = self.handler
        Task {
            box.reply = await handler(envelope)
            done.signal()
        }
        done.wait()
        return box.reply
    }
}
