import Foundation
import Spawn
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
        /// The tmux server's process id: `kill` signals it (a `defer` cannot await a program).
        private let server: pid_t
        /// What the terminal showed at the last look (`waitFor`), and what scrolled off: a message can read it.
        private(set) var screen = ""

        init(_ command: String, in folder: URL) async throws {
            socket = folder.appendingPathComponent("tmux.sock").path
            let started = try await Program.run("/usr/bin/tmux", ["-u", "-S", socket, "new-session", "-d", "-x", "160", "-y", "50", command])
            guard started.status == 0 else { throw HarnessError("tmux did not start: \(started.stderr)") }
            let asked = try await Program.run("/usr/bin/tmux", ["-S", socket, "display-message", "-p", "#{pid}"])
            guard let pid = pid_t(asked.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw HarnessError("tmux did not name its server: \(asked.stdout) \(asked.stderr)")
            }
            server = pid
        }
        /// Looks at the terminal (`screen`).
        func look() async -> String {
            screen = (try? await Program.run("/usr/bin/tmux", ["-u", "-S", socket, "capture-pane", "-p", "-S", "-200"]))?.stdout ?? ""
            return screen
        }
        /// Waits until the screen shows `text` (false after a minute: a failure guard).
        func waitFor(_ text: String) async -> Bool {
            await eventually(seconds: 30, "\"\(text)\" on the setup's terminal") { await look().contains(text) }
        }
        /// Types `text` and Enter.
        func type(_ text: String) async {
            _ = try? await Program.run("/usr/bin/tmux", ["-S", socket, "send-keys", "-l", text])
            _ = try? await Program.run("/usr/bin/tmux", ["-S", socket, "send-keys", "Enter"])
        }
        /// Ends the session: SIGTERM to the tmux server, as `kill-server` does.
        func kill() {
            _ = Glibc.kill(server, SIGTERM)
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

        // CLIRunner leaves an empty config.toml: its answers are the defaults, and it is kept as config.toml.bak.
        #expect(await terminal.waitFor("exists: setup starts from its answers"), "\(terminal.screen)")
        #expect(await terminal.waitFor("A folder your devices share"), "\(terminal.screen)")
        await terminal.type("")                        // none
        #expect(await terminal.waitFor("How does your employer count office days?"), "\(terminal.screen)")
        await terminal.type("2")                       // days a week
        for (question, answer) in [("How many office days a week? [3]", ""), ("Over which period?", ""), ("on average over the period?", ""),
                                   ("reduce the days you owe?", ""), ("In which month does your employer's year start", ""),
                                   ("From which date does the rule apply", ""), ("Your time zone?", day.timezone),
                                   ("Your workdays?", "mon tue wed thu fri sat sun"), ("Public holidays", ""), ("hours on site", ""),
                                   ("How do sick days count?", ""), ("How does vacation count?", ""), ("remind you when nothing is recorded", "")] {
            #expect(await terminal.waitFor(question), "\(terminal.screen)")
            await terminal.type(answer)
        }
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
        _ = await terminal.look()
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

/// `setup`'s questions on a terminal (tmux), every one answered: HR's rule
/// becomes its keys; a second run starts from those answers and keeps what
/// it does not ask about; a second device finds the shared policy and asks
/// only its own questions.
@Suite(.tags(.hardwareBench), .serialized,
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux missing: apt-get install tmux"))
struct SetupQuestionsTests {
    typealias Terminal = SetupTests.Terminal

    /// Runs setup for `cli` on a terminal, answering each question (text on
    /// the screen, then what is typed) in order; returns the exit status.
    static func setup(_ cli: CLIRunner, _ answers: [(String, String?)]) async throws -> Int32? {
        let done = cli.folder.appendingPathComponent("setup-\(UUID().uuidString.prefix(8)).exit").path
        let environment = ["HOME": cli.folder.path, "LC_ALL": "C", "TZ": "UTC", "PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": "",
                           "XDG_RUNTIME_DIR": cli.folder.appendingPathComponent("run").path]
        let exports = environment.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        let terminal = try await Terminal("env \(exports) \(CLIRunner.binary) setup --config \(cli.config) --database \(cli.database); "
                                          + "echo $? > \(done); sleep 600", in: cli.folder)
        defer { terminal.kill() }
        for (question, answer) in answers {
            // Each question after the one before (a text may come twice).
            let found = await terminal.waitFor(question)
            #expect(found, "\(question): \(terminal.screen)")
            if !found { return nil }
            // nil: a line to see, not a question.
            if let answer { await terminal.type(answer) }
        }
        guard await eventually("the setup's exit status in \(done)", { (try? String(contentsOfFile: done, encoding: .utf8))?.hasSuffix("\n") == true }) else {
            Issue.record("setup did not end: \(await terminal.look())")
            return nil
        }
        return Int32((try String(contentsOfFile: done, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static let methods: [(String, String?)] = [("desk reader", "n"), ("GPS sees you", "n"), ("QR code", "n"), ("office Wi-Fi", "n"),
                                              ("docked", "n"), ("Start the agent now", "n")]

    @Test func hrsRuleOnTwoDevices() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try CLIRunner(), b = try CLIRunner()
        defer { a.cleanup(); b.cleanup() }
        try a.writeConfig("# my notes\n[desktop]\ntray = false  # no tray on this laptop\n")

        // The new user: HR's rule, every question answered.
        let first = try await Self.setup(a, [
            ("A folder your devices share", folder),
            ("How does your employer count office days?", "2"),
            ("How many office days a week? [3]", ""),
            ("Over which period?", "3"),
            ("owed every week, or on average over the period?", "2"),
            ("Do holidays, leave and sick days reduce the days you owe?", "y"),
            ("In which month does your employer's year start", "4"),
            ("From which date does the rule apply", "2026-10-01"),
            ("Your time zone?", "Europe/Berlin"),
            ("Your workdays?", "mon tue wed thu fri"),
            ("Public holidays: a region such as DE-BY", "DE-BY"),
            ("How many hours on site make an office day", "4"),
            ("When does your working day start", "04:00"),
            ("How do sick days count?", ""),
            ("How does vacation count?", ""),
            ("At what time should DeskDays remind you", "09:45"),
        ] + Self.methods)
        #expect(first == 0)
        let config = try String(contentsOfFile: a.config, encoding: .utf8)
        for expected in ["# my notes", "tray = false  # no tray on this laptop", "[sync]\nfolder = \"\(folder)\"",
                         "kind = \"days_per_week\"\nvalue = 3\nround = \"period\"\nreduce = \"pro-rata\"", "period = \"quarter\"",
                         "fiscal_year_start_month = 4", "starts = \"2026-10-01\"", "holidays_region = \"DE-BY\"", "min_hours = 4",
                         "day_starts_at = \"04:00\"", "sick = \"excused\"", "vacation = \"excused\"", "reminder_time = \"09:45\""] {
            #expect(config.contains(expected), "\(expected):\n\(config)")
        }
        #expect(try await a.run(["config", "check"]).stdout.hasSuffix("OK\n"))
        let shown = try await a.run(["config", "show"]).stdout

        // Again, Enter each time: the same configuration, comments and all.
        let again = try await Self.setup(a, [
            ("How does your employer count office days?", ""), ("How many office days a week? [3]", ""), ("Over which period?", ""),
            ("on average over the period?", ""), ("reduce the days you owe? (yes: pro rata; no: only when fewer days remain) [Y/n]", ""),
            ("year start (1 = January)? [4]", ""), ("rule apply (YYYY-MM-DD, or none)? [2026-10-01]", ""), ("Your time zone? [Europe/Berlin]", ""),
            ("Your workdays?", ""), ("or none? [DE-BY]", ""), ("make an office day (0: any check-in)? [4]", ""), ("working day start", ""),
            ("How do sick days count?", ""), ("How does vacation count?", ""), ("recorded (HH:MM, or off)? [09:45]", ""),
        ] + Self.methods)
        #expect(again == 0)
        #expect(try await a.run(["config", "show"]).stdout == shown)
        let kept = try String(contentsOfFile: a.config, encoding: .utf8)
        #expect(kept.contains("# my notes") && kept.contains("tray = false  # no tray on this laptop"), "\(kept)")

        // The first device shares its policy as it reads; the second finds it and asks only its own questions.
        let standing = { (cli: CLIRunner) async throws -> String in try await cli.run(["report", "--json", "--today", "2026-11-20"]).stdout }
        let rule = try await standing(a)
        #expect(FileManager.default.fileExists(atPath: folder + "/policy.json"))
        let second = try await Self.setup(b, [
            ("A folder your devices share", folder),
            ("The sync folder holds the policy", nil),
            ("Use it on this device too? [Y/n]", ""),
            ("At what time should DeskDays remind you", "10:15"),
        ] + Self.methods)
        #expect(second == 0)
        let other = try String(contentsOfFile: b.config, encoding: .utf8)
        #expect(!other.contains("[policy") && other.contains("reminder_time = \"10:15\""), "\(other)")
        #expect(try await standing(b) == rule)
    }

    /// A rule setup asks about less often (the best weeks of a rolling
    /// window, travel counted as remote, a list of holidays): Enter at
    /// every question keeps it as it was, comments and all.
    @Test func enterKeepsEveryAnswer() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("""
            # Our rule since the merger.
            [policy]
            timezone = "Europe/Paris"
            period = "rolling"
            rolling_weeks = 10
            week_start = "sun"

            [policy.target]
            kind = "best_weeks"
            value = 20
            best = 8
            window = 12

            [policy.counts]
            travel = "remote"
            vacation = "remote"

            # The site's own closing days.
            [[holidays]]
            date = "2026-12-24"
            name = "Site closed"

            [checkin]
            reminder_time = "off"
            """)
        let before = try await cli.run(["config", "show"]).stdout
        let status = try await Self.setup(cli, [
            ("A folder your devices share", ""), ("How does your employer count office days?", ""), ("best weeks together? [20]", ""),
            ("how many weeks? [12]", ""), ("best weeks count? [8]", ""), ("rule apply", ""), ("Your time zone? [Europe/Paris]", ""),
            ("Your workdays?", ""), ("Public holidays", ""), ("hours on site", ""), ("rolling window hold? [10]", ""),
            ("How do sick days count?", ""), ("How does vacation count?", ""), ("remind you when nothing is recorded (HH:MM, or off)? [off]", ""),
        ] + Self.methods)
        #expect(status == 0)
        #expect(try await cli.run(["config", "show"]).stdout == before)
        let text = try String(contentsOfFile: cli.config, encoding: .utf8)
        #expect(text.contains("# The site's own closing days.\n[[holidays]]") && text.contains("name = \"Site closed\""), "\(text)")
    }
}
