import Files
import Localization
import DeskDaysCore
import DeskDaysDesktop
import DeskDaysReports
import Foundation
import Synchronization
import Logging

extension Agent {
    /// The longest sleep between looks at the wall clock: bounds how late a
    /// timer fires after the clock is changed by hand (a suspend is caught
    /// on resume, when the sleep ends), and how late subscribers hear that the day changed.
    static let longestSleep: Double = 60
    /// A wall clock that moved this much more (or less) than the monotonic clock was changed or suspended.
    static let jumpThreshold: Double = 2

    /// Reminders and the end-of-day fallback, until cancelled.
    ///
    /// Each round asks the pure `CheckInSchedule` what is due at the wall
    /// clock's now, then sleeps until its next instant (at most
    /// `longestSleep`), on the agent's clock. The wall clock is compared
    /// with the clock the waits run on (monotonic) across every sleep: a difference is a clock change or a suspend,
    /// which is logged; the schedule, recomputed from the wall clock each
    /// round, already handles it.
    func runTimers() async {
        var schedule = CheckInSchedule(policy: configuration.policy, settings: configuration.checkin,
                                       summary: configuration.reminders.summary, start: clock.now())
        var lastDay = configuration.policy.localDate(of: clock.now())
        var announced: Date?
        while !Task.isCancelled {
            let seen = resumes.generation
            let now = clock.now()
            for action in schedule.due(at: now) {
                switch action {
                case .fallback(let date): await writeFallback(on: date)
                case .reminder(let date): await remind(on: date)
                case .summary(let date): await summarize(on: date)
                }
            }
            let today = configuration.policy.localDate(of: now)
            if today != lastDay {
                // A new day changes the figures though no data did.
                lastDay = today
                answerMayHaveChanged()
            } else if configuration.policy.minHours > 0 {
                // Today's time on site grows while a method is present: once
                // it reaches min_hours the day turns office with no new data
                // (subscribers hear it within a round, at most a minute).
                answerMayHaveChanged()
            }
            let next = schedule.nextFire()
            if let next, next != announced {
                // What the schedule decided, so "nothing today" can be seen (and tested) without waiting for it.
                announced = next
                let local = next.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: configuration.policy.timeZone))
                logger.info("next timer: \(local)")
            }
            let until = min(next ?? .distantFuture, now.addingTimeInterval(Self.longestSleep))
            let wallBefore = clock.now(), steadyBefore = clock.elapsed()
            // A resume from sleep ends the wait at once: what came due meanwhile is handled now, once.
            await sleep(until: until, unlessResumedAfter: seen)
            let drift = clock.now().timeIntervalSince(wallBefore) - (clock.elapsed() - steadyBefore).seconds
            if abs(drift) > Self.jumpThreshold {
                logger.notice("the wall clock moved by \(Int(drift.rounded())) s (clock change or suspend); timers recomputed")
                if drift < 0 { await correctClockNow() }
            }
        }
    }

    /// `[reminders] summary`: this week's office days against the rule and
    /// where the period stands, as one notification (logged too).
    func summarize(on date: LocalDate) async {
        do {
            guard let body = try answer.weeklySummary() else {
                logger.notice("weekly summary not given: the week of \(configuration.policy.weekStart(of: date)) has no eligible workday")
                return
            }
            logger.notice("weekly summary for the week of \(configuration.policy.weekStart(of: date)): \(body)")
            await notifier.notify(.summary, title: tr("DeskDays: this week"), body: body)
        } catch {
            logger.error("could not compute the weekly summary: \(error)")
        }
    }

    /// Writes the fallback status for `date` when it still has no record at all.
    func writeFallback(on date: LocalDate) async {
        guard let status = configuration.checkin.fallbackStatus else { return }
        do {
            if try await pipeline.writeFallback(date: date, status: status) {
                logger.notice("fallback: \(date) had no record; recorded \(status.rawValue)")
            } else {
                logger.info("fallback not needed: \(date) has a record")
            }
        } catch {
            logger.error("could not write the fallback for \(date): \(error)")
        }
    }

    /// Gives the day's reminder unless a record, a met target or the user's silence makes it pointless.
    func remind(on date: LocalDate) async {
        // Read afresh: the desktop records dismissals in the same file.
        let streak = reminders.load()
        do {
            let span = DateSpan(date, date)
            let records = try store.records(in: span), checkIns = try store.checkIns(in: span)
            // An office plan not yet confirmed asks whether you were in (docs/policy.md "Plans need you").
            let latestManual = records.filter { $0.origin == .manual }.max { ($0.recordedAt, $0.id ?? 0) < ($1.recordedAt, $1.id ?? 0) }
            let planned = checkIns.isEmpty && latestManual?.plan != nil && latestManual?.status == .office
            if !planned, !records.isEmpty || !checkIns.isEmpty {
                logger.notice("reminder suppressed: \(date) already has a record")
                return
            }
            let report = try answer.figures()
            guard planned || report.remainingRequired > 0 else {
                logger.notice("reminder not needed: no more office days are required in \(report.period.label)")
                return
            }
            let checkedIn = try checkInDates(from: streak.reminded.first ?? date, to: date)
            switch streak.silence(on: date, checkedIn: checkedIn.contains) {
            case .alreadyRemindedToday?:
                logger.info("reminder already given today")
                return
            case .ignoredInARow?:
                logger.notice("reminder withheld: the last \(ReminderStreak.limit) were dismissed; they resume after your next check-in")
                return
            case nil: break
            }
            if reminderPause.isPaused(date) {
                logger.notice("reminder for \(date) not given: paused from the tray menu")
                return
            }
            let count = report.remainingRequired
            // The period as the user's language names it ("Q4 2026", "November 2026", "Oktober 2026").
            let label = ReportLocale(environment: ProcessInfo.processInfo.environment).periodLabel(report.period)
            var body = trn("\(count) more office day needed in \(label). Check in with `deskdays checkin` (or --status remote).",
                           "\(count) more office days needed in \(label). Check in with `deskdays checkin` (or --status remote).", count)
            // Logs are English whatever the user's language (the notification's own text is the user's).
            let days = count == 1 ? "day" : "days"
            // With the server's `actions`, the notification asks instead and its buttons answer.
            var question = trn("\(count) more office day needed in \(label). Where are you working today?",
                               "\(count) more office days needed in \(label). Where are you working today?", count)
            if planned {
                question = tr("You planned the office today — were you in?")
                body = question + " " + tr("Check in with `deskdays checkin` (or --status remote).")
                logger.notice("reminder for \(date): You planned the office today — were you in? Check in with `deskdays checkin` (or --status remote).")
            } else if report.status == .impossible {
                // Out of reach: say so, and what it means.
                let needed = trn("\(count) more office day needed", "\(count) more office days needed", count)
                let left = trn("\(report.pending) workday left", "\(report.pending) workdays left", report.pending)
                question = tr("\(label) is out of reach: \(needed), \(left).") + " " + tr("Where are you working today?")
                body = tr("\(label) is out of reach: \(needed), \(left).") + " " + tr("Check in with `deskdays checkin` (or --status remote).")
                let workdays = report.pending == 1 ? "workday" : "workdays"
                logger.notice("reminder for \(date): \(report.period.label) is out of reach: \(count) more office \(days) needed, \(report.pending) \(workdays) left. Check in with `deskdays checkin` (or --status remote).")
            } else {
                logger.notice("reminder for \(date): \(count) more office \(days) needed in \(report.period.label). Check in with `deskdays checkin` (or --status remote).")
            }
            reminders.update { $0.record(date) }
            await desktop.remind(DesktopBus.Reminder(date: date, title: tr("DeskDays: no check-in yet today"), plainBody: body,
                                                     answerBody: question))

        } catch {
            logger.error("could not decide on today's reminder: \(error)")
        }
    }

    /// The dates in `first...last` with a manual record or an automatic check-in (fallbacks and imports are not the user answering).
    func checkInDates(from first: LocalDate, to last: LocalDate) throws -> Set<LocalDate> {
        let span = DateSpan(min(first, last), last)
        // A plan is no answer: only the day itself can confirm it.
        let manual = try store.records(in: span).filter { $0.origin == .manual && $0.plan == nil }.map(\.date)
        return Set(manual + (try store.checkIns(in: span)).map(\.date))
    }

}

