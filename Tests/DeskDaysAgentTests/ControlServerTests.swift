@testable import AgentSocket
@testable import DeskDaysAgent
import DeskDaysControl
import DeskDaysCore
import Foundation
import Logging
import Synchronization
import Testing
import Spawn
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The control socket's server in process (docs/design.md "The agent is the
/// cache"): one loop thread serves every connection, a slow write holds only
/// its own connection, a follower that stops reading is dropped without
/// holding anyone, a half-closed client gets its reply, a reload is told to
/// followers. Every wait is for an event, with a stated reason.
@Suite struct ControlServerTests {
    /// A server whose `status` answers "status N" (N its calls), whose
    /// follower line is `line` of `size` bytes, and whose writes wait for `gate`.
    final class Rig: Sendable {
        let folder: URL
        let server: ControlServer
        let gate = Gate()
        let pushed = Counter()
        /// Writes the handler has answered.
        let answered = Counter()
        let size: Int

        init(followerLineSize size: Int = 16, clock: AgentClock = .system) throws {
            self.size = size
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("control-\(UUID().uuidString.prefix(8))")
            let path = folder.appendingPathComponent("run/agent.sock").path
            let statuses = Counter()
            let pushed = self.pushed
            let gate = self.gate
            server = ControlServer(path: path, logger: Logger(label: "test"), elapsed: clock.elapsed, summary: { _ in
                let number = pushed.value
                return WireObject([.ok: .bool(true), .output: .string("push \(number) " + String(repeating: "x", count: size))])
            }, immediate: { envelope in
                guard case .status = envelope.request else { return nil }
                let number = statuses.next()
                return WireObject([.ok: .bool(true), .output: .string("status \(number)")])
            }, handler: { [answered] _ in
                await gate.pass()
                _ = answered.next()
                return WireObject([.ok: .bool(true)])
            })
            try server.start()
        }

        var path: String { server.path }

        /// A new push: the summary changes, followers get it.
        func push() {
            _ = pushed.next()
            server.publish()
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func next() -> Int { count.withLock { $0 += 1; return $0 } }
    }

    /// Holds writes until opened; says when one is waiting.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiting: Int, waiters: [CheckedContinuation<Void, Never>])>((false, 0, []))

        func pass() async {
            await withCheckedContinuation { continuation in
                let resume = state.withLock { state -> Bool in
                    state.waiting += 1
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if resume { continuation.resume() }
            }
        }

        var waiting: Int { state.withLock { $0.waiting } }

        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// A blocking line client with a receive timeout (a failure guard, not a wait for nothing).
    final class Client {
        let fd: Int32
        private var buffer: [UInt8] = []

        init(_ path: String, timeout: Int = 60) throws {
            fd = try UnixSocket.connect(to: path)
            UnixSocket.setTimeout(fd, option: SO_RCVTIMEO, seconds: timeout)
        }

        deinit { close(fd) }

        @discardableResult
        func send(_ line: String) -> Bool { UnixSocket.sendAll(fd, Array((line + "\n").utf8)) }

        /// The next line, or nil at the end of the connection (or the guard's timeout).
        func line() -> String? {
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    defer { buffer.removeFirst(newline + 1) }
                    return String(decoding: buffer[..<newline], as: UTF8.self)
                }
                let count = read(fd, &chunk, chunk.count)
                if count <= 0 { return nil }
                buffer += chunk[..<count]
            }
        }

