import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The agent's control socket, with the agent as a real process: the
/// protocol, durability of acknowledged check-ins across `kill -9`, the
/// CLI routing its writes through the agent, `status --follow`, and who
/// may connect.
@Suite(.serialized) struct AgentSocketTests {
    // MARK: - Protocol

    @Test func malformedRequestsGetErrorRepliesAndTheAgentCarriesOn() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let client = try TestSocketClient(path: agent.socket)
        let bad: [String] = [
            "not json",
            "[1, 2, 3]",
            "{}",
            #"{"cmd": 42}"#,
            #"{"cmd": "launch"}"#,
            #"{"cmd": "checkin", "date": "2026-02-30"}"#,
            #"{"cmd": "checkin", "status": "partying"}"#,
            #"{"cmd": "checkin", "dates": []}"#,
            #"{"cmd": "clear"}"#,
            #"{"cmd": "event", "source": "manual", "at": "2026-11-18T09:00:00Z"}"#,
            #"{"cmd": "event", "source": "nfc", "at": "yesterday"}"#,
            String(repeating: "[", count: 20_000),
            "{\"cmd\": \"status\"" + String(repeating: " ", count: 70_000) + "}",
            "\u{00}\u{01}\u{FF}garbage\u{07}",
        ]
        for line in bad {
            let reply = try #require(client.request(line), "no reply to \(line.prefix(40))")
            #expect(reply["ok"] as? Bool == false, "\(line.prefix(40)) → \(reply)")
            #expect((reply["error"] as? String)?.isEmpty == false)
        }
        // A line far over the limit with no newline yet is refused once, then the stream resynchronises.
        #expect(client.send(Data(repeating: UInt8(ascii: "x"), count: 200_000)))
        #expect(client.request("")?["code"] as? String == "too_long")
        let status = try #require(client.status(#"{"cmd": "status"}"#))
        #expect(status["today"] as? String != nil && status["remaining_required"] as? Int != nil)
        #expect(agent.isRunning)

