import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An agent of another control-protocol version (one from before versions
/// sends none; a newer one refuses the request): the CLI and the launcher say
/// so in one sentence and do the work themselves, as with no agent.
@Suite struct ProtocolVersionTests {
    /// A listener of this user's, in a private folder, that reads one request and answers `reply`.
    final class OtherAgent {
        let process: Child
        let socket: String
        let folder: String
        /// How many connections it has accepted so far.
        var connections: Int {
            ((try? String(contentsOfFile: folder + "/connections", encoding: .utf8)) ?? "").filter { $0 == "\n" }.count
        }
        /// In a folder of its own, or where `$XDG_RUNTIME_DIR` = `runtime` puts the agent's socket.
        init(_ cli: CLIRunner, reply: String, runtime: String? = nil) async throws {
            if let runtime {
                mkdir(runtime, 0o700)
                folder = runtime + "/deskdays"
            } else {
                folder = cli.folder.appendingPathComponent("run-\(UUID().uuidString.prefix(6))").path
            }
            mkdir(folder, 0o700)
            socket = folder + "/agent.sock"
            try (reply + "\n").write(toFile: folder + "/reply.json", atomically: true, encoding: .utf8)
            try "#!/bin/sh\necho >> \(folder)/connections\nread request\ncat \(folder)/reply.json\n".write(toFile: folder + "/answer.sh", atomically: true, encoding: .utf8)
            chmod(folder + "/answer.sh", 0o700)
            process = try await Child.start("/usr/bin/env", ["socat", "UNIX-LISTEN:\(socket),fork", "EXEC:\(folder)/answer.sh"],
                                            stdout: .inherit)
            let socket = socket, folder = folder
            // Listening, not only bound (a connection before listen() is refused, as with no agent);
            // and that connection counted before a test counts its own.
            #expect(await eventually("the other agent's socket \(socket) to accept a connection") { (try? TestSocketClient(path: socket)) != nil })
            #expect(await eventually("the other agent to count the connection that found it listening") {
                ((try? String(contentsOfFile: folder + "/connections", encoding: .utf8)) ?? "").contains("\n")
            })
        }
        deinit { process.signal(SIGKILL) }
    }

    static let replies = [
        (#"{"ok":true,"output":"forged\n","dates":["2026-11-16"],"status":"office","removed":[]}"#, "control protocol 0"),
        (#"{"ok":false,"code":"version","version":2,"error":"this agent speaks version 2 of the control protocol, not 1"}"#,
         "control protocol 2"),
    ]

    @Test(.enabled(if: toolExists("socat"), "needs socat to stand in for an agent of another version"), arguments: [0, 1])
    func anotherVersionIsNotUsedAndSaysSoOnce(_ index: Int) async throws {
        let (reply, words) = Self.replies[index]
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await OtherAgent(cli, reply: reply)
        // A write is made here, once (and the database with it).
        let checkin = try await cli.run(["checkin", "--date", "2026-11-16", "--status", "remote", "--socket", agent.socket])
        #expect(checkin.status == 0 && checkin.stderr.contains(words), "\(checkin.stderr)")
        let days = try await cli.run(["days", "--json", "--from", "2026-11-16", "--to", "2026-11-16"])
        #expect(days.stdout.contains("\"remote\""), "\(days.stdout)")
        // The launcher asks, hands over to deskdays-cli, which asks, says why once, and computes.
        let status = try await cli.run(["status", "--format", "json", "--socket", agent.socket])
        #expect(status.status == 0 && status.stdout.contains("\"required\"") && !status.stdout.contains("forged"), "\(status.stdout)")
        #expect(status.stderr.contains(words) && status.stderr.contains("systemctl --user restart deskdays"), "\(status.stderr)")
        #expect(status.stderr.split(separator: "\n").count == 1, "one sentence: \(status.stderr)")
        // A follower cannot fall back: one sentence, exit 1.
        let follow = try await cli.run(["status", "--follow", "--socket", agent.socket])
        #expect(follow.status == 1 && follow.stdout.isEmpty && follow.stderr.contains(words), "\(follow.stderr)")
        #expect(follow.stderr.split(separator: "\n").count == 1, "one sentence: \(follow.stderr)")
    }
}
