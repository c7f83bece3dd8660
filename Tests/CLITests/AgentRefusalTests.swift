import Foundation
import Spawn
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
    func runAgent(_ cli: CLIRunner, socket: String, closedStderr: Bool = false) async throws -> (status: Int32, stderr: String) {
        let arguments = ["agent", "--config", cli.config, "--database", cli.database, "--socket", socket]
        let home: [String: String?] = ["HOME": cli.folder.path]
        guard closedStderr else {
            let output = try await Program.run(CLIRunner.binary, arguments, overrides: home)
            return (output.status, output.stdout + output.stderr)
        }
        // Spawn hands out no pipe: perl (Essential on Debian, SIGPIPE left as it was)
        // makes one, closes its reading end and becomes the agent with both outputs on it.
        let closed = #"pipe(R, W) or die; close R; open STDOUT, ">&W"; open STDERR, ">&W"; exec @ARGV or die"#
        let output = try await Program.run("/usr/bin/perl", ["-e", closed, CLIRunner.binary] + arguments, overrides: home)
        return (output.status, "")
    }

    @Test(.enabled(if: getuid() == 0 && toolExists("mount"), "needs root to mount a read-only tmpfs"))
    func aDatabaseItCannotWriteIsRefusedAtStart() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let mountPoint = cli.folder.appendingPathComponent("data").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        #expect(try await runTool(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint]).status == 0)
        try await withCleanup({
            #expect(try await cli.run(["checkin", "--date", "2026-11-16"]).status == 0)
            #expect(try await runTool(["mount", "-o", "remount,ro", mountPoint]).status == 0)
            let result = try await runAgent(cli, socket: cli.folder.appendingPathComponent("run/agent.sock").path)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("cannot be written"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            let checkin = try await cli.run(["checkin", "--date", "2026-11-17"])
            BadInputTests.expectOneLine(checkin, code: 2, mentions: "cannot be written")
        }, cleanup: { _ = try? await runTool(["umount", mountPoint]) })
    }

    @Test func aSecondAgentSaysSoInOneLineAndSurvivesAClosedPipe() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let second = try await runAgent(cli, socket: agent.socket)
        #expect(second.status == 1, "\(second)")
        #expect(second.stderr.contains("already running") && second.stderr.split(separator: "\n").count == 1, "\(second.stderr)")
        let deaf = try await runAgent(cli, socket: agent.socket, closedStderr: true)
        #expect(deaf.status == 1, "a closed output pipe: \(deaf)")
        #expect(await agent.stop() == 0, "the first agent is unaffected")
    }

    /// 200 connections that send nothing never block a write: eight writers
    /// at once all succeed (through the agent, or directly once it is full),
    /// and the idle connections are closed by the agent.
    @Test func idleConnectionsNeverBlockAWrite() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await AgentProcess(cli, environment: ["DESKDAYS_LOG": "debug"])
        defer { agent.kill9() }
        let idle = (0..<200).compactMap { _ in try? TestSocketClient(path: agent.socket) }
        #expect(idle.count == 200)
        let dates = (0..<8).map { String(format: "2026-03-%02d", 2 + $0 + ($0 >= 5 ? 2 : 0)) }
        let socket = agent.socket
        let results = await withTaskGroup(of: CLIRunner.Result?.self) { group in
            for date in dates {
                group.addTask { try? await cli.run(["checkin", "--date", date, "--status", "office", "--socket", socket]) }
            }
            return await group.reduce(into: [CLIRunner.Result]()) { all, result in if let result { all.append(result) } }
        }
        #expect(results.count == 8)
        for result in results {
            #expect(result.status == 0, "\(result.stderr)")
        }
        let days = try await cli.run(["days", "--json", "--from", "2026-03-01", "--to", "2026-03-31"])
        for date in dates { #expect(days.stdout.contains(date), "\(date) stored") }
        #expect(await agent.waitForLog("closed a control connection idle"), "the idle connections are closed")
        _ = idle
        #expect(await agent.stop() == 0)
    }
}
