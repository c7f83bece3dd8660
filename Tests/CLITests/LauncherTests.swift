import Foundation
import Spawn
import TestSupport
import Testing

/// `deskdays`, the launcher: it prints the agent's current answer without
/// the command tree, and hands everything else to `deskdays-cli`.
@Suite struct LauncherTests {
    /// A `bin` folder holding copies of the named executables only.
    func lone(_ executables: [String], in cli: CLIRunner) throws -> String {
        let bin = cli.folder.appendingPathComponent("bin-\(UUID().uuidString.prefix(6))").path
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for name in executables {
            try FileManager.default.copyItem(atPath: (CLIRunner.binary as NSString).deletingLastPathComponent + "/" + name,
                                             toPath: bin + "/" + name)
        }
        return bin + "/deskdays"
    }

    /// Runs `program` with the default paths pointed into the test folder.
    func run(_ program: String, _ arguments: [String], cli: CLIRunner, runtime: String) async throws -> (Int32, String, String) {
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["DESKDAYS_CONFIG"] = cli.config
        env["DESKDAYS_DATABASE"] = cli.database
        env["DESKDAYS_NOW"] = nil
        env["DESKDAYS_TODAY"] = nil
        let output = try await Program.run(program, arguments, environment: env)
        return (output.status, output.stdout, output.stderr)
    }

