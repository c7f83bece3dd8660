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

/// The agent's current answer: what `deskdays status --format F` (every
/// format) and `deskdays report --json` print now, computed by `Answers`,
/// the same code the CLI runs when no agent does (docs/design.md, "The
/// agent is the cache").
///
/// Every event (a question, a commit, a change, a recompute's result) runs
/// on one serial queue, in order, through `AgentState`, whose effects this
/// class carries out: recomputing (on the queue: questions and refreshes
/// that wait behind one recompute share it), writing `status.json`,
/// `status.waybar` and `status.i3blocks` beside the control socket (temp
/// file + rename, 0600) when the status changed, and handing the publishing,
/// the idle checkpoint and the waits to the agent (`Effects`).
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
    /// The one queue every event runs on.
    private let queue = DispatchQueue(label: "deskdays.current-answer")
    /// The answer and what waits (touched only on `queue`).
    nonisolated(unsafe) private var state = AgentState()
    /// How the answer is computed (the calendar's days included; replaced on `queue`).
    nonisolated(unsafe) private var computing: Answers
    /// The history's statuses between recomputes: after the agent's own
    /// write only the dates it touched are read again (docs/performance.md,
    /// "Bounded work under load").
    private let history = HistoryCache()
    /// Whether the store notes the dates its writes touch.
    private let trackingDates: Bool
    /// What the agent does for the effects that leave this class.
    nonisolated(unsafe) private var effects = Effects()

    /// The effects carried out by the agent: pushing to followers, the
    /// session bus and calendar folder after a refresh, the wait before a
    /// checkpoint and the checkpoint (each off this queue).
    struct Effects {
        var publish: @Sendable () -> Void = {}
        var refreshed: @Sendable () -> Void = {}
        var wake: @Sendable (_ at: Date, _ then: @escaping @Sendable () -> Void) -> Void = { _, _ in }
        var checkpoint: @Sendable () -> Void = {}
    }

    /// How many times the answer was computed (questions that shared one count once).
    var recomputes: Int { queue.sync { state.recomputes } }

    /// The status formats written as files, and their names.
    static let files: [(StatusFormat, String)] = [(.json, "status.json"), (.waybar, "status.waybar"), (.i3blocks, "status.i3blocks")]

    init(store: AttendanceStore, policy: Policy, calendar: CalendarDays = CalendarDays(), clock: AgentClock,
         folder: String?, logger: Logger, fallbackTime: TimeOfDay? = nil, planDefaults: PlanOptions = PlanOptions()) {
        self.store = store
        basePolicy = policy
        self.fallbackTime = fallbackTime
        self.planDefaults = planDefaults
        computing = Answers(policy: policy, locale: ReportLocale(environment: ProcessInfo.processInfo.environment),
                            calendar: calendar, fallbackTime: fallbackTime)
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

    /// How answers are computed now (read on the queue: the calendar may have replaced it).
    private var answers: Answers { queue.sync { computing } }

    /// The agent's effects; set once, before the first event.
    func carryOut(_ effects: Effects) {
        queue.sync { self.effects = effects }
    }

    /// The `[calendar]` folder was read again: the next answer is computed with it.
    func calendarRead(_ calendar: CalendarDays) {
        queue.async { [self] in
            computing = Answers(policy: basePolicy, locale: computing.locale, calendar: calendar, fallbackTime: fallbackTime)
            history.invalidate()
            handle(.calendarRead)
        }
    }

    /// Counts a commit of the agent's own (from the store's writer, before
    /// the write returns: queued, never waiting for a recompute; a question
    /// asked after the write is answered after it counts).
    func storeCommitted() {
        queue.async { [self] in handle(.committed) }
    }

    /// Something the answer reads may have changed: a refresh is queued (at most one waits).
    func mayHaveChanged() {
        queue.async { [self] in handle(.mayHaveChanged) }
    }

    /// `status --format F`'s bytes, or why they cannot be given.
    func status(_ format: StatusFormat) -> Result<String, ControlProtocol.Failure> {
        question { state in
            if let failure = state.failure { return .failure(ControlProtocol.Failure(code: "failed", message: failure)) }
            return .success(state.outputs[format] ?? "")
        }
    }

    /// `report --json`'s bytes, or why they cannot be given.
    func report() -> Result<String, ControlProtocol.Failure> {
        question { state in
            if let failure = state.failure { return .failure(ControlProtocol.Failure(code: "failed", message: failure)) }
            return .success(state.reportJSON)
        }
    }

    /// A question, in turn on the queue: the answer made fresh for it, then read.
    private func question<T>(_ read: (AgentState) -> T) -> T {
        queue.sync {
            handle(.asked(asked()))
            return read(state)
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
        let kept: Result<DesktopSummary, ControlProtocol.Failure> = question { state in
            if let summary = state.summary, state.failure == nil { return .success(summary) }
            return .failure(ControlProtocol.Failure(code: "failed", message: state.failure ?? "no answer yet"))
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

    /// The world a question or a refresh sees now: today, the store's version, whether the answer ages.
    private func asked() -> AgentState.Asked {
        AgentState.Asked(day: computing.policy.localDate(of: clock.now()), dataVersion: try? store.dataVersion(),
                         ages: computing.policy.minHours > 0)
    }

    /// One event into the state, and its effects carried out (on `queue`).
    private func handle(_ event: AgentState.Event) {
        dispatchPrecondition(condition: .onQueue(queue))
        var pending = state.on(event, now: clock.now())
        while !pending.isEmpty {
            switch pending.removeFirst() {
            case .recompute(let commits, let forRefresh):
                pending += state.on(recompute(commits: commits, forRefresh: forRefresh), now: clock.now())
            case .queueRefresh:
                queue.async { [self] in handle(.refreshing(asked())) }
            case .writeFiles(let outputs):
                writeFiles(outputs)
            case .publish:
                effects.publish()
            case .refreshed:
                effects.refreshed()
            case .wake(let at, let generation):
                effects.wake(at) { [self] in queue.async { self.handle(.quiet(generation: generation)) } }
            case .checkpoint:
                effects.checkpoint()
            }
        }
    }

    /// Computes the answer (every status format, the report, the session
    /// bus's summary), counting `commits` of the agent's own; its result as an event.
    private func recompute(commits: Int, forRefresh: Bool) -> AgentState.Event {
        let now = clock.now()
        let answers = computing
        let today = answers.policy.localDate(of: now)
        let basis = state.basis
        do {
            let (changedDates, version) = trackingDates ? try store.takeChangedDatesAndVersion() : (nil, try store.dataVersion())
            // Another process's commit (or a new day, or no notes of touched dates): read everything.
            if version != basis?.dataVersion || today != basis?.day { history.invalidate() }
            history.touched(changedDates)
            let fresh = try answers.everything(store: store, today: today, now: now, cache: history)
            let summary = DesktopSummary(report: fresh.data.report, todayStatus: fresh.data.days[today]?.status,
                                         workday: answers.policy.isWorkday(today), holiday: answers.policy.holidays[today],
                                         nextPlan: fresh.data.nextPlanLine(after: today, locale: answers.locale))
            return .computed(.init(outputs: fresh.status, report: fresh.report, summary: summary,
                                   basis: .init(day: today, dataVersion: version, commits: commits, computedAt: now)),
                             forRefresh: forRefresh)
        } catch {
            logger.error("could not compute the current status: \(error)")
            return .failed("cannot read the database: \(error)", forRefresh: forRefresh)
        }
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
