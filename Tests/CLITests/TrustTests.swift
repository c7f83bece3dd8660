import Foundation
import Spawn
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

    /// A socket another user planted where the agent serves without a
    /// runtime folder (/tmp/deskdays-UID) does not keep the agent from
    /// starting: in a folder that is not this user's own, the agent and its
    /// clients use `$XDG_STATE_HOME/deskdays/agent.sock` instead and the
    /// agent says so; in this user's own folder, the planted socket is removed.
    @Test func aPlantedSocketDoesNotKeepTheAgentFromStarting() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        try cli.writeConfig("[policy]\n")
        let planted = "/tmp/deskdays-\(Self.nobody)"
        defer { try? FileManager.default.removeItem(atPath: planted) }
        try? FileManager.default.removeItem(atPath: planted)
        // Root (the other user here) plants a folder open to all, and a socket listening in it.
        #expect(mkdir(planted, 0o777) == 0 && chmod(planted, 0o777) == 0)
        func listen(at path: String) throws -> Int32 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0, Glibc.listen(fd, 4) == 0 else { throw HarnessError("cannot listen at \(path)") }
            chmod(path, 0o777)
            return fd
        }
        let plantedFD = try listen(at: planted + "/agent.sock")
        defer { close(plantedFD) }
        // Everything of the test's user (nobody) is nobody's, and nobody runs
        // a copy of the executables: the checkout may be out of its reach
        // (a clone in a 0700 folder, or owned by another user).
        let binary = try CLIRunner.reachableCopy(in: cli.folder.path + "/bin")
        _ = try await Program.run("/bin/chown", ["-R", "\(Self.nobody):\(Self.nobody)", cli.folder.path])
        let asNobody = ["/usr/bin/setpriv", "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups"]
        let environment = ["XDG_RUNTIME_DIR": "", "XDG_STATE_HOME": "", "DESKDAYS_LOG": "info", "DESKDAYS_NOW": ""]
        let instead = cli.folder.path + "/.local/state/deskdays/agent.sock"
        let agent = try await AgentProcess(cli, socket: instead, socketByDefault: true, environment: environment, launcher: asNobody,
                                           binary: binary)
        defer { agent.kill9() }
        #expect(agent.logText.contains("\(planted) is not this user's own folder (another user made it); the control socket is \(instead) instead"),
                "\(agent.logText)")
        // (The agent refuses root's connections: it is asked as nobody, until
        // it answers: a loaded machine's starting agent can take the CLI's 2 s.)
        func answered(at socket: String) async -> Bool {
            await eventually("the agent at \(socket) to answer nobody's `status`") {
                let status = try? await cli.run(["status", "--format", "json"], environment: environment, launcher: asNobody, binary: binary)
                return status?.stderr.contains("answered by the agent at \(socket)") == true
            }
        }
        #expect(await answered(at: instead))
        #expect(await agent.stop() == 0)

        // The folder is nobody's own now (0700), but root's socket is still in it: removed, and served on.
        #expect(chown(planted, Self.nobody, Self.nobody) == 0 && chmod(planted, 0o700) == 0)
        let own = try await AgentProcess(cli, socket: planted + "/agent.sock", socketByDefault: true, environment: environment,
                                         launcher: asNobody, binary: binary)
        defer { own.kill9() }
        // (Root's socket answered at once: the agent's own is known by its log.)
        #expect(await own.waitForLog("control socket ready"), "\(own.logText)")
        #expect(own.logText.contains("removed a socket that another user's process listened on"), "\(own.logText)")
        #expect(await answered(at: planted + "/agent.sock"))
        #expect(await own.stop() == 0)
    }
}
