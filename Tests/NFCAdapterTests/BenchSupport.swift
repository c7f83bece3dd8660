import DeskDaysConfig
import DeskDaysCore
import DeskDaysPipeline
import DeskDaysStore
import Foundation
import Spawn
import TestSupport
import Logging
import NFCAdapter
import Synchronization
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
func runTool(_ executable: String, _ arguments: [String]) async throws -> String {
    let result = try await Program.run(executable, arguments, stderr: .discard)
    guard result.status == 0, !result.terminatedBySignal else {
        throw HarnessError("\(executable) \(arguments.joined(separator: " ")) exited \(result.status)")
    }
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A helper process driven by lines on stdin, answering one line each.
/// Spawn gives a child no pipe, so its stdin and stdout are two named pipes
/// in a folder of its own, opened by a shell in the child before it execs
/// the helper; this side holds the other ends (read-write, so neither open
/// waits for the other side).
final class LineProcess: @unchecked Sendable { // one test task drives it
    private let child: Child
    private let name: String
    private let folder: String
    private var input: Int32, output: Int32
    private var buffer: [UInt8] = []

    static func start(_ executable: String, _ arguments: [String]) async throws -> LineProcess {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deskdays-line-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let inPath = folder + "/in", outPath = folder + "/out"
        guard mkfifo(inPath, 0o600) == 0, mkfifo(outPath, 0o600) == 0 else { throw HarnessError("mkfifo in \(folder): errno \(errno)") }
        let input = open(inPath, O_RDWR | O_CLOEXEC), output = open(outPath, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0, output >= 0 else { throw HarnessError("cannot open the pipes in \(folder): errno \(errno)") }
        let child = try await Child.start("/bin/sh", ["-c", #"exec "$0" "$@" <"\#(inPath)" >"\#(outPath)""#, executable] + arguments)
        let name = ([executable] + arguments).map { ($0 as NSString).lastPathComponent }.joined(separator: " ")
        return LineProcess(child: child, name: name, folder: folder, input: input, output: output)
    }

    private init(child: Child, name: String, folder: String, input: Int32, output: Int32) {
        self.child = child
        self.name = name
        self.folder = folder
        self.input = input
        self.output = output
    }

    /// Sends `line` and returns the reply line.
    @discardableResult
    func send(_ line: String) async throws -> String {
        let bytes = Array((line + "\n").utf8)
        guard input >= 0, bytes.withUnsafeBytes({ write(input, $0.baseAddress, $0.count) }) == bytes.count else {
            throw HarnessError("\(name): cannot send \(line)")
        }
        return try await readLine()
    }

    /// The next line it writes (waited for: helpers answer at once, unless
    /// asked to wait for something themselves).
    func readLine() async throws -> String {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let answered = await eventually("a line from \(name)") {
            while true {
                let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                buffer += chunk.prefix(count)
            }
            return buffer.contains(0x0A) || !child.isRunning
        }
        guard answered, let newline = buffer.firstIndex(of: 0x0A) else {
            throw HarnessError("\(name) \(child.isRunning ? "did not answer" : "ended")")
        }
        let line = buffer[..<newline]
        buffer.removeSubrange(...newline)
        return String(decoding: line, as: UTF8.self)
    }

    /// Closes its input (it ends at end of file) and waits for it; SIGKILL
    /// if it still runs after a minute (a guard, printed).
    func terminate() async {
        if input >= 0 { close(input) }
        input = -1
        if await child.wait(seconds: 60) == nil {
            print("\(name) still ran a minute after its input closed: killed")
            child.signal(SIGKILL)
            await child.wait()
        }
    }

    deinit {
        if input >= 0 { close(input) }
        close(output)
        try? FileManager.default.removeItem(atPath: folder)
    }
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
/// and pushes each through `CheckInPipeline.submit`, as the agent does, and
/// keeps its log lines, which say what it decided.
final class AdapterRun: @unchecked Sendable {
    private let collected = Mutex<[CheckInEvent]>([])
    private var task: Task<Void, Error>?
    let store: AttendanceStore
    let databaseDirectory: URL
    let logs = LogCapture()

    init(tags: [NFCSettings.Tag], reader: @escaping @Sendable (Logger) -> NFCTagReader,
         now: @escaping @Sendable () -> Date = { Date() }, afterStore: @escaping @Sendable () -> Void = {}) throws {
        databaseDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("deskdays-nfc-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: databaseDirectory, withIntermediateDirectories: true)
        store = try AttendanceStore(path: databaseDirectory.appendingPathComponent("db.sqlite").path)
        let pipeline = CheckInPipeline(store: store, policy: Policy())
        var settings = NFCSettings()
        settings.enabled = true
        settings.tags = tags
        let logger = logs.logger
        let adapter = NFCCheckInAdapter(settings: settings, logger: logger, reader: { reader(logger) }, now: now)
        task = Task {
            try await adapter.run { event in
                do { _ = try await pipeline.submit(event) } catch { logger.error("submit: \(error)") }
                afterStore()
                self.collected.withLock { $0.append(event) }
            }
        }
    }

    var events: [CheckInEvent] { collected.withLock { $0 } }
    var rules: [String?] { events.map(\.rule) }

    /// NFC check-ins in the store.
    func storedCheckIns() throws -> [AutomaticCheckIn] {
        try store.checkIns(in: nil).filter { $0.source == .nfc }
    }

    /// Waits (up to `seconds`, a failure guard, not a timing assertion)
    /// until `count` events arrived; returns whether they did.
    func waitForEvents(_ count: Int, seconds: Double = 60) async -> Bool {
        await eventually(seconds: seconds, "\(count) NFC event(s)") { events.count >= count }
    }

    /// Waits until the adapter logged a line containing `fragment` more than `before` times.
    func waitForLog(_ fragment: String, after before: Int = 0) async -> Bool {
        await eventually("the adapter to log \"\(fragment)\"") { logs.count(fragment) > before }
    }

    func stop() async {
        task?.cancel()
        _ = try? await task?.value
        try? FileManager.default.removeItem(at: databaseDirectory)
    }
}
