import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Paths the user named, and files DeskDays is about to trust, are checked
/// before anything is read or written: a wrong answer printed with exit 0
/// (the default policy, an empty history) is never the outcome, and a
/// refusal leaves every file byte for byte as it was.
@Suite struct RefuseBeforeTouchingTests {
    /// The bytes of every file in the database's folder.
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// Builds the bad path inside the scratch folder; returns the arguments.
        var arguments: @Sendable (String) throws -> [String]
        var mentions: String
        var testDescription: String { name }
    }

    static let unreachable: [Case] = [
        Case(name: "--config missing", arguments: { ["status", "--config", $0 + "/nope.toml"] }, mentions: "does not exist"),
        Case(name: "--config dangling link", arguments: { folder in
            try FileManager.default.createSymbolicLink(atPath: folder + "/dangling.toml", withDestinationPath: folder + "/gone")
            return ["report", "--json", "--config", folder + "/dangling.toml"]
        }, mentions: "symbolic link to nothing"),
        Case(name: "--config loop", arguments: { folder in
            try FileManager.default.createSymbolicLink(atPath: folder + "/loop.toml", withDestinationPath: folder + "/loop.toml")
            return ["status", "--config", folder + "/loop.toml"]
        }, mentions: "symbolic links"),
        Case(name: "--config is a folder", arguments: { ["status", "--config", $0] }, mentions: "folder"),
        Case(name: "--database missing (read)", arguments: { ["export", "--format", "csv", "--database", $0 + "/nope.sqlite"] },
             mentions: "does not exist"),
        Case(name: "--database dangling link", arguments: { folder in
            try FileManager.default.createSymbolicLink(atPath: folder + "/db-link", withDestinationPath: folder + "/gone.sqlite")
            return ["days", "--database", folder + "/db-link"]
        }, mentions: "symbolic link to nothing"),
    ]

    @Test(arguments: unreachable)
    func aNamedPathThatCannotBeReachedIsAnError(_ testCase: Case) async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy.target]\nkind = \"days_per_week\"\nvalue = 3\n")
        #expect(try await cli.run(["checkin", "--date", "2026-11-16"]).status == 0)
        let folder = cli.folder.appendingPathComponent("bad").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var arguments = try testCase.arguments(folder)
        // The scratch config and database unless the case names its own.
        if !arguments.contains("--config") { arguments += ["--config", cli.config] }
        if !arguments.contains("--database") { arguments += ["--database", cli.database] }
        let before = try Self.snapshot((cli.database as NSString).deletingLastPathComponent)
        let result = try await cli.run(arguments, paths: false, environment: ["DESKDAYS_TODAY": "2026-11-18"])
        BadInputTests.expectOneLine(result, code: 1, mentions: testCase.mentions)
        #expect(result.stdout.isEmpty, "nothing printed as if all were well: \(result.stdout)")
        #expect(try Self.snapshot((cli.database as NSString).deletingLastPathComponent) == before)
    }

    /// The variables are names too; the default locations may be absent.
    @Test func variablesAreCheckedAndDefaultsMayBeAbsent() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let missing = cli.folder.appendingPathComponent("none.toml").path
        let viaVariable = try await cli.run(["status"], paths: false, environment: ["DESKDAYS_CONFIG": missing, "DESKDAYS_TODAY": "2026-11-18"])
        BadInputTests.expectOneLine(viaVariable, code: 1, mentions: missing)
        let firstRun = try await cli.run(["status", "--format", "json"], paths: false, environment: ["DESKDAYS_TODAY": "2026-11-18"])
        #expect(firstRun.status == 0, "\(firstRun.stderr)")
        // A named database that does not exist yet may be created by a write.
        let fresh = cli.folder.appendingPathComponent("fresh/db.sqlite").path
        #expect(try await cli.run(["checkin", "--date", "2026-11-16", "--database", fresh, "--config", cli.config]).status == 0)
    }

    /// A holiday calendar that is not a calendar is a configuration error, not "no holidays".
    @Test func aHolidayFileThatIsNotACalendarIsAnError() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let notCalendar = cli.folder.appendingPathComponent("holidays.ics").path
        try "Christmas,2026-12-25\n".write(toFile: notCalendar, atomically: true, encoding: .utf8)
        try cli.writeConfig("[policy]\nholidays_ics = \"\(notCalendar)\"\n")
        let check = try await cli.run(["config", "check"])
        #expect(check.status == 1 && check.stderr.contains("not an iCalendar file"), "\(check.stderr)")
    }

    // MARK: - The write-ahead log

    /// A database whose history is in its `-wal` only: 40 check-ins written
    /// while another connection holds the file open, then that holder killed.
    static func historyInTheLog(_ cli: CLIRunner) async throws {
        #expect(try await cli.run(["checkin", "--date", "2026-08-31"]).status == 0)
        let holder = try await Conversation("/usr/bin/python3", ["-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1]); c.execute("select count(*) from record").fetchall()
            print("ready", flush=True); time.sleep(600)
            """, cli.database], in: cli.folder, input: false, stderr: .inherit)
        try #require(await holder.nextLine() == "ready")
        var day = 1
        for month in [9, 10] {
            for _ in 0..<20 {
                let date = String(format: "2026-%02d-%02d", month, day % 28 + 1)
                day += 1
                #expect(try await cli.run(["event", "--source", "nfc", "--at", "\(date)T09:00:00Z", "--socket", "/nonexistent/s", "--today", "2026-11-18"]).status == 0)
            }
        }
        await holder.kill9()
        let wal = try FileManager.default.attributesOfItem(atPath: cli.database + "-wal")[.size] as? Int ?? 0
        #expect(wal > 4096, "the history is in the log (\(wal) bytes)")
    }

    static func overwrite(_ path: String, at offset: UInt64, with bytes: [UInt8]) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: offset)
        handle.write(Data(bytes))
        try handle.close()
    }

    /// Where the damage goes: the header's checksum, or inside the sixth frame's page.
    static let damage: [(String, UInt64)] = [("header", 24), ("a frame in the middle", 32 + 5 * 4120 + 24 + 100)]

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"),
          arguments: damage)
    func aDamagedLogIsRefusedAndLeftAsItWas(_ part: String, _ offset: UInt64) async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await Self.historyInTheLog(cli)
        try Self.overwrite(cli.database + "-wal", at: offset, with: [0xDE, 0xAD, 0xBE, 0xEF])
        let folder = (cli.database as NSString).deletingLastPathComponent
        let before = try Self.snapshot(folder)
        for arguments in [["status"], ["checkin", "--date", "2026-11-02"], ["export", "--format", "json"]] {
            let result = try await cli.run(arguments, environment: ["DESKDAYS_TODAY": "2026-11-18"])
            BadInputTests.expectOneLine(result, code: 2, mentions: "write-ahead log")
            #expect(result.stderr.contains("sqlite3") && result.stderr.contains(".recover"), "\(result.stderr)")
            #expect(result.stdout.isEmpty, "\(part): \(arguments): \(result.stdout)")
        }
        #expect(try Self.snapshot(folder) == before, "every file byte for byte as it was (\(part))")
    }

    /// A crash in the middle of a commit leaves a torn last frame: SQLite
    /// rightly drops it, and so the file opens with everything committed.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
    func aTornLastFrameIsNotDamage() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try await Self.historyInTheLog(cli)
        let wal = cli.database + "-wal"
        let size = try FileManager.default.attributesOfItem(atPath: wal)[.size] as? UInt64 ?? 0
        let handle = try #require(FileHandle(forUpdatingAtPath: wal))
        try handle.truncate(atOffset: size - 1000)
        try handle.close()
        let days = try await cli.run(["days", "--json", "--from", "2026-09-01", "--to", "2026-10-31"], environment: ["DESKDAYS_TODAY": "2026-11-18"])
        #expect(days.status == 0, "\(days.stderr)")
    }
}
