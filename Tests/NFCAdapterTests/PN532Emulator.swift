import Foundation
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
    var connstring: String { "pn532_uart:" + link }
    private var process: LineProcess?

    init() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try start()
    }

    func start() throws {
        unlink(pollingMarker)
        let process = try LineProcess(Tools.python, [Tools.harness + "/pn532_emulator.py", link, tagFile])
        guard process.readLine() == "ready" else { throw HarnessError("pn532_emulator.py did not start") }
        self.process = process
    }

    /// The serial PN532 vanishes (USB-serial unplugged).
    func stop() {
        process?.terminate()
        process = nil
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

    /// Waits until a host is polling for targets (libnfc opening the
    /// device can take seconds on a loaded machine), up to 30 s.
    func waitUntilPolled() async throws {
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: pollingMarker) {
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Present, hold, remove. Presence is seen in tens of milliseconds here;
    /// the hold only has to outlast one poll.
    func tap(_ tag: VirtualTag, holding seconds: Double = 0.6) async throws {
        try await waitUntilPolled()
        try present(tag)
        try await Task.sleep(for: .seconds(seconds))
        remove()
    }
}

/// Starts one PN532 emulator for the suite it is attached to.
struct PN532EmulatorScope: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let emulator = try PN532Emulator()
        defer { emulator.stop() }
        try await PN532Emulator.$current.withValue(emulator) { try await function() }
    }
}

extension Trait where Self == PN532EmulatorScope {
    /// One emulated PN532 on a pty for the suite.
    static var pn532: PN532EmulatorScope { PN532EmulatorScope() }
}