/// The reminder state beside the database (`reminders.json`: dates only, no
/// identifiers), so "once a day" and the dismissals survive an agent
/// restart; changed under a lock (the timers record reminders, the desktop dismissals).
final class ReminderState: Sendable {
    let path: String?
    private let lock = Mutex(())
    private let logger: Logger

    init(databasePath: String, logger: Logger) {
        path = databasePath == ":memory:" || databasePath.isEmpty ? nil
            : (databasePath as NSString).deletingLastPathComponent + "/reminders.json"
        self.logger = logger
    }

    func load() -> ReminderStreak {
        guard let path, let data = FileManager.default.contents(atPath: path),
              let streak = try? JSONDecoder().decode(ReminderStreak.self, from: data) else { return ReminderStreak() }
        return streak
    }

    func update(_ change: (inout ReminderStreak) -> Void) {
        lock.withLock { _ in
            var streak = load()
            change(&streak)
            save(streak)
        }
    }

    private func save(_ streak: ReminderStreak) {
        guard let path, let data = try? JSONEncoder().encode(streak) else { return }
        // 0600 like every file we create (docs/cli.md); replaced atomically.
        do {
            try AtomicFile.replace(path, with: data)
        } catch {
            logger.warning("could not save the reminder state beside the database: \(AtomicFile.reason(error))")
        }
    }
}
