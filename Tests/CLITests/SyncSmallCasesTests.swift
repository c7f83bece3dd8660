import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 53's smaller sync cases through the real CLI: `explain` says
/// which of two devices' records decides a date and why; `config check`
/// does not say OK over a sync folder every command refuses; an inbox
/// file whose name is not UTF-8 is named.
@Suite struct SyncSmallCasesTests {
    typealias Device = SyncDevicesTests.Device

    @Test func explainSaysWhichDevicesRecordDecidesAndWhy() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        _ = try await a.ok(["checkin", "--date", "2026-11-18", "--status", "office"], now: "2026-11-18T09:00:00Z")
        _ = try await b.ok(["checkin", "--date", "2026-11-18", "--status", "remote"], now: "2026-11-18T10:00:00Z")
        let later = try await a.ok(["explain", "2026-11-18"], now: "2026-11-18T11:00:00Z")
        let deciding = try #require(later.split(separator: "\n").first { $0.contains("remote (written") })
        #expect(deciding.contains("(from desk) (decides: written at a later clock time than laptop's)"), "\(later)")
        #expect(!later.split(separator: "\n").contains { $0.contains("office (written") && $0.contains("decides") }, "\(later)")

        // A third device's record at the very same clock time as the
        // laptop's on another date: the greater device id wins, and says so.
        _ = try await a.ok(["checkin", "--date", "2026-11-19", "--status", "office"], now: "2026-11-19T09:00:00Z")
        let idA = try await a.id(in: folder)
        let line = try #require(try String(contentsOfFile: folder + "/deskdays-\(idA).jsonl", encoding: .utf8)
            .split(separator: "\n").last { $0.contains("\"2026-11-19\"") })
        let greatest = String(repeating: "f", count: 32)
        let twin = line.replacingOccurrences(of: idA, with: greatest).replacingOccurrences(of: "\"laptop\"", with: "\"phone\"")
            .replacingOccurrences(of: "\"office\"", with: "\"sick\"")
        try Data((twin + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/deskdays-\(greatest).jsonl"))
        let tie = try await b.ok(["explain", "2026-11-19"], now: "2026-11-19T11:00:00Z")
        let sick = try #require(tie.split(separator: "\n").first { $0.contains("sick (written") }, "\(tie)")
        #expect(sick.contains("(from phone) (decides: written at the same clock time as laptop's; the greater device id wins)"), "\(tie)")
    }

    /// A clock that ran three days ahead and was set back: the device is told.
    @Test func theDeviceWhoseClockWentBackIsTold() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder)
        defer { a.cli.cleanup() }
        _ = try await a.ok(["checkin", "--date", "2026-11-20", "--status", "office"], now: "2026-11-23T09:00:00Z")
        let status = try await a.ok(["sync", "status"], now: "2026-11-20T09:00:00Z")
        #expect(status.contains("this device's clock is 72 h behind the latest change it wrote (2026-11-23T09:00:00"), "\(status)")
        #expect(!(try await a.ok(["sync", "status"], now: "2026-11-23T10:00:00Z")).contains("behind the latest change"))
    }

    @Test func configCheckIsNotOKOverARefusedSyncFolder() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder)
        defer { a.cli.cleanup() }
        #expect(try await a.ok(["config", "check"]).contains(": OK"))
        // Anyone may write there: every command refuses the folder, and so does the check.
        #expect(chmod(folder, 0o777) == 0)
        let check = try await a.run(["config", "check"], now: "2026-11-20T17:00:00Z")
        #expect(check.status == 1 && !check.stdout.contains(": OK") && check.stderr.contains("the sync folder is neither read nor written"),
                "\(check.stdout)\(check.stderr)")
    }

    @Test func anInboxFileNamedInNoUTF8IsNamed() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder)
        defer { a.cli.cleanup() }
        try FileManager.default.createDirectory(atPath: folder + "/inbox", withIntermediateDirectories: true)
        // "ph\xF6ne.txt": Latin-1, as an old NAS names it.
        let name = Array((folder + "/inbox/ph").utf8) + [0xF6] + Array("ne.txt".utf8) + [0]
        let fd = name.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o600) }
        #expect(fd >= 0)
        _ = "2026-11-18T08:00:00Z arrive hq\n".withCString { write(fd, $0, 31) }
        close(fd)
        let status = try await a.ok(["sync", "status"])
        #expect(status.contains("inbox/ph\\xf6ne.txt in the sync folder has a name that is not UTF-8 text"), "\(status)")
    }
}
