import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `status --follow` answers for the files it is given and outlives a
/// reload; an edited configuration reloads the agent by itself (docs/cli.md
/// "Reloading"). The agent runs on the system clock here: the launcher and
/// the CLI follow only such an agent.
@Suite struct FollowTests {
    static func config(daysPerWeek: Int = 3) -> String {
        """
        [policy]
        count_non_workdays = true

        [policy.target]
        kind = "days_per_week"
        value = \(daysPerWeek)

        [checkin]
        reminder_time = "off"
        fallback_time = "off"
        """
    }

    /// An agent on the system clock with its socket in `runtime`, and the environment that finds it.
    func agent(_ cli: CLIRunner) async throws -> (AgentProcess, [String: String]) {
        let runtime = cli.folder.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let agent = try await AgentProcess(cli, socket: runtime + "/deskdays/agent.sock", environment: ["DESKDAYS_NOW": ""])
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["HOME"] = cli.folder.path
        env["TZ"] = "UTC"
        env["LC_ALL"] = "C"
        env["DESKDAYS_NOW"] = nil
        return (agent, env)
    }

    @Test func aFollowerOfAnotherDatabaseOrConfigurationIsRefusedInOneSentence() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config())
        let (agent, env) = try await agent(cli)
        defer { agent.kill9() }
        let other = cli.folder.appendingPathComponent("other.sqlite").path
        #expect(try await cli.run(["checkin", "--date", "2026-11-16", "--config", cli.config, "--database", other], paths: false).status == 0)
        let otherConfig = cli.folder.appendingPathComponent("other.toml").path
        try Self.config().write(toFile: otherConfig, atomically: true, encoding: .utf8)
        // Text (the CLI) and JSON (the launcher, which hands over to the CLI): neither prints the agent's figures.
        for (arguments, sentence) in [(["--database", other, "--config", cli.config], "serves another database"),
                                      (["--database", other, "--config", cli.config, "--format", "json"], "serves another database"),
                                      (["--database", cli.database, "--config", otherConfig], "not \(otherConfig)"),
                                      (["--database", cli.database, "--config", otherConfig, "--format", "waybar"], "not \(otherConfig)")] {
            let result = try await Program.run(CLIRunner.binary, ["status", "--follow"] + arguments, environment: env)
            #expect(result.status == 1, "\(arguments): \(result.status) \(result.stdout)")
            #expect(result.stdout.isEmpty, "\(arguments): printed figures: \(result.stdout)")
            #expect(result.stderr.contains(sentence) && result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
    }

    /// A burst of reloads (100 SIGHUPs at once, as a misbehaving script
    /// might send) never ends a follower: it follows each next agent, and
    /// the check-in after the burst reaches it.
    @Test func aBurstOfReloadsDoesNotEndAFollower() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config())
        let (agent, env) = try await agent(cli)
        defer { agent.kill9() }
        let paths = ["--config", cli.config, "--database", cli.database]
        let json = try await Conversation(CLIRunner.binary, ["status", "--follow", "--format", "json"] + paths,
                                          environment: env, in: cli.folder, input: false)
        let first = try #require(await json.nextLine(), "no first json line")
        for _ in 0..<100 { kill(agent.pid, SIGHUP) }
        #expect(await agent.waitForLog("configuration reloaded"), "\(agent.logText)")
        // The agent answers again once its burst is over: a check-in through it.
        #expect(await eventually("the agent to take a check-in after the burst") {
            (try? TestSocketClient(path: agent.socket).request(#"{"cmd":"checkin","status":"office"}"#))??["ok"] as? Bool == true
        })
        var line = try #require(await json.nextLine(), "the follower heard nothing after the burst")
        while line == first { line = try #require(await json.nextLine(), "the follower heard nothing new after the burst") }
        #expect(line.contains("\"office\" : 1") || line.contains("\"office\":1"), "\(line)")
        #expect(json.child.isRunning && agent.isRunning)
    }

    @Test func followersOutliveAReloadAndAnEditedConfigurationReloadsByItself() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config())
        let (agent, env) = try await agent(cli)
        defer { agent.kill9() }
        let paths = ["--config", cli.config, "--database", cli.database]
        let errors = cli.folder.appendingPathComponent("followers.err").path
        // The launcher's follower (json) and the CLI's (text).
        let json = try await Conversation(CLIRunner.binary, ["status", "--follow", "--format", "json"] + paths,
                                          environment: env, in: cli.folder, input: false, stderr: .file(errors))
        let text = try await Conversation(CLIRunner.binary, ["status", "--follow"] + paths,
                                          environment: env, in: cli.folder, input: false, stderr: .file(errors))
        let firstJSON = try #require(await json.nextLine(), "no first json line")
        let firstText = try #require(await text.nextLine(), "no first text line")

        // A reload (what `systemctl --user reload` sends): both follow the next agent.
        kill(agent.pid, SIGHUP)
        #expect(await agent.waitForLog("configuration reloaded"), "\(agent.logText)")
        #expect(await agent.waitForLog(seconds: 60, "two control sockets ready") { $0.components(separatedBy: "control socket ready").count == 3 })
        let reply = try #require(TestSocketClient(path: agent.socket).request(#"{"cmd":"checkin","status":"office"}"#))
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        let secondJSON = try #require(await json.nextLine(), "the json follower heard nothing after the reload")
        #expect(secondJSON != firstJSON)
        // The text follower's next line is about the check-in, not a repeat of the line before the reload.
        var secondText = try #require(await text.nextLine(), "the text follower heard nothing after the reload")
        while secondText.hasPrefix("Check in with") { secondText = try #require(await text.nextLine()) }
        #expect(secondText != firstText, "\(firstText) then \(secondText)")
        #expect(json.child.isRunning && text.child.isRunning)

        // An edited configuration is reloaded within moments, with no command:
        // the agent's answer then has the new target, as the CLI computes it from the file.
        func required(_ output: String) -> Int? {
            ((try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any])?["required"] as? Int
        }
        let before = try #require(required(try await Program.run(CLIRunner.binary, ["status", "--format", "json"] + paths, environment: env).stdout))
        try cli.writeConfig(Self.config(daysPerWeek: 1))
        #expect(await agent.waitForLog("the configuration file changed; reloading it"), "\(agent.logText)")
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        let computed = try #require(required(try await Program.run(CLIRunner.binary, ["status", "--format", "json", "--today", today] + paths,
                                                                   environment: env).stdout))
        #expect(computed < before, "the edit lowers the target: \(before) -> \(computed)")
        #expect(try await eventually("the agent's answer to follow the edited file") {
            required(try await Program.run(CLIRunner.binary, ["status", "--format", "json"] + paths, environment: env).stdout) == computed
        })

        // A configuration removed after it was loaded keeps the running one (a warning, not the defaults).
        try FileManager.default.removeItem(atPath: cli.config)
        #expect(await agent.waitForLog("configuration reload rejected, the running one is kept"), "\(agent.logText)")
        #expect(agent.logText.contains("warning"), "\(agent.logText)")
        #expect(await agent.stop() == 0)
        // The followers outlive the agent: one line each on stderr, then the
        // next agent on the same files is followed (a package upgrade, a restart).
        #expect(await eventually("both followers' waiting line in \(errors)") {
            ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
                .components(separatedBy: "the agent stopped; waiting for it to start again").count == 3
        }, "\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        #expect(json.child.isRunning && text.child.isRunning)
        let lastJSON = json.lines.last
        json.skipPrinted()
        text.skipPrinted()
        try cli.writeConfig(Self.config())
        let next = try await AgentProcess(cli, socket: agent.socket, environment: ["DESKDAYS_NOW": ""])
        defer { next.kill9() }
        let change = try #require(TestSocketClient(path: next.socket).request(#"{"cmd":"checkin","status":"remote"}"#))
        #expect(change["ok"] as? Bool == true, "\(change)")
        let resumed = try #require(await json.nextLine(), "the json follower heard nothing from the next agent")
        #expect(resumed != lastJSON)
        #expect(try #require(await text.nextLine(), "the text follower heard nothing from the next agent").isEmpty == false)
        json.child.signal(SIGTERM)
        text.child.signal(SIGTERM)
        let jsonEnded = await json.child.wait(seconds: 60), textEnded = await text.child.wait(seconds: 60)
        #expect(jsonEnded != nil && textEnded != nil, "SIGTERM (as Ctrl-C) ends a follower")
        #expect(await next.stop() == 0)
    }

    /// Another process's commit (`deskdays import` writes the database
    /// itself) reaches the followers without any change of the agent's own.
    @Test func anImportByAnotherProcessReachesTheFollowers() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config())
        let (agent, env) = try await agent(cli)
        defer { agent.kill9() }
        let paths = ["--config", cli.config, "--database", cli.database]
        let json = try await Conversation(CLIRunner.binary, ["status", "--follow", "--format", "json"] + paths,
                                          environment: env, in: cli.folder, input: false)
        let first = try #require(await json.nextLine(), "no first json line")
        func office(_ line: String) -> Int? {
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["office"] as? Int
        }
        // This week's Monday to yesterday: office days of the current period, whatever today is.
        let today = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        let csv = cli.folder.appendingPathComponent("hr.csv").path
        try "date,status\n\(today),office\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = try await Program.run(CLIRunner.binary, ["import", csv] + paths, environment: env)
        #expect(imported.status == 0 && imported.stdout.contains("Imported 1 record"), "\(imported.stdout)\(imported.stderr)")
        #expect(!agent.logText.contains("through the control socket"), "the import went through the agent")
        let next = try #require(await json.nextLine(), "the follower heard nothing of the import")
        #expect(office(next) == (office(first) ?? -1) + 1, "\(first)\n\(next)")
        #expect(await agent.stop() == 0)
    }

    /// Seventy status bars following the agent do not take the slots of
    /// the commands that ask it: a check-in still goes through the agent.
    @Test func followersDoNotStarveOtherClients() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig(Self.config())
        let (agent, env) = try await agent(cli)
        defer { agent.kill9() }
        var followers: [TestSocketClient] = []
        for index in 0..<70 {
            let client = try TestSocketClient(path: agent.socket)
            let first = client.request(#"{"version":1,"cmd":"subscribe","format":"json"}"#)
            #expect(first?["ok"] as? Bool == true, "follower \(index): \(String(describing: first))")
            followers.append(client)
        }
        let checkin = try await Program.run(CLIRunner.binary, ["checkin", "--config", cli.config, "--database", cli.database], environment: env)
        #expect(checkin.status == 0 && !checkin.stderr.contains("too busy"), "\(checkin.stderr)")
        #expect(await agent.waitForLog("the check-in through the control socket") {
            $0.split(separator: "\n").contains { $0.contains("manual office recorded for") && $0.hasSuffix("through the control socket") }
        }, "\(agent.logText)")
        #expect(followers.count == 70)
        #expect(await agent.stop() == 0)
    }
}
