import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Through the real CLI: lines planted in the sync folder (a
/// clock in the year 10000, counters at Int64.max, dates no door takes, a
/// departure seven months late, a 5,000-character rule, a far-future clear
/// from a device named like another, a name with a newline and ESC) and a
/// FIFO named like a journal: every command still answers (never exit 2 or
/// 132, never a hang), `sync status` names each refused line FILE:LINE and
/// prints names escaped, and the devices still converge.
@Suite struct SyncDoorTests {
    typealias Device = SyncDevicesTests.Device

    static func append(_ lines: [String], to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
        try handle.close()
    }

    /// Runs `body`; each time it is still running after 60 s more (a
    /// command blocked on the FIFO), the FIFO is opened for writing to
    /// release it. Whether it had to be.
    static func hangs(releasing fifo: String, _ body: () async throws -> Void) async rethrows -> Bool {
        final class Flag: @unchecked Sendable { var value = false }
        let released = Flag()
        // A guard, never a measure: it only fires when a command is stuck for a minute.
        let watchdog = Task.detached {
            while !Task.isCancelled {
                guard (try? await Task.sleep(for: .seconds(60))) != nil else { return }
                released.value = true
                let fd = open(fifo, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
            }
        }
        defer { watchdog.cancel() }
        try await body()
        return released.value
    }

    @Test func plantedLinesAndAFIFOBrickNothing() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        _ = try await b.ok(["checkin", "--date", "2026-11-16", "--status", "office"], now: "2026-11-16T09:00:00Z")
        _ = try await a.ok(["event", "--source", "gps", "--rule", "hq", "--at", "2026-11-17T08:30:00Z"], now: "2026-11-17T08:31:00Z")
        let idA = try await a.id(in: folder)
        let idB = try await b.id(in: folder)
        let fileA = "deskdays-\(idA).jsonl", fileB = "deskdays-\(idB).jsonl"
        let twin = String(repeating: "ab", count: 16), named = String(repeating: "c0", count: 16)
        func record(_ id: String, seq: String, date: String = "2026-11-18", hlc: String = "1795190000000", n: String = "0",
                    name: String = "desk") -> String {
            #"{"date":"\#(date)","device":"\#(id)","hlc":\#(hlc),"n":\#(n),"name":"\#(name)","op":"record","origin":"manual","seq":\#(seq),"status":"sick","v":1}"#
        }
        // Lines 2 to 7 of the desk's file, each refused.
        try Self.append([
            #"{"date":"2026-11-16","device":"\#(idB)","hlc":253402300800000,"n":0,"name":"desk","op":"clear","origins":["automatic","manual"],"seq":2,"v":1}"#,
            record(idB, seq: "3", n: "9223372036854775807"),
            record(idB, seq: "4", date: "2150-06-01"),
            record(idB, seq: "5", date: "0000-02-29"),
            #"{"at":"2026-11-16T17:00:00.000Z","date":"2026-04-16","device":"\#(idB)","hlc":1795190000000,"kind":"departure","n":0,"name":"desk","op":"sign","seq":6,"source":"wifi","v":1}"#,
            #"{"at":"2026-11-17T09:00:00.000Z","date":"2026-11-17","device":"\#(idB)","hlc":1795190000000,"kind":"arrival","n":0,"name":"desk","op":"sign","rule":"\#(String(repeating: "x", count: 5_000))","seq":7,"source":"nfc","v":1}"#,
        ], to: folder + "/" + fileB)
        // Line 2 of the laptop's own file: its own id, seq Int64.max.
        try Self.append([record(idA, seq: "9223372036854775807", name: "laptop")], to: folder + "/" + fileA)
        // A device named like the desk clears the 16th, clocked in 2099.
        try (#"{"date":"2026-11-16","device":"\#(twin)","hlc":4084732800000,"n":0,"name":"desk","op":"clear","origins":["automatic","manual"],"seq":1,"v":1}"# + "\n")
            .write(toFile: folder + "/deskdays-\(twin).jsonl", atomically: true, encoding: .utf8)
        // A good line whose device name would forge a line of output and clear the screen.
        try (record(named, seq: "1", date: "2026-11-20", name: #"x\nProblems: none\u001b[2J"#) + "\n")
            .write(toFile: folder + "/deskdays-\(named).jsonl", atomically: true, encoding: .utf8)
        let fifo = folder + "/deskdays-" + String(repeating: "e", count: 32) + ".jsonl"
        #expect(mkfifo(fifo, 0o600) == 0)

        var results: [String: CLIRunner.Result] = [:]
        let hung = try await Self.hangs(releasing: fifo) {
            for arguments in [["checkin", "--date", "2026-11-19", "--status", "remote"], ["report", "--json"],
                              ["days", "--from", "2026-11-16", "--to", "2026-11-20"], ["status"], ["sync", "status"],
                              ["explain", "2026-11-20"]] {
                results[arguments.joined(separator: " ")] = try await a.run(arguments, now: "2026-11-20T17:00:00Z")
            }
        }
        #expect(!hung, "a command waited on the FIFO")
        for (command, result) in results {
            #expect(result.status == 0, "\(command): \(result.status) \(result.stderr)")
        }
        let days = try #require(results["days --from 2026-11-16 --to 2026-11-20"]).stdout
        let statuses = days.split(separator: "\n").map { $0.split(separator: " ").dropFirst(2).first.map(String.init) ?? "" }
        // The 16th keeps the desk's office record (a clear from 2099 is held until then), the
        // 17th the laptop's check-in (no 5,000-character rule), the 18th no
        // sick record (n = Int64.max), the 19th this command's, the 20th the named device's.
        #expect(statuses == ["office", "office", "unrecorded", "remote", "sick"], "\(days)")

        let status = try #require(results["sync status"]).stdout
        var expected = (2...7).map { "\(fileB):\($0): " } + ["\(fileA):2: its seq", "deskdays-\(twin).jsonl:1: applied from 2099-"]
        expected += ["is a FIFO, not a journal file", #"x\nProblems: none\u{1B}[2J"#]
        for text in expected { #expect(status.contains(text), "\(text)\n\(status)") }
        #expect(!status.contains("\u{1B}"), "\(status)")
        #expect(status.split(separator: "\n").filter { $0.hasPrefix("Problems:") } == ["Problems:"], "\(status)")
        let explain = try #require(results["explain 2026-11-20"]).stdout
        #expect(explain.contains(#"(from x\nProblems: none\u{1B}[2J)"#) && !explain.contains("\u{1B}"), "\(explain)")

        // The laptop's own next line went out after its real ones: the desk
        // takes it, and both answer alike.
        var answers: [String] = []
        let waited = try await Self.hangs(releasing: fifo) {
            for device in [a, b] { answers.append(try await SyncDevicesTests.answers(device)) }
        }
        #expect(!waited && answers[0] == answers[1], "laptop:\n\(answers[0])\ndesk:\n\(answers[1])")
    }
}
