@testable import DeskDaysAgent
import DeskDaysCore
import DeskDaysStore
import Foundation
import Logging
import Synchronization
import Testing

/// The agent's current answer in process, against a real store and a
/// manual clock: while another thread commits and recomputes back to back
/// (the publish queue under a burst), every `status` counts each commit
/// acknowledged before it was asked, and none waits forever.
@Suite struct CurrentAnswerTests {
    @Test func aStatusDuringBackToBackRecomputesCountsEveryAcknowledgedCommit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("current-answer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try AttendanceStore(path: folder.appendingPathComponent("deskdays.sqlite").path)
        var policy = Policy(timeZone: TimeZone(identifier: "UTC")!)
        policy.target = Target(kind: .percent, hundredths: 6000)
        // Thursday 2026-11-19, 12:00 UTC: the fourth quarter so far.
        let now = Date(timeIntervalSince1970: 1_795_089_600)
        let answer = CurrentAnswer(store: store, policy: policy, clock: .manual(start: now), folder: nil,
                                   logger: Logger(label: "test"))
        let october = (1...30).compactMap { LocalDate(year: 2026, month: 10, day: $0) }.filter { policy.isWorkday($0) }
        let november = (2...18).compactMap { LocalDate(year: 2026, month: 11, day: $0) }.filter { policy.isWorkday($0) }

        // The publish queue's part: other dates written and the answer recomputed, back to back.
        let stop = Mutex(false)
        let background = Thread {
            var round = 0
            while !stop.withLock({ $0 }) {
                let date = november[round % november.count]
                let status: AttendanceStatus = round % 2 == 0 ? .remote : .vacation
                _ = try? store.addRecords([DayRecord(date: date, status: status, origin: .manual,
                                                     recordedAt: now.addingTimeInterval(Double(round)))])
                answer.storeCommitted()
                answer.refresh()
                round += 1
            }
        }
        background.start()
        defer { stop.withLock { $0 = true } }

        // The requests' part: an office day acknowledged, then asked for.
        for (index, date) in october.enumerated() {
            try store.addRecords([DayRecord(date: date, status: .office, origin: .manual, recordedAt: now)])
            answer.storeCommitted()
            for format in [StatusFormat.json, .waybar] {
                guard case .success(let output) = answer.status(format) else {
                    Issue.record("no status for \(format)")
                    return
                }
                if format == .json {
                    let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
                    #expect(object?["office"] as? Int == index + 1, "after \(index + 1) office days: \(output)")
                }
            }
            guard case .success(let report) = answer.report() else {
                Issue.record("no report")
                return
            }
            #expect(report.contains("\"office\":\(index + 1)") || report.contains("\"office\" : \(index + 1)"), "\(report)")
        }
    }
}
