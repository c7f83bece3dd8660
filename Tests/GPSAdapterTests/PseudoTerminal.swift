import DeskDaysCore
import Foundation
import Spawn
import TestSupport
import GPSAdapter
import Logging
import NMEA
import Synchronization

/// Whether a tool is installed (for `.enabled(if:)`).
enum Tools {
    static func has(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }
}

/// A simulated serial GPS (docs/testing.md): `socat` joins two pseudo-terminals;
/// the adapter opens `device` with its normal termios set-up, the test
/// writes NMEA into `feed`. Stopping it makes the device vanish, as a USB
/// unplug does.
final class SimulatedReceiver: @unchecked Sendable { // the test thread starts/stops it, one writer writes
    let directory: URL
    var device: String { directory.appendingPathComponent("gps").path }
    var feed: String { directory.appendingPathComponent("feed").path }
    private var socat: Child?
    private var feedDescriptor: Int32 = -1

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("deskdays-gps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        if feedDescriptor >= 0 { close(feedDescriptor) }
        socat?.signal(SIGKILL)
        unlink(device)
        unlink(feed)
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts socat and waits until both ends exist.
    func start() async throws {
        let socat = try await Child.start("socat", ["pty,raw,echo=0,b9600,link=\(device)", "pty,raw,echo=0,b9600,link=\(feed)"])
        self.socat = socat
        let linked = await eventually("socat to link \(device) and \(feed)") {
            FileManager.default.fileExists(atPath: device) && FileManager.default.fileExists(atPath: feed)
        }
        guard linked else { throw POSIXError(.ENOENT) }
        // Non-blocking: a reader that stops draining makes `write` give up after a bound, not hang the suite.
        feedDescriptor = open(feed, O_WRONLY | O_NOCTTY | O_NONBLOCK)
        guard feedDescriptor >= 0 else { throw POSIXError(.ENOENT) }
    }

    /// Removes the device: its links are deleted, as udev deletes a symlink
    /// on unplug, then socat is killed (SIGKILL: an unplug gives no
    /// warning). Links first: a link left behind would name a pty number
    /// the kernel may give to another test's pty at once, and a reader
    /// reopening it would find that one.
    func stop() async {
        unlink(device)
        unlink(feed)
        if feedDescriptor >= 0 { close(feedDescriptor) }
        feedDescriptor = -1
        if let socat {
            socat.signal(SIGKILL)
            await socat.wait()
        }
        socat = nil
    }

    /// Writes bytes into the receiver's side, 512 at a time. When the pty
    /// is full it waits for room, a minute at the most (a guard: the bytes
    /// not written then make the test's wait for fixes fail, in one line,
    /// instead of hanging it).
    func write(_ bytes: [UInt8]) {
        var offset = 0
        let deadline = ContinuousClock.now + .seconds(60)
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = Glibc.write(feedDescriptor, buffer.baseAddress! + offset, min(512, buffer.count - offset))
                if written >= 0 { offset += written; continue }
                guard errno == EINTR || errno == EAGAIN, ContinuousClock.now < deadline else {
                    print("SimulatedReceiver: \(buffer.count - offset) bytes not written to \(feed) (errno \(errno))")
                    return
                }
                var room = pollfd(fd: feedDescriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&room, 1, 1000)
            }
        }
    }
}

/// Collects a reader's events from its stream, for assertions.
final class EventLog: Sendable {
    private let events = Mutex<[GPSEvent]>([])

    func append(_ event: GPSEvent) { events.withLock { $0.append(event) } }
    var all: [GPSEvent] { events.withLock { $0 } }
    var fixes: [Fix] { all.compactMap { if case .fix(let fix) = $0 { fix } else { nil } } }
    func count(_ event: GPSEvent) -> Int { all.filter { $0 == event }.count }

    /// Waits (bounded, a guard) until `condition` holds; returns whether it did.
    func wait(_ what: String, until condition: (EventLog) -> Bool) async -> Bool {
        await eventually(what) { condition(self) }
    }
}

extension NMEASerialReader {
    /// Fast backoff so device-loss tests take milliseconds.
    static func forTests(_ path: String, logger: Logger = Logger(label: "deskdays.gps")) -> NMEASerialReader {
        NMEASerialReader(path: path, baud: 9600, backoff: Backoff(initialSeconds: 0.05, maximumSeconds: 0.2), logger: logger)
    }

    /// Starts reading into `log`; cancel the returned task to stop.
    func start(into log: EventLog) -> Task<Void, Never> {
        let events = self.events()
        return Task {
            for await event in events { log.append(event) }
        }
    }
}

/// A sentence that ends the capture's last cycle (any new time does), so
/// every cycle of the capture is reported without tearing the device down.
let cycleCloser = Array(("\r\n" + Sentence("GPZDA,235959.99,01,01,2000,00,00").description + "\r\n").utf8)

/// A source whose events are also written to `log`, so a test sees when it opened its device.
struct Observed: FixSource {
    let source: any FixSource
    let log: EventLog

    func events() -> AsyncStream<GPSEvent> {
        let events = source.events()
        let log = log
        return AsyncStream { continuation in
            let task = Task {
                for await event in events {
                    log.append(event)
                    continuation.yield(event)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
