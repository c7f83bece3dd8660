import Files
import DeskDaysAnswer
import DeskDaysControl
import DeskDaysCalendar
import DeskDaysConfig
import DeskDaysCore
import DeskDaysDesktop
import DeskDaysReports
import DeskDaysStore
import Foundation
import Logging
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// When the kept answer stops serving: what it was computed from, and what
/// happened since. A value with no clock of its own: each question passes
/// the moment it is asked, so its rules are tested with any moment
/// (docs/design.md "The agent is the cache").
struct AnswerFreshness: Equatable, Sendable {
    /// What an answer was computed from.
    struct Basis: Equatable, Sendable {
        /// The local day it answers for.
        var day: LocalDate
        /// SQLite's `data_version` when it read the store (other processes' commits move it).
        var dataVersion: Int
        /// How many of the agent's own commits it counts (acknowledged writes; the
        /// publish queue's recompute may come after the next request).
        var commits: Int
        /// When it was computed.
        var computedAt: Date
    }

    /// What the kept answer counts; nil before the first answer and after a failure.
    private(set) var basis: Basis?
    /// The `[calendar]` folder was read again since.
    private(set) var calendarChanged = false

    /// Whether the kept answer serves a question asked at `now`, for `day`,
    /// with the store at `dataVersion` after `commits` commits of the agent's
    /// own. With min_hours (`ages`) today's time on site grows while a method
    /// is present: the answer is also stale a minute after it was computed.
    func serves(day: LocalDate, dataVersion: Int?, commits: Int, now: Date, ages: Bool) -> Bool {
        guard let basis, !calendarChanged else { return false }
        return basis.day == day && basis.dataVersion == dataVersion && basis.commits >= commits
            && !(ages && abs(now.timeIntervalSince(basis.computedAt)) >= 60)
    }

    mutating func calendarRead() { calendarChanged = true }
    mutating func computed(_ basis: Basis) {
        self.basis = basis
        calendarChanged = false
    }
    mutating func failed() { basis = nil }
}

/// The agent's current answer: what `deskdays status --format F` (every
/// format) and `deskdays report --json` print now, computed by `Answers`,
/// the same code the CLI runs when no agent does (docs/design.md, "The
/// agent is the cache").
///
/// Every question and every recompute runs on one serial queue, in order:
/// a question first asks `AnswerFreshness` whether the kept answer serves
/// it, so questions and the publish queue's refreshes that wait behind one
/// recompute share it (they coalesce by construction), and none waits for
/// more than the recompute ahead of it and its own. Each recompute that
/// changes the status rewrites `status.json`, `status.waybar` and
/// `status.i3blocks` beside the control socket (temp file + rename, 0600),
/// for bars that read a file.
final class CurrentAnswer: Sendable {
    private let store: AttendanceStore
    /// The configuration's policy, which the calendar's holidays are added to.
    private let basePolicy: Policy
    /// `[checkin] fallback_time` and `[plan]`: what `plan` answers with.
    private let fallbackTime: TimeOfDay?
    private let planDefaults: PlanOptions
    private let clock: AgentClock
    private let folder: String?
    private let logger: Logger
    /// The one queue questions and recomputes run on.
    private let queue = DispatchQueue(label: "deskdays.current-answer")
    /// The agent's own commits, counted as the store reports them (on its
    /// writer's queue, before the write returns: never waiting for a recompute).
    private let commits = Atomic<Int>(0)
    /// The answer and its freshness (touched on `queue`, or read for a moment).
    private let kept: Mutex<Kept>
    /// The history's statuses between recomputes: after the agent's own
    /// write only the dates it touched are read again (docs/performance.md,
    /// "Bounded work under load").
    private let history = HistoryCache()
    /// Whether the store notes the dates its writes touch.
    private let trackingDates: Bool
    /// How many times the answer was computed (questions that shared one count once).
    let recomputes = Atomic<Int>(0)

    private struct Kept {
        var answers: Answers
        var freshness = AnswerFreshness()
        var outputs: [StatusFormat: String] = [:]
        var reportJSON = ""
        /// What the session bus and the tray show, from the same computation.
        var summary: DesktopSummary?
        var failure: String?
        /// A change a question's recompute found, which the next refresh still reports (so followers get it).
        var unpushed = false
    }

    /// The status formats written as files, and their names.
    static let files: [(StatusFormat, String)] = [(.json, "status.json"), (.waybar, "status.waybar"), (.i3blocks, "status.i3blocks")]

