import Localization
import DeskDaysCore
import DeskDaysReports
import DeskDaysStore
import Foundation
import Synchronization

/// What `status` and `report` print, computed in one place from the store:
/// the CLI prints it when no agent runs, and the agent keeps it current and
/// serves it (docs/design.md, "The agent is the cache"), so the two paths
/// give the same bytes by construction.
public struct Answers: Sendable {
    /// The policy, with the calendar's holidays added.
    public let policy: Policy
    public let locale: ReportLocale
    /// What the `[calendar]` folder said when it was read (docs/cli.md "Calendar").
    public let calendar: CalendarDays
    /// `[checkin] fallback_time`: until then today may still be planned (nil: all day).
    public let fallbackTime: TimeOfDay?

    public init(policy: Policy, locale: ReportLocale, calendar: CalendarDays = CalendarDays(),
                fallbackTime: TimeOfDay? = nil) {
        self.policy = calendar.applying(to: policy)
        self.locale = locale
        self.calendar = calendar
        self.fallbackTime = fallbackTime
    }

    /// The stored records of `span` and the calendar's, as seen on `today`.
    public func records(in span: DateSpan, store: AttendanceStore, today: LocalDate) throws -> [DayRecord] {
        let stored = try store.records(in: span)
        return calendar.isEmpty ? stored : stored + calendar.records(in: span, today: today)
    }

    var engine: PolicyEngine { PolicyEngine(policy: policy) }

    /// `deskdays status --format F`, newline included.
    public func status(_ format: StatusFormat, store: AttendanceStore, today: LocalDate, now: Date? = nil) throws -> String {
        switch format {
        case .text, .json: try render(format, try reportData(store: store, today: today, now: now))
        // Streaks read the whole history; the status-bar formats, polled often, skip them.
        case .waybar: Render.waybar(try report(store: store, today: today, now: now), locale: locale) + "\n"
        case .i3blocks: Render.i3blocks(try report(store: store, today: today, now: now), locale: locale) + "\n"
        }
    }

    /// Every status format and `report --json`, from one read of the store:
    /// the agent's current answer (computing each on its own read the
    /// history five times; the bytes are the same as `status` and `report` give).
    public func everything(store: AttendanceStore, today: LocalDate, now: Date? = nil,
                           cache: HistoryCache? = nil) throws -> (status: [StatusFormat: String], report: String, data: ReportData) {
        let data = try reportData(store: store, today: today, now: now, cache: cache)
        var outputs: [StatusFormat: String] = [:]
        for format in StatusFormat.allCases { outputs[format] = try render(format, data) }
        return (outputs, try Render.json(ReportWithStreaks(report: data.report, streaks: data.streaks!, milestones: data.milestones)) + "\n", data)
    }

    /// `status --format F`'s bytes for the current period's data.
    func render(_ format: StatusFormat, _ data: ReportData) throws -> String {
        let report = data.report
        switch format {
        case .text:
            var output = Localization.sentences([Render.statusLine(report, locale: locale), streakLine(data.streaks!, locale: locale)]) + "\n"
            if let plan = data.plan, plan.short > 0, report.status != .met {
                output += trn("Plan: \(plan.short) more day needed; `deskdays plan`.", "Plan: \(plan.short) more days needed; `deskdays plan`.",
                              plan.short) + "\n"
            }
            // The hint only where a check-in would help: a workday with nothing recorded yet.
            if report.remainingRequired > 0 || report.status == .behind,
               data.policy.isWorkday(data.today),
               data.days[data.today].map({ $0.status == nil || $0.origin == .fallback }) ?? true {
                output += tr("Check in with `deskdays checkin` (today, office) or `deskdays checkin --status remote`.") + "\n"
            }
            output += Render.missingLines(report, locale: locale)
            return output
        case .json:
            // One line: `status --follow --format json` prints one per change.
            return try Render.jsonLine(ReportWithStreaks(report: report, streaks: data.streaks!, plan: data.plan)) + "\n"
        case .waybar: return Render.waybar(report, locale: locale) + "\n"
        case .i3blocks: return Render.i3blocks(report, locale: locale) + "\n"
        }
    }

