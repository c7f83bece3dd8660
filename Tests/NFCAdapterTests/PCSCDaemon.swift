import Foundation
import Spawn
import TestSupport
import Testing

/// A private `pcscd -f` with vpcd, started through Tests/Harness/nfc/pcscd_ctl.py
/// (own mount and network namespace, stopped by PID), and the virtual cards
/// that join it.
final class PCSCDaemon: @unchecked Sendable {
    /// pcsc-lite reads `PCSCLITE_CSOCK_NAME` once per process, so every
    /// daemon of this process uses the same folder.
    static let directory = "/tmp/deskdays-nfc-\(getpid())/pcscd"

    @TaskLocal static var current: PCSCDaemon?

    private(set) var pid: Int32 = 0

    static func started() async throws -> PCSCDaemon {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        setenv("PCSCLITE_CSOCK_NAME", directory + "/run/pcscd.comm", 1)
        let daemon = PCSCDaemon()
        try await daemon.start()
        return daemon
    }

    func start() async throws {
        let printed = try await runTool(Tools.python, [Tools.harness + "/pcscd_ctl.py", "start", Self.directory])
        guard let pid = Int32(printed) else { throw HarnessError("pcscd_ctl.py printed \(printed)") }
        self.pid = pid
    }

    func stop() async {
        _ = try? await runTool(Tools.python, [Tools.harness + "/pcscd_ctl.py", "stop", Self.directory])
    }

    /// SIGKILL, as a crash would.
    func kill() async throws {
        try await runTool(Tools.python, [Tools.harness + "/pcscd_ctl.py", "kill", Self.directory])
    }

    /// A virtual card on reader `Virtual PCD 00 00` of this daemon, not yet inserted.
    func card(_ tag: VirtualTag) async throws -> VirtualCard {
        let process = try await LineProcess.start(Tools.python, [Tools.harness + "/vcard.py", "--netns", "/proc/\(pid)/ns/net"])
        let card = VirtualCard(process: process)
        try await card.load(tag)
        return card
    }
}

/// Presents and removes one virtual tag (Tests/Harness/nfc/vcard.py).
struct VirtualCard {
    let process: LineProcess

    /// The tag it presents from the next insert on.
    func load(_ tag: VirtualTag) async throws { try await process.send("tag " + tag.line) }
    func insert() async throws { try await process.send("insert") }
    func remove() async throws { try await process.send("remove") }
    func quit() async { await process.terminate() }

    /// How many times pcscd checked the card since it was inserted.
    func polls() async throws -> Int {
        let reply = try await process.send("polls")
        guard reply.hasPrefix("polls "), let count = Int(reply.dropFirst(6)) else { throw HarnessError("vcard.py: \(reply)") }
        return count
    }
}

/// Starts one pcscd for the whole suite it is attached to.
struct PCSCDaemonScope: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let daemon = try await PCSCDaemon.started()
        do {
            try await PCSCDaemon.$current.withValue(daemon) { try await function() }
        } catch {
            await daemon.stop()
            throw error
        }
        await daemon.stop()
    }
}

extension Trait where Self == PCSCDaemonScope {
    /// One private pcscd + vpcd for the suite.
    static var pcscd: PCSCDaemonScope { PCSCDaemonScope() }
}
