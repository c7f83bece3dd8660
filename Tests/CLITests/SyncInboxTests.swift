import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Check-ins from devices without DeskDays: `inbox/*.txt` in the sync
/// folder, written by a third writer (a phone automation, a home server),
/// read by two devices that must come to byte-identical answers.
@Suite struct SyncInboxTests {
    typealias Device = SyncDevicesTests.Device

    /// The phone's file: Monday an arrival and a departure (time on site),
    /// Tuesday an arrival twice (a duplicate line: two arrivals, one day),
    /// a line that is not a check-in, one with a rule that is not a name,
    /// one a year ahead, Wednesday's arrival with CRLF, and Wednesday's
    /// departure torn (no newline yet: the writer is mid-append).
    static let phone = "2026-11-16T08:52:10+01:00 arrive hq\n"
        + "2026-11-16T17:30:00+01:00 leave hq\n"
        + "# Tasker, geofence hq\n"
        + "2026-11-17T09:00:00+01:00 arrive hq\n"
        + "2026-11-17T09:00:00+01:00 arrive hq\n"
        + "arrived at the office\n"
        + "2026-11-17T10:00:00+01:00 arrive 52.52,13.40\n"
        + "2027-11-17T10:00:00+01:00 arrive hq\n"
        + "2026-11-18T08:00:00+01:00 arrive hq\r\n"
        + "2026-11-18T16:00:00+01:00 leave hq"

    static func write(_ text: String, to path: String, append: Bool = false) throws {
        let fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0o644)
        guard fd >= 0 else { throw HarnessError("cannot write \(path)") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
    }

    @Test func twoDevicesApplyAnInboxAlike() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        // Time on site counts: a day needs 8.5 h.
        for device in [a, b] {
            try device.cli.writeConfig("[policy]\nmin_hours = 8.5\n[sync]\nfolder = \"\(folder)\"\ndevice_name = \"\(device.name)\"\n")
        }
        // Each device has written something of its own first.
        _ = try await a.ok(["checkin", "--date", "2026-11-19", "--status", "remote"], now: "2026-11-16T07:00:00Z")
        _ = try await b.ok(["checkin", "--date", "2026-11-20", "--status", "vacation"], now: "2026-11-16T07:05:00Z")
        try FileManager.default.createDirectory(atPath: folder + "/inbox", withIntermediateDirectories: true)
        try Self.write(Self.phone, to: folder + "/inbox/phone.txt")
        // A home server writes UTF-16 with a BOM; another writer Latin-1 (a comment with ü).
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in "2026-11-19T09:15:00Z arrive desk\n".utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try Data(utf16).write(to: URL(fileURLWithPath: folder + "/inbox/home-server.txt"))
        try Data([0x23, 0x20, 0x42, 0xFC, 0x72, 0x6F, 0x0A] + Array("2026-11-20T08:00:00+01:00 arrive hq\n".utf8))
            .write(to: URL(fileURLWithPath: folder + "/inbox/latin1.txt"))

