import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Clients that hold the agent's socket without asking anything: a stopped
/// agent's full queue does not hang the next agent's start, and clients
/// trickling bytes without ever ending a request do not keep the slots.
struct AgentSlotsTests {
    /// A non-blocking connection to `path`; nil when the listener's queue is full (EAGAIN).
    static func connectWithoutWaiting(_ path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if result == 0 { return fd }
        close(fd)
        return nil
    }

    /// The first agent stopped (SIGSTOP) with its queue full: a second agent
    /// on the same socket ends with status 1 in one sentence instead of
    /// waiting for ever in `connect`, whether it shares the database or not.
    @Test func aStoppedAgentsFullQueueDoesNotHangTheNextStart() async throws {
        let cli = try CLIRunner(), other = try CLIRunner()
        defer { cli.cleanup(); other.cleanup() }
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        agent.child.signal(SIGSTOP)
        defer { agent.child.signal(SIGCONT) }
        var queued: [Int32] = []
        defer { queued.forEach { close($0) } }
        while queued.count < 1000, let fd = Self.connectWithoutWaiting(agent.socket) { queued.append(fd) }
        #expect(queued.count < 1000, "the queue never filled")
        for runner in [cli, other] {
            let second = try await Child.start(CLIRunner.binary, ["agent", "--config", runner.config, "--database", runner.database,
                                                                  "--socket", agent.socket],
                                               environment: ProcessInfo.processInfo.environment.merging(
                                                   ["DESKDAYS_NOW": AgentProcess.fixedNow, "DBUS_SESSION_BUS_ADDRESS": ""]) { $1 },
                                               stdout: .file(runner.folder.path + "/second.log"), stderr: .file(runner.folder.path + "/second.log"))
            // (A guard against the hang, not a measurement.)
            let status = await second.wait(seconds: 60)
            if status == nil { second.signal(SIGKILL) }
            let log = (try? String(contentsOfFile: runner.folder.path + "/second.log", encoding: .utf8)) ?? ""
            #expect(status == 1 && log.contains("another deskdays agent"), "\(String(describing: status)): \(log)")
        }
        #expect(FileManager.default.fileExists(atPath: agent.socket), "the stopped agent's socket is not taken from it")
    }

    /// 64 clients each sending a byte now and then, never a whole line: the
    /// agent closes them as idle, and a real request is answered.
    @Test func clientsTricklingBytesDoNotHoldEverySlot() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        var slow: [Int32] = []
        defer { slow.forEach { close($0) } }
        for _ in 0..<64 {
            guard let fd = Self.connectWithoutWaiting(agent.socket) else { break }
            slow.append(fd)
        }
        try #require(slow.count == 64)
        // Each keeps trickling until the agent has closed it (its send fails, or a read sees the end).
        // (A byte every 25th look, about twice a second: more often than the agent's idle time.)
        var open = Set(slow), looks = 0
        let closed = await eventually("the agent to close 64 clients that never end a line") {
            looks += 1
            for fd in open {
                var byte = UInt8(ascii: " ")
                let sent = looks % 25 == 1 ? send(fd, &byte, 1, Int32(MSG_NOSIGNAL)) : 1
                var reply = [UInt8](repeating: 0, count: 256)
                let read = recv(fd, &reply, reply.count, Int32(MSG_DONTWAIT))
                if sent < 0 || read == 0 { open.remove(fd) }
            }
            return open.isEmpty
        }
        #expect(closed, "\(open.count) still open")
        let status = try await cli.run(["status", "--format", "json", "--socket", agent.socket],
                                       environment: ["DESKDAYS_LOG": "info", "DESKDAYS_NOW": ""])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(await agent.stop() == 0)
    }
}
