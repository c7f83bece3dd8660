import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Two dates are never one (docs/design.md "Two dates"): `--today`,
/// `DESKDAYS_TODAY` and `DESKDAYS_NOW` are the date a command answers for;
/// journal lines carry this machine's clock and other devices' lines are
/// checked against it. A line whose clock is ahead is held, never skipped.
@Suite struct TimeAndDevicesTests {
    typealias Device = SyncDevicesTests.Device

    /// Runs a command on `device` with exactly `environment` for the asked date (none: the clock's).
    static func ok(_ device: Device, _ arguments: [String], _ environment: [String: String] = [:]) async throws -> String {
        var env = environment
        env["XDG_RUNTIME_DIR"] = device.cli.folder.appendingPathComponent("run").path
        let result = try await device.cli.run(arguments, environment: env)
        #expect(result.status == 0, "\(device.name) \(arguments): \(result.stderr)")
        return result.stdout
    }

    /// The `hlc` of each line of a journal file, in milliseconds.
    static func clocks(_ path: String) throws -> [Int64] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["hlc"] as? NSNumber)?.int64Value
        }
    }

    @Test func aWhatIfDateNeitherStampsNorJudgesSyncedLines() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        let started = Int64(Date().timeIntervalSince1970 * 1000)

        // The desk records Monday; the laptop asks about a date a week before the clock's.
        _ = try await Self.ok(b, ["checkin", "--date", "2026-11-16", "--status", "office"])
        _ = try await Self.ok(a, ["days", "--today", "2026-11-20", "--from", "2026-11-16", "--to", "2026-11-20"])
        let afterQuestion = try await Self.ok(a, ["days", "--json", "--from", "2026-11-16", "--to", "2026-11-16"])
        #expect(afterQuestion.contains("\"status\" : \"office\""), "the desk's line was judged by the asked date: \(afterQuestion)")

        // The desk answers for dates ahead (a what-if date, `DESKDAYS_NOW` an
        // hour ahead): its journal keeps its own clock all the same.
        _ = try await Self.ok(b, ["checkin", "--today", "2026-12-02"])
        let anHourAhead = Date().addingTimeInterval(3600).formatted(.iso8601)
        _ = try await Self.ok(b, ["checkin", "--date", "2026-11-17", "--status", "remote"], ["DESKDAYS_NOW": anHourAhead])
        _ = try await Self.ok(b, ["checkin", "--date", "2026-11-18", "--status", "sick"], ["DESKDAYS_TODAY": "2027-01-15"])
        let ended = Int64(Date().timeIntervalSince1970 * 1000)
        // On this machine's clock, as every command here (a faked one would have gone back).
        let idB = try Device.id(inStatus: try await Self.ok(b, ["sync", "status"]))
        let clocks = try Self.clocks(folder + "/deskdays-\(idB).jsonl")
        #expect(clocks.count == 4 && clocks.allSatisfy { (started - 1000...ended + 1000).contains($0) },
                "journal clocks \(clocks) not within this machine's clock \(started)...\(ended)")

        // Both devices take every line, hold none, and answer alike.
        for device in [a, b] {
            let status = try await Self.ok(device, ["sync", "status"])
            #expect(status.contains("Problems: none") && !status.contains("Held"), "\(device.name): \(status)")
        }
        let range = ["days", "--json", "--from", "2026-11-16", "--to", "2026-12-04"]
        let answerA = try await Self.ok(a, range), answerB = try await Self.ok(b, range)
        #expect(answerA == answerB, "laptop:\n\(answerA)\ndesk:\n\(answerB)")
        for (date, status) in [("2026-11-16", "office"), ("2026-11-17", "remote"), ("2026-11-18", "sick"), ("2026-12-02", "office")] {
            let day = try await Self.ok(a, ["days", "--from", date, "--to", date])
            #expect(day.contains(status), "\(date): \(day)")
        }
    }

    /// A line whose clock is more than a day ahead of the agent's is held:
    /// `sync status` names it with the time it will be applied, the agent
    /// applies it when its clock gets there, with no change to any file.
    @Test func theAgentAppliesAHeldLineWhenItsClockGetsThere() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[sync]\nfolder = \"\(folder)\"\ndevice_name = \"laptop\"\n")
        let desk = "0123456789abcdef0123456789abcdef"
        // The agent's clock stands at 2026-03-10T08:00Z; the desk's line is stamped two days later.
        let ahead = Int64(try #require(ISO8601DateFormatter().date(from: AgentProcess.fixedNow)).timeIntervalSince1970 * 1000) + 2 * 86_400_000
        let line = #"{"date":"2026-03-09","device":"\#(desk)","hlc":\#(ahead),"n":0,"name":"desk","op":"record","origin":"manual","seq":1,"status":"office","v":1}"#
        try (line + "\n").write(toFile: folder + "/deskdays-\(desk).jsonl", atomically: true, encoding: .utf8)

        let agent = try await AgentProcess(cli, manualClock: true)
        defer { agent.kill9() }
        #expect(await agent.waitForLog("is held and applied once this clock reaches it"), "\(agent.logText)")
        #expect(try await Self.records(cli.database).isEmpty)
        // A day less a minute: still held.
        try agent.advance(seconds: 86_340)
        // Then past its time: the agent's own timer merges it.
        try agent.advance(seconds: 120)
        #expect(await agent.waitForLog("merged 1 journal line from the sync folder"), "\(agent.logText)")
        #expect(try await Self.records(cli.database) == ["2026-03-09 office"], "\(agent.logText)")
        #expect(await agent.stop() == 0)
    }

    /// A laptop restored from `deskdays backup` with its journal file (both
    /// as they were at the backup) goes on as a new device; the sick day it
    /// recorded after the backup, which the desk had merged, comes back to
    /// it through the desk's relay file, and both devices answer alike.
    @Test func aRestoreWithItsJournalGetsBackWhatTheOthersHold() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        let saved = a.cli.folder.appendingPathComponent("saved.sqlite").path
        let savedJournal = a.cli.folder.appendingPathComponent("saved.jsonl").path
        _ = try await a.ok(["checkin", "--date", "2026-11-16", "--status", "office"], now: "2026-11-16T09:00:00Z")
        _ = try await a.ok(["backup", saved], now: "2026-11-16T10:00:00Z")
        let old = try await a.id(in: folder)
        let journal = folder + "/deskdays-\(old).jsonl"
        try FileManager.default.copyItem(atPath: journal, toPath: savedJournal)
        _ = try await a.ok(["checkin", "--date", "2026-11-17", "--status", "sick"], now: "2026-11-17T09:00:00Z")
        _ = try await b.ok(["days"], now: "2026-11-17T10:00:00Z")

        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: a.cli.database + suffix) }
        try FileManager.default.copyItem(atPath: saved, toPath: a.cli.database)
        try FileManager.default.removeItem(atPath: journal)
        try FileManager.default.copyItem(atPath: savedJournal, toPath: journal)
        _ = try await a.ok(["checkin", "--date", "2026-11-18", "--status", "remote"], now: "2026-11-18T09:00:00Z")
        #expect(try await a.id(in: folder) != old)

        // The desk sees the laptop's journal lost a line it holds, and relays it.
        let desk = try await b.run(["days"], now: "2026-11-18T10:00:00Z")
        #expect(desk.stderr.contains("laptop's journal no longer holds 1 line this device has"), "\(desk.stderr)")
        let relay = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("deskdays-relay-") }
        #expect(relay.count == 1, "\(relay)")
        let answers = try await SyncDevicesTests.answers(a)
        #expect(try await SyncDevicesTests.answers(b) == answers)
        let days = try await a.ok(["days", "--from", "2026-11-16", "--to", "2026-11-18"])
        #expect(days.contains("sick") && days.contains("office") && days.contains("remote"), "\(days)")
        // Said once: the next merge relays nothing more.
        #expect(!(try await b.run(["days"], now: "2026-11-18T11:00:00Z")).stderr.contains("no longer holds"))
    }

    /// A clone (the laptop's disk copied to a second machine, database,
    /// configuration and all) writes under the laptop's identity into the
    /// same journal: whichever reads a line it did not write goes on as a
    /// new device, nothing either wrote is lost, and all three devices
    /// answer byte for byte alike.
    @Test func aCloneGoesOnAsANewDeviceAndEveryDeviceAgrees() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        let c = try Device("laptop", folder: folder)
        defer { [a, b, c].forEach { $0.cli.cleanup() } }
        _ = try await a.ok(["checkin", "--date", "2026-11-16", "--status", "office"], now: "2026-11-16T09:00:00Z")
        try FileManager.default.createDirectory(atPath: (c.cli.database as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: a.cli.database + suffix) {
            try FileManager.default.copyItem(atPath: a.cli.database + suffix, toPath: c.cli.database + suffix)
        }
        let id = try await a.id(in: folder)
        // Both write as the laptop, each unaware of the other.
        _ = try await a.ok(["checkin", "--date", "2026-11-17", "--status", "remote"], now: "2026-11-17T09:00:00Z")
        _ = try await c.ok(["checkin", "--date", "2026-11-18", "--status", "sick"], now: "2026-11-18T09:00:00Z")
        _ = try await a.ok(["checkin", "--date", "2026-11-19", "--status", "office"], now: "2026-11-19T09:00:00Z")
        _ = try await c.ok(["checkin", "--date", "2026-11-20", "--status", "vacation"], now: "2026-11-20T09:00:00Z")
        let ids = Set([try await a.id(in: folder), try await c.id(in: folder)])
        #expect(ids.count == 2, "the clone and the laptop keep one identity: \(ids) (was \(id))")
        // Merged everywhere (each reads the others twice: what one relays, the next read brings).
        for _ in 0..<2 { for device in [a, b, c] { _ = try await device.ok(["days"], now: "2026-11-20T17:00:00Z") } }
        let answers = try await SyncDevicesTests.answers(b)
        #expect(try await SyncDevicesTests.answers(a) == answers)
        #expect(try await SyncDevicesTests.answers(c) == answers)
        let days = try await b.ok(["days", "--from", "2026-11-16", "--to", "2026-11-20"])
        for status in ["office", "remote", "sick", "vacation"] { #expect(days.contains(status), "\(status) lost: \(days)") }
        #expect(days.split(separator: "\n").filter { $0.contains("office") }.count == 2, "\(days)")
    }

    /// The database replaced under a running agent (a restore by `mv`): a
    /// check-in is never written into the old, unlinked file; the agent
    /// ends (status 1, for systemd to restart it) and the record is in the
    /// file at the path, or the command says it was not stored.
    @Test func aDatabaseReplacedUnderTheAgentIsNeverWrittenBehindItsPath() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let now = ["DESKDAYS_NOW": AgentProcess.fixedNow]
        #expect(try await cli.run(["checkin", "--date", "2026-03-09", "--socket", agent.socket], environment: now).status == 0)
        // A copy renamed into place: the agent's open file is now unlinked.
        let copy = cli.database + ".restored"
        try FileManager.default.copyItem(atPath: cli.database, toPath: copy)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.copyItem(atPath: cli.database + suffix, toPath: copy + suffix) }
        let old = cli.database + ".old"
        try FileManager.default.moveItem(atPath: cli.database, toPath: old)
        try FileManager.default.moveItem(atPath: copy, toPath: cli.database)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cli.database + suffix) }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.moveItem(atPath: copy + suffix, toPath: cli.database + suffix) }

        let result = try await cli.run(["checkin", "--date", "2026-03-10", "--status", "remote", "--socket", agent.socket], environment: now)
        #expect(await agent.ended() == 1, "\(agent.logText)")
        #expect(agent.logText.contains("was replaced or removed while the agent had it open"), "\(agent.logText)")
        let atPath = try await Self.records(cli.database)
        if result.status == 0 {
            #expect(atPath == ["2026-03-09 office", "2026-03-10 remote"], "acknowledged: \(result.stdout)")
        } else {
            #expect(atPath == ["2026-03-09 office"] && !result.stdout.contains("Recorded"), "\(result.stdout)\(result.stderr)")
        }
        #expect(!(try await Self.records(old)).contains("2026-03-10 remote"), "nothing written into the renamed file")
        print("replaced database: the command exited \(result.status): \(result.stdout)\(result.stderr)")
    }

    /// The agent stopped (SIGSTOP) while two check-ins wait for it: each
    /// command writes directly after its wait, under its request id; the
    /// agent, continued, reads both requests and carries out neither. Two
    /// records, the one typed last deciding, never four in any order.
    @Test func aRequestItsClientGaveUpOnIsNotCarriedOutLater() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let agent = try await AgentProcess(cli)
        defer { agent.kill9() }
        let now = ["DESKDAYS_NOW": AgentProcess.fixedNow]
        agent.child.signal(SIGSTOP)
        for status in ["office", "remote"] {
            let result = try await cli.run(["checkin", "--date", "2026-03-09", "--status", status, "--socket", agent.socket], environment: now)
            #expect(result.status == 0 && result.stderr.contains("is not answering; writing the database directly"), "\(result.stderr)")
        }
        agent.child.signal(SIGCONT)
        #expect(await agent.waitForLog(seconds: 60, "both requests refused as carried out already") {
            $0.components(separatedBy: "was carried out already by its client").count == 3
        }, "\(agent.logText)")
        let manual = try await Self.records(cli.database)
        #expect(manual == ["2026-03-09 office", "2026-03-09 remote"], "\(manual)")
        let days = try await cli.run(["days", "--from", "2026-03-09", "--to", "2026-03-09"], environment: now)
        #expect(days.stdout.contains("remote"), "\(days.stdout)")
        #expect(await agent.stop() == 0)
    }

    /// The database's records, read beside the agent with the sqlite3 tool.
    static func records(_ database: String) async throws -> [String] {
        let result = try await Program.run("/usr/bin/sqlite3", ["-readonly", database,
                                                                "SELECT date || ' ' || status FROM record WHERE origin = 'manual' ORDER BY date, id"])
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// `sync status` names a held line with the time it will be applied,
    /// apart from the problems; the line is not in the answer until then.
    @Test func syncStatusNamesAHeldLine() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder)
        defer { a.cli.cleanup() }
        let desk = "0123456789abcdef0123456789abcdef"
        let ahead = Int64(Date().timeIntervalSince1970 * 1000) + 3 * 86_400_000
        let line = #"{"date":"2026-11-16","device":"\#(desk)","hlc":\#(ahead),"n":0,"name":"desk","op":"record","origin":"manual","seq":1,"status":"office","v":1}"#
        try (line + "\n").write(toFile: folder + "/deskdays-\(desk).jsonl", atomically: true, encoding: .utf8)
        for _ in 0..<2 {
            let status = try await Self.ok(a, ["sync", "status"])
            #expect(status.contains("Held until this device's clock reaches them:\n  - deskdays-\(desk).jsonl:1: applied from 20")
                    && status.contains("more than a day after this device's clock") && status.contains("Problems: none"), "\(status)")
        }
        let day = try await Self.ok(a, ["days", "--from", "2026-11-16", "--to", "2026-11-16"])
        #expect(!day.contains("office"), "\(day)")
    }

    /// The type system keeps the two dates apart: an `AskedTime` (what
    /// `--today` gives) does not compile where the hybrid clock or the
    /// journal wants this machine's clock; a `ClockTime` does.
    @Test func anAskedTimeDoesNotCompileWhereTheClockIsWanted() async throws {
        // The modules this build made, beside the test bundle.
        var modules = Bundle.main.bundleURL
        while !FileManager.default.fileExists(atPath: modules.appendingPathComponent("Modules/DeskDaysStore.swiftmodule").path),
              modules.path != "/" {
            modules.deleteLastPathComponent()
        }
        let swiftc = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard modules.path != "/", let swiftc else {
            print("skipped: no swiftc or no built DeskDaysStore module beside \(Bundle.main.bundleURL.path)")
            return
        }
        // The C modules DeskDaysSync's interface names (the clock and the journal are its): this package's and its packages'.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let maps = ["Sources/CIntl/module.modulemap", "Sources/CNettle/module.modulemap", "Sources/CICal/module.modulemap",
                    ".build/checkouts/TOMLKit/Sources/CTOML/include/CTOML/module.modulemap",
                    ".build/checkouts/swift-system/Sources/CSystem/include/module.modulemap",
                    ".build/checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap"]
            .map { root.appendingPathComponent($0).path }
        guard maps.allSatisfy(FileManager.default.fileExists(atPath:)) else {
            print("skipped: the module maps \(maps) are not all there (a build outside the package folder)")
            return
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-types-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        func typecheck(_ body: String) async throws -> Program.Output {
            let file = scratch.appendingPathComponent("check-\(UUID().uuidString.prefix(8)).swift")
            try ("import DeskDaysCore\nimport DeskDaysStore\nimport DeskDaysSync\nimport Foundation\n" + body).write(to: file, atomically: true, encoding: .utf8)
            return try await Program.run(swiftc, ["-typecheck", "-I", modules.appendingPathComponent("Modules").path]
                                         + maps.flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] } + [file.path])
        }
        let clock = try await typecheck("""
            func stamp(_ store: AttendanceStore) throws {
                let now = ClockTime.now()
                _ = HLC.next(after: nil, clock: now)
                _ = try store.journal([], now: now)
            }
            """)
        #expect(clock.status == 0, "\(clock.stderr)")
        for misuse in ["_ = HLC.next(after: nil, clock: AskedTime(fixed: Date()))",
                       "func stamp(_ store: AttendanceStore) throws { _ = try store.journal([], now: AskedTime(fixed: Date())) }",
                       "_ = HLC.next(after: nil, clock: Date())"] {
            let asked = try await typecheck(misuse)
            #expect(asked.status != 0 && asked.stderr.contains("cannot convert value of type"), "\(misuse): \(asked.stderr)")
        }
    }
}
