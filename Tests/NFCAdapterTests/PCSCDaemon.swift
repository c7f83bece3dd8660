import Foundation
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

    init() throws {
        try FileManager.default.createDirectory(atPath: Self.directory, withIntermediateDirectories: true)
        setenv("PCSCLITE_CSOCK_NAME", Self.directory + "/run/pcscd.comm", 1)
        try start()
    }

    func start() throws {
        let printed = try runTool(Tools.python, [Tools.harness + "/pcscd_ctl.py", "start", Self.directory])
        guard let pid = Int32(printed) else { throw HarnessError("pcscd_ctl.py printed \(printed)") }
        self.pid = pid
    }

    func stop() {
        _ = try? runTool(Tools.python, [Tools.harness + "/pcscd_ctl.py", "stop", Self.directory])
    }

    /// SIGKILL, as a crash would.
    func kill() throws {
        try runTool(Tools.python, [Tools.harness + "/pcscd_ctl.py", "kill", Self.directory])
    }

    /// A virtual card on reader `Virtual PCD 00 00` of this daemon.
    func card(_ tag: VirtualTag) throws -> VirtualCard {
        let process = try LineProcess(Tools.python, [Tools.harness + "/vcard.py", "--netns", "/proc/\(pid)/ns/net"])
        process.send("tag " + tag.line)
        return VirtualCard(process: process)
    }
}

/// Presents and removes one virtual tag.
struct VirtualCard {
    let process: LineProcess
    func insert() { process.send("insert") }
    func remove() { process.send("remove") }
    func quit() { process.terminate() }

    /// Insert, hold (≥ 1 s: pcscd polls vpcd about every 400 ms), remove.
    func tap(holding seconds: Double = 1.2) async {
        insert()
        try? await Task.sleep(for: .seconds(seconds))
        remove()
    }
}

/// Starts one pcscd for the whole suite it is attached to.
struct PCSCDaemonScope: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let daemon = try PCSCDaemon()
        defer { daemon.stop() }
        try await PCSCDaemon.$current.withValue(daemon) { try await function() }
    }
}

extension Trait where Self == PCSCDaemonScope {
    /// One private pcscd + vpcd for the suite.
    static var pcscd: PCSCDaemonScope { PCSCDaemonScope() }
}
