@testable import DeskDaysAgent
import DeskDaysCore
import DeskDaysDesktop
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
                answer.mayHaveChanged()
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

/// The agent's state as a value: tables of event → effects, each event
/// with its moment (a manual clock's), no thread, lock or I/O.
@Suite struct AgentStateTests {
    typealias Event = AgentState.Event
    static let monday = LocalDate(year: 2026, month: 11, day: 16)!
    static let noon = Date(timeIntervalSince1970: 1_794_830_400)
    static let asked = AgentState.Asked(day: monday, dataVersion: 5, ages: false)
    static let summary = DesktopSummary(report: PolicyEngine(policy: Policy(timeZone: TimeZone(identifier: "UTC")!))
                                            .report(today: monday, statusOf: { _ in nil }),
                                        todayStatus: nil, workday: true, holiday: nil, nextPlan: nil)

    static func computed(_ text: String, commits: Int, at: Date = noon) -> AgentState.Computed {
        AgentState.Computed(outputs: [.json: text], report: text, summary: summary,
                            basis: .init(day: monday, dataVersion: 5, commits: commits, computedAt: at))
    }

    /// Runs `steps` (an event, its moment, the effects expected) in order on one state.
    func run(_ steps: [(Event, Date, [AgentState.Effect])], on state: inout AgentState) {
        for (index, (event, now, expected)) in steps.enumerated() {
            #expect(state.on(event, now: now) == expected, "step \(index + 1): \(event)")
        }
    }

    @Test func aQuestionComputesOnceThenIsServed() {
        var state = AgentState()
        run([
            (.asked(Self.asked), Self.noon, [.recompute(commits: 0, forRefresh: false)]),
            (.computed(Self.computed("a", commits: 0), forRefresh: false), Self.noon, [.writeFiles([.json: "a"])]),
            (.asked(Self.asked), Self.noon.addingTimeInterval(86_000), []),
            // A new day, another process's commit, an unreadable version: computed again.
            (.asked(.init(day: Self.monday.adding(days: 1), dataVersion: 5, ages: false)), Self.noon, [.recompute(commits: 0, forRefresh: false)]),
            (.asked(.init(day: Self.monday, dataVersion: 6, ages: false)), Self.noon, [.recompute(commits: 0, forRefresh: false)]),
            (.asked(.init(day: Self.monday, dataVersion: nil, ages: false)), Self.noon, [.recompute(commits: 0, forRefresh: false)]),
        ], on: &state)
        #expect(state.recomputes == 4 && state.outputs == [.json: "a"])
    }

    @Test func withMinHoursTheAnswerAgesInAMinute() {
        var state = AgentState()
        let ages = AgentState.Asked(day: Self.monday, dataVersion: 5, ages: true)
        _ = state.on(.computed(Self.computed("a", commits: 0), forRefresh: false), now: Self.noon)
        run([
            (.asked(ages), Self.noon.addingTimeInterval(59), []),
            (.asked(ages), Self.noon.addingTimeInterval(60), [.recompute(commits: 0, forRefresh: false)]),
            (.asked(ages), Self.noon.addingTimeInterval(-60), [.recompute(commits: 0, forRefresh: false)]),
        ], on: &state)
    }

    /// A burst of commits queues one refresh; the change is pushed once, whoever found it.
    @Test func commitsQueueOneRefreshAndAChangeIsPushedOnce() {
        var state = AgentState()
        _ = state.on(.computed(Self.computed("a", commits: 0), forRefresh: false), now: Self.noon)
        let later = Self.noon.addingTimeInterval(1)
        run([
            (.committed, Self.noon, [.queueRefresh, .wake(at: Self.noon.addingTimeInterval(3), generation: 1)]),
            (.committed, later, [.wake(at: later.addingTimeInterval(3), generation: 2)]),
            (.mayHaveChanged, later, []),
            // A question before the refresh runs counts both commits; what it finds is pushed by the refresh.
            (.asked(Self.asked), later, [.recompute(commits: 2, forRefresh: false)]),
            (.computed(Self.computed("b", commits: 2), forRefresh: false), later, [.writeFiles([.json: "b"])]),
            (.refreshing(Self.asked), later, [.publish, .refreshed]),
            (.mayHaveChanged, later, [.queueRefresh]),
            (.refreshing(Self.asked), later, [.refreshed]),
            // Only the last commit's quiet wait folds the log in.
            (.quiet(generation: 1), Self.noon.addingTimeInterval(3), []),
            (.quiet(generation: 2), later.addingTimeInterval(3), [.checkpoint]),
        ], on: &state)
    }

    @Test func aCalendarReadOrAFailureEndsTheKeptAnswer() {
        var state = AgentState()
        _ = state.on(.computed(Self.computed("a", commits: 0), forRefresh: false), now: Self.noon)
        run([
            (.calendarRead, Self.noon, []),
            (.asked(Self.asked), Self.noon, [.recompute(commits: 0, forRefresh: false)]),
            (.computed(Self.computed("a", commits: 0), forRefresh: false), Self.noon, []),
            (.asked(Self.asked), Self.noon, []),
            (.failed("cannot read the database", forRefresh: false), Self.noon, []),
            (.asked(Self.asked), Self.noon, [.recompute(commits: 0, forRefresh: false)]),
        ], on: &state)
        #expect(state.failure == "cannot read the database")
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
        // The agent's hands: each push counted (on the answer's queue, as it happens).
        let pushes = Mutex(0)
        answer.carryOut(CurrentAnswer.Effects(publish: { pushes.withLock { $0 += 1 } }))
        /// A refresh asked for and run: the queue is serial, so a question after the request runs
        /// after it, and a second one after the refresh it queued.
        func refreshed() -> Int {
            answer.mayHaveChanged()
            _ = answer.recomputes
            _ = answer.recomputes
            return pushes.withLock { $0 }
        }
        guard case .success = answer.status(.json) else { Issue.record("no first answer"); return }
        _ = refreshed()
        let pushed = pushes.withLock { $0 }

        let before = answer.recomputes
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
        #expect(answer.recomputes - before == 1, "one recompute for 64 questions")
        #expect(refreshed() == pushed + 1, "the change a question found is still pushed")
        #expect(refreshed() == pushed + 1, "and only once")
        #expect(answer.recomputes - before == 1, "a refresh with nothing new computes nothing")

        // The publish queue after a commit: the refresh computes, the desktop's summary is that computation's.
        try store.addRecords([DayRecord(date: LocalDate(year: 2026, month: 11, day: 3)!, status: .office, origin: .manual, recordedAt: now)])
        answer.storeCommitted()
        #expect(refreshed() == pushed + 2)
        #expect(try answer.desktopSummary().office == 2)
        #expect(answer.recomputes - before == 2, "one computation for the refresh and the summary")
    }
}
