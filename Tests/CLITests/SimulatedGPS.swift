import Foundation
import Spawn
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
    private let socat: Child

    init(in folder: URL) async throws {
        let device = folder.appendingPathComponent("gps").path, feed = folder.appendingPathComponent("feed").path
        self.device = device
        self.feed = feed
        socat = try await Child.start("/usr/bin/env", ["socat", "pty,raw,echo=0,link=\(device)", "pty,raw,echo=0,link=\(feed)"],
                                      stderr: .inherit)
        await eventually("socat's pty pair \(feed)") { FileManager.default.fileExists(atPath: feed) }
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

    /// Synthetic RMC+GGA fixes, one a second of receiver time from
    /// `second` (08:00:00 on 2026-03-10 plus that many seconds): inside the
    /// "toulouse" fence, or 5 km north of it (past its leave radius).
    static func fixes(inside: Bool, from second: Int, count: Int) -> [String] {
        func checksum(_ body: String) -> String {
            String(format: "%02X", body.utf8.reduce(UInt8(0)) { $0 ^ $1 })
        }
        let latitude = inside ? "4333.1902" : "4336.0000"
        return (second..<second + count).flatMap { s -> [String] in
            let time = String(format: "08%02d%02d.00", s / 60, s % 60)
            return ["GPRMC,\(time),A,\(latitude),N,00127.6186,E,0.0,0.0,100326,,,A",
                    "GPGGA,\(time),\(latitude),N,00127.6186,E,1,10,0.9,150.0,M,50.0,M,,"].map { "$\($0)*\(checksum($0))" }
        }
    }

    /// Writes sentences to the receiver, ten every 20 ms (as `replay`).
    func send(_ sentences: [String]) throws {
        let writer = try #require(FileHandle(forWritingAtPath: feed))
        for chunk in stride(from: 0, to: sentences.count, by: 10) {
            writer.write(Data((sentences[chunk..<min(chunk + 10, sentences.count)].joined(separator: "\r\n") + "\r\n").utf8))
            usleep(20_000)
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

    /// SIGKILL, then waits until socat is gone (and the pty pair with it).
    func stop() async {
        socat.signal(SIGKILL)
        _ = await socat.wait(seconds: 60)
    }

    deinit { socat.signal(SIGKILL) }
}
