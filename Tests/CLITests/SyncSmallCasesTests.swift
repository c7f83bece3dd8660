import Foundation
import Spawn
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

    /// A clock that ran three days ahead and was set back (libfaketime holds
    /// each command's machine clock): its office line is held on the desk,
    /// which decides remote after it; once the laptop's clock is right, its
    /// line is stamped again, the laptop is told, both show the desk's later
    /// decision, `explain` and `doctor` say why, and the laptop's next
    /// decision wins on both within one merge.
    @Test func aClockThatRanAheadIsCorrectedAndTheDeviceIsTold() async throws {
        let folder = try SyncDevicesTests.makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let a = try Device("laptop", folder: folder), b = try Device("desk", folder: folder)
        defer { [a, b].forEach { $0.cli.cleanup() } }
        _ = try await b.ok(["checkin", "--date", "2026-11-18", "--status", "office"], now: "2026-11-19T08:00:00Z")
        _ = try await a.ok(["checkin", "--date", "2026-11-20", "--status", "office"], now: "2026-11-23T09:00:00Z")
        let held = try await b.ok(["sync", "status"], now: "2026-11-20T10:00:00Z")
        #expect(held.contains("Held until this device's clock reaches them:"), "\(held)")
        _ = try await b.ok(["checkin", "--date", "2026-11-20", "--status", "remote"], now: "2026-11-20T10:00:00Z")
        func status(_ device: Device, at now: String) async throws -> String {
            try await device.ok(["days", "--from", "2026-11-20", "--to", "2026-11-20"], now: now)
        }
        #expect(try await status(a, at: "2026-11-23T11:00:00Z").contains("office"))

        // The laptop's clock is right again: told, and the desk's later decision stands on both.
        let told = try await a.ok(["sync", "status"], now: "2026-11-20T12:00:00Z")
        #expect(told.contains("Note: this device's clock was 69 h ahead until it was set right: 1 change written on that clock was stamped again"), "\(told)")
        #expect(told.contains("This device's clock ran ahead until"), "\(told)")
        #expect(!(try await a.ok(["sync", "status"], now: "2026-11-20T12:01:00Z")).contains("Note: this device's clock was"))
        let desk = try await b.ok(["sync", "status"], now: "2026-11-20T12:05:00Z")
        #expect(!desk.contains("Held until"), "\(desk)")
        #expect(desk.contains("its clock ran ahead until"), "\(desk)")
        for device in [a, b] { #expect(try await status(device, at: "2026-11-20T12:10:00Z").contains("remote")) }
        let why = try await a.ok(["explain", "2026-11-20"], now: "2026-11-20T12:10:00Z")
        #expect(why.contains("(decides: written at a later clock time than laptop's)"), "\(why)")
        let doctor = try await a.run(["doctor"], now: "2026-11-20T12:10:00Z")
        #expect(doctor.stdout.contains("this device's clock ran ahead until"), "\(doctor.stdout)")

        // A decision on the laptop now, on a right clock: not held, and it wins on both.
        _ = try await a.ok(["checkin", "--date", "2026-11-20", "--status", "office"], now: "2026-11-20T13:00:00Z")
        for device in [a, b] { #expect(try await status(device, at: "2026-11-20T13:01:00Z").contains("office")) }
        #expect(!(try await b.ok(["sync", "status"], now: "2026-11-20T13:02:00Z")).contains("Held until"))
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