        /// The next `count` replies (`answer`), read on a thread of its own,
        /// off Swift's concurrency pool, which the server's tasks need.
        func answers(_ count: Int) async -> [String?] {
            // The caller waits meanwhile: the thread is the client's only user.
            nonisolated(unsafe) let client = self
            return await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: (0..<count).map { _ in client.answer() }) }.start()
            }
        }

        /// The reply's `output`, or its `code` for an error.
        func answer() -> String? {
            guard let line = line(), let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (object["output"] as? String) ?? (object["code"] as? String) ?? ((object["ok"] as? Bool) == true ? "ok" : nil)
        }
    }

    /// The threads of this process now.
    static func threads() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
    }

    @Test func hundredsOfConnectionsShareOneThread() throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        try #require(limit.rlim_max >= 4096, "needs 4096 descriptors (ulimit -Hn is \(limit.rlim_max))")
        if limit.rlim_cur < 4096 {
            limit.rlim_cur = 4096
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        let rig = try Rig()
        let before = Self.threads()
        // 256 followers, each subscribing as it connects (until it has, a connection counts as an asker).
        let followers = try (0..<ControlServer.maximumFollowers).map { _ in
            let follower = try Client(rig.path)
            follower.send(#"{"cmd":"subscribe"}"#)
            #expect(follower.answer()?.hasPrefix("push 0") == true)
            return follower
        }
        // 44 idle askers and 20 that pipeline 5 status requests each: 100 requests at once.
        let idle = try (0..<44).map { _ in try Client(rig.path) }
        let askers = try (0..<20).map { _ in try Client(rig.path) }
        for asker in askers { asker.send(Array(repeating: #"{"cmd":"status"}"#, count: 5).joined(separator: "\n")) }
        var answered = 0
        for asker in askers {
            let numbers = (0..<5).compactMap { _ in asker.answer() }.compactMap { Int($0.dropFirst("status ".count)) }
            // One connection's requests are answered in the order sent.
            #expect(numbers.count == 5 && numbers == numbers.sorted())
            answered += numbers.count
        }
        #expect(answered == 100)
        // No thread per connection: 320 connections add far fewer threads than
        // that (other suites running beside this one may add some of their own).
        let connected = Self.threads()
        #expect(connected - before < 150, "\(connected - before) more threads for \(followers.count + idle.count + askers.count) connections")
        // A thousand more attempts: each is answered or refused in one line, none gets a thread.
        var busy = 0
        for _ in 0..<1000 {
            let client = try Client(rig.path)
            client.send(#"{"cmd":"status"}"#)
            let answer = client.answer()
            #expect(answer?.hasPrefix("status") == true || answer == ControlMessage.Code.busy, "\(answer ?? "nothing")")
            if answer == ControlMessage.Code.busy { busy += 1 }
        }
        #expect(Self.threads() - before < 150)
        // Every follower still follows.
        rig.push()
        for follower in followers { #expect(follower.answer()?.hasPrefix("push 1") == true) }
        print("control server: \(followers.count) followers, \(idle.count + askers.count) askers, 1000 attempts (\(busy) refused as busy), \(connected - before) more threads")
    }

    @Test func aWriteHoldsOnlyItsOwnConnection() async throws {
        let rig = try Rig()
        let writer = try Client(rig.path)
        writer.send(#"{"cmd":"checkin","date":"2026-11-18"}"# + "\n" + #"{"cmd":"status"}"#)
        await eventually("the write waits at the gate") { rig.gate.waiting == 1 }
        // Another client is answered while the write waits.
        let other = try Client(rig.path)
        other.send(#"{"cmd":"status"}"#)
        #expect(other.answer() == "status 1")
        rig.gate.open()
        // The writer's replies come in the order of its requests. Read on a
        // thread of their own: the write's reply is sent by a task, and a
        // blocking read here would hold one of the few threads that task
        // needs (others' tests holding the rest, it would wait for a timeout).
        #expect(await writer.answers(2) == ["ok", "status 2"])
    }

    /// After a reload, or once the agent went away, a follower waits past
    /// whatever is on the path and is not yet a trusted agent (a socket whose
    /// mode or owner is still being set, one it cannot reach) and follows the
    /// next agent: it never ends there, and never sends to it.
    @Test func aFollowerWaitsPastASocketNotYetTrusted() throws {
        let rig = try Rig()
        for wait in [ControlConnection.reconnect, ControlConnection.returned] {
            var attempts = 0
            let outcome = wait(rig.path) { path in
                attempts += 1
                switch attempts {
                case 1: return .untrusted("the socket's mode is 0666")
                case 2: return .failed("cannot reach the agent: permission denied")
                default: return ControlConnection.connect(path: path, waiting: .follow)
                }
            }
            guard case .connected = outcome else {
                Issue.record("the follower stopped at \(outcome) after \(attempts) attempts")
                continue
            }
            #expect(attempts == 3)
        }
    }

    @Test func aFollowerThatStopsReadingIsDroppedAndHoldsNoOne() throws {
        // Lines of 64 KiB: a few fill the socket's buffer and the server's backlog.
        let rig = try Rig(followerLineSize: 64 * 1024)
        let stuck = try Client(rig.path)
        let reading = try Client(rig.path)
        stuck.send(#"{"cmd":"subscribe"}"#)
        reading.send(#"{"cmd":"subscribe"}"#)
        #expect(reading.answer()?.hasPrefix("push 0") == true)
        for round in 1...12 {
            rig.push()
            #expect(reading.answer()?.hasPrefix("push \(round) ") == true, "round \(round)")
        }
        // The stuck one was dropped: reading now, it finds the end before the twelfth push.
        var lines: [String] = []
        while let line = stuck.line() { lines.append(line) }
        #expect(!lines.isEmpty && lines.count < 13, "\(lines.count) lines before the end")
        let asker = try Client(rig.path)
        asker.send(#"{"cmd":"status"}"#)
        #expect(asker.answer() == "status 1")
    }

    /// A client that leaves while its write is answered keeps its descriptor
    /// open in the server until the answer is back: the reply, which the
    /// answering side sends itself, never reaches a newer client handed the
    /// same descriptor number.
    @Test func aLeavingClientsReplyReachesNoOneElse() async throws {
        let rig = try Rig()
        var leaving: Client? = try Client(rig.path)
        leaving?.send(#"{"cmd":"checkin","date":"2026-11-18"}"#)
        await eventually("the write waits at the gate") { rig.gate.waiting == 1 }
        leaving = nil
        // Clients connected after the hang-up: one of them would get the
        // leaver's number, were it closed (the lowest free one). The loop
        // has seen the hang-up by the time it answers the first.
        let clients = try (0..<2).map { _ in try Client(rig.path) }
        for (index, client) in clients.enumerated() {
            client.send(#"{"cmd":"status"}"#)
            #expect(client.answer() == "status \(index + 1)")
        }
        rig.gate.open()
        await eventually("the write has been answered") { rig.answered.value == 1 }
        for (index, client) in clients.enumerated() {
            client.send(#"{"cmd":"status"}"#)
            #expect(client.answer() == "status \(index + 3)", "the leaver's reply went to client \(index)")
        }
    }

    @Test func aHalfClosedClientGetsItsReply() throws {
        let rig = try Rig()
        let client = try Client(rig.path)
        client.send(#"{"cmd":"status"}"#)
        shutdown(client.fd, Int32(SHUT_WR))
        #expect(client.answer() == "status 1")
        #expect(client.line() == nil, "then the connection ends")
    }

    @Test func aReloadIsToldToFollowers() throws {
        let rig = try Rig()
        let follower = try Client(rig.path)
        follower.send(#"{"cmd":"subscribe"}"#)
        #expect(follower.answer()?.hasPrefix("push 0") == true)
        rig.server.stop(reloading: true)
        let line = try #require(follower.line())
        #expect(line.contains("\"reloading\":true"), "\(line)")
        #expect(follower.line() == nil)
        #expect(!FileManager.default.fileExists(atPath: rig.path))
    }

    /// The server's deadlines are read on the agent's clock: under a manual
    /// clock a client that sends nothing stays open however long the machine
    /// takes, and is closed as idle once the clock is moved past
    /// `idleSeconds` (each turn of the loop is caused by an asker's request,
    /// whose reply says the loop has checked the deadlines).
    @Test func idleDeadlinesFollowTheAgentsClock() throws {
        let clock = AgentClock.manual(start: Date(timeIntervalSince1970: 1_790_000_000))
        let rig = try Rig(clock: clock)
        let quiet = try Client(rig.path)
        let asker = try Client(rig.path)
        asker.send(#"{"version":1,"cmd":"status","format":"text"}"#)
        #expect(asker.answer() == "status 1")
        // The loop has turned since the quiet client connected: it is still open (nothing to read, no end).
        var byte: UInt8 = 0
        #expect(recv(quiet.fd, &byte, 1, Int32(MSG_DONTWAIT)) == -1 && errno == EAGAIN, "closed before the clock moved")
        clock.advance!(.seconds(ControlServer.idleSeconds + 1))
        asker.send(#"{"version":1,"cmd":"status","format":"text"}"#)
        // The asker's own idle time is past too: its request counts as activity first, so it is answered.
        #expect(asker.answer() == "status 2")
        // Closed at that turn: the end of the stream, well before the real idle time (the guard is 2 s).
        UnixSocket.setTimeout(quiet.fd, option: SO_RCVTIMEO, seconds: 2)
        #expect(read(quiet.fd, &byte, 1) == 0, "the quiet client is closed once the clock passed the idle time")
    }
}
