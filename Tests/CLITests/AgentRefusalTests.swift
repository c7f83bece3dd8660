import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The agent refuses, in one line, to start where it could not do its job:
/// on a database it cannot write (every tap would be lost), or beside an
/// agent already serving the socket; and a closed output pipe never kills it.
@Suite(.serialized) struct AgentRefusalTests {
    /// Runs `deskdays agent` to its end (it must end by itself); its exit status
    /// (a signal's number if one ended it: SIGILL 4, SIGPIPE 13) and stderr.
    func runAgent(_ cli: CLIRunner, socket: String, closedStderr: Bool = false) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLIRunner.binary)
        process.arguments = ["agent", "--config", cli.config, "--database", cli.database, "--socket", socket]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = cli.folder.path
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardOutput = err
        if closedStderr { try err.fileHandleForReading.close() }
        try process.spawn()
        let text = closedStderr ? "" : String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitForExit()
        return (process.exitStatus, text)
    }

    @Test(.enabled(if: getuid() == 0 && toolExists("mount"), "needs root to mount a read-only tmpfs"))
    func aDatabaseItCannotWriteIsRefusedAtStart() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let mountPoint = cli.folder.appendingPathComponent("data").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        #expect(try runTool(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint]).status == 0)
        defer { _ = try? runTool(["umount", mountPoint]) }
        #expect(try cli.run(["checkin", "--date", "2026-11-16"]).status == 0)
        #expect(try runTool(["mount", "-o", "remount,ro", mountPoint]).status == 0)
        let result = try runAgent(cli, socket: cli.folder.appendingPathComponent("run/agent.sock").path)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("cannot be written"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        let checkin = try cli.run(["checkin", "--date", "2026-11-17"])
        BadInputTests.expectOneLine(checkin, code: 2, mentions: "cannot be written")
    }

    @Test func aSecondAgentSaysSoInOneLineAndSurvivesAClosedPipe() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try AgentProcess(cli)
        defer { agent.kill9() }
        let second = try runAgent(cli, socket: agent.socket)
        #expect(second.status == 1, "\(second)")
        #expect(second.stderr.contains("already running") && second.stderr.split(separator: "\n").count == 1, "\(second.stderr)")
        let deaf = try runAgent(cli, socket: agent.socket, closedStderr: true)
        #expect(deaf.status == 1, "a closed output pipe: \(deaf)")
        #expect(agent.stop() == 0, "the first agent is unaffected")
    }

    /// 200 connections that send nothing never block a write: eight writers
    /// at once all succeed (through the agent, or directly once it is full),
    /// and the idle connections are closed by the agent.
    @Test func idleConnectionsNeverBlockAWrite() throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try AgentProcess(cli, environment: ["DESKDAYS_LOG": "debug"])
        defer { agent.kill9() }
        let idle = (0..<200).compactMap { _ in try? TestSocketClient(path: agent.socket) }
        #expect(idle.count == 200)
        let dates = (0..<8).map { String(format: "2026-03-%02d", 2 + $0 + ($0 >= 5 ? 2 : 0)) }
        let results = Locked<[CLIRunner.Result]>([])
        let socket = agent.socket
        DispatchQueue.concurrentPerform(iterations: dates.count) { index in
            if let result = try? cli.run(["checkin", "--date", dates[index], "--status", "office", "--socket", socket]) {
                results.withLock { $0.append(result) }
            }
        }
        #expect(results.withLock { $0.count } == 8)
        for result in results.withLock({ $0 }) {
            #expect(result.status == 0, "\(result.stderr)")
        }
        let days = try cli.run(["days", "--json", "--from", "2026-03-01", "--to", "2026-03-31"])
        for date in dates { #expect(days.stdout.contains(date), "\(date) stored") }
        #expect(agent.waitForLog("closed a control connection idle"), "the idle connections are closed")
        _ = idle
        #expect(agent.stop() == 0)
    }
}

/// A value behind a lock, for results gathered on several threads.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}