        // The bad lines are named on stderr once, by FILE:LINE.
        let first = try await a.run(["days", "--from", "2026-11-16", "--to", "2026-11-20"], now: "2026-11-20T17:00:00Z")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("inbox/phone.txt:6:") && first.stderr.contains("inbox/phone.txt:7:")
                && first.stderr.contains("inbox/phone.txt has 1 line whose clock is more than a day ahead"), "\(first.stderr)")
        let again = try await a.run(["days", "--from", "2026-11-16", "--to", "2026-11-20"], now: "2026-11-20T17:00:00Z")
        #expect(!again.stderr.contains("inbox/phone.txt:6:"), "named once: \(again.stderr)")

        let answersA = try await SyncDevicesTests.answers(a), answersB = try await SyncDevicesTests.answers(b)
        #expect(answersA == answersB, "laptop:\n\(answersA)\ndesk:\n\(answersB)")
        // Monday: 07:52–16:30 UTC (the agent's and the tests' zone), 8.6 h on site.
        #expect(answersA.contains("\"first_seen\" : \"07:52\"") && answersA.contains("\"last_seen\" : \"16:30\""), "\(answersA)")
        let days = try await a.ok(["days", "--from", "2026-11-16", "--to", "2026-11-20"])
        let statuses = days.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first.map(String.init) ?? "" }
        // Monday 8.6 h; Tuesday and Wednesday arrivals without a leave (yet):
        // no time after them (docs/policy.md), so short of min_hours;
        // Thursday: the manual remote beats the home server's check-in; Friday: vacation beats the Latin-1 file's.
        #expect(statuses == ["office", "unrecorded", "unrecorded", "remote", "vacation"], "\(days)")
        let tuesday = try await b.ok(["explain", "2026-11-17"])
        #expect(tuesday.contains("external") && tuesday.contains("inbox/phone.txt"), "\(tuesday)")

        // sync status names each bad line and the torn one; the inbox is a device of its own.
        let status = try await b.ok(["sync", "status"])
        // Line 8, a year ahead of this clock, is held, not skipped.
        for line in ["inbox/phone.txt:6: it is not `TIME arrive|leave RULE`", "inbox/phone.txt:7: its rule:",
                     "inbox/phone.txt:8: applied from 2027-11-16T09:00:00Z:",
                     "inbox/phone.txt ends in an incomplete line"] {
            #expect(status.contains(line), "\(line) in \(status)")
        }
        #expect(status.contains("inbox/phone.txt") && status.contains("5 lines merged"), "\(status)")
        #expect(!status.contains("home-server.txt:") && !status.contains("latin1.txt:"), "\(status)")
        // Neither device journaled what it read as its own: the journals hold
        // no external sign; the laptop, first to read them, relayed them as the inbox's lines.
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".jsonl") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            #expect(file.hasPrefix("deskdays-relay-") == text.contains("external"), "\(file)")
        }
        // The inbox is never written.
        #expect(try String(contentsOfFile: folder + "/inbox/phone.txt", encoding: .utf8) == Self.phone)

        // Read again (twice, and after a touch): nothing changes.
        _ = try await a.ok(["sync", "status"])
        _ = try await b.ok(["sync", "status"])
        try Self.write("", to: folder + "/inbox/phone.txt", append: true)
        #expect(try await SyncDevicesTests.answers(a) == answersA)
        #expect(try await SyncDevicesTests.answers(b) == answersA)

        // The torn line completed: Wednesday's departure counts, on both.
        try Self.write("\n", to: folder + "/inbox/phone.txt", append: true)
        let completedA = try await SyncDevicesTests.answers(a), completedB = try await SyncDevicesTests.answers(b)
        #expect(completedA == completedB && completedA != answersA, "\(completedA)")
        #expect(completedA.contains("\"last_seen\" : \"15:00\""), "\(completedA)")
        // Wednesday's departure makes it 8 h on site: short of min_hours.
        let completed = try await b.ok(["days", "--from", "2026-11-18", "--to", "2026-11-18"])
        #expect(completed.contains("unrecorded") && completed.contains("07:00–15:00 8.0 h (short of 8.5 h)"), "\(completed)")
        #expect(!(try await b.ok(["sync", "status"])).contains("incomplete line"))
    }

    /// An inbox file is read as a stream: on from where the last read
    /// stopped, again from its start when what was read changed (even to
    /// the same size), blank lines free (a check-in after a million of
    /// them counts), CR-only line ends and a BOM mid-file read, a
    /// symbolic link refused by name, and no more than 16 MB read.
    @Test func inboxFilesAreReadAsAStream() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder)
        defer { a.cli.cleanup() }
        let inbox = folder + "/inbox"
        try FileManager.default.createDirectory(atPath: inbox, withIntermediateDirectories: true)
        func dates(_ from: String, _ to: String) async throws -> [String] {
            let days = try await a.ok(["days", "--from", from, "--to", to], now: "2026-11-28T17:00:00Z")
            return days.split(separator: "\n").filter { $0.contains("office") }.map { String($0.prefix(10)) }
        }
        try Self.write("2026-11-16T08:00:00Z arrive hq\n", to: inbox + "/phone.txt")
        #expect(try await dates("2026-11-16", "2026-11-20") == ["2026-11-16"])
        // Rewritten in place to the same size: read again (and the line held before stays).
        try Self.write("2026-11-17T08:00:00Z arrive hq\n", to: inbox + "/phone.txt")
        #expect(try await dates("2026-11-16", "2026-11-20") == ["2026-11-16", "2026-11-17"])
        // Old Mac line ends, and a second file appended with its BOM.
        try Self.write("2026-11-18T08:00:00Z arrive hq\r\u{FEFF}2026-11-19T08:00:00Z arrive hq\r", to: inbox + "/phone.txt", append: true)
        #expect(try await dates("2026-11-16", "2026-11-20") == ["2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19"])
        // 1,100,000 empty lines (more than the 2^20 lines an inbox file is
        // read up to), then a check-in: read, and the lines before are not read again.
        try Self.write(String(repeating: "\n", count: 1_100_000) + "2026-11-20T08:00:00Z arrive hq\n", to: inbox + "/phone.txt", append: true)
        #expect(try await dates("2026-11-16", "2026-11-20").count == 5)
        let status = try await a.ok(["sync", "status"], now: "2026-11-28T17:00:00Z")
        #expect(status.contains("Problems: none"), "\(status)")
        // A symbolic link is named as one; a file past 16 MB is read up to there and named.
        #expect(symlink("/etc/hostname", inbox + "/link.txt") == 0)
        try Self.write("#" + String(repeating: " ", count: 17_000_000) + "\n2026-11-23T08:00:00Z arrive hq\n", to: inbox + "/big.txt")
        let named = try await a.ok(["sync", "status"], now: "2026-11-28T17:00:00Z")
        #expect(named.contains("inbox/link.txt in the sync folder is a symbolic link, not an inbox file"), "\(named)")
        #expect(named.contains("inbox/big.txt is larger than 16 MB"), "\(named)")
        #expect(try await dates("2026-11-23", "2026-11-23").isEmpty)
    }

    /// A FIFO in the inbox is refused, never opened for reading (which would hang).
    @Test func onlyRegularFilesAreRead() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder)
        defer { a.cli.cleanup() }
        try FileManager.default.createDirectory(atPath: folder + "/inbox", withIntermediateDirectories: true)
        #expect(mkfifo(folder + "/inbox/fifo.txt", 0o600) == 0)
        try Self.write("2026-11-16T08:52:10+01:00 arrive hq\n", to: folder + "/inbox/phone.txt")
        let result = try await a.run(["sync", "status"], now: "2026-11-20T17:00:00Z")
        #expect(result.status == 0 && result.stdout.contains("inbox/fifo.txt in the sync folder is a FIFO"), "\(result.stdout)")
        #expect(try await a.ok(["days", "--from", "2026-11-16", "--to", "2026-11-16"]).contains("office"))
    }

    /// An appended line reaches the agent's pushed status by itself (inotify,
    /// no command run). Waited for as an event: how fast is bench/sync.sh's
    /// to measure, never a test's (a loaded machine would fail a time bound).
    @Test func theAgentAppliesAnAppendedLineAtOnce() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder)
        defer { a.cli.cleanup() }
        try FileManager.default.createDirectory(atPath: folder + "/inbox", withIntermediateDirectories: true)
        try Self.write("# the phone\n", to: folder + "/inbox/phone.txt")
        let agent = try await AgentProcess(a.cli)
        defer { agent.kill9() }
        #expect(await agent.waitForLog("watching the inbox"), "\(agent.logText)")
        let follow = try await StatusFollower(a.cli, socket: agent.socket)
        defer { follow.stop() }
        let office = try #require(await follow.waitForLine { _ in true })["office"] as? Int ?? 0
        try Self.write("\(AgentProcess.fixedDay)T07:55:00+00:00 arrive hq\n", to: folder + "/inbox/phone.txt", append: true)
        let pushed = await follow.waitForLine { ($0["office"] as? Int ?? 0) == office + 1 }
        #expect(pushed != nil, "\(agent.logText)")
        // A bad line is logged once, by FILE:LINE.
        try Self.write("\(AgentProcess.fixedDay)T08:00:00+00:00 stay hq\n", to: folder + "/inbox/phone.txt", append: true)
        #expect(await agent.waitForLog("inbox/phone.txt:3: its second word stay is neither arrive nor leave"), "\(agent.logText)")
        // Once: a later good line is merged, and the bad one is not named again.
        try Self.write("\(AgentProcess.fixedDay)T07:58:00+00:00 leave hq\n", to: folder + "/inbox/phone.txt", append: true)
        #expect(await agent.waitForLog("two merges") { $0.components(separatedBy: "merged 1 journal line").count == 3 }, "\(agent.logText)")
        #expect(agent.logText.components(separatedBy: "inbox/phone.txt:3:").count == 2, "\(agent.logText)")
    }
}
