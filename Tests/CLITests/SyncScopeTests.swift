import Foundation
import Spawn
import TestSupport
import Testing

/// Through the real CLI: sync is for the database the configuration
/// belongs to, a missing folder is never created, a restored or copied
/// database goes on as a new device and the devices converge, a skewed
/// clock stamps no one else's records, and while the agent runs a read
/// only reads.
@Suite struct SyncScopeTests {
    typealias Device = SyncDevicesTests.Device

    static func journals(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jsonl") }.sorted()
    }

    /// The default configuration (XDG) with `[sync]`; a scratch database given alone is not synced.
    @Test func aScratchDatabaseIsNeitherMergedNorPublished() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = cli.folder.appendingPathComponent("xdg-config/deskdays").path
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try "[sync]\nfolder = \"\(folder)\"\ndevice_name = \"laptop\"\n".write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
        let now = ["DESKDAYS_NOW": "2026-11-18T09:00:00Z"]
        #expect(try await cli.run(["checkin", "--date", "2026-11-16"], paths: false, environment: now).status == 0)
        let published = try Self.journals(folder)
        #expect(published.count == 1)

        let scratch = cli.folder.appendingPathComponent("scratch.sqlite").path
        let result = try await cli.run(["checkin", "--date", "2026-11-17", "--database", scratch], paths: false, environment: now)
        #expect(result.status == 0)
        #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("neither merged"), "\(result.stderr)")
        #expect(try Self.journals(folder) == published)
        // Its own check-in alone: the folder's was not merged into it.
        let report = try await cli.run(["report", "--json", "--database", scratch], paths: false, environment: now)
        #expect(report.stdout.contains("\"office\" : 1"), "\(report.stdout)")
        #expect(try await cli.run(["sync", "status", "--database", scratch], paths: false, environment: now).status == 1)
        // Named by `[sync] database`, it syncs, and the default one no longer does.
        try "[sync]\nfolder = \"\(folder)\"\ndevice_name = \"laptop\"\ndatabase = \"\(scratch)\"\n"
            .write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
        #expect(try await cli.run(["sync", "status", "--database", scratch], paths: false, environment: now).status == 0)
        #expect(try Self.journals(folder).count == 2)
        let other = try await cli.run(["status"], paths: false, environment: now)
        #expect(other.stderr.contains("neither merged"), "\(other.stderr)")
    }

    @Test func aMissingFolderIsNeverCreated() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = cli.folder.appendingPathComponent("usb-stick/deskdays").path
        try cli.writeConfig("[sync]\nfolder = \"\(folder)\"\n")
        let now = ["DESKDAYS_NOW": "2026-11-18T09:00:00Z"]
        let status = try await cli.run(["sync", "status"], environment: now)
        #expect(status.status == 1 && status.stderr.contains(folder) && status.stderr.contains("not mounted?"), "\(status.stderr)")
        let checkin = try await cli.run(["checkin", "--date", "2026-11-16"], environment: now)
        #expect(checkin.status == 0 && checkin.stderr.split(separator: "\n").count == 1 && checkin.stderr.contains("not mounted?"),
                "\(checkin.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(try await cli.run(["report", "--json"], environment: now).stdout.contains("\"office\" : 1"))
    }

    /// `deskdays backup`, restored after the laptop wrote more: its next
    /// change is a new device's, the desk takes it, and both answer alike.
    @Test func aRestoredBackupConverges() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        let saved = a.cli.folder.appendingPathComponent("saved.sqlite").path
        _ = try await a.ok(["checkin", "--date", "2026-11-16", "--status", "office"], now: "2026-11-16T09:00:00Z")
        _ = try await a.ok(["backup", saved], now: "2026-11-16T10:00:00Z")
        _ = try await a.ok(["checkin", "--date", "2026-11-17", "--status", "sick"], now: "2026-11-17T09:00:00Z")
        let old = try await a.id(in: folder)
        _ = try await b.ok(["days"])
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: a.cli.database + suffix) }
        try FileManager.default.copyItem(atPath: saved, toPath: a.cli.database)

        let restored = try await a.run(["checkin", "--date", "2026-11-18", "--status", "remote"], now: "2026-11-18T09:00:00Z")
        #expect(restored.status == 0 && restored.stderr.contains("goes on as a new device"), "\(restored.stderr)")
        #expect(try await a.id(in: folder) != old)
        #expect(!(try await a.ok(["sync", "status"]).contains("goes on as a new device")), "said once")
        #expect(try await SyncDevicesTests.answers(a) == SyncDevicesTests.answers(b))
        #expect(try await a.ok(["days", "--json", "--from", "2026-11-16", "--to", "2026-11-18"]).contains("\"remote\""))
        #expect(try await b.ok(["days", "--json", "--from", "2026-11-16", "--to", "2026-11-18"]).contains("\"sick\""))
    }

    /// The laptop's database copied to a new laptop (same id); both write:
    /// the one that finds the other's line in its file goes on as a new
    /// device, and all three answer alike.
    @Test func aCopiedDatabaseConverges() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder), c = try Device("laptop", folder: folder)
        defer { [a, b, c].forEach { $0.cli.cleanup() } }
        _ = try await a.ok(["checkin", "--date", "2026-11-16", "--status", "office"], now: "2026-11-16T09:00:00Z")
        try FileManager.default.createDirectory(atPath: (c.cli.database as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: a.cli.database + suffix) {
            try FileManager.default.copyItem(atPath: a.cli.database + suffix, toPath: c.cli.database + suffix)
        }
        _ = try await c.ok(["checkin", "--date", "2026-11-17", "--status", "remote"], now: "2026-11-17T09:00:00Z")
        _ = try await a.ok(["checkin", "--date", "2026-11-18", "--status", "sick"], now: "2026-11-18T09:00:00Z")
        _ = try await c.ok(["checkin", "--date", "2026-11-19", "--status", "office"], now: "2026-11-19T09:00:00Z")
        #expect(try await a.id(in: folder) != c.id(in: folder))
        let answers = try await SyncDevicesTests.answers(a)
        #expect(try await SyncDevicesTests.answers(b) == answers)
        #expect(try await SyncDevicesTests.answers(c) == answers)
        for status in ["office", "remote", "sick"] { #expect(answers.contains("\"\(status)\"")) }
    }

    /// One check-in with the clock three hours ahead: later records on both
    /// devices say when they were written on their own clock, and once that
    /// device's clock is right again its line is stamped again, which the
    /// other device names instead of warning.
    @Test func aSkewedClockStampsNoOneElse() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        _ = try await a.ok(["checkin", "--date", "2026-11-19", "--status", "office"], now: "2026-11-20T12:19:00Z")
        _ = try await b.ok(["checkin", "--date", "2026-11-20", "--status", "remote"], now: "2026-11-20T09:05:00Z")
        let explain = try await a.ok(["explain", "2026-11-20"], now: "2026-11-20T09:06:00Z")
        #expect(explain.contains("09:05") && !explain.contains("12:19"), "\(explain)")
        let evidence = b.cli.folder.appendingPathComponent("evidence.html").path
        _ = try await b.ok(["evidence", "--period", "2026-11-20", "--out", evidence], now: "2026-11-20T09:06:00Z")
        let page = try String(contentsOfFile: evidence, encoding: .utf8)
        #expect(page.contains("2026-11-20 09:05"), "the desk's record written at its own time")
        // The laptop's clock is right again (its `explain` merged): its line was stamped again, which the
        // desk names on its line instead of warning of a clock ahead.
        let status = try await b.ok(["sync", "status"], now: "2026-11-20T09:10:00Z")
        #expect(!status.contains("h ahead of this device's") && status.contains("its clock ran ahead until"), "\(status)")
        _ = try await a.ok(["checkin", "--date", "2026-11-18", "--status", "office"], now: "2026-11-20T09:20:00Z")
        #expect(!(try await b.ok(["sync", "status"], now: "2026-11-20T09:25:00Z").contains("h ahead of this device's")))
    }

    /// With the agent serving the database and configuration, a read opens
    /// the database read-only and merges nothing: the agent alone merges
    /// and writes. Without the agent, the same read merges (once).
    @Test(.enabled(if: toolExists("strace"), "strace not installed: apt-get install strace"))
    func aReadWithTheAgentRunningOnlyReads() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder)
        defer { a.cli.cleanup() }
        _ = try await a.ok(["checkin", "--date", "2026-11-16"])
        let trace = a.cli.folder.appendingPathComponent("openat.txt").path
        let database = URL(fileURLWithPath: a.cli.database).resolvingSymlinksInPath().path
        /// The flags of every open of the database file by `days --json`.
        func opens() async throws -> [String] {
            try? FileManager.default.removeItem(atPath: trace)
            let result = try await a.cli.run(["days", "--json", "--from", "2026-11-16", "--to", "2026-11-16"],
                                             environment: ["DESKDAYS_NOW": "2026-11-20T17:00:00Z",
                                                           "XDG_RUNTIME_DIR": a.cli.folder.appendingPathComponent("run").path],
                                             launcher: ["strace", "-f", "-e", "trace=openat", "-o", trace])
            #expect(result.status == 0 && result.stdout.contains("2026-11-16"), "\(result.stderr)")
            let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            return lines.filter { $0.contains("\"\(database)\"") }.map(String.init)
        }
        // No agent: the read merges the folder, so it opens the file for writing.
        let alone = try await opens()
        #expect(alone.contains { $0.contains("O_RDWR") }, "\(alone)")
        // The agent at the default socket ($XDG_RUNTIME_DIR/deskdays/agent.sock) serves it: read-only, every time.
        let agent = try await AgentProcess(a.cli, socket: a.cli.folder.appendingPathComponent("run/deskdays/agent.sock").path)
        defer { agent.kill9() }
        let served = try await opens()
        #expect(!served.isEmpty && served.allSatisfy { $0.contains("O_RDONLY") && !$0.contains("O_RDWR") }, "\(served)")
    }
}