    init(store: AttendanceStore, policy: Policy, calendar: CalendarDays = CalendarDays(), clock: AgentClock,
         folder: String?, logger: Logger, fallbackTime: TimeOfDay? = nil, planDefaults: PlanOptions = PlanOptions()) {
        self.store = store
        basePolicy = policy
        self.fallbackTime = fallbackTime
        self.planDefaults = planDefaults
        kept = Mutex(Kept(answers: Answers(policy: policy, locale: ReportLocale(environment: ProcessInfo.processInfo.environment),
                                           calendar: calendar, fallbackTime: fallbackTime)))
        self.clock = clock
        self.folder = folder
        self.logger = logger
        var tracking = true
        do {
            try store.trackChangedDates()
        } catch {
            // Without the triggers every recompute reads the whole history (correct, slower).
            logger.warning("cannot note the dates writes touch (\(error)); every answer reads the whole history")
            tracking = false
        }
        trackingDates = tracking
    }

    private var answers: Answers { kept.withLock { $0.answers } }

    /// The `[calendar]` folder was read again: the next answer is computed with it.
    func calendarRead(_ calendar: CalendarDays) {
        queue.async { [self] in
            kept.withLock {
                $0.answers = Answers(policy: basePolicy, locale: $0.answers.locale, calendar: calendar, fallbackTime: fallbackTime)
                $0.freshness.calendarRead()
            }
            history.invalidate()
        }
    }

    /// Counts a commit of the agent's own: the next answer is computed anew.
    func storeCommitted() {
        commits.add(1, ordering: .sequentiallyConsistent)
    }

    /// Brings the answer up to date (on the publish queue, after a change);
    /// true when the status changed since the last call (a change a
    /// question's recompute found is reported here too).
    @discardableResult
    func refresh() -> Bool {
        queue.sync {
            let changed = answerFresh()
            return kept.withLock { kept in
                defer { kept.unpushed = false }
                return changed || kept.unpushed
            }
        }
    }

    /// `status --format F`'s bytes, or why they cannot be given.
    func status(_ format: StatusFormat) -> Result<String, ControlProtocol.Failure> {
        question { kept in
            if let failure = kept.failure { return .failure(ControlProtocol.Failure(code: "failed", message: failure)) }
            return .success(kept.outputs[format] ?? "")
        }
    }

    /// `report --json`'s bytes, or why they cannot be given.
    func report() -> Result<String, ControlProtocol.Failure> {
        question { kept in
            if let failure = kept.failure { return .failure(ControlProtocol.Failure(code: "failed", message: failure)) }
            return .success(kept.reportJSON)
        }
    }

    /// A question, in turn on the queue: the answer made fresh for it, then read.
    private func question<T>(_ read: (Kept) -> T) -> T {
        queue.sync {
            if answerFresh() { kept.withLock { $0.unpushed = true } }
            return kept.withLock { read($0) }
        }
    }

    /// The current period's figures (for the reminder), read afresh.
    func figures() throws -> Report {
        let now = clock.now()
        return try answers.report(store: store, today: answers.policy.localDate(of: now), now: now)
    }

    /// `plan [--json]`'s bytes for these flags (the configuration's `[plan]` added), computed now.
    func plan(_ flags: PlanOptions, json: Bool) -> Result<String, ControlProtocol.Failure> {
        let now = clock.now()
        do {
            return .success(try answers.planOutput(planDefaults.adding(flags), json: json, store: store,
                                                   today: answers.policy.localDate(of: now), now: now))
        } catch {
            return .failure(ControlProtocol.Failure(code: "failed", message: "cannot read the database: \(error)"))
        }
    }

    /// `report --json --period P`'s bytes: the kept answer for the current period, else computed now.
    func report(_ selector: PeriodSelector) -> Result<String, ControlProtocol.Failure> {
        if selector == .current { return report() }
        do {
            return .success(try answers.report(selector, json: true, store: store, today: answers.policy.localDate(of: clock.now())).output)
        } catch {
            return .failure(ControlProtocol.Failure(code: "failed", message: "cannot read the database: \(error)"))
        }
    }

    /// What the session-bus interface shows: the current period's figures
    /// and today's status, from the current answer's computation (after a
    /// commit, the refresh computed it: asked again, it is not recomputed).
    func desktopSummary() throws -> DesktopSummary {
        let kept: Result<DesktopSummary, ControlProtocol.Failure> = question { kept in
            if let summary = kept.summary, kept.failure == nil { return .success(summary) }
            return .failure(ControlProtocol.Failure(code: "failed", message: kept.failure ?? "no answer yet"))
        }
        return try kept.get()
    }