        // A request with trailing unknown keys is fine; the reply comes after the commit.
        let checkin = try #require(client.request(#"{"cmd":"checkin","date":"2026-11-18","status":"remote","note":"x","extra":1}"#))
        #expect(checkin["ok"] as? Bool == true)
        let days = try await cli.run(["days", "--json", "--from", "2026-11-18", "--to", "2026-11-18"])
        #expect(days.stdout.contains("\"remote\""))
        #expect(await agent.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: agent.socket), "the socket file is removed on exit")
    }

    /// `hello` says what the agent serves without computing an answer, and
    /// is refused, as `status` is, for another database or configuration.
    @Test func helloNamesWhatTheAgentServes() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = cli.folder.appendingPathComponent("sync").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try cli.writeConfig("[policy]\ntimezone = \"UTC\"\n[sync]\nfolder = \"\(folder)\"\n")
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let hello = try #require(try TestSocketClient(path: agent.socket).request(#"{"cmd":"hello","version":1}"#))
        #expect(hello["ok"] as? Bool == true && hello["output"] == nil, "\(hello)")
        // Its protocol version and the folder it merges: a command with [sync] then leaves the folder to it.
        #expect(hello["version"] as? Int == 1 && hello["sync"] as? String == folder, "\(hello)")
        #expect((hello["database"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } == URL(fileURLWithPath: cli.database).lastPathComponent,
                "\(hello)")
        let other = try #require(try TestSocketClient(path: agent.socket).request(#"{"cmd":"hello","database":"/elsewhere.sqlite"}"#))
        #expect(other["code"] as? String == "other_database", "\(other)")
        let config = try #require(try TestSocketClient(path: agent.socket).request(#"{"cmd":"hello","config":"/elsewhere.toml"}"#))
        #expect(config["code"] as? String == "other_configuration", "\(config)")
        #expect(await agent.stop() == 0)
    }

    @Test func socketAndFolderArePrivate() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        var info = stat()
        #expect(stat(agent.socket, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat((agent.socket as NSString).deletingLastPathComponent, &info) == 0 && info.st_mode & 0o777 == 0o700)
        // A second agent on the same socket refuses to start instead of stealing it.
        let second = try await cli.run(["agent", "--socket", agent.socket])
        #expect(second.status == 1)
        #expect(second.stderr.contains("already running"), "\(second.stderr)")
    }

    /// One agent per database: a second one on another socket (a shell
    /// without XDG_RUNTIME_DIR beside the unit) names the first's process and exits 1.
    @Test func aSecondAgentOnTheSameDatabaseNamesTheFirstAndExits() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let other = cli.folder.appendingPathComponent("other/agent.sock").path
        let log = cli.folder.appendingPathComponent("second.log").path
        let second = try await Child.start(CLIRunner.binary, ["agent", "--config", cli.config, "--database", cli.database, "--socket", other],
                                           environment: ProcessInfo.processInfo.environment.merging(
                                               ["DESKDAYS_NOW": AgentProcess.fixedNow, "DBUS_SESSION_BUS_ADDRESS": ""]) { $1 },
                                           stdout: .file(log), stderr: .file(log))
        // (A guard: an agent that does not refuse runs on, and is stopped here.)
        let status = await second.wait(seconds: 60)
        if status == nil { second.signal(SIGKILL) }
        let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(status == 1, "\(said)")
        let folder = (cli.database as NSString).deletingLastPathComponent
        #expect(said.contains("another deskdays agent (process \(agent.pid)) is already running on the database in \(folder)"), "\(said)")
        #expect(!FileManager.default.fileExists(atPath: other), "the second agent served nothing")
        // The lock goes with its process: once the first stops, the next starts.
        #expect(await agent.stop() == 0)
        let next = try await AgentProcess(cli, socket: other)
        defer { next.kill9() }
        #expect(await next.stop() == 0)
    }

    // MARK: - Durability

    /// Kill -9 in the middle of a burst of socket check-ins, twenty times:
    /// every acknowledged check-in is stored and the database is intact.
    @Test(.enabled(if: toolExists("sqlite3"), "sqlite3 not installed: apt-get install sqlite3"))
    func killNineMidBurstKeepsEveryAcknowledgedCheckIn() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        var acknowledgedTotal = 0, interruptedRounds = 0
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let agent = try await AgentProcess(cli)
            final class Acks: @unchecked Sendable {
                let lock = NSLock()
                var dates: [String] = []
            }
            let acks = Acks()
            let group = DispatchGroup()
            for lane in 0..<2 {
                let socket = agent.socket
                DispatchQueue.global().async(group: group) {
                    guard let client = try? TestSocketClient(path: socket) else { return }
                    for index in 0..<400 {
                        let date = testDate(offset: round * 1000 + lane * 500 + index)
                        guard let reply = client.request(#"{"cmd":"checkin","date":"\#(date)","status":"office"}"#),
                              reply["ok"] as? Bool == true else { return }
                        acks.lock.withLock { acks.dates.append(date) }
                    }
                }
            }
            // The kill lands after a random number of acknowledged check-ins (of up to 800).
            let killAt = Int.random(in: 1...200, using: &generator)
            await eventually("\(killAt) acknowledged check-ins in round \(round)") { acks.lock.withLock { acks.dates.count >= killAt } }
            agent.kill9()
            // Reaped before the next round: a killed agent still tearing down under load
            // would otherwise accept the next round's first connection on its old socket.
            _ = await agent.ended()
            #expect(!agent.isRunning, "round \(round): the killed agent was reaped")
            await withCheckedContinuation { done in group.notify(queue: .global()) { done.resume() } }
            let stored = Set(try await sqlite(cli.database, "SELECT date FROM record WHERE origin = 'manual'")
                .split(whereSeparator: \.isNewline).map(String.init))
            let missing = acks.dates.filter { !stored.contains($0) }
            #expect(missing.isEmpty, "round \(round): acknowledged but not stored: \(missing.prefix(5))")
            #expect(try await sqlite(cli.database, "PRAGMA integrity_check") == "ok\n", "round \(round)")
            acknowledgedTotal += acks.dates.count
            if acks.dates.count < 800 { interruptedRounds += 1 }
        }
        #expect(acknowledgedTotal > 20, "the bursts must actually have been acknowledged")
        #expect(interruptedRounds >= 10, "the kill must land in the middle of most bursts (\(interruptedRounds) of 20)")
        print("kill -9 mid-burst: \(acknowledgedTotal) check-ins acknowledged over 20 rounds, \(interruptedRounds) interrupted; none lost")
        // And the agent starts on the database the kills left behind.
        let agent = try await AgentProcess(cli)
        // Its first answer reads the whole history the rounds left (decades of dates): waited for, not timed.
        let reply = try TestSocketClient(path: agent.socket, timeoutSeconds: 120).request(#"{"cmd":"status"}"#)
        let output = try #require(reply?["output"] as? String, "reply: \(String(describing: reply)); log: \(agent.logText)")
        #expect(output.contains("\"today\""))
        #expect(await agent.stop() == 0)
    }

    // MARK: - The CLI through the agent

    @Test func cliWritesGoThroughTheAgentOnlyForItsOwnDatabase() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let checkin = try await cli.run(["checkin", "--date", "2026-11-18", "--socket", agent.socket])
        #expect(checkin.status == 0, "\(checkin.stderr)")
        #expect(await agent.waitForLog("through the control socket"), "\(agent.logText)")
        let event = try await cli.run(["event", "--source", "nfc", "--at", "2026-03-09T08:00:00Z", "--rule", "desk", "--socket", agent.socket])
        #expect(event.stdout.contains("Stored the check-in (nfc) of 2026-03-09"), "\(event.stdout)\(event.stderr)")
        let again = try await cli.run(["event", "--source", "nfc", "--at", "2026-03-09T09:00:00Z", "--socket", agent.socket])
        #expect(again.stdout.contains("already has a check-in (nfc)"))
        let clear = try await cli.run(["clear", "--date", "2026-11-18", "--socket", agent.socket])
        #expect(clear.stdout.contains("Removed from 2026-11-18: office record."), "\(clear.stdout)\(clear.stderr)")

        // Another database: the agent answers other_database and the CLI writes that file itself.
        let other = cli.folder.appendingPathComponent("other.sqlite").path
        let elsewhere = try await cli.run(["checkin", "--date", "2026-11-20", "--socket", agent.socket, "--config", cli.config,
                                     "--database", other], paths: false)
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
        let inOther = try await cli.run(["days", "--json", "--from", "2026-11-20", "--to", "2026-11-20", "--config", cli.config,
                                   "--database", other], paths: false)
        #expect(inOther.stdout.contains("\"office\""))
        let inAgents = try await cli.run(["days", "--json", "--from", "2026-11-20", "--to", "2026-11-20"])
        #expect(!inAgents.stdout.contains("\"office\""))
    }

    @Test func statusFollowPrintsALineOnEveryChange() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        // A fixed workday, so an office check-in changes the figures whatever the real date.
        let now = ["DESKDAYS_NOW": "2026-11-18T09:00:00Z"]
        let agent = try await AgentProcess(cli, environment: now)
        defer { agent.kill9() }
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        environment["DESKDAYS_NOW"] = now["DESKDAYS_NOW"]
        environment["DESKDAYS_TODAY"] = nil
        let follow = try await Conversation(CLIRunner.binary, ["status", "--follow", "--format", "json", "--socket", agent.socket,
                                                               "--config", cli.config, "--database", cli.database],
                                            environment: environment, in: cli.folder, input: false, stderr: .inherit)
        let first = try #require(await follow.nextLine(), "a line at once on subscribing")
        let before = try #require(JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(try await cli.run(["checkin", "--status", "office", "--socket", agent.socket], environment: now).status == 0)
        let after = try #require(await follow.nextLine(), "a line after the check-in")
        let changed = try #require(JSONSerialization.jsonObject(with: Data(after.utf8)) as? [String: Any])
        #expect((before["office"] as? Int).map { $0 + 1 } == changed["office"] as? Int, "\(first) then \(after)")
        // The agent going away does not end the follow: it waits for the next
        // agent (FollowTests), until it is told to stop.
        #expect(await agent.stop() == 0)
        #expect(follow.child.isRunning)
        follow.child.signal(SIGTERM)
        #expect(await follow.child.wait(seconds: 60) != nil)
    }

    @Test func statusFollowWithoutAnAgentSaysSoInOneSentence() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let result = try await cli.run(["status", "--follow", "--socket", cli.folder.appendingPathComponent("none.sock").path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--follow needs the running agent"))
        #expect(result.stderr.split(whereSeparator: \.isNewline).count == 1)
    }

    // MARK: - Another user

    /// The socket is 0600 in a 0700 folder, and even when those are loosened
    /// the agent checks the peer's uid and refuses another user.
    @Test(.enabled(if: getuid() == 0 && toolExists("useradd") && toolExists("setpriv") && toolExists("socat"),
                   "needs root, useradd, setpriv and socat to connect as a second user"))
    func anotherUserIsRefused() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let name = "ddtest\(UInt32.random(in: 10_000...99_999))"
        #expect(try await runTool(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name]).status == 0)
        try await withCleanup({
            let uid = try await runTool(["id", "-u", name]).output.trimmingCharacters(in: .whitespacesAndNewlines)
            // The scratch folder must be passable for the other user to reach the agent's folder at all.
            chmod(cli.folder.path, 0o755)
            let agent = try await AgentProcess(cli)
            defer { agent.kill9() }
            let asOther = ["setpriv", "--reuid", uid, "--regid", uid, "--clear-groups",
                           "socat", "-t", "2", "-", "UNIX-CONNECT:\(agent.socket)"]
            let blocked = try await runTool(asOther, input: #"{"cmd":"status"}"# + "\n")
            #expect(blocked.status != 0 && !blocked.output.contains("today"), "file permissions stop another user")
            chmod((agent.socket as NSString).deletingLastPathComponent, 0o711)
            chmod(agent.socket, 0o666)
            let refused = try await runTool(asOther, input: #"{"cmd":"status"}"# + "\n")
            #expect(refused.output.contains("\"forbidden\""), "\(refused.output)")
            #expect(!refused.output.contains("today"))
            #expect(await agent.waitForLog("refused a control connection from another user"))
            #expect(try TestSocketClient(path: agent.socket).status()?["today"] != nil, "the owner still gets in")
        }, cleanup: { _ = try? await runTool(["userdel", name]) })
    }
}

/// `YYYY-MM-DD` for 2000-01-01 plus `offset` days.
func testDate(offset: Int) -> String {
    let date = Date(timeIntervalSince1970: 946_684_800 + Double(offset) * 86_400)
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.locale = Locale(identifier: "en_US_POSIX")
    return formatter.string(from: date)
}

/// Runs the sqlite3 shell on `path`.
func sqlite(_ path: String, _ sql: String) async throws -> String {
    try await runTool(["sqlite3", path, sql]).output
}

/// Runs a tool on PATH, feeding `input`; its exit status and standard output.
@discardableResult
func runTool(_ arguments: [String], input: String? = nil) async throws -> (status: Int32, output: String) {
    let output = try await Program.run("/usr/bin/env", arguments, input: Array((input ?? "").utf8), stderr: .discard)
    return (output.status, output.stdout)
}
