import DeskDaysControl
import DeskDaysCore
import DeskDaysDesktop
import Foundation

/// The agent's answer and what it is waiting to do, in one value: what the
/// kept answer was computed from, the outputs it keeps, whether followers
/// have been told, whether a refresh is queued and which commit the idle
/// checkpoint waits after. It has no clock, no lock and no I/O: each event
/// comes with the moment it happened, and the answer is what to do
/// (`Effect`); a recompute is an effect whose result comes back as an event.
/// `CurrentAnswer` feeds it, one event at a time, on its queue
/// (docs/design.md "The agent is the cache").
struct AgentState: Sendable {
    /// What an answer was computed from.
    struct Basis: Equatable, Sendable {
        /// The local day it answers for.
        var day: LocalDate
        /// SQLite's `data_version` when it read the store (other processes' commits move it).
        var dataVersion: Int
        /// How many of the agent's own commits it counts.
        var commits: Int
        /// When it was computed.
        var computedAt: Date
    }

    /// A question's (or a refresh's) view of the world: the day, the store's version, and whether
    /// today's time on site grows while a method is present (`min_hours`: the answer ages).
    struct Asked: Equatable, Sendable {
        var day: LocalDate
        var dataVersion: Int?
        var ages: Bool
    }

    /// A recompute's result.
    struct Computed: Equatable, Sendable {
        var outputs: [StatusFormat: String]
        var report: String
        var summary: DesktopSummary
        var basis: Basis
    }

    enum Event: Equatable, Sendable {
        /// A commit of the agent's own, counted before the write returns.
        case committed
        /// Something the answer reads may have changed (a merge, another process, a new day): refresh.
        case mayHaveChanged
        /// The `[calendar]` folder was read again: the next answer is computed with it.
        case calendarRead
        /// A question (`status`, `report`, the session bus): the kept answer must serve it.
        case asked(Asked)
        /// The queued refresh runs: the answer is brought up to date, and a change is published.
        case refreshing(Asked)
        /// A recompute's result (`forRefresh`: the refresh asked for it).
        case computed(Computed, forRefresh: Bool)
        case failed(String, forRefresh: Bool)
        /// The idle wait after commit `generation` ended.
        case quiet(generation: Int)
    }

    enum Effect: Equatable, Sendable {
        /// Compute the answer anew, counting `commits` of the agent's own; the result comes back as `computed` or `failed`.
        case recompute(commits: Int, forRefresh: Bool)
        /// Run a refresh after what is queued now (it comes back as `refreshing`).
        case queueRefresh
        /// Replace the status files.
        case writeFiles([StatusFormat: String])
        /// Push the changed status to followers.
        case publish
        /// A refresh ended: the session bus (which diffs) and the calendar folder are brought up to date.
        case refreshed
        /// Come back with `quiet(generation)` at `at`.
        case wake(at: Date, generation: Int)
        /// Fold the write-ahead log into the database file.
        case checkpoint
    }

    /// How long the store stays quiet after a commit of the agent's own before the log is folded in.
    static let checkpointDelay: TimeInterval = 3

    private(set) var basis: Basis?
    /// The calendar was read again since the answer was computed.
    private(set) var calendarChanged = false
    private(set) var commits = 0
    private(set) var outputs: [StatusFormat: String] = [:]
    private(set) var reportJSON = ""
    private(set) var summary: DesktopSummary?
    private(set) var failure: String?
    /// A change a question's recompute found, which the next refresh still publishes.
    private(set) var unpushed = false
    private(set) var refreshQueued = false
    private(set) var checkpointGeneration = 0
    /// How many times the answer was computed (questions that shared one count once).
    private(set) var recomputes = 0

    /// Whether the kept answer serves a question: the same day, store and
    /// commits, the calendar unchanged since, and (when it ages) computed less than a minute ago.
    func serves(_ asked: Asked, now: Date) -> Bool {
        guard let basis, !calendarChanged else { return false }
        return basis.day == asked.day && basis.dataVersion == asked.dataVersion && basis.commits >= commits
            && !(asked.ages && abs(now.timeIntervalSince(basis.computedAt)) >= 60)
    }

    mutating func on(_ event: Event, now: Date) -> [Effect] {
        switch event {
        case .committed:
            commits += 1
            checkpointGeneration += 1
            return queueRefresh() + [.wake(at: now.addingTimeInterval(Self.checkpointDelay), generation: checkpointGeneration)]
        case .mayHaveChanged:
            return queueRefresh()
        case .calendarRead:
            calendarChanged = true
            return []
        case .asked(let asked):
            return serves(asked, now: now) ? [] : recompute(forRefresh: false)
        case .refreshing(let asked):
            refreshQueued = false
            return serves(asked, now: now) ? published(changed: false) : recompute(forRefresh: true)
        case .computed(let computed, let forRefresh):
            let changed = outputs != computed.outputs
            outputs = computed.outputs
            reportJSON = computed.report
            summary = computed.summary
            failure = nil
            basis = computed.basis
            calendarChanged = false
            let files: [Effect] = changed ? [.writeFiles(computed.outputs)] : []
            if forRefresh { return files + published(changed: changed) }
            unpushed = unpushed || changed
            return files
        case .failed(let message, let forRefresh):
            failure = message
            basis = nil
            return forRefresh ? published(changed: false) : []
        case .quiet(let generation):
            return generation == checkpointGeneration ? [.checkpoint] : []
        }
    }

    /// One refresh waits at most: a burst of changes costs two recomputes, not one each.
    private mutating func queueRefresh() -> [Effect] {
        if refreshQueued { return [] }
        refreshQueued = true
        return [.queueRefresh]
    }

    private mutating func recompute(forRefresh: Bool) -> [Effect] {
        recomputes += 1
        return [.recompute(commits: commits, forRefresh: forRefresh)]
    }

    /// A refresh's end: the change it found, or one a question found before, is pushed once.
    private mutating func published(changed: Bool) -> [Effect] {
        defer { unpushed = false }
        return (changed || unpushed ? [.publish] : []) + [.refreshed]
    }
}
