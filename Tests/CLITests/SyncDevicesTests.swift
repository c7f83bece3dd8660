import Foundation
import Spawn
import TestSupport
import Testing

/// Several devices, one record: separate HOMEs and databases, one
/// `[sync] folder`, no agent (each command merges before it answers) and,
/// last, an agent that merges on its own when the folder changes.
@Suite struct SyncDevicesTests {
    /// One device: a CLIRunner of its own, syncing through `folder`.
    struct Device {
        let cli: CLIRunner
        let name: String

        init(_ name: String, folder: String) throws {
            cli = try CLIRunner()
            self.name = name
            try cli.writeConfig("[sync]\nfolder = \"\(folder)\"\ndevice_name = \"\(name)\"\n")
        }

        /// Runs a command with no agent on a machine whose clock reads
        /// `now` (libfaketime: journal lines carry the machine's clock,
        /// never the date a command answers for), answering for `now` too.
        @discardableResult
        func run(_ arguments: [String], now: String) async throws -> CLIRunner.Result {
            try await cli.run(arguments, environment: ["DESKDAYS_NOW": now, "XDG_RUNTIME_DIR": cli.folder.appendingPathComponent("run").path]
                                  .merging(Device.clockEnvironment) { $1 },
                              launcher: Device.clock(at: now))
        }

