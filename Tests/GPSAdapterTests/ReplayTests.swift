import Foundation
import GPSAdapter
import NMEA
import Testing

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/nmea/gpsd")

let captures: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [])
    .filter { $0.hasSuffix(".log") }.sorted()

/// Every gpsd capture through a real pseudo-terminal into the real serial
/// reader, compared with gpsd's own TPV reports for that capture.
@Suite(.serialized, .enabled(if: Tools.has("socat"), "socat not installed: apt-get install socat"))
struct ReplayTests {
    /// gpsd's TPV reports, as `.tpv.jsonl` gives them.
    struct Report {
        var afterSentence: String
        var mode: Int
        var time: String?
        var latitude: Double?
        var longitude: Double?
    }

    static func reports(_ log: String) throws -> [Report] {
        let text = try String(contentsOf: fixtures.appendingPathComponent(log + ".tpv.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return Report(afterSentence: object["after_sentence"] as! String, mode: object["mode"] as! Int,
                          time: object["time"] as? String, latitude: object["lat"] as? Double,
                          longitude: object["lon"] as? Double)
        }
    }

    /// For each line of the capture, the index of the cycle (our fix) it belongs to.
    static func cycleOfLine(_ lines: [ArraySlice<UInt8>]) -> [Int] {
        var decoder = NMEAStreamDecoder()
        var count = 0
        return lines.map { line in
            decoder.feed(line) { _ in count += 1 }
            return count
        }
    }

    /// `hh:mm:ss.sss` of an RFC 3339 time or of our time-of-day form.
    static func timeOfDay(_ text: String?) -> String? {
        guard let text else { return nil }
        let time = text.split(separator: "T").last.map(String.init) ?? text
        return time.hasSuffix("Z") ? String(time.dropLast()) : time
    }

    /// Where our policy deliberately differs from gpsd's, one line each.
    static let modeDifferences: [String: String] = [
        "garmin-10x.log": "GGA with 3 satellites and GSA fix type 2: we report 2D; gpsd keeps the previous cycle's 3D.",
        "motorola-t805.log": "GGA with 3 satellites: we report 2D; gpsd keeps the previous cycle's 3D.",
        "ublox-lea-4h.log": "GGA with 3 satellites and GSA fix type 2: we report 2D; gpsd reports 3D from the altitude.",
    ]

    @Test(arguments: captures)
    func replayMatchesGpsd(_ log: String) async throws {
        let bytes = Array(try Data(contentsOf: fixtures.appendingPathComponent(log)))

        // The pure path, for the expected fixes and the cycle of each line.
        var expected: [Fix] = []
        var decoder = NMEAStreamDecoder()
        decoder.feed(bytes + cycleCloser) { expected.append($0) }

        // The serial path.
        let receiver = try SimulatedReceiver()
        try await receiver.start()
        let events = EventLog()
        let task = NMEASerialReader.forTests(receiver.device).start(into: events)
        try #require(await events.wait("the reader to open the pty") { $0.count(.connected) == 1 })
        receiver.write(bytes + cycleCloser)
        let complete = await events.wait("\(expected.count) fixes from the pty") { $0.fixes.count >= expected.count }
        task.cancel()
        await receiver.stop()
        #expect(complete)
        let fixes = events.fixes
        #expect(fixes == expected, "serial path differs from the pure decoder")

        // Compare with gpsd: its last TPV in each of our cycles. gpsd merges
        // a cycle as we do but also reports part-way through it, so its final
        // report of the cycle is the one to compare.
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { $0 + [0x0A] }
        let cycles = ReplayTests.cycleOfLine(lines)
        var lastReport: [Int: Report] = [:]
        var lineIndex = 0
        for report in try ReplayTests.reports(log) {
            while lineIndex < lines.count,
                  !String(decoding: lines[lineIndex], as: UTF8.self).contains(report.afterSentence) {
                lineIndex += 1
            }
            try #require(lineIndex < lines.count, "TPV after a sentence not in the capture: \(report.afterSentence)")
            lastReport[cycles[lineIndex]] = report
        }
        var compared = 0, withPosition = 0, toleratedMode = 0
        for (cycle, report) in lastReport.sorted(by: { $0.key < $1.key }) {
            try #require(cycle < fixes.count, "gpsd reported a cycle we did not")
            let fix = fixes[cycle]
            compared += 1
            if fix.mode.rawValue != report.mode {
                if ReplayTests.modeDifferences[log] != nil, fix.mode == .twoD, report.mode == 3 {
                    toleratedMode += 1
                } else {
                    Issue.record("\(log) cycle \(cycle) at \(fix.time?.description ?? "?"): mode \(fix.mode.rawValue), gpsd \(report.mode)")
                }
            }
            guard report.mode >= 2, fix.hasPosition, let latitude = report.latitude,
                  let longitude = report.longitude else { continue }
            withPosition += 1
            #expect(abs(fix.latitude! - latitude) <= 1e-6, "\(log) cycle \(cycle) latitude")
            #expect(abs(fix.longitude! - longitude) <= 1e-6, "\(log) cycle \(cycle) longitude")
            // Time of day only: gpsd shifts neo-m8n's date by 1024 GPS weeks and
            // we do not; and gpsd does not advance time on a void RMC, so
            // no-fix cycles are not compared.
            if let time = ReplayTests.timeOfDay(report.time) {
                #expect(ReplayTests.timeOfDay(fix.jsonTime) == time, "\(log) cycle \(cycle) time")
            }
        }
        #expect(compared > 0)
        if ReplayTests.modeDifferences[log] == nil { #expect(toleratedMode == 0) }
        let gpsdHasFixes = try ReplayTests.reports(log).contains { $0.mode >= 2 }
        // The GPSmap 76S runs in simulator mode: gpsd's cycles end in mode 1.
        if gpsdHasFixes, log != "GPSmap-76S.log" {
            #expect(withPosition > 0)
        }
    }
}

extension Fix {
    /// The `time` value of the JSON line.
    var jsonTime: String? {
        let line = jsonLine
        guard let start = line.range(of: #"{"time":""#), let end = line.range(of: #"","lat""#) else { return nil }
        return String(line[start.upperBound..<end.lowerBound])
    }
}
