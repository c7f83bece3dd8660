import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Trust like ssh: a sync folder, a calendar folder or a configuration that
/// another user owns or can write is refused in one sentence that names the
/// fix; a line planted in such a folder's inbox never becomes an office day.
/// The other user is `nobody` (uid 65534): CI runs as root, which may chown.
@Suite(.enabled(if: getuid() == 0, "needs root to give files to another user"))
struct TrustTests {
    static let nobody: uid_t = 65534

    @Test func anotherUsersSyncFolderIsNotReadAndItsInboxPlantsNothing() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = cli.folder.appendingPathComponent("shared").path
        try FileManager.default.createDirectory(atPath: folder + "/inbox", withIntermediateDirectories: true)
        try "2026-11-16 arrive hq\n2026-11-16 leave hq\n".write(toFile: folder + "/inbox/phone.txt", atomically: true, encoding: .utf8)
        chmod(folder, 0o777)
        chown(folder, Self.nobody, Self.nobody)
        try cli.writeConfig("[sync]\nfolder = \"\(folder)\"\ndevice_name = \"laptop\"\n")
        let status = try await cli.run(["sync", "status"])
        #expect(status.status == 1 && status.stderr.contains("belongs to another user (uid 65534)"), "\(status.stdout)\(status.stderr)")
        let days = try await cli.run(["days", "--from", "2026-11-16", "--to", "2026-11-16", "--today", "2026-11-20"])
        #expect(days.status == 0 && !days.stdout.contains("office"), "\(days.stdout)")
        #expect(days.stderr.contains("the sync folder is neither read nor written"), "\(days.stderr)")
        // Yours again, but writable by all: the fix is named.
        chown(folder, getuid(), getgid())
        let writable = try await cli.run(["sync", "status"])
        #expect(writable.status == 1 && writable.stderr.contains("can be written by other users (mode 777); `chmod go-w \(folder)`"),
                "\(writable.stderr)")
        chmod(folder, 0o755)
        #expect(try await cli.run(["sync", "status"]).status == 0)
    }

    @Test func aConfigurationLinkedToAnotherUsersFileIsRefused() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let theirs = cli.folder.appendingPathComponent("theirs").path
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
        try "[policy.target]\nkind = \"percent\"\nvalue = 1\n".write(toFile: theirs + "/config.toml", atomically: true, encoding: .utf8)
        chown(theirs + "/config.toml", Self.nobody, Self.nobody)
        chown(theirs, Self.nobody, Self.nobody)
        try FileManager.default.removeItem(atPath: cli.config)
        try FileManager.default.createSymbolicLink(atPath: cli.config, withDestinationPath: theirs + "/config.toml")
        let status = try await cli.run(["status"])
        #expect(status.status != 0 && status.stderr.contains("the configuration is not used")
                && status.stderr.contains("belongs to another user"), "\(status.stdout)\(status.stderr)")
    }

    @Test func aCalendarFolderOthersCanWriteIsNotRead() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let folder = cli.folder.appendingPathComponent("calendar").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:1@x\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;VALUE=DATE:20261116\r\nDTEND;VALUE=DATE:20261117\r\nSUMMARY:Office\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: folder + "/planted.ics", atomically: true, encoding: .utf8)
        chmod(folder, 0o777)
        try cli.writeConfig("[calendar]\nfolder = \"\(folder)\"\noffice = [\"Office\"]\n")
        let days = try await cli.run(["days", "--from", "2026-11-16", "--to", "2026-11-16", "--today", "2026-11-20"])
        #expect(!days.stdout.contains("office") && days.stderr.contains("calendar: the folder is not read")
                && days.stderr.contains("chmod go-w"), "\(days.stdout)\(days.stderr)")
    }
}
