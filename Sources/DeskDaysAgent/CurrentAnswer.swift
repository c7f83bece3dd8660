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
#if canImport(Glibc)
import Glibc
#endif

/// The agent's current answer: what `deskdays status --format F` (every
/// format) and `deskdays report --json` print now, computed by `Answers`,
/// the same code the CLI runs when no agent does (docs/design.md, "The
/// agent is the cache").
///
/// It is recomputed when the agent's own pipeline commits (at the latest
/// before the next answer), when the local
/// day changes, after a resume and on a reload (a new agent), and, before
/// an answer is given, when SQLite's `data_version` shows that another
/// process committed to the file. Each recomputation that changes the status
/// rewrites `status.json`, `status.waybar` and `status.i3blocks` beside the
/// control socket (temp file + rename, 0600), for bars that read a file.
final class CurrentAnswer: @unchecked Sendable {
    private let store: AttendanceStore
    /// The configuration's policy, which the calendar's holidays are added to.
    private let basePolicy: Policy
    /// Replaced when the `[calendar]` folder changes (under `answersLock`, never held with another lock).
    private let answersLock = NSLock()
    private var currentAnswers: Answers
    private var answers: Answers { answersLock.withLock { currentAnswers } }
    /// The calendar changed since the answer was computed (under `lock`).
    private var calendarChanged = false
    private let clock: AgentClock
    private let folder: String?
    private let logger: Logger
    /// Guards the answer (the fields below) for moments only: a recompute
    /// runs outside it, by one thread at a time (`refreshing`), and a
    /// request that arrives meanwhile waits for that recompute's result
    /// (`wait`), not for its turn at a lock, which a stream of recomputes
    /// could keep from it (measured: `status` waited 100–300 ms behind
    /// back-to-back recomputes during a burst of check-ins).
    private let lock = NSCondition()
    /// A recompute is under way (under `lock`).
    private var refreshing = false
    private var outputs: [StatusFormat: String] = [:]
    private var reportJSON = ""
    private var day: LocalDate?
    private var dataVersion: Int?
    private var failure: String?
    private var computedAt: Date?
    /// The agent's own commits, counted as the store reports them (on its
    /// writer's queue, before the write returns), under a lock of their own
    /// that is never held while anything else is done; and the count the
    /// answer was computed after (under `lock`). SQLite's `data_version`
    /// shows other processes' commits only, and the publish queue's refresh
    /// may come after the next request: an answer given after a write the
    /// agent acknowledged must already count it.
    private let commits = NSLock()
    private var commitCount = 0
    private var answeredCommits = 0
    /// A change an answer computed before the publish queue's refresh did
    /// (under `lock`): that refresh still reports it, so followers get it.
    private var unpushed = false
    /// The history's statuses between recomputes: after the agent's own
    /// write only the dates it touched are read again (docs/performance.md,
    /// "Bounded work under load").
    private let history = HistoryCache()

    /// The status formats written as files, and their names.
    static let files: [(StatusFormat, String)] = [(.json, "status.json"), (.waybar, "status.waybar"), (.i3blocks, "status.i3blocks")]

    init(store: AttendanceStore, policy: Policy, calendar: CalendarDays = CalendarDays(), clock: AgentClock,
         folder: String?, logger: Logger) {
        self.store = store
        basePolicy = policy
        currentAnswers = Answers(policy: policy, locale: ReportLocale(environment: ProcessInfo.processInfo.environment),
                                 calendar: calendar)
        self.clock = clock
        self.folder = folder
        self.logger = logger
        do {
            try store.trackChangedDates()
        } catch {
            // Without the triggers every recompute reads the whole history (correct, slower).
            logger.warning("cannot note the dates writes touch (\(error)); every answer reads the whole history")
            trackingDates = false
        }
    }
    /// Whether the store notes the dates its writes touch.
    private var trackingDates = true

    /// The `[calendar]` folder was read again: the next answer is computed with it.
    func calendarRead(_ calendar: CalendarDays) {
        let fresh = Answers(policy: basePolicy, locale: answers.locale, calendar: calendar)
        answersLock.withLock { currentAnswers = fresh }
        lock.withLock { calendarChanged = true }
        history.invalidate()
    }

    /// Counts a commit of the agent's own: the next answer is computed anew.
    func storeCommitted() {
        commits.withLock { commitCount += 1 }
    }

    /// Recomputes every answer from the store; true when the status changed
    /// (since the last call: a change a request's recompute found is reported here too).
    @discardableResult
    func refresh() -> Bool {
        let changed = recompute(unlessFresh: nil)
        return lock.withLock {
            defer { unpushed = false }
            return changed || unpushed
        }
    }