        /// `faketime` holding the machine's clock at `now` (RFC 3339, UTC), as `DESKDAYS_NOW` holds the asked time.
        static func clock(at now: String) -> [String] {
            guard toolExists("faketime") else {
                print("faketime is missing (deps/apt-test.txt): the command runs on the real clock")
                return []
            }
            return ["faketime", "-f", now.replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")]
        }

        /// Waits and timeouts keep the real monotonic clock.
        static let clockEnvironment = ["FAKETIME_DONT_FAKE_MONOTONIC": "1"]

        /// Runs a command that must succeed; its stdout.
        func ok(_ arguments: [String], now: String = "2026-11-20T17:00:00Z") async throws -> String {
            let result = try await run(arguments, now: now)
            #expect(result.status == 0, "\(name) \(arguments): \(result.stderr)")
            return result.stdout
        }

        /// This device's id, from its journal file's name.
        func id(in folder: String) async throws -> String {
            try Self.id(inStatus: try await ok(["sync", "status"]))
        }

        /// This device's id, as `sync status` names it.
        static func id(inStatus status: String) throws -> String {
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("This device:") })
            let open = try #require(line.firstIndex(of: "("))
            return String(line[line.index(after: open)...].prefix(32))
        }
    }

    static func makeFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-sync-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// What every device must print alike once merged.
    static func answers(_ device: Device) async throws -> String {
        try await device.ok(["report", "--json"]) + device.ok(["days", "--json", "--from", "2026-11-16", "--to", "2026-11-22"])
    }

    @Test func threeDevicesGiveByteIdenticalAnswers() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder), c = try Device("home", folder: folder)
        defer { [a, b, c].forEach { $0.cli.cleanup() } }
        // The laptop: an office record on Monday and a GPS check-in on Tuesday.
        _ = try await a.ok(["checkin", "--date", "2026-11-16", "--status", "office"], now: "2026-11-16T09:00:00Z")
        _ = try await a.ok(["event", "--source", "gps", "--rule", "hq", "--at", "2026-11-17T08:30:00Z"], now: "2026-11-17T08:31:00Z")
        // The desk, later: remote for the whole week (a range), and an import.
        _ = try await b.ok(["checkin", "--from", "2026-11-16", "--to", "2026-11-20", "--status", "remote", "--overwrite"], now: "2026-11-17T09:00:00Z")
        let csv = b.cli.folder.appendingPathComponent("hr.csv").path
        try "date,status,note\n2026-11-19,vacation,booked\n".write(toFile: csv, atomically: true, encoding: .utf8)
        _ = try await b.ok(["import", csv], now: "2026-11-17T09:05:00Z")
        // Home, later still: it has merged both, clears Monday's manual
        // records, and records Wednesday sick with a note.
        let cleared = try await c.ok(["clear", "--date", "2026-11-16", "--origin", "manual"], now: "2026-11-18T07:00:00Z")
        #expect(cleared.contains("office record") && cleared.contains("remote record"), "\(cleared)")
        _ = try await c.ok(["checkin", "--date", "2026-11-18", "--status", "sick", "--note", "flu"], now: "2026-11-18T07:05:00Z")

        var answers: [String] = []
        for device in [a, b, c] { answers.append(try await Self.answers(device)) }
        // days --json names the devices behind each date (Monday: all three).
        #expect(answers[0].contains("\"devices\" : [\n      \"desk\",\n      \"home\",\n      \"laptop\"\n    ]"), "\(answers[0])")
        #expect(answers[0] == answers[1] && answers[1] == answers[2], "laptop:\n\(answers[0])\ndesk:\n\(answers[1])\nhome:\n\(answers[2])")
        let days = try await a.ok(["days", "--from", "2026-11-16", "--to", "2026-11-20"])
        let statuses = days.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first.map(String.init) ?? "" }
        // Monday: the manual records cleared, nothing else; Tuesday: the
        // desk's remote record beats the laptop's check-in (manual first);
        // Wednesday: home's later sick; Thursday: the desk's manual remote
        // beats its own import; Friday: remote.
        #expect(statuses == ["unrecorded", "remote", "sick", "remote", "remote"], "\(days)")

        // explain names the device behind each entry, the same on every device.
        let explain = try await b.ok(["explain", "2026-11-17"])
        #expect(explain.contains("check-in  gps") && explain.contains("(from laptop)"), "\(explain)")
        #expect(explain.contains("remote (written 2026-11-17T09:00:00Z) (from desk)"), "\(explain)")
        let monday = try await a.ok(["explain", "2026-11-16"])
        #expect(monday.contains("removed   manual    office record") && monday.contains("(from home)"), "\(monday)")

        let status = try await a.ok(["sync", "status"])
        #expect(status.contains("This device: laptop") && status.contains("  desk  ") && status.contains("  home  ")
                && status.contains("Problems: none"), "\(status)")
        // Each other device with when it first appeared (its own clock on its first line).
        let deskLine = status.split(separator: "\n").first { $0.hasPrefix("  desk  ") } ?? ""
        let appeared = try Regex(#"first appeared \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d); "#)
        #expect(deskLine.contains(appeared), "\(status)")
        // Each device wrote only its own file, 0600; never the database.
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files.count == 3 && files.allSatisfy { $0.hasPrefix("deskdays-") && $0.hasSuffix(".jsonl") }, "\(files)")
        for file in files {
            let mode = try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600, "\(file)")
        }
    }

    /// A torn last line, a conflict copy, duplicated lines, a journal from a
    /// newer DeskDays, a deleted journal and a clock a day ahead: exit 0,
    /// warnings on stderr, nothing lost, nothing doubled.
    @Test func folderTroubleNeverBreaksTheAnswer() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        _ = try await b.ok(["checkin", "--date", "2026-11-16", "--status", "office"], now: "2026-11-16T09:00:00Z")
        let idB = try await b.id(in: folder)
        let fileB = folder + "/deskdays-\(idB).jsonl"
        let baseline = try await Self.answers(a)
        #expect(baseline.contains("\"office\" : 1"), "\(baseline)")

        // A line being written: not merged until its newline arrives.
        let lines = try String(contentsOfFile: fileB, encoding: .utf8).split(separator: "\n")
        let template = try #require(lines.last.map(String.init))
        let tuesday = template.replacingOccurrences(of: "2026-11-16", with: "2026-11-17")
            .replacingOccurrences(of: "\"seq\":\(lines.count)", with: "\"seq\":\(lines.count + 1)")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: fileB))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(tuesday.prefix(40).utf8))
        var result = try await a.run(["report", "--json"], now: "2026-11-20T17:00:00Z")
        #expect(result.status == 0 && result.stdout.contains("\"office\" : 1") && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
        #expect(try await a.ok(["sync", "status"]).contains("incomplete line"))
        try handle.write(contentsOf: Data((tuesday.dropFirst(40) + "\n").utf8))
        try handle.close()
        #expect(try await a.ok(["report", "--json"]).contains("\"office\" : 2"))

        // A conflict copy (Syncthing's name) saying otherwise: never read.
        let conflict = folder + "/deskdays-\(idB).sync-conflict-20261118-093000-ABCDEFG.jsonl"
        try (template + "\n")
            .write(toFile: conflict, atomically: true, encoding: .utf8)
        result = try await a.run(["report", "--json"], now: "2026-11-20T17:00:00Z")
        #expect(result.status == 0 && result.stdout.contains("\"office\" : 2") && result.stderr.contains("conflict copy"), "\(result.stderr)")
        #expect(try await a.ok(["sync", "status"]).contains("sync-conflict"))
        try FileManager.default.removeItem(atPath: conflict)

        // The journal duplicated into itself (a synchroniser replaying a write): nothing doubles.
        let whole = try String(contentsOfFile: fileB, encoding: .utf8)
        try (whole + whole).write(toFile: fileB, atomically: false, encoding: .utf8)
        let merged = try await Self.answers(a)
        #expect(try await Self.answers(b) == merged)
        #expect(try await a.ok(["explain", "2026-11-16"]).components(separatedBy: "record    manual").count == 2)

        // A journal from a newer DeskDays: skipped with one warning.
        let future = folder + "/deskdays-" + String(repeating: "f", count: 32) + ".jsonl"
        try "{\"v\":2,\"device\":\"\(String(repeating: "f", count: 32))\",\"op\":\"teleport\"}\n"
            .write(toFile: future, atomically: true, encoding: .utf8)
        result = try await a.run(["report", "--json"], now: "2026-11-20T17:00:00Z")
        #expect(result.status == 0 && result.stderr.components(separatedBy: "newer DeskDays").count == 2, "\(result.stderr)")
        try FileManager.default.removeItem(atPath: future)

        // The desk's journal deleted: what was merged stays.
        try FileManager.default.removeItem(atPath: fileB)
        #expect(try await Self.answers(a) == merged)
        #expect(try await a.ok(["sync", "status"]).contains("desk's journal file is not in the folder"))
        // The desk writes again: its file comes back whole, and the laptop holds the same.
        _ = try await b.ok(["checkin", "--date", "2026-11-18", "--status", "remote"], now: "2026-11-18T09:00:00Z")
        #expect(try await Self.answers(a) == Self.answers(b))

        // A device whose clock is a day ahead: reported; a record made here
        // after seeing its line still wins, on both devices.
        let ahead = try Device("fast", folder: folder)
        defer { ahead.cli.cleanup() }
        _ = try await ahead.ok(["checkin", "--date", "2026-11-20", "--status", "travel"], now: "2026-11-21T17:00:00Z")
        let skew = try await a.ok(["sync", "status"])
        #expect(skew.contains("fast's clock was 24 h ahead"), "\(skew)")
        _ = try await a.ok(["checkin", "--date", "2026-11-20", "--status", "office"], now: "2026-11-20T17:05:00Z")
        for device in [a, ahead, b] {
            #expect(try await device.ok(["days", "--from", "2026-11-20", "--to", "2026-11-20"]).contains("office"), "\(device.name)")
        }
        #expect(try await ahead.ok(["days", "--json", "--from", "2026-11-20", "--to", "2026-11-20"])
                == a.ok(["days", "--json", "--from", "2026-11-20", "--to", "2026-11-20"]))

        // sync forget: the desk's entries leave on purpose, and stay out.
        let forgot = try await a.ok(["sync", "forget", String(idB.prefix(8))])
        #expect(forgot.contains("Forgot desk"), "\(forgot)")
        #expect(!(try await a.ok(["days", "--from", "2026-11-16", "--to", "2026-11-18"]).contains("office")))
        #expect(try await a.run(["sync", "forget", "laptop"], now: "2026-11-20T17:00:00Z").status == 1)
    }

    @Test func syncCommandsWithoutSyncSayHowToTurnItOn() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let result = try await cli.run(["sync", "status"])
        #expect(result.status == 1 && result.stderr.split(separator: "\n").count == 1 && result.stderr.contains("[sync] folder"),
                "\(result.stderr)")
        try cli.writeConfig("[sync]\nfolder = \"\(cli.folder.path)/sync\"\n")
        try FileManager.default.createDirectory(atPath: cli.folder.path + "/sync", withIntermediateDirectories: true)
        let unknown = try await cli.run(["sync", "forget", "nowhere"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no device named nowhere"), "\(unknown.stderr)")
        // A folder out of reach (here a file in its place) delays the files, never an answer.
        let file = cli.folder.appendingPathComponent("not-a-folder").path
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        try cli.writeConfig("[sync]\nfolder = \"\(file)\"\n")
        let recorded = try await cli.run(["checkin", "--date", "2026-11-16"], environment: ["DESKDAYS_NOW": "2026-11-18T09:00:00Z"])
        #expect(recorded.status == 0 && recorded.stderr.contains("is not a folder"), "\(recorded.stderr)")
        let report = try await cli.run(["report", "--json"], environment: ["DESKDAYS_NOW": "2026-11-18T09:00:00Z"])
        #expect(report.status == 0 && report.stdout.contains("\"office\" : 1"), "\(report.stderr)")
        #expect(try await cli.run(["sync", "status"]).status == 1)
    }

    /// A device with history turns sync on: the history is written into its
    /// journal once, and another device ends up with the same answers.
    @Test func historyIsJournaledOnce() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder)
        defer { a.cli.cleanup() }
        try a.cli.writeConfig("")
        _ = try await a.ok(["checkin", "--from", "2026-11-16", "--to", "2026-11-18", "--status", "office"], now: "2026-11-16T09:00:00Z")
        _ = try await a.ok(["event", "--source", "wifi", "--rule", "hq", "--at", "2026-11-19T08:00:00Z"], now: "2026-11-19T08:00:00Z")
        _ = try await a.ok(["clear", "--date", "2026-11-18"], now: "2026-11-19T09:00:00Z")
        // (days --json gains `devices` with sync: compare the text listing.)
        func answers(_ device: Device) async throws -> String {
            try await device.ok(["report", "--json"]) + device.ok(["days", "--from", "2026-11-16", "--to", "2026-11-22"])
        }
        let before = try await answers(a)
        try a.cli.writeConfig("[sync]\nfolder = \"\(folder)\"\ndevice_name = \"laptop\"\n")
        #expect(try await answers(a) == before)
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first)
        let count = try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n").count
        #expect(count == 2 + 2 + 1, "2 records left, an arrival with its latest sign, a removal")
        _ = try await a.ok(["status"])
        #expect(try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n").count == count)
        let b = try Device("desk", folder: folder)
        defer { b.cli.cleanup() }
        #expect(try await answers(b) == before)
    }

    /// The agent merges a file change on its own: a check-in on another
    /// device reaches this device's `status --follow` without a command here.
    @Test func theAgentMergesWhenTheFolderChanges() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        let agent = try await AgentProcess(a.cli)
        defer { agent.kill9() }
        #expect(await agent.waitForLog("watching the sync folder"), "\(agent.logText)")
        let follow = try await StatusFollower(a.cli, socket: agent.socket)
        defer { follow.stop() }
        let first = try #require(await follow.waitForLine { _ in true })
        let office = first["office"] as? Int ?? 0
        _ = try await b.ok(["checkin", "--date", AgentProcess.fixedDay, "--status", "office"], now: AgentProcess.fixedNow)
        let pushed = await follow.waitForLine { ($0["office"] as? Int ?? 0) == office + 1 }
        #expect(pushed != nil, "\(agent.logText)")
        #expect(await agent.waitForLog("merged 1 journal line"), "\(agent.logText)")
        // The agent's own check-in reaches the desk.
        let socketClient = try TestSocketClient(path: agent.socket)
        let reply = socketClient.request(#"{"cmd":"checkin","dates":["2026-03-09"],"status":"office"}"#)
        #expect(reply?["ok"] as? Bool == true, "\(String(describing: reply))")
        // (The agent stamps its line with the machine's clock, whatever its DESKDAYS_NOW: read on that clock, not a faked one.)
        let days = try await b.cli.run(["days", "--from", "2026-03-09", "--to", "2026-03-09"],
                                       environment: ["DESKDAYS_NOW": AgentProcess.fixedNow, "XDG_RUNTIME_DIR": b.cli.folder.appendingPathComponent("run").path])
        #expect(days.status == 0 && days.stdout.contains("office"), "\(days.stdout)\(days.stderr)")
    }
}
