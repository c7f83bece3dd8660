import Syscall
import Localization
import AgentSocket
import DeskDaysControl
import DeviceThread
import DeskDaysCore
import Foundation
import Logging
import Synchronization
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
///
/// One thread serves every connection: a `poll` loop over non-blocking
/// sockets (as pcscd's and gpsd's do), so a thousand idle clients cost
/// descriptors, not threads. The loop only moves bytes; answering is done
/// elsewhere, one request at a time per connection: `status` and `report`
/// on one answering queue (never waiting for a task of the cooperative pool
/// under a burst of writes), writes by the async `handler`. When nothing
/// else is queued for the connection, the answering side sends the reply
/// itself (the status bar's answer does not wait for the loop to wake); the
/// loop lends it the descriptor and closes it only once the answer is
/// handed back. A reply or push
/// a client does not take is buffered; a client that leaves it there for
/// `sendSeconds` (or a follower that falls `followerBacklog` bytes behind)
/// is dropped. Bad input gets an error reply and never ends the agent.
public final class ControlServer: Sendable {
    /// What the server needs from the agent.
    public typealias Handler = @Sendable (ControlProtocol.Envelope) async -> WireObject

    public let path: String
    private let handler: Handler
    /// Answers a request without the async handler when it can (the status
    /// and the report, read from the current answer); nil: the handler answers.
    private let immediate: @Sendable (ControlProtocol.Envelope) -> WireObject?
    /// Why this agent's answer is not the sender's (another database,
    /// configuration, clock or language), as the reply; nil when it is.
    private let refusal: @Sendable (ControlProtocol.Envelope) -> WireObject?
    private let summary: @Sendable (StatusFormat) -> WireObject
    private let logger: Logger
    /// The agent's clock (`AgentClock.elapsed`): every deadline here (idle,
    /// send, refusal) is read on it, so a manual clock drives them in tests.
    private let elapsed: @Sendable () -> Duration
    /// Where `status`, `report` and a follower's first line are worked out, one at a time, off the loop.
    private let answering = DispatchQueue(label: "deskdays-control-answers")

    /// What the loop shares with the answering side, `publish` and `stop`
    /// (connections themselves are the loop's own, local to it).
    private struct Shared {
        var listener: Int32 = -1
        var stopped = false
        var reloading = false
        var running = false
        /// Replies and first lines worked out for the loop to send, by connection id.
        var finished: [(id: UInt64, outcome: Outcome)] = []
        /// The latest line pushed per format, with its number (`publish`).
        var pushed: [StatusFormat: (number: Int, line: [UInt8])] = [:]
        var pushes = 0
        /// The formats followers follow (kept by the loop, read by `publish`),
        /// and those of subscriptions whose first line is being worked out.
        var followedFormats: [StatusFormat] = []
        var subscribing: [StatusFormat: Int] = [:]
    }

    private let shared = Mutex(Shared())
    /// Wakes the loop: work finished, a push, the stop.
    private let wake = WakePipe()
    /// Signalled when the loop has ended (`stop` waits for it, briefly).
    private let ended = DispatchSemaphore(value: 0)

    /// Connections beyond this are refused, so a runaway client cannot use up the agent's descriptors.
    /// Followers (`subscribe`) count apart, up to `maximumFollowers`: status
    /// bars left open never make a command wait or write around the agent.
    static let maximumConnections = 64
    static let maximumFollowers = 256
    /// A connection that sends no complete request for this long is closed
    /// (a subscriber, once subscribed, is never timed out): idle clients,
    /// and clients trickling a request byte by byte, cannot hold the agent's
    /// connection slots.
    static let idleSeconds = 5
    /// A reply not taken within this time means a stuck client: it is dropped.
    static let sendSeconds = 10
    /// A follower this far behind (unread pushes) has stopped reading: it is dropped.
    static let followerBacklog = 64 * 1024
    /// How long a refused peer may take to read why before its connection is closed.
    static let refusalSeconds: Int64 = 1

    /// What the answering side hands back to the loop.
    private enum Outcome {
        case reply([UInt8])
        /// The reply went out on the answering side, whole.
        case sent
        /// A follower's first line, worked out after push number `after`.
        case subscribed(StatusFormat, first: [UInt8], after: Int)
    }