    /// The weekly summary: this week's office days against the rule (the
    /// report's row for a weekly rule, else the week as streaks judge it)
    /// and the period's status line, in the user's language.
    /// nil for a week with no eligible workday (all holidays, vacation or
    /// other excused days): nothing to sum up.
    func weeklySummary() throws -> String? {
        let today = answers.policy.localDate(of: clock.now())
        let data = try answers.reportData(store: store, today: today)
        let engine = PolicyEngine(policy: data.policy)
        let eligible = answers.policy.week(containing: today).contains { date in
            switch engine.classify(date, status: data.days[date]?.status, today: today) {
            case .skipped, .excused: false
            default: true
            }
        }
        guard eligible else { return nil }
        let line = Render.statusLine(data.report, locale: answers.locale)
            + (data.nextPlanLine(after: today, locale: answers.locale).map { " " + $0 } ?? "")
        if data.report.currentWeek != nil { return line }
        guard let week = data.chartWeeks().first(where: { $0.start <= today && today <= $0.start.adding(days: 6) }) else { return line }
        return Render.weekLine(office: week.office, required: week.required, locale: answers.locale) + " " + line
    }

    /// Writes the current period's HTML page (what `report --html` writes)
    /// beside the control socket as report.html (0600, replaced atomically); its path.
    func writeHTMLReport() throws -> String {
        guard let folder else { throw ControlProtocol.Failure(code: "failed", message: "no runtime folder (the agent runs without a control socket)") }
        let data = try answers.reportData(store: store, today: answers.policy.localDate(of: clock.now()))
        let path = folder + "/report.html"
        do {
            try AtomicFile.replace(path, with: HTMLReport(data: data, locale: answers.locale).html().utf8)
        } catch {
            throw ControlProtocol.Failure(code: "failed", message: "cannot write \(path): \(AtomicFile.reason(error))")
        }
        return path
    }

    /// Makes the answer count the agent's commits acknowledged before now,
    /// today's date, any other process's commit and the calendar read last
    /// (on `queue`): recomputes unless `AnswerFreshness` says the kept answer
    /// serves. True when the status changed.
    private func answerFresh() -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = clock.now()
        // Read first: a commit while this computes makes the next question compute again.
        let committed = commits.load(ordering: .sequentiallyConsistent)
        let (answers, freshness) = kept.withLock { ($0.answers, $0.freshness) }
        let today = answers.policy.localDate(of: now)
        let version = try? store.dataVersion()
        if freshness.serves(day: today, dataVersion: version, commits: committed, now: now, ages: answers.policy.minHours > 0) {
            return false
        }
        recomputes.add(1, ordering: .relaxed)
        let computed: Result<(status: [StatusFormat: String], report: String, summary: DesktopSummary, version: Int), Error> = Result {
            let (changedDates, version) = trackingDates ? try store.takeChangedDatesAndVersion() : (nil, try store.dataVersion())
            // Another process's commit (or a new day, or no notes of touched dates): read everything.
            if version != freshness.basis?.dataVersion || today != freshness.basis?.day { history.invalidate() }
            history.touched(changedDates)
            let fresh = try answers.everything(store: store, today: today, now: now, cache: history)
            let summary = DesktopSummary(report: fresh.data.report, todayStatus: fresh.data.days[today]?.status,
                                         workday: answers.policy.isWorkday(today), holiday: answers.policy.holidays[today],
                                         nextPlan: fresh.data.nextPlanLine(after: today, locale: answers.locale))
            return (fresh.status, fresh.report, summary, version)
        }
        let written: [StatusFormat: String]? = kept.withLock { kept in
            switch computed {
            case .success(let fresh):
                let changed = kept.outputs != fresh.status
                kept.outputs = fresh.status
                kept.reportJSON = fresh.report
                kept.summary = fresh.summary
                kept.failure = nil
                kept.freshness.computed(.init(day: today, dataVersion: fresh.version, commits: committed, computedAt: now))
                return changed ? fresh.status : nil
            case .failure(let error):
                kept.failure = "cannot read the database: \(error)"
                kept.freshness.failed()
                return nil
            }
        }
        if case .failure(let error) = computed { logger.error("could not compute the current status: \(error)") }
        if let written { writeFiles(written) }
        return written != nil
    }

    /// Replaces each status file atomically; a failure is logged, never fatal.
    private func writeFiles(_ outputs: [StatusFormat: String]) {
        guard let folder else { return }
        for (format, name) in Self.files {
            let path = folder + "/" + name
            do {
                try AtomicFile.replace(path, with: (outputs[format] ?? "").utf8)
            } catch {
                logger.warning("cannot replace \(path): \(AtomicFile.reason(error))")
            }
        }
    }
}
