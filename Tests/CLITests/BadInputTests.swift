import Foundation
import Spawn
import TestSupport
import Testing

/// Bad input gets one clear line on stderr and the documented exit code,
/// and the database is byte-for-byte unchanged afterwards.
@Suite struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var code: Int32
        var mentions: String
        var testDescription: String { name }
    }

    static let badArguments: [Case] = [
        Case(name: "unknown status", arguments: ["checkin", "--status", "party"], code: 1, mentions: "party"),
        Case(name: "bad date", arguments: ["checkin", "--date", "2026-02-30"], code: 1, mentions: "2026-02-30"),
        Case(name: "date and range", arguments: ["checkin", "--date", "2026-11-18", "--from", "2026-11-18", "--to", "2026-11-19"], code: 1, mentions: "--from"),
        Case(name: "half a range", arguments: ["checkin", "--from", "2026-11-18"], code: 1, mentions: "--to"),
        Case(name: "reversed range", arguments: ["checkin", "--from", "2026-11-19", "--to", "2026-11-18"], code: 1, mentions: "swap"),
        Case(name: "weekend-only range", arguments: ["checkin", "--from", "2026-11-21", "--to", "2026-11-22"], code: 1, mentions: "no workday"),
        Case(name: "clear without date", arguments: ["clear"], code: 1, mentions: "--date"),
        Case(name: "event with manual source", arguments: ["event", "--source", "manual", "--at", "2026-11-18T08:00:00Z"], code: 1, mentions: "manual"),
        Case(name: "event with bad time", arguments: ["event", "--source", "nfc", "--at", "yesterday"], code: 1, mentions: "RFC 3339"),
        Case(name: "bad format", arguments: ["status", "--format", "xml"], code: 1, mentions: "xml"),
        Case(name: "bad period", arguments: ["report", "--period", "last-month"], code: 1, mentions: "last-month"),
        Case(name: "bad --today", arguments: ["report", "--today", "18/11/2026"], code: 1, mentions: "18/11/2026"),
        Case(name: "explain bad date", arguments: ["explain", "tomorrow"], code: 1, mentions: "tomorrow"),
        Case(name: "import missing file", arguments: ["import", "/nonexistent/file.csv"], code: 1, mentions: "/nonexistent/file.csv"),
        Case(name: "export bad format", arguments: ["export", "--format", "xlsx"], code: 1, mentions: "xlsx"),
        Case(name: "unknown command", arguments: ["teleport"], code: 1, mentions: "deskdays help"),
        // Dates outside 1990–2099 at every door (docs/cli.md "Dates").
        Case(name: "year 1", arguments: ["checkin", "--date", "0001-01-01"], code: 1, mentions: "outside the dates"),
        Case(name: "year 9999", arguments: ["checkin", "--date", "9999-12-31"], code: 1, mentions: "outside the dates"),
        Case(name: "range starting in 1989", arguments: ["checkin", "--from", "1989-12-25", "--to", "1990-01-05"], code: 1, mentions: "1989-12-25"),
        Case(name: "event a week ahead", arguments: ["event", "--source", "nfc", "--at", "2026-11-25T09:00:00Z", "--today", "2026-11-18"],
             code: 1, mentions: "more than a day after now"),
        Case(name: "event in 1970", arguments: ["event", "--source", "gps", "--at", "1970-01-01T09:00:00Z"], code: 1, mentions: "outside the dates"),
        Case(name: "period in 1900", arguments: ["report", "--period", "1900-01-01"], code: 1, mentions: "outside the dates"),
        Case(name: "explain 1989", arguments: ["explain", "1989-12-31"], code: 1, mentions: "outside the dates"),
        Case(name: "--today 2150", arguments: ["status", "--today", "2150-01-01"], code: 1, mentions: "outside the dates"),
        // Rule names are names, never identifiers (docs/cli.md "Rule names").
        Case(name: "rule with a space", arguments: ["event", "--source", "nfc", "--at", "2026-11-16T08:00:00Z", "--rule", "my desk", "--today", "2026-11-18"],
             code: 1, mentions: "rule name"),
        Case(name: "rule too long", arguments: ["event", "--source", "nfc", "--at", "2026-11-16T08:00:00Z", "--rule", String(repeating: "x", count: 40), "--today", "2026-11-18"],
             code: 1, mentions: "rule name"),
        Case(name: "enroll name with a quote", arguments: ["enroll", "gps", "--name", "h\"q"], code: 1, mentions: "rule name"),
        // Our sentence with the system's reason, never a Foundation domain code.
        Case(name: "report into a missing folder", arguments: ["report", "--html", "/nonexistent/dir/r.html"], code: 1,
             mentions: "(No such file or directory)"),
        Case(name: "backup over a file", arguments: ["backup", "/dev/null"], code: 1, mentions: "never overwrites"),
        Case(name: "clear an unknown origin", arguments: ["clear", "--date", "2026-11-16", "--origin", "badge"], code: 1, mentions: "badge"),
        // One policy for all devices needs [sync] (docs/cli.md "Sync").
        Case(name: "policy share without sync", arguments: ["policy", "share"], code: 1, mentions: "sync is off"),
        Case(name: "policy adopt without sync", arguments: ["policy", "adopt"], code: 1, mentions: "sync is off"),
    ]

    /// A database with one record, and its bytes.
    static func seeded() async throws -> (CLIRunner, Data) {
        let cli = try CLIRunner()
        let result = try await cli.run(["checkin", "--date", "2026-11-16"])
        precondition(result.status == 0, result.stderr)
        return (cli, try Data(contentsOf: URL(fileURLWithPath: cli.database)))
    }

    static func expectOneLine(_ result: CLIRunner.Result, code: Int32, mentions: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == code, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(mentions), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"), sourceLocation: sourceLocation)
    }

    @Test(arguments: badArguments)
    func badArgumentsChangeNothing(_ testCase: Case) async throws {
        let (cli, before) = try await Self.seeded()
        defer { cli.cleanup() }
        let result = try await cli.run(testCase.arguments)
        Self.expectOneLine(result, code: testCase.code, mentions: testCase.mentions)
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.database)) == before)
    }

    @Test func corruptConfigIsLocatedAndChangesNothing() async throws {
        let (cli, before) = try await Self.seeded()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\nperiod = \"quarter\"\n[policy.target\nvalue = 60\n")
        let result = try await cli.run(["checkin", "--date", "2026-11-17"])
        Self.expectOneLine(result, code: 1, mentions: cli.config + ":")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.database)) == before)
    }

    @Test func unreadableConfigIsOneLine() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try FileManager.default.removeItem(atPath: cli.config)
        try FileManager.default.createDirectory(atPath: cli.config, withIntermediateDirectories: true)
        let result = try await cli.run(["status"])
        Self.expectOneLine(result, code: 1, mentions: cli.config)
    }

    @Test func aFileThatIsNotSQLiteIsRefused() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try FileManager.default.createDirectory(atPath: (cli.database as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let bytes = Data("date,status\n2026-11-16,office\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: cli.database))
        for arguments in [["status"], ["checkin"]] {
            let result = try await cli.run(arguments)
            Self.expectOneLine(result, code: 2, mentions: cli.database)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.database)) == bytes)
    }

    @Test(.enabled(if: toolExists("sqlite3"), "sqlite3 not installed: apt-get install sqlite3"))
    func aDatabaseFromANewerVersionIsRefused() async throws {
        let (cli, _) = try await Self.seeded()
        defer { cli.cleanup() }
        let sqlite = try await Program.run("/usr/bin/env", ["sqlite3", cli.database,
                                                            "INSERT INTO grdb_migrations VALUES ('v99'); PRAGMA wal_checkpoint(TRUNCATE);"],
                                           stdout: .inherit, stderr: .inherit)
        try #require(sqlite.status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: cli.database))
        for arguments in [["status"], ["checkin", "--date", "2026-11-17"], ["report", "--json"]] {
            Self.expectOneLine(try await cli.run(arguments), code: 2, mentions: "newer")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.database)) == before)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "Debian's /usr/bin/python3 is needed to hold a lock"))
    func aLockedDatabaseGivesAClearMessage() async throws {
        let (cli, before) = try await Self.seeded()
        defer { cli.cleanup() }
        let holder = try await Conversation("/usr/bin/python3", ["-c", """
        import sqlite3, sys, time
        c = sqlite3.connect(sys.argv[1], isolation_level=None)
        c.execute('BEGIN EXCLUSIVE')
        print('locked', flush=True)
        sys.stdin.read()
        """, cli.database], in: cli.folder, stderr: .inherit)
        try #require(await holder.nextLine() == "locked")
        let result = try await cli.run(["checkin", "--date", "2026-11-17"])
        Self.expectOneLine(result, code: 1, mentions: "locked")
        holder.closeInput()
        #expect(await holder.child.wait(seconds: 60) == 0, "the holder ended with its input")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.database)) == before)
    }

    @Test(arguments: ["2026-11-31,office", "1899-12-31,office"])
    func aBadImportFileImportsNothing(_ badRow: String) async throws {
        let (cli, before) = try await Self.seeded()
        defer { cli.cleanup() }
        let file = cli.folder.appendingPathComponent("bad.csv").path
        try "date,status\n2026-11-17,office\n\(badRow)\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await cli.run(["import", file])
        Self.expectOneLine(result, code: 1, mentions: "\(file):3")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.database)) == before)
    }

    /// A rule equal to a configured identifier is refused without echoing it, at the CLI and at the socket.
    @Test func aRuleThatIsAnIdentifierIsRefused() async throws {
        let (cli, before) = try await Self.seeded()
        defer { cli.cleanup() }
        try cli.writeConfig("[[wifi.networks]]\nname = \"hq\"\nssid = \"Corp-WiFi\"\nbssids = [\"aa:bb:cc:dd:ee:ff\"]\n\n[[nfc.tags]]\nname = \"desk\"\nuid = \"04A2246A2F6E80\"\n")
        for identifier in ["Corp-WiFi", "AA-BB-CC-DD-EE-FF", "04a2246a2f6e80"] {
            let result = try await cli.run(["event", "--source", "wifi", "--at", "2026-11-16T08:00:00Z", "--rule", identifier, "--today", "2026-11-18"])
            Self.expectOneLine(result, code: 1, mentions: "identifier from the configuration")
            #expect(!result.stderr.contains(identifier), "the identifier is not echoed: \(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.database)) == before)
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let reply = try TestSocketClient(path: agent.socket).request(#"{"cmd":"event","source":"wifi","at":"2026-03-09T08:00:00Z","rule":"corp-wifi"}"#)
        #expect(reply?["ok"] as? Bool == false && (reply?["error"] as? String)?.contains("identifier") == true, "\(String(describing: reply))")
        #expect(!agent.logText.lowercased().contains("corp-wifi"), "nor logged")
    }

    /// A `gateway_mac` that is not a MAC is one located sentence naming the key;
    /// a configured gateway MAC is refused as a rule like any identifier.
    @Test func aBadGatewayMACIsOneLineAndAGatewayMACIsNoRule() async throws {
        let (cli, before) = try await Self.seeded()
        defer { cli.cleanup() }
        try cli.writeConfig("[wired]\nenabled = true\n\n[[wired.networks]]\nname = \"hq\"\ngateway_mac = [\"aa:bb:cc:dd:ee\"]\n")
        Self.expectOneLine(try await cli.run(["config", "check"]), code: 1, mentions: "config.toml:6: gateway_mac \"aa:bb:cc:dd:ee\" is not a MAC address")
        try cli.writeConfig("[wired]\nenabled = true\n\n[[wired.networks]]\nname = \"hq\"\ngateway_mac = [\"02:00:00:00:0a:01\"]\n")
        let result = try await cli.run(["event", "--source", "wired", "--at", "2026-11-16T08:00:00Z", "--rule", "02-00-00-00-0A-01", "--today", "2026-11-18"])
        Self.expectOneLine(result, code: 1, mentions: "identifier from the configuration")
        #expect(!result.stderr.lowercased().contains("02-00-00-00-0a-01"), "the identifier is not echoed: \(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: cli.database)) == before)
    }
}