    /// One client, touched only by the loop's thread.
    private final class Connection {
        let fd: Int32
        let id: UInt64
        var splitter = LineSplitter(limit: ControlMessage.maximumRequestLength)
        /// Complete lines not answered yet: one is answered at a time, and
        /// nothing more is read while any wait (the client's own back-pressure).
        var waiting: [LineSplitter.Piece] = []
        var busy = false
        var outbox: [UInt8] = []
        /// When the outbox last became non-empty or shrank (on the agent's clock).
        var sendSince: Duration
        var lastActivity: Duration
        /// The status format this connection follows, once it subscribed.
        var subscribed: StatusFormat?
        /// The last status line it was sent: a follower gets a line when its own line changes.
        var lastStatus: [UInt8]?
        var closing = false
        /// The peer shut its side: served, then closed.
        var peerClosed = false
        init(fd: Int32, id: UInt64, now: Duration) { (self.fd, self.id, sendSince, lastActivity) = (fd, id, now, now) }
    }

    /// - Parameters:
    ///   - handler: answers every request but `subscribe`, after any write it causes is committed.
    ///   - summary: the reply a subscriber gets now and after every change, in its format.
    ///   - refusal: checked before every request, `subscribe` included.
    public init(path: String, logger: Logger, elapsed: @escaping @Sendable () -> Duration = AgentClock.system.elapsed,
                summary: @escaping @Sendable (StatusFormat) -> WireObject,
                refusal: @escaping @Sendable (ControlProtocol.Envelope) -> WireObject? = { _ in nil },
                immediate: @escaping @Sendable (ControlProtocol.Envelope) -> WireObject? = { _ in nil },
                handler: @escaping Handler) {
        self.path = path
        self.elapsed = elapsed
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

    /// Creates the folder (0700) and socket (0600) and starts serving.
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
        guard listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw SetupError(description: tr("cannot listen on \(path): \(String(cString: strerror(code)))"))
        }
        guard wake.descriptor >= 0 else {
            close(fd)
            throw SetupError(description: tr("cannot create a pipe: \(String(cString: strerror(errno)))"))
        }
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        shared.withLock {
            $0.listener = fd
            $0.running = true
        }
        let thread = Thread { [self] in serveLoop() }
        thread.name = "deskdays-control"
        thread.start()
        logger.info("control socket ready", metadata: ["path": "\(path)"])
    }

    /// Stops accepting, closes every connection and removes the socket file.
    /// For a reload (`reloading`), each follower is told so first
    /// (`{"ok":true,"reloading":true}`) and follows
    /// the next agent on this path: a status bar does not go dead on a reload.
    public func stop(reloading: Bool = false) {
        let wasRunning = shared.withLock { shared -> Bool in
            if shared.stopped { return false }
            shared.stopped = true
            shared.reloading = reloading
            return shared.running
        }
        guard wasRunning else { return }
        unlink(path)
        wake.wake()
        // The loop says goodbye to followers (non-blocking sends) and closes everything at its next turn.
        ended.wait()
    }

    /// What a follower gets when the agent reloads (docs/cli.md "The control socket").
    static let reloadingLine = ControlMessage.stamped(WireObject([.ok: .bool(true), .reloading: .bool(true)]))

    /// Sends the summary line to every follower of each format followed; one
    /// that cannot take it is dropped. Called after the answer changed.
    public func publish() {
        let formats = shared.withLock { Set($0.followedFormats).union($0.subscribing.filter { $0.value > 0 }.keys) }
        guard !formats.isEmpty else { return }
        var lines: [StatusFormat: [UInt8]] = [:]
        for format in formats { lines[format] = ControlMessage.stamped(summary(format)) }
        shared.withLock { shared in
            shared.pushes += 1
            for (format, line) in lines { shared.pushed[format] = (shared.pushes, line) }
        }
        wake.wake()
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
        let connected: Int32?
        do {
            connected = try UnixSocket.connect(to: path, timeout: 2)
        } catch let failure as UnixSocket.Failure where failure.code == EAGAIN {
            // Its queue is full: an agent that is stopped or stuck, not one that died.
            throw SetupError(description: tr("another deskdays agent is already running on \(path); stop it first (systemctl --user stop deskdays)"))
        } catch {
            connected = nil
        }
        if let fd = connected {
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

    // MARK: - The loop

    /// Accepts, reads, answers through the answering side and writes, on
    /// one thread, until `stop`.
    private func serveLoop() {
        let fd = shared.withLock { $0.listener }
        var connections: [Int32: Connection] = [:]
        var refused: [(fd: Int32, until: Duration)] = []
        var nextID: UInt64 = 0
        var sentPushes = 0
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)

        func drop(_ connection: Connection, _ why: String? = nil) {
            if let why { logger.info("\(why)") }
            connection.closing = true
        }

        /// Writes what the connection's outbox holds, as far as the socket takes it now.
        func flush(_ connection: Connection) {
            guard !connection.outbox.isEmpty else { return }
            let result = connection.outbox.withUnsafeBytes {
                Syscall.send(connection.fd, $0, flags: Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            switch result {
            case .success(let sent):
                connection.outbox.removeFirst(sent)
                connection.sendSince = elapsed()
                if connection.outbox.isEmpty { connection.lastActivity = connection.sendSince }
            case .failure(let error):
                if error != .wouldBlock { drop(connection) }
            }
        }

        func send(_ line: [UInt8], to connection: Connection) {
            if connection.outbox.isEmpty { connection.sendSince = elapsed() }
            connection.outbox += line
            flush(connection)
        }

        /// Sends a follower a status line unless it is the one it has.
        func push(_ line: [UInt8], to connection: Connection) {
            guard line != connection.lastStatus else { return }
            connection.lastStatus = line
            send(line, to: connection)
            if connection.outbox.count > Self.followerBacklog { drop(connection, "dropped a subscriber that stopped reading") }
        }

        /// Starts answering the connection's next waiting line, if it is free.
        func next(_ connection: Connection) {
            while !connection.busy, !connection.closing, !connection.waiting.isEmpty {
                let piece = connection.waiting.removeFirst()
                switch piece {
                case .tooLong:
                    send(ControlMessage.stamped(ControlMessage.reply(ControlProtocol.Failure(
                        code: ControlMessage.Code.tooLong, message: "request longer than \(ControlMessage.maximumRequestLength) bytes"))), to: connection)
                case .line(let line):
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                    connection.busy = true
                    // Nothing queued before the reply and no pushes to interleave: the answering side may send it.
                    let lend = connection.outbox.isEmpty && connection.subscribed == nil
                    answer(line, id: connection.id, lent: lend ? connection.fd : nil)
                }
            }
        }

        while true {
            let (stopping, saying) = shared.withLock { ($0.stopped, $0.reloading) }
            if stopping {
                for connection in connections.values {
                    if saying, connection.subscribed != nil {
                        _ = UnixSocket.sendAll(connection.fd, connection.outbox + Self.reloadingLine, nonBlocking: true)
                    }
                    close(connection.fd)
                }
                break
            }
            // Finished answers and new pushes, handed over under the lock.
            let (done, latest, pushNumber) = shared.withLock { shared in
                defer { shared.finished.removeAll() }
                return (shared.finished, shared.pushed, shared.pushes)
            }
            let byID = Dictionary(uniqueKeysWithValues: connections.values.map { ($0.id, $0) })
            for (id, outcome) in done {
                guard let connection = byID[id] else {
                    if case .subscribed(let format, _, _) = outcome { shared.withLock { $0.subscribing[format, default: 1] -= 1 } }
                    continue
                }
                connection.busy = false
                switch outcome {
                case .reply(let line):
                    send(line, to: connection)
                case .sent:
                    connection.lastActivity = elapsed()
                case .subscribed(let format, let first, let after):
                    connection.subscribed = format
                    shared.withLock { $0.subscribing[format, default: 1] -= 1 }
                    connection.lastStatus = first
                    send(first, to: connection)
                    // A push made while the first line was worked out: sent after it, when it differs.
                    if let newer = latest[format], newer.number > after { push(newer.line, to: connection) }
                }
                next(connection)
            }
            if pushNumber != sentPushes {
                sentPushes = pushNumber
                for connection in connections.values {
                    if let format = connection.subscribed, let line = latest[format]?.line { push(line, to: connection) }
                }
            }

            // Connections to close: dropped, idle, or not taking what they were sent.
            let now = elapsed()
            for connection in connections.values where !connection.closing {
                if connection.peerClosed, !connection.busy, connection.waiting.isEmpty, connection.outbox.isEmpty {
                    drop(connection)
                } else if !connection.outbox.isEmpty, now - connection.sendSince > .seconds(Self.sendSeconds) {
                    drop(connection, "dropped a control client that took no reply for \(Self.sendSeconds) s")
                } else if connection.subscribed == nil, !connection.busy, connection.waiting.isEmpty, connection.outbox.isEmpty,
                          now - connection.lastActivity > .seconds(Self.idleSeconds) {
                    logger.debug("closed a control connection idle for \(Self.idleSeconds) s")
                    drop(connection)
                }
            }
            // A busy connection's descriptor may be lent to the answering side: it is closed once the answer is back.
            for connection in connections.values where connection.closing && !connection.busy {
                close(connection.fd)
                connections[connection.fd] = nil
            }
            let followed = Array(Set(connections.values.compactMap(\.subscribed)))
            shared.withLock { $0.followedFormats = followed }

            // Wait: the listener, the wake pipe, each connection (reading when free, writing when it has bytes), refused peers.
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)]
            let order = Array(connections.values)
            for connection in order {
                var events: Int16 = 0
                if !connection.busy, connection.waiting.isEmpty, !connection.peerClosed { events |= Int16(POLLIN) }
                if !connection.outbox.isEmpty { events |= Int16(POLLOUT) }
                // A closing connection still answering is left out (poll would report its hang-up at every turn).
                fds.append(pollfd(fd: connection.closing ? -1 : connection.fd, events: events, revents: 0))
            }
            fds += refused.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            var deadlines = refused.map(\.until)
            for connection in order {
                if !connection.outbox.isEmpty {
                    deadlines.append(connection.sendSince + .seconds(Self.sendSeconds))
                } else if connection.subscribed == nil, !connection.busy, connection.waiting.isEmpty {
                    deadlines.append(connection.lastActivity + .seconds(Self.idleSeconds))
                }
            }
            let timeout = deadlines.min().map { deadline -> Int32 in
                let left = (deadline - elapsed()).components
                return Int32(clamping: max(0, left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000 + 1))
            } ?? -1
            if case .failure(let error) = Syscall.poll(&fds, timeout: timeout) {
                logger.error("control socket poll failed: \(error)")
                break
            }
            if fds[1].revents != 0 { wake.drain() }

            // Each connection: write what waits, read what came.
            for (index, connection) in order.enumerated() {
                let revents = fds[2 + index].revents
                if revents & Int16(POLLOUT) != 0 { flush(connection) }
                guard revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, !connection.closing else { continue }
                switch buffer.withUnsafeMutableBytes({ Syscall.recv(connection.fd, into: $0, flags: Int32(MSG_DONTWAIT)) }) {
                case .success(0):
                    // Gone both ways: no one reads a reply. Half-closed (`echo … | socat`):
                    // what it asked is answered, then the connection closes.
                    if revents & Int16(POLLHUP) != 0 { drop(connection) } else { connection.peerClosed = true }
                case .success(let count):
                    // Only a whole request counts as activity: a client trickling
                    // bytes without ever ending a line is idle, and its slot freed.
                    let pieces = connection.splitter.append(buffer[0..<count])
                    if !pieces.isEmpty { connection.lastActivity = elapsed() }
                    connection.waiting += pieces
                    next(connection)
                case .failure(let error):
                    if error != .wouldBlock { drop(connection) }
                }
            }

            // A refused peer that sent more is drained; one that closed (or overstayed) is let go.
            let afterPoll = elapsed()
            refused = zip(refused, fds.dropFirst(2 + order.count)).compactMap { entry, polled in
                var done = afterPoll >= entry.until
                if polled.revents != 0 {
                    switch buffer.withUnsafeMutableBytes({ Syscall.recv(entry.fd, into: $0, flags: Int32(MSG_DONTWAIT)) }) {
                    case .success(let count): if count == 0 { done = true }
                    case .failure(let error): if error != .wouldBlock { done = true }
                    }
                }
                if done { close(entry.fd) }
                return done ? nil : entry
            }

            // New clients, as many as are waiting.
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            while case .success(let client) = Syscall.accept(fd) {
                UnixSocket.setCloseOnExec(client)
                _ = fcntl(client, F_SETFL, O_NONBLOCK)
                let asking = connections.values.filter { $0.subscribed == nil }.count
                if let failure = admission(client, asking: asking, total: connections.count) {
                    // The reason, without blocking; then only reads until the peer closes.
                    _ = UnixSocket.sendAll(client, ControlMessage.stamped(ControlMessage.reply(failure)), nonBlocking: true)
                    shutdown(client, Int32(SHUT_WR))
                    refused.append((client, afterPoll + .seconds(Self.refusalSeconds)))
                    continue
                }
                nextID += 1
                connections[client] = Connection(fd: client, id: nextID, now: afterPoll)
            }
        }
        for entry in refused { close(entry.fd) }
        shared.withLock {
            close($0.listener)
            $0.listener = -1
            $0.running = false
        }
        ended.signal()
    }

    /// Why a new client is not served, or nil: another user, or too many connections.
    private func admission(_ fd: Int32, asking: Int, total: Int) -> ControlProtocol.Failure? {
        guard let uid = UnixSocket.peerUID(fd), uid == getuid() else {
            // Another user reached the socket (its permissions were loosened): refuse and say why.
            logger.warning("refused a control connection from another user")
            return ControlProtocol.Failure(code: ControlMessage.Code.forbidden, message: "this agent serves only the user who started it")
        }
        guard asking < Self.maximumConnections, total < Self.maximumConnections + Self.maximumFollowers else {
            return ControlProtocol.Failure(code: ControlMessage.Code.busy, message: "too many open connections to the agent")
        }
        return nil
    }

    // MARK: - Answering (off the loop)

    /// Works out the reply to one line of connection `id`, off the loop,
    /// and hands it back (a subscription: its first line). With `lent`, the
    /// connection's descriptor, the reply is sent from here when the socket
    /// takes it.
    private func answer(_ line: [UInt8], id: UInt64, lent: Int32?) {
        let envelope: ControlProtocol.Envelope
        switch ControlProtocol.parse(line) {
        case .failure(let failure):
            logger.info("bad control request: \(failure.message)")
            return finish(id, .reply(ControlMessage.stamped(ControlMessage.reply(failure))), lent: lent)
        case .success(let parsed):
            envelope = parsed
        }
        answering.async { [self] in
            if let refused = refusal(envelope) { return finish(id, .reply(ControlMessage.stamped(refused)), lent: lent) }
            if case .subscribe(let format) = envelope.request {
                let after = shared.withLock {
                    $0.subscribing[format, default: 0] += 1
                    return $0.pushes
                }
                return finish(id, .subscribed(format, first: ControlMessage.stamped(summary(format)), after: after))
            }
            if let reply = immediate(envelope) { return finish(id, .reply(ControlMessage.stamped(reply)), lent: lent) }
            let handler = self.handler
            Task { [self] in finish(id, .reply(ControlMessage.stamped(await handler(envelope))), lent: lent) }
        }
    }

    /// Hands an outcome back to the loop; a reply is first sent on `lent`
    /// as far as the socket takes it now (under the lock, so never after
    /// `stop` closed the descriptors), and the loop sends the rest.
    private func finish(_ id: UInt64, _ outcome: Outcome, lent: Int32? = nil) {
        shared.withLock { shared in
            var outcome = outcome
            if let lent, !shared.stopped, case .reply(let line) = outcome,
               case .success(let sent) = line.withUnsafeBytes({ Syscall.send(lent, $0, flags: Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }) {
                outcome = sent == line.count ? .sent : .reply(Array(line[sent...]))
            }
            shared.finished.append((id, outcome))
        }
        wake.wake()
    }
}
