import Foundation
import Spawn
import TestSupport
import Testing

/// A file system that fills up mid-write: the write that does not fit is
/// refused in one sentence, everything acknowledged before it is still
/// there, the database stays whole, and writing works again once there is room.
@Suite struct FullDiskTests {
    @Test(.enabled(if: getuid() == 0 && toolExists("mount"), "needs root to mount a 1 MB tmpfs"))
    func aFullFileSystemLosesNothingAcknowledged() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let mountPoint = cli.folder.appendingPathComponent("data").path
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        #expect(try await runTool(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint]).status == 0)
        try await withCleanup({
            let none = ["--socket", cli.folder.appendingPathComponent("none.sock").path]
            let note = String(repeating: "n", count: 1000)
            var acknowledged: [LocalMonth] = []
            var refusal: CLIRunner.Result?
            // Each call records the workdays of one month with a long note, until one does not fit.
            var month = LocalMonth(year: 1990, month: 1)
            for _ in 0..<600 {
                let result = try await cli.run(["checkin", "--from", month.first, "--to", month.last, "--note", note] + none)
                if result.status != 0 { refusal = result; break }
                acknowledged.append(month)
                month = month.next
            }
            let refused = try #require(refusal, "1 MB never filled up")
            #expect(!acknowledged.isEmpty)
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            #expect(refused.stderr.contains("disk space") || refused.stderr.contains("full"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("Error Domain"), "\(refused.stderr)")

            // Every acknowledged month is there, and the file passes quick_check.
            let doctor = try await cli.run(["doctor"] + none)
            #expect(doctor.stdout.contains("ok      the database passes SQLite's quick_check"), "\(doctor.stdout)")
            for stored in acknowledged {
                let days = try await cli.run(["days", "--from", stored.first, "--to", stored.last])
                let office = days.stdout.split(separator: "\n").filter { $0.contains(" office ") }.count
                #expect(office >= 20, "\(stored.first): \(office) office days of an acknowledged month: \(days.stdout)\(days.stderr)")
            }

            // Room again: the same database takes writes.
            #expect(try await runTool(["mount", "-o", "remount,size=8m", mountPoint]).status == 0)
            let after = try await cli.run(["checkin", "--from", month.first, "--to", month.last, "--note", note, "--overwrite"] + none)
            #expect(after.status == 0, "\(after.stderr)")
        }, cleanup: { _ = try? await runTool(["umount", mountPoint]) })
    }
}

/// A calendar month, for filling a database a month at a time.
struct LocalMonth {
    var year: Int
    var month: Int

    var first: String { String(format: "%04d-%02d-01", year, month) }
    var last: String {
        let days = [31, (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return String(format: "%04d-%02d-%02d", year, month, days[month - 1])
    }
    var next: LocalMonth { month == 12 ? LocalMonth(year: year + 1, month: 1) : LocalMonth(year: year, month: month + 1) }
}
