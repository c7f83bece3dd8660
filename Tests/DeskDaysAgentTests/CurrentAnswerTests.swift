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

/// The answer's freshness as a value: each rule with the moment passed in.
@Suite struct AnswerFreshnessTests {
    static let monday = LocalDate(year: 2026, month: 11, day: 16)!
    static let noon = Date(timeIntervalSince1970: 1_794_830_400)

    func computed(commits: Int = 3) -> AnswerFreshness {
        var freshness = AnswerFreshness()
        freshness.computed(.init(day: Self.monday, dataVersion: 5, commits: commits, computedAt: Self.noon))
        return freshness
    }

    @Test func nothingKeptServesNothing() {
        #expect(!AnswerFreshness().serves(day: Self.monday, dataVersion: 5, commits: 0, now: Self.noon, ages: false))
    }

    @Test func theSameDayVersionAndCommitsAreServed() {
        let freshness = computed()
        #expect(freshness.serves(day: Self.monday, dataVersion: 5, commits: 3, now: Self.noon, ages: false))
        #expect(freshness.serves(day: Self.monday, dataVersion: 5, commits: 2, now: Self.noon.addingTimeInterval(86_000), ages: false),
                "commits it already counts; without min_hours the hour does not matter")
        #expect(!freshness.serves(day: Self.monday.adding(days: 1), dataVersion: 5, commits: 3, now: Self.noon, ages: false), "a new day")
        #expect(!freshness.serves(day: Self.monday, dataVersion: 6, commits: 3, now: Self.noon, ages: false), "another process committed")
        #expect(!freshness.serves(day: Self.monday, dataVersion: nil, commits: 3, now: Self.noon, ages: false), "the version unreadable")
        #expect(!freshness.serves(day: Self.monday, dataVersion: 5, commits: 4, now: Self.noon, ages: false), "a commit of the agent's own")
    }

    @Test func withMinHoursTheAnswerAgesInAMinute() {
        let freshness = computed()
        #expect(freshness.serves(day: Self.monday, dataVersion: 5, commits: 3, now: Self.noon.addingTimeInterval(59), ages: true))
        #expect(!freshness.serves(day: Self.monday, dataVersion: 5, commits: 3, now: Self.noon.addingTimeInterval(60), ages: true))
        #expect(!freshness.serves(day: Self.monday, dataVersion: 5, commits: 3, now: Self.noon.addingTimeInterval(-60), ages: true),
                "a clock stepped back")
    }

    @Test func aCalendarReadOrAFailureEndsIt() {
        var freshness = computed()
        freshness.calendarRead()
        #expect(!freshness.serves(day: Self.monday, dataVersion: 5, commits: 3, now: Self.noon, ages: false))
        freshness.computed(.init(day: Self.monday, dataVersion: 5, commits: 3, computedAt: Self.noon))
        #expect(freshness.serves(day: Self.monday, dataVersion: 5, commits: 3, now: Self.noon, ages: false))
        freshness.failed()
        #expect(!freshness.serves(day: Self.monday, dataVersion: 5, commits: 3, now: Self.noon, ages: false))
    }
}

/// Questions that arrive together share one recompute: 64 questions from 8
/// threads after one commit compute the answer once, and each counts the commit.
@Suite struct CoalescingTests {
    @Test func questionsAfterOneCommitShareOneRecompute() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coalescing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try AttendanceStore(path: folder.appendingPathComponent("deskdays.sqlite").path)
        let policy = Policy(timeZone: TimeZone(identifier: "UTC")!)
        let now = Date(timeIntervalSince1970: 1_795_089_600)
        let answer = CurrentAnswer(store: store, policy: policy, clock: .manual(start: now), folder: nil, logger: Logger(label: "test"))
        guard case .success = answer.status(.json) else { Issue.record("no first answer"); return }
        let before = answer.recomputes.load(ordering: .relaxed)
        try store.addRecords([DayRecord(date: LocalDate(year: 2026, month: 11, day: 2)!, status: .office, origin: .manual, recordedAt: now)])
        answer.storeCommitted()
        let wrong = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            guard case .success(let output) = answer.status(.json), output.contains("\"office\":1") else {
                wrong.withLock { $0 += 1 }
                return
            }
        }
        #expect(wrong.withLock { $0 } == 0, "every question counts the commit")
        #expect(answer.recomputes.load(ordering: .relaxed) - before == 1, "one recompute for 64 questions")
        #expect(answer.refresh(), "the change a question found is still pushed")
        #expect(!answer.refresh(), "and only once")
        #expect(answer.recomputes.load(ordering: .relaxed) - before == 1, "a refresh with nothing new computes nothing")

        // The publish queue after a commit: the refresh computes, the desktop's summary is that computation's.
        try store.addRecords([DayRecord(date: LocalDate(year: 2026, month: 11, day: 3)!, status: .office, origin: .manual, recordedAt: now)])
        answer.storeCommitted()
        #expect(answer.refresh())
        #expect(try answer.desktopSummary().office == 2)
        #expect(answer.recomputes.load(ordering: .relaxed) - before == 2, "one computation for the refresh and the summary")
    }
}
