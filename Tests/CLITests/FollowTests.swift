import Foundation
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
        let jsonEnded = await json.child.wait(seconds: 60), textEnded = await text.child.wait(seconds: 60)
        #expect(jsonEnded == 1 && textEnded == 1, "the followers end with the agent: \(String(describing: jsonEnded)) \(String(describing: textEnded))")
    }
}
