import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `deskdays setup` on a real terminal (tmux), from an empty home to a
/// running agent that records a tap: the keys a person types (send-keys),
/// the screen they see (capture-pane), the desk tag enrolled from the
/// virtual reader (pcscd + vpcd) and turned on. Each wait names what it
/// waits for on the screen.
@Suite(.tags(.hardwareBench), .serialized,
       .enabled(if: AgentBench.available && FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"),
                "pcscd, vsmartcard-vpcd or tmux missing: apt-get install pcscd vsmartcard-vpcd tmux"))
struct SetupTests {
    /// A tmux session of its own (its own server socket), running one command; UTF-8 (`-u`) whatever the locale.
    final class Terminal {
        let socket: String
        init(_ command: String, in folder: URL) async throws {
            socket = folder.appendingPathComponent("tmux.sock").path
            let started = try await Program.run("/usr/bin/tmux", ["-u", "-S", socket, "new-session", "-d", "-x", "160", "-y", "50", command])
            guard started.status == 0 else { throw HarnessError("tmux did not start: \(started.stderr)") }
        }
        /// What the terminal shows, and what scrolled off (Foundation's Process: a message can read it).
        var screen: String {
            let process = Process(), pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
            process.arguments = ["-u", "-S", socket, "capture-pane", "-p", "-S", "-200"]
            process.standardOutput = pipe
            guard (try? process.run()) != nil else { return "" }
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        /// Waits until the screen shows `text` (false after a minute: a failure guard).
        func waitFor(_ text: String) async -> Bool {
            await eventually(seconds: 30, "\"\(text)\" on the setup's terminal") { screen.contains(text) }
        }
        /// Types `text` and Enter.
        func type(_ text: String) async {
            _ = try? await Program.run("/usr/bin/tmux", ["-S", socket, "send-keys", "-l", text])
            _ = try? await Program.run("/usr/bin/tmux", ["-S", socket, "send-keys", "Enter"])
        }
        /// Ends the session (a `defer` cannot await: Foundation's Process, waited for).
        func kill() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
            process.arguments = ["-S", socket, "kill-server"]
            try? process.run()
            process.waitUntilExit()
        }
    }

    @Test func setupFromAnEmptyHomeToATap() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let day = BenchDay()
        let pcscd = try await PrivatePCSCD(in: cli.folder)
        defer { pcscd.stop() }
        let card = try await pcscd.card(uid: AgentBenchTests.deskUID, in: cli.folder)
        let done = cli.folder.appendingPathComponent("setup.exit").path
        // A new home: no database; no systemd user manager here.
        let environment = AgentBench.environment(pcscd).merging(["HOME": cli.folder.path, "LC_ALL": "C", "TZ": "UTC", "PATH": "/usr/bin:/bin"]) { $1 }
        let exports = environment.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        let terminal = try await Terminal("env \(exports) \(CLIRunner.binary) setup --config \(cli.config) --database \(cli.database); "
                                          + "echo $? > \(done); sleep 600", in: cli.folder)
        defer { terminal.kill() }

        // CLIRunner leaves an empty config.toml: replaced, and kept as config.toml.bak.
        #expect(await terminal.waitFor("exists. Replace it (the old one is kept as config.toml.bak)? [y/N]"), "\(terminal.screen)")
        await terminal.type("y")
        #expect(await terminal.waitFor("How does your employer count office days?"), "\(terminal.screen)")
        await terminal.type("2")                       // days a week
        #expect(await terminal.waitFor("How many office days a week? [3]"))
        await terminal.type("")                        // 3
        #expect(await terminal.waitFor("In which month does your employer's year start"))
        await terminal.type("")
        #expect(await terminal.waitFor("Your time zone?"))
        await terminal.type(day.timezone)
        #expect(await terminal.waitFor("Your workdays? [mon tue wed thu fri]"))
        await terminal.type("mon tue wed thu fri sat sun")
        // The reader is found; the desk tag is learnt from two taps.
        #expect(await terminal.waitFor("nfc: reader Virtual PCD 00 00"), "\(terminal.screen)")
        #expect(await terminal.waitFor("Check in by tapping a tag on your desk reader"))
        await terminal.type("")                        // yes, the default with a reader
        #expect(await terminal.waitFor("Present the tag to the reader"), "\(terminal.screen)")
        await card.insert()
        #expect(await terminal.waitFor("Now take it away"), "\(terminal.screen)")
        await card.remove()
        #expect(await pcscd.waitForSlot("Virtual PCD 00 00", "empty"))
        await card.insert()
        #expect(await terminal.waitFor("nfc check-ins are on."), "\(terminal.screen)")
        await card.remove()
        #expect(await pcscd.waitForSlot("Virtual PCD 00 00", "empty"), "pcscd saw the tag leave")
        for question in ["GPS sees you", "QR code", "office Wi-Fi", "docked"] {
            #expect(await terminal.waitFor(question), "\(terminal.screen)")
            await terminal.type("n")
        }
        #expect(await terminal.waitFor("Start the agent now and at every login"))
        await terminal.type("n")
        #expect(await terminal.waitFor("`deskdays status` shows where you stand"), "\(terminal.screen)")
        // The shell creates the file, then writes the status and a newline: wait for the newline.
        #expect(await eventually("the setup's exit status in \(done)") {
            (try? String(contentsOfFile: done, encoding: .utf8))?.hasSuffix("\n") == true
        })
        #expect((try? String(contentsOfFile: done, encoding: .utf8))?.hasPrefix("0") == true, "\(terminal.screen)")

        // The file: commented, the rule, the tag, nfc on; config check is clean.
        let config = try String(contentsOfFile: cli.config, encoding: .utf8)
        #expect(config.hasPrefix("# DeskDays configuration, written by `deskdays setup`"), "\(config)")
        #expect(config.contains("kind = \"days_per_week\"\nvalue = 3") && config.contains("uid = \"\(AgentBenchTests.deskUID)\""), "\(config)")
        #expect(config.contains("[nfc]\nenabled = true"), "\(config)")
        #expect(FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("config/config.toml.bak").path))
        #expect(try await cli.run(["config", "check"]).status == 0)

        // The agent it set up records a tap.
        let agent = try await AgentProcess(cli, environment: AgentBench.environment(pcscd).merging([
            "DESKDAYS_NOW": day.instant(at: "09:00", minusSeconds: 0)]) { $1 })
        defer { agent.kill9() }
        #expect(await agent.waitForLog("NFC reader ready"), "\(agent.logText)")
        await card.insert()
        #expect(await card.waitRead(), "the agent read the tag")
        #expect(await agent.waitForLog("nfc check-in stored for \(day.date)"), "\(agent.logText)")
        await card.remove()
        #expect(await agent.stop() == 0)
    }

    /// Without a terminal, setup says which commands to use instead (exit 1).
    @Test func withoutATerminalItNamesTheCommands() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let result = try await cli.run(["setup"])
        #expect(result.status == 1 && result.stderr.contains("`deskdays enroll METHOD`, `deskdays enable METHOD`"), "\(result.stderr)")
        #expect(try String(contentsOfFile: cli.config, encoding: .utf8).isEmpty, "nothing written")
    }
}
