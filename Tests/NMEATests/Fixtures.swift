import Foundation
import NMEA

/// Paths to the copied test data (Tests/Fixtures/nmea, see PROVENANCE).
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/nmea")

    static let gpsd = root.appendingPathComponent("gpsd")

    /// Every gpsd capture's name, e.g. `firefly-II.log`.
    static let gpsdLogs: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: gpsd.path)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted()
    }()

    static func bytes(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }

    static func json(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent("vectors/\(name)"))
        return try JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    /// Decodes a whole input through the stream decoder, fed in `chunk`-byte pieces.
    static func fixes(_ bytes: [UInt8], chunk: Int = .max) -> (fixes: [Fix], statistics: NMEAFramer.Statistics) {
        var decoder = NMEAStreamDecoder()
        var fixes: [Fix] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            decoder.feed(bytes[start..<end]) { fixes.append($0) }
            start = end
        }
        decoder.finish { fixes.append($0) }
        return (fixes, decoder.statistics)
    }
}