    /// `deskdays report --json` (or its text), newline included, with the data it came from.
    public func report(_ selector: PeriodSelector, json: Bool, store: AttendanceStore,
                       today: LocalDate, now: Date? = nil) throws -> (output: String, data: ReportData) {
        let data = try reportData(selector, store: store, today: today, now: now)
        let streaks = data.streaks!
        let output = json ? try Render.json(ReportWithStreaks(report: data.report, streaks: streaks, milestones: data.milestones))
                          : Render.text(data.report, locale: locale, minHours: policy.minHours) + "\n" + streakLine(streaks, locale: locale)
                            + (data.milestones.map { "\n" + $0.line(locale: locale) } ?? "")
        return (output + "\n", data)
    }

    /// The report for `selector` alone (no streaks: a few dates' reads).
    public func report(_ selector: PeriodSelector = .current, store: AttendanceStore, today: LocalDate,
                       now: Date? = nil) throws -> Report {
        let span = engine.dataSpan(selector, today: today)
        let checkIns = try store.checkIns(in: span)
        // Time on site is read only when it decides something (min_hours set).
        let presence = policy.minHours > 0 ? try self.presence(store: store, span: span, checkIns: checkIns,
                                                                now: now ?? policy.instant(of: today)) : [:]
        return engine.report(selector, today: today, records: try records(in: span, store: store, today: today), checkIns: checkIns,
                             presence: presence)
    }

    /// Each date's time on site in `span` (docs/policy.md "Time on site").
    /// `now` ends today's presence; without one, 12:00 on today (what
    /// `--today` means).
    public func presence(store: AttendanceStore, span: DateSpan, checkIns: [AutomaticCheckIn]? = nil,
                         now: Date) throws -> [LocalDate: DayPresence] {
        DayPresence.days(checkIns: try checkIns ?? store.checkIns(in: span), signs: try store.latestSigns(in: span),
                         policy: policy, now: now)
    }

