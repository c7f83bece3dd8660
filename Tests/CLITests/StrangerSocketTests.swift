import Foundation
import Spawn
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A socket planted by another local user is never trusted: the CLI checks
/// the socket's folder (ours, mode 0700), the socket (ours) and the process
/// listening (our uid) before it sends a byte, and otherwise writes the
/// database itself and says why. (With `XDG_RUNTIME_DIR` unset the socket is
/// `/tmp/deskdays-<uid>/agent.sock`, which anyone could create first.)
@Suite(.serialized) struct StrangerSocketTests {
    static let isRoot = getuid() == 0

    /// A stranger's listener that answers every line with "Recorded" and stores nothing.
    final class Stranger {
        let process: Child
        init(user: String, socket: String) async throws {
            process = try await Child.start("/usr/bin/env", ["setpriv", "--reuid", user, "--regid", user, "--clear-groups", "socat",
                                                             "UNIX-LISTEN:\(socket),fork,mode=777",
                                                             #"SYSTEM:echo '{"ok":true,"dates":["2026-11-16"],"status":"office","output":"forged\n","clock":"system"}'"#],
                                            stdout: .inherit)
            // Listening, not only bound: a socket file appears before its listen(), and a
            // connection then is refused (as with no agent at all).
            #expect(await eventually("the stranger's socket \(socket) to accept a connection") { (try? TestSocketClient(path: socket)) != nil },
                    "the stranger's socket listens")
        }
        deinit { process.signal(SIGKILL) }
    }

    enum Plant: String, CaseIterable, Sendable { case strangersFolder, looseFolder, strangersProcess }

    @Test(.enabled(if: isRoot && toolExists("socat") && toolExists("setpriv") && toolExists("useradd"),
                   "needs root, socat, setpriv and useradd to act as a second local user"),
          arguments: Plant.allCases)
    func aPlantedSocketIsNotTrusted(_ plant: Plant) async throws {
        let cli = try CLIRunner()
        defer { cli.cleanup() }
        let name = "ddst\(UInt32.random(in: 10_000...99_999))"
        #expect(try await runTool(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name]).status == 0)
        try await withCleanup({
            let uid = try await runTool(["id", "-u", name]).output.trimmingCharacters(in: .whitespacesAndNewlines)
            chmod(cli.folder.path, 0o755)
            let folder = cli.folder.appendingPathComponent("run").path
            mkdir(folder, 0o700)
            let socket = folder + "/agent.sock"
            let stranger: Stranger
            switch plant {
            case .strangersFolder:
                // The stranger got there first: the folder and the socket are theirs.
                chown(folder, uid_t(uid)!, gid_t(uid)!)
                stranger = try await Stranger(user: uid, socket: socket)
            case .looseFolder:
                chmod(folder, 0o777)
                stranger = try await Stranger(user: uid, socket: socket)
            case .strangersProcess:
                // Our folder, a socket file that looks like ours, but another user listening on it.
                let side = cli.folder.appendingPathComponent("side").path
                mkdir(side, 0o777)
                chmod(side, 0o777)
                stranger = try await Stranger(user: uid, socket: side + "/s.sock")
                #expect(rename(side + "/s.sock", socket) == 0)
                chown(socket, 0, 0)
            }
            let checkin = try await cli.run(["checkin", "--date", "2026-11-16", "--socket", socket])
            #expect(checkin.status == 0, "\(checkin.stderr)")
            #expect(checkin.stderr.contains("not using the agent socket"), "\(plant): \(checkin.stderr)")
            let days = try await cli.run(["days", "--json", "--from", "2026-11-16", "--to", "2026-11-16"])
            #expect(days.stdout.contains("\"office\""), "the check-in is in the database itself (\(plant)): \(days.stdout)")
            // Nor is the stranger's answer printed as the status.
            let status = try await cli.run(["status", "--format", "json", "--socket", socket], environment: ["DESKDAYS_NOW": ""])
            #expect(status.status == 0 && !status.stdout.contains("forged"), "\(status.stdout)")
            withExtendedLifetime(stranger) {}
        }, cleanup: { _ = try? await runTool(["userdel", name]) })
    }
}
