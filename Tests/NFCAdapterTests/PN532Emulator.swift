import Foundation
import Spawn
import TestSupport
import Testing

/// The PN532 emulator of Tests/Harness/nfc/pn532_emulator.py on a pty;
/// a tag is in its field while `tagFile` exists.
final class PN532Emulator: @unchecked Sendable {
    @TaskLocal static var current: PN532Emulator?

    let directory = "/tmp/deskdays-nfc-\(getpid())/pn532"
    var link: String { directory + "/ttyPN532" }
    var tagFile: String { directory + "/tag" }
    /// Created by the emulator when the host first polls for targets.
    var pollingMarker: String { directory + "/polling" }
    /// How many presence checks of a tag in the field the emulator answered.
    var checksFile: String { directory + "/checks" }
    var connstring: String { "pn532_uart:" + link }
    private var process: Child?

    static func started() async throws -> PN532Emulator {
        let emulator = PN532Emulator()
        try FileManager.default.createDirectory(atPath: emulator.directory, withIntermediateDirectories: true)
        try await emulator.start()
        return emulator
    }

    /// Starts the emulator and waits until it says `ready` (its pty linked).
    func start() async throws {
        unlink(pollingMarker)
        unlink(checksFile)
        let output = directory + "/emulator.out"
        unlink(output)
        let process = try await Child.start(Tools.python, [Tools.harness + "/pn532_emulator.py", link, tagFile],
                                            stdout: .file(output))
        self.process = process
        let ready = await eventually("pn532_emulator.py to print ready") {
            (try? String(contentsOfFile: output, encoding: .utf8))?.hasPrefix("ready") == true || !process.isRunning
        }
        guard ready, process.isRunning else { throw HarnessError("pn532_emulator.py did not start") }
    }

    /// The serial PN532 vanishes (USB-serial unplugged).
    func stop() async {
        guard let process else { return }
        process.signal(SIGTERM)
        if await process.wait(seconds: 60) == nil {
            print("pn532_emulator.py still ran a minute after SIGTERM: killed")
            process.signal(SIGKILL)
            await process.wait()
        }
        self.process = nil
    }

    func present(_ tag: VirtualTag) throws {
        let temporary = tagFile + ".tmp"
        try Data(tag.line.utf8).write(to: URL(fileURLWithPath: temporary))
        _ = rename(temporary, tagFile)
    }

    func remove() {
        unlink(tagFile)
    }

    /// Forgets that a host polled: the next adapter must poll anew.
    func resetPolling() {
        unlink(pollingMarker)
    }

    /// Waits until a host is polling for targets since the last reset
    /// (libnfc opening the device can take seconds on a loaded machine).
    func waitUntilPolled() async -> Bool {
        await eventually("libnfc to poll the emulated PN532 for targets") {
            FileManager.default.fileExists(atPath: pollingMarker)
        }
    }

    /// Presence checks answered so far (READ of page 0 with a tag in the field).
    var checks: Int {
        (try? String(contentsOfFile: checksFile, encoding: .utf8)).flatMap { Int($0) } ?? 0
    }
}

/// Starts one PN532 emulator for the suite it is attached to.
struct PN532EmulatorScope: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let emulator = try await PN532Emulator.started()
        do {
            try await PN532Emulator.$current.withValue(emulator) { try await function() }
        } catch {
            await emulator.stop()
            throw error
        }
        await emulator.stop()
    }
}

extension Trait where Self == PN532EmulatorScope {
    /// One emulated PN532 on a pty for the suite.
    static var pn532: PN532EmulatorScope { PN532EmulatorScope() }
}