    /// What the calendar, the charts and the HTML page draw: the report for
    /// `selector`, each date's resolved day, and the streaks, from one read
    /// of the store.
    ///
    /// Streaks look at the whole history, so the read spans from the first
    /// stored date to the end of the week of today (and `covering`, the
    /// dates a view shows beyond the period).
    ///
    /// `cache` (the agent's) keeps the history's statuses between calls and
    /// re-reads only the dates it was told changed (`HistoryCache`); the
    /// result is the same as without it.
    public func reportData(_ selector: PeriodSelector = .current, covering: DateSpan? = nil,
                           store: AttendanceStore, today: LocalDate, now: Date? = nil,
                           cache: HistoryCache? = nil) throws -> ReportData {
        let needed = engine.dataSpan(selector, today: today)
        // The history starts at the first stored date or calendar event before today.
        let storedStart = [try store.dateRange()?.start, calendar.firstStatusDate(today: today)]
            .compactMap { $0 }.min()
        let first = [needed.start, covering?.start, storedStart].compactMap { $0 }.min()!
        let last = [needed.end, covering?.end, policy.week(containing: today).end].compactMap { $0 }.max()!
        // The dates a view shows are resolved in full (with their sources);
        // the rest of the history only needs a status for the streaks.
        let detail = DateSpan(min(needed.start, covering?.start ?? needed.start), max(needed.end, covering?.end ?? needed.end))
        let history = DateSpan(first, last)
        let instant = now ?? policy.instant(of: today)
        let detailCheckIns = try store.checkIns(in: detail)
        // Time on site shows in reports only with `min_hours` (ReportData.hours):
        // without it, the signs are not read at all.
        let presence = policy.minHours > 0
            ? try self.presence(store: store, span: detail, checkIns: detailCheckIns, now: instant) : [:]
        // A short day is no automatic office day in the history either
        // (summed up per date by the store: the same arithmetic, one row a day).
        let short = policy.minHours > 0
            ? DayPresence.shortDates(try store.daySigns(in: history), policy: policy, now: instant) : []
        let days = Resolver.resolve(detail, records: try records(in: detail, store: store, today: today),
                                    checkIns: detailCheckIns, short: short, today: today)
        // The history's statuses, for the streaks (and a period reaching back).
        let read = { (span: DateSpan) throws -> DayStatuses in
            DayStatuses(span, orderedRecords: try store.statusHistory(in: span) + calendar.entries(in: span, today: today),
                        checkInDates: short.isEmpty ? try store.checkInDates(in: span)
                                                    : try store.checkInDates(in: span).filter { !short.contains($0) })
        }
        // With min_hours a date's status also depends on the clock (today's time
        // on site), with a calendar on the folder and on today (plans): no cache.
        let past: DayStatuses
        if let cache, policy.minHours == 0, calendar.isEmpty {
            // Only some dates again: one read for all of them, resolved by the same DayStatuses.
            let readDates = { (dates: Set<LocalDate>) throws -> DayStatuses in
                let inputs = try store.statusInputs(on: dates)
                return DayStatuses(DateSpan(dates.min()!, dates.max()!), orderedRecords: inputs.records,
                                   checkInDates: inputs.checkInDates)
            }
            past = try cache.statuses(history, read: read, readDates: readDates)
        } else {
            past = try read(history)
        }
        // The detail's dates resolved in full, the rest from the history (no dictionary look-up for them).
        // (A detail date resolved to nothing stays nothing: a past office plan never confirmed.)
        let status: (LocalDate) -> AttendanceStatus? = { detail.contains($0) ? days[$0]?.status : past[$0] }
        let report = engine.report(selector, today: today, presence: presence, plans: PolicyEngine.plans(days),
                                   statusOf: status)
        let calculator = StreakCalculator(policy: policy, today: today)
        let streaks = StreakCalculator.streaks(calculator.weeks(from: storedStart ?? today, statusOf: status))
        var data = ReportData(policy: policy, report: report, days: days, streaks: streaks, presence: presence)
        data.milestones = Milestones.counted(policy: policy, today: today, first: storedStart ?? today, streaks: streaks, statusOf: status)
        // The current period's recorded office plans: do they still reach the target?
        if selector == .current, report.plannedOffice > 0 {
            data.plan = PlanStanding(engine.plan(today: today, todayOpen: todayOpen(now: instant, today: today),
                                                 plans: PolicyEngine.plans(days), statusOf: status))
        }
        return data
    }
}

/// The history's per-date statuses kept between answers by a long-lived
/// reader (the agent's current answer): a recompute after a write re-reads
/// only the dates that write touched (`AttendanceStore.takeChangedDates`)
/// instead of the whole history. The answer is the same as reading
/// everything; anything the cache cannot vouch for (another process's
/// write, a new span, too many dates) reads everything.
public final class HistoryCache: Sendable {
    private struct Kept {
        var statuses: DayStatuses?
        var changed: Set<LocalDate> = []
    }

    private let kept = Mutex(Kept())

    public init() {}

    /// The dates the store's own writes touched since the last answer; nil: read everything.
    public func touched(_ dates: Set<LocalDate>?) {
        kept.withLock { kept in
            guard let dates else { kept = Kept(); return }
            kept.changed.formUnion(dates)
        }
    }

    /// Everything is read again at the next answer (another process wrote, the day changed).
    public func invalidate() { touched(nil) }

    /// The statuses of `span`: those kept, with the touched dates read again
    /// (one date each), or all of `span` read when the kept ones are of another span.
    func statuses(_ span: DateSpan, read: (DateSpan) throws -> DayStatuses,
                  readDates: (Set<LocalDate>) throws -> DayStatuses) throws -> DayStatuses {
        try kept.withLock { kept in
            defer { kept.changed = [] }
            guard var statuses = kept.statuses, statuses.span == span, kept.changed.count <= AttendanceStore.changedDatesLimit else {
                kept.statuses = nil
                let fresh = try read(span)
                kept.statuses = fresh
                return fresh
            }
            let dates = kept.changed.filter(span.contains)
            if !dates.isEmpty {
                let again = try readDates(dates)
                for date in dates { statuses.set(date, again[date]) }
            }
            kept.statuses = statuses
            return statuses
        }
    }
}
