import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A serial GPS receiver simulated with a socat pseudo-terminal pair: the
/// agent opens `device`, the test writes a real capture into the other end.
final class SimulatedGPS {
    /// A gpsd capture with a 3D fix at about 43.55317 N, 1.46031 E.
    static let capture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/nmea/gpsd/telit-pls83-w.log")

    let device: String
    let feed: String
    private let socat = Process()

    init(in folder: URL) throws {
        device = folder.appendingPathComponent("gps").path
        feed = folder.appendingPathComponent("feed").path
        socat.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        socat.arguments = ["socat", "pty,raw,echo=0,link=\(device)", "pty,raw,echo=0,link=\(feed)"]
        try socat.spawn()
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: feed) { usleep(50_000) }
        guard FileManager.default.fileExists(atPath: device) else { throw HarnessError("socat made no pty pair") }
    }

    /// `[gps]` with a 500 m, 3 s geofence named "toulouse" around the capture.
    var configuration: String {
        """
        [gps]
        enabled = true
        source = "serial"
        device = "\(device)"
        baud = 9600

        [[gps.geofences]]
        name = "toulouse"
        latitude = 43.55317
        longitude = 1.46031
        radius_m = 500
        dwell_s = 3
        """
    }

    /// Writes the capture `passes` times, ten sentences every 20 ms. Call it
    /// only once the reader has the port open: a pty drops earlier bytes.
    func replay(passes: Int = 1) throws {
        let writer = try #require(FileHandle(forWritingAtPath: feed))
        // Split on every newline: Swift takes "\r\n" as one Character.
        let lines = try String(contentsOf: Self.capture, encoding: .utf8)
            .split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }
        for _ in 0..<passes {
            for chunk in stride(from: 0, to: lines.count, by: 10) {
                writer.write(Data((lines[chunk..<min(chunk + 10, lines.count)].joined(separator: "\r\n") + "\r\n").utf8))
                usleep(20_000)
            }
        }
    }

    /// Writes `fixes` (each a cycle's sentences), one cycle every 10 ms.
    func write(_ fixes: [[String]]) throws {
        try Self.write(fixes, to: feed)
    }

    /// The same into the feed end at `feed` (from another thread).
    static func write(_ fixes: [[String]], to feed: String) throws {
        let writer = try #require(FileHandle(forWritingAtPath: feed))
        for sentences in fixes {
            writer.write(Data((sentences.joined(separator: "\r\n") + "\r\n").utf8))
            usleep(10_000)
        }
    }

    /// SIGKILL: children of Foundation's Process inherit blocked signals.
    deinit {
        kill(socat.processIdentifier, SIGKILL)
        socat.waitForExit()
    }
}
