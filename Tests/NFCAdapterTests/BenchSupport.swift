import DeskDaysConfig
import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import Foundation
import TestSupport
import Logging
import NFCAdapter
import Testing

/// Tools the bench tests need, found the way a shell would (plus /usr/sbin).
enum Tools {
    static func has(_ name: String) -> Bool { path(name) != nil }

    static func path(_ name: String) -> String? {
        let env = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in env.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"] {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static let python = "/usr/bin/python3"
    static let vpcdDriver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"
    static let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Harness/nfc").path

    static var pcscBench: Bool {
        has("pcscd") && FileManager.default.fileExists(atPath: vpcdDriver) && has("unshare")
            && FileManager.default.isExecutableFile(atPath: python)
    }
    static let pcscSkipReason: Comment =
        "pcscd, vsmartcard-vpcd or /usr/bin/python3 missing: apt-get install pcscd vsmartcard-vpcd"
    static var libnfcBench: Bool {
        FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libnfc.so.6")
            || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libnfc.so.6")
    }
    static let libnfcSkipReason: Comment = "libnfc missing: apt-get install libnfc6 libnfc-bin"
}

/// Runs a helper and returns its stdout (trimmed); throws on non-zero exit.
@discardableResult
func runTool(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.spawn()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitForExit()
    guard process.exitStatus == 0 else {
        throw HarnessError("\(executable) \(arguments.joined(separator: " ")) exited \(process.exitStatus)")
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A helper process driven by lines on stdin, answering one line each.
final class LineProcess: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    init(_ executable: String, _ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.spawn()
    }

    /// Sends `line` and returns the reply line (blocking: helpers answer at once).
    @discardableResult
    func send(_ line: String) -> String {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        return readLine()
    }

    func readLine() -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[..<newline]
                buffer.removeSubrange(...newline)
                return String(decoding: line, as: UTF8.self)
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return "" }
            buffer.append(chunk)
        }
    }

    func terminate() {
        if process.isRunning {
            process.terminate()
            process.waitForExit()
        }
    }

    deinit { terminate() }
}

/// A Type 2 tag the harnesses present: its UID and memory from page 0.
struct VirtualTag: Sendable {
    var uid: [UInt8]
    var memory: [UInt8]

    static let deskUID: [UInt8] = [0x04, 0xA2, 0x24, 0x6A, 0x2F, 0x6E, 0x80]
    static let strangerUID: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]

    /// An NTAG213-like image holding `area` at page 4.
    init(uid: [UInt8], area: [UInt8]) {
        self.uid = uid
        let header: [UInt8] = Array(uid.prefix(3)) + [0x88] + Array(uid.dropFirst(3)) + [0x00, 0x48, 0x00, 0x00]
        let capabilityContainer: [UInt8] = [0xE1, 0x10, 0x12, 0x00]
        let padding = [UInt8](repeating: 0, count: max(0, 144 - area.count))
        memory = Array(header.prefix(12)) + capabilityContainer + area + padding
    }

    /// A tag whose NDEF message is one Text record.
    static func text(_ text: String, uid: [UInt8] = deskUID) -> VirtualTag {
        let payload = [0x02] + Array("en".utf8) + Array(text.utf8)
        let message: [UInt8] = [0xD1, 0x01, UInt8(payload.count), 0x54] + payload
        return VirtualTag(uid: uid, area: [0x03, UInt8(message.count)] + message + [0xFE])
    }

    /// A tag whose NDEF TLV claims more than it holds and whose record is cut.
    static func corrupt(uid: [UInt8] = deskUID) -> VirtualTag {
        VirtualTag(uid: uid, area: [0x03, 0x0A, 0xD1, 0x01, 0xFF, 0x54, 0x02, 0x65, 0x6E, 0x41, 0x42, 0x43, 0xFE])
    }

    var uidHex: String { uid.map { String(format: "%02X", $0) }.joined() }
    var line: String { uidHex + " " + memory.map { String(format: "%02X", $0) }.joined() }
}

/// An adapter running against a real store: collects the events it emits
/// and pushes each through `CheckInPipeline.submit`, as the agent does.
final class AdapterRun: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [CheckInEvent] = []
    private var task: Task<Void, Error>?
    let store: AttendanceStore
    let databaseDirectory: URL

    init(tags: [NFCSettings.Tag], reader: @escaping @Sendable () -> NFCTagReader,
         now: @escaping @Sendable () -> Date = { Date() }, afterStore: @escaping @Sendable () -> Void = {}) throws {
        databaseDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("deskdays-nfc-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: databaseDirectory, withIntermediateDirectories: true)
        store = try AttendanceStore(path: databaseDirectory.appendingPathComponent("db.sqlite").path)
        let pipeline = CheckInPipeline(store: store, policy: Policy())
        var settings = NFCSettings()
        settings.enabled = true
        settings.tags = tags
        let adapter = NFCCheckInAdapter(settings: settings, logger: testLogger, reader: reader, now: now)
        task = Task {
            try await adapter.run { event in
                do { _ = try await pipeline.submit(event) } catch { testLogger.error("submit: \(error)") }
                afterStore()
                self.lock.withLock { self.collected.append(event) }
            }
        }
    }

    var events: [CheckInEvent] { lock.withLock { collected } }

    /// NFC check-ins in the store.
    func storedCheckIns() throws -> [AutomaticCheckIn] {
        try store.checkIns(in: nil).filter { $0.source == .nfc }
    }

    /// Waits (up to `seconds`, a failure guard, not a timing assertion)
    /// until `count` events arrived; returns whether they did.
    func waitForEvents(_ count: Int, seconds: Double = 60) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while events.count < count, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return events.count >= count
    }

    func stop() async {
        task?.cancel()
        _ = try? await task?.value
        try? FileManager.default.removeItem(at: databaseDirectory)
    }
}

/// Settle time after a tap, so a duplicate event would have arrived.
func settle(_ seconds: Double = 1.0) async {
    try? await Task.sleep(for: .seconds(seconds))
}

/// Adapter logs on stderr, unbuffered, so a hung or failed run still shows them.
let testLogger = Logger(label: "test.nfc", factory: { label in StreamLogHandler.standardError(label: label) })
