import Foundation
import Spawn
import TestSupport
import Testing

/// Bounded reading, through the real CLI: a 20 GB sparse journal, 100 MB
/// of newlines and a line of a megabyte in the sync folder. Before, the
/// first was read whole ("failed to allocate 21474836512 bytes", a crash
/// loop under systemd) and the second took gigabytes. Every command
/// answers, `sync status` names each file or line, and the process stays
/// under 64 MB.
@Suite struct SyncHostileFolderTests {
    typealias Device = SyncDevicesTests.Device

    @Test func hugeAndEndlessFilesAreNamedAndSkipped() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        _ = try await b.ok(["checkin", "--date", "2026-11-16", "--status", "office"], now: "2026-11-16T09:00:00Z")

        let sparse = "deskdays-" + String(repeating: "1a", count: 16) + ".jsonl"
        let newlines = "deskdays-" + String(repeating: "2b", count: 16) + ".jsonl"
        let longLine = "deskdays-" + String(repeating: "3c", count: 16) + ".jsonl"
        #expect(FileManager.default.createFile(atPath: folder + "/" + sparse, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/" + sparse))
        try handle.truncate(atOffset: 20 << 30)
        try handle.close()
        let block = Data(repeating: 0x0A, count: 1 << 20)
        #expect(FileManager.default.createFile(atPath: folder + "/" + newlines, contents: nil))
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/" + newlines))
        for _ in 0..<100 { try writer.write(contentsOf: block) }
        try writer.close()
        // A line of a megabyte, then a good line of that device: the one is named, the other merged.
        let good = #"{"date":"2026-11-17","device":"\#(String(repeating: "3c", count: 16))","hlc":1794906000000,"n":0,"name":"phone","op":"record","origin":"manual","seq":1,"status":"sick","v":1}"#
        try Data((String(repeating: "x", count: 1 << 20) + "\n" + good + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/" + longLine))

        // Peak memory by /usr/bin/time when it is there (package `time`).
        let time = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? ["/usr/bin/time", "-f", "peak %M kB"] : []
        if time.isEmpty { print("/usr/bin/time is missing (apt-get install time): peak memory is not checked") }
        let now = "2026-11-20T17:00:00Z"
        let status = try await a.cli.run(["sync", "status"],
                                         environment: ["DESKDAYS_NOW": now, "XDG_RUNTIME_DIR": a.cli.folder.appendingPathComponent("run").path]
                                             .merging(Device.clockEnvironment) { $1 },
                                         launcher: time + Device.clock(at: now))
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("\(sparse) in the sync folder is larger than 64 MB"), "\(status.stdout)")
        #expect(status.stdout.contains("\(newlines) in the sync folder is larger than 64 MB"), "\(status.stdout)")
        #expect(status.stdout.contains("\(longLine):1: it is longer than 65536 bytes"), "\(status.stdout)")
        #expect(status.stdout.contains("  phone  3c3c3c3c"), "\(status.stdout)")
        if let peak = status.stderr.split(separator: "\n").last(where: { $0.hasPrefix("peak ") }), let kilobytes = Int(peak.split(separator: " ")[1]) {
            print("sync status over a hostile folder: peak \(kilobytes) kB")
            #expect(kilobytes < 64 * 1024, "\(peak)")
        }
        // Every command answers, the agent's merge too; the good lines are there.
        let days = try await a.ok(["days", "--from", "2026-11-16", "--to", "2026-11-17"])
        #expect(days.contains("office") && days.contains("sick"), "\(days)")
        let explain = try await b.run(["explain", "2026-11-17"], now: "2026-11-20T17:00:00Z")
        #expect(explain.status == 0 && explain.stdout.contains("sick"), "\(explain.stderr)")

        // The agent (no crash loop under systemd): it names both files in its
        // log, and is still running to stop cleanly.
        let agent = try await AgentProcess(a.cli)
        defer { agent.kill9() }
        #expect(await agent.waitForLog("\(sparse) in the sync folder is larger than 64 MB"), "\(agent.logText)")
        #expect(await agent.waitForLog("\(newlines) in the sync folder is larger than 64 MB"), "\(agent.logText)")
        #expect(await agent.stop() == 0, "\(agent.logText)")
    }
}