    @Test func theLauncherAloneServesTheAgentsAnswer() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        // On the system clock, late in the evening, a fallback written
        // between the two answers would make them differ: none is written.
        try cli.writeConfig("""
        [checkin]
        reminder_time = "off"
        fallback_time = "off"
        """)
        #expect(try await cli.run(["checkin", "--date", "2026-03-09", "--socket", "/nonexistent/agent.sock"]).status == 0)
        let runtime = cli.folder.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        // On the system clock: the answer is what it is today, whatever today is; the test only compares.
        let agent = try await AgentProcess(cli, socket: runtime + "/deskdays/agent.sock", environment: ["DESKDAYS_NOW": ""])
        defer { agent.kill9() }
        // Each question on a connection of its own, made just before: the agent
        // closes a connection idle for 5 s, and a loaded machine may take that long between two.
        func ask(_ request: String) throws -> String? {
            try TestSocketClient(path: agent.socket).request(request)?["output"] as? String
        }
        // No deskdays-cli beside it: whatever it prints came from the agent.
        let launcher = try lone(["deskdays"], in: cli)
        for format in ["json", "waybar", "i3blocks"] {
            let served = try #require(try ask(#"{"cmd":"status","format":"\#(format)"}"#))
            let (status, stdout, stderr) = try await run(launcher, ["status", "--format", format], cli: cli, runtime: runtime)
            #expect(status == 0, "\(stderr)")
            #expect(stdout == served, "status --format \(format)")
        }
        let report = try #require(try ask(#"{"cmd":"report"}"#))
        let (status, stdout, _) = try await run(launcher, ["report", "--json"], cli: cli, runtime: runtime)
        #expect(status == 0 && stdout == report)
        // Anything the agent does not answer goes to deskdays-cli, which is missing here: one sentence.
        let (other, _, message) = try await run(launcher, ["status"], cli: cli, runtime: runtime)
        #expect(other == 1 && message.contains("deskdays-cli is not installed") && message.contains("make install"), "\(message)")
    }

    @Test func anAgentOnAnotherClockOrConfigurationIsNotAsked() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let runtime = cli.folder.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        // The agent's "now" is fixed: its answer is not today's, so the launcher must not print it.
        let agent = try await AgentProcess(cli, socket: runtime + "/deskdays/agent.sock")
        defer { agent.kill9() }
        let launcher = try lone(["deskdays"], in: cli)
        let (fixed, _, message) = try await run(launcher, ["status", "--format", "json"], cli: cli, runtime: runtime)
        #expect(fixed == 1 && message.contains("deskdays-cli is not installed"), "\(message)")
        // With the command tree beside it, the same request is computed there and succeeds.
        let whole = try lone(["deskdays", "deskdays-cli"], in: cli)
        let (computed, stdout, stderr) = try await run(whole, ["status", "--format", "json"], cli: cli, runtime: runtime)
        #expect(computed == 0 && stdout.contains("\"required\""), "\(stderr)")
    }

    /// `status --follow` through the launcher alone: the answer now, every
    /// change pushed, and one sentence when the agent goes away.
    /// The static launcher speaks the language `LANG` asks for even where
    /// that locale is not installed (only C and C.UTF-8 here), as
    /// `deskdays-cli` does: its own sentences (here: no `deskdays-cli`
    /// beside it; the follower's notices alike) come from the catalog.
    @Test(.enabled(if: Catalogs.available, "msgfmt not installed: apt-get install gettext"))
    func theLauncherSpeaksTheLanguageOfLANG() async throws {
        let locale = try await Catalogs.compiled(["de", "fr"])
        defer { try? FileManager.default.removeItem(at: locale) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let launcher = try lone(["deskdays"], in: cli)
        for (variable, language, expected) in [("LANG", "de_DE.UTF-8", "deskdays-cli ist nicht installiert"),
                                               ("LC_MESSAGES", "fr_FR.UTF-8", "deskdays-cli n’est pas installé"),
                                               ("LC_ALL", "de_AT.UTF-8", "deskdays-cli ist nicht installiert")] {
            var env = ProcessInfo.processInfo.environment
            for name in ["LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"] { env[name] = "" }
            env[variable] = language
            env["DESKDAYS_LOCALEDIR"] = locale.path
            let output = try await Program.run(launcher, ["--version"], environment: env)
            #expect(output.status == 1 && output.stderr.hasPrefix("deskdays: " + expected), "\(variable)=\(language): \(output.stderr)")
        }
    }

    @Test func theLauncherFollowsTheAgent() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        // The launcher follows only an agent on the system clock, so today
        // is whatever it is: an office day today counts even on a weekend or
        // a holiday, and no fallback or reminder changes the day meanwhile.
        try cli.writeConfig("""
        [policy]
        count_non_workdays = true

        [checkin]
        reminder_time = "off"
        fallback_time = "off"
        """)
        let runtime = cli.folder.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let agent = try await AgentProcess(cli, socket: runtime + "/deskdays/agent.sock", environment: ["DESKDAYS_NOW": ""])
        let launcher = try lone(["deskdays"], in: cli)
        var env = ProcessInfo.processInfo.environment
        env["XDG_RUNTIME_DIR"] = runtime
        env["DESKDAYS_NOW"] = nil
        let errors = cli.folder.appendingPathComponent("follower.err").path
        let follower = try await Conversation(launcher, ["--config", cli.config, "status", "--follow", "--format=waybar",
                                                         "--database", cli.database],
                                              environment: env, in: cli.folder, input: false, stderr: .file(errors))
        let first = try #require(await follower.nextLine(), "no first line")
        // Connected only now: the agent closes a connection idle for 5 s, and starting the follower may take that long.
        let client = try TestSocketClient(path: agent.socket)
        let served = try #require(client.request(#"{"cmd":"status","format":"waybar"}"#)?["output"] as? String)
        #expect(first + "\n" == served)
        // A change: the office day of today (whatever today is) is pushed.
        #expect(client.request(#"{"cmd":"checkin","status":"office"}"#)?["ok"] as? Bool == true)
        let second = try #require(await follower.nextLine(), "no line after the check-in")
        #expect(second != first, "\(first) then \(second)")
        // The agent going away: one line on stderr, and the follower waits for the next agent.
        #expect(await agent.stop() == 0)
        #expect(await eventually("the waiting line in \(errors)") {
            ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").hasSuffix("\n")
        })
        let message = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(message == "deskdays: the agent stopped; waiting for it to start again (Ctrl-C ends this).\n", "\(message)")
        #expect(follower.child.isRunning)
        follower.child.signal(SIGTERM)
        #expect(await follower.child.wait(seconds: 60) != nil)
    }
}