    /// `status --format F`'s bytes, or why they cannot be given.
    func status(_ format: StatusFormat) -> Result<String, ControlProtocol.Failure> {
        answerFresh()
        return lock.withLock {
            if let failure { return .failure(ControlProtocol.Failure(code: "failed", message: failure)) }
            return .success(outputs[format] ?? "")
        }
    }

    /// `report --json`'s bytes, or why they cannot be given.
    func report() -> Result<String, ControlProtocol.Failure> {
        answerFresh()
        return lock.withLock {
            if let failure { return .failure(ControlProtocol.Failure(code: "failed", message: failure)) }
            return .success(reportJSON)
        }
    }

    /// The current period's figures (for the reminder), read afresh.
    func figures() throws -> Report {
        let now = clock.now()
        return try answers.report(store: store, today: answers.policy.localDate(of: now), now: now)
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

    /// What the session-bus interface shows: the current period's figures and today's status, read afresh.
    func desktopSummary() throws -> DesktopSummary {
        let today = answers.policy.localDate(of: clock.now())
        let report = try answers.report(store: store, today: today)
        let span = DateSpan(today, today)
        let day = Resolver.resolve(today, records: try answers.records(in: span, store: store, today: today),
                                   checkIns: try store.checkIns(in: span))
        return DesktopSummary(report: report, todayStatus: day.status, workday: answers.policy.isWorkday(today))
    }

    /// The weekly summary: this week's office days against the rule (the
    /// report's row for a weekly rule, else the week as streaks judge it)
    /// and the period's status line, in the user's language.
    func weeklySummary() throws -> String {
        let today = answers.policy.localDate(of: clock.now())
        let data = try answers.reportData(store: store, today: today)
        let line = Render.statusLine(data.report, locale: answers.locale)
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

    /// Makes sure the answer counts the agent's commits acknowledged before
    /// this request came, today's date and any other process's commit:
    /// recomputes when it does not, or waits for the recompute under way
    /// and takes its result when that one counts them. Requests waiting
    /// behind one recompute share it, so a burst of check-ins does not make
    /// every `status` wait for a recompute of its own.
    private func answerFresh() {
        let arrived = commits.withLock { commitCount }
        let now = clock.now()
        let today = answers.policy.localDate(of: now)
        let version = try? store.dataVersion()
        // With min_hours, today's time on site grows while a method is
        // present: the answer is also stale a minute after it was computed.
        let ages = answers.policy.minHours > 0
        if recompute(unlessFresh: { [self] in
            today == day && version == dataVersion && answeredCommits >= arrived && failure == nil && !calendarChanged
                && !(ages && computedAt.map { abs(now.timeIntervalSince($0)) >= 60 } ?? true)
        }) {
            lock.withLock { unpushed = true }
        }
    }

    /// Recomputes the answer as the one recomputing thread, unless `fresh`
    /// (checked under `lock`) says the answer already serves; true when the
    /// status changed. A thread that finds a recompute under way waits for
    /// it and checks again.
    private func recompute(unlessFresh fresh: (() -> Bool)?) -> Bool {
        lock.lock()
        while true {
            if let fresh, fresh() {
                lock.unlock()
                return false
            }
            if !refreshing { break }
            lock.wait()
        }
        refreshing = true
        let knownVersion = dataVersion, knownDay = day, before = outputs
        calendarChanged = false
        lock.unlock()

        let now = clock.now()
        let today = answers.policy.localDate(of: now)
        // Read first: a commit while this computes makes the next answer compute again.
        let committed = commits.withLock { commitCount }
        let computed: Result<(status: [StatusFormat: String], report: String, version: Int), Error> = Result {
            let (changedDates, version) = trackingDates ? try store.takeChangedDatesAndVersion() : (nil, try store.dataVersion())
            // Another process's commit (or a new day, or no notes of touched dates): read everything.
            if version != knownVersion || today != knownDay { history.invalidate() }
            history.touched(changedDates)
            let fresh = try answers.everything(store: store, today: today, now: now, cache: history)
            return (fresh.status, fresh.report, version)
        }

        lock.lock()
        var changed = false
        switch computed {
        case .success(let fresh):
            reportJSON = fresh.report
            computedAt = now
            outputs = fresh.status
            day = today
            dataVersion = fresh.version
            answeredCommits = committed
            failure = nil
            changed = outputs != before
        case .failure(let error):
            failure = "cannot read the database: \(error)"
            logger.error("could not compute the current status: \(error)")
        }
        let written = outputs
        // Waiting requests take this answer now; the files follow.
        lock.broadcast()
        lock.unlock()
        if changed { writeFiles(written) }
        lock.withLock {
            refreshing = false
            lock.broadcast()
        }
        return changed
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
