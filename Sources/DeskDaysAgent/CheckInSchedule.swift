import DeskDaysConfig
import DeskDaysCore
import Foundation

/// When the day's reminder and end-of-day fallback are due: a pure value,
/// with "now" always passed in (docs/design.md, habit 5).
///
/// Each action belongs to a local date and is handled at most once per date:
/// the schedule remembers the last date it handled for each, so a clock
/// set back never fires anything twice. Every date after that mark whose
/// instant has passed is handled on the next `due(at:)`, so a suspend or a
/// clock set forward across midnight skips nothing: a missed fallback is
/// still written for its own date (at most `catchUpDays` back). A missed
/// reminder is only given on its own day and before the fallback time;
/// yesterday's nudge is noise. Instants come from the policy time zone by
/// calendar arithmetic, so DST days (23 or 25 hours) fire at the local time
/// named (in a spring-forward gap, at the next valid instant).
public struct CheckInSchedule: Sendable, Equatable {
    /// Something due on a date.
    public enum Action: Sendable, Equatable {
        case reminder(LocalDate)
        case fallback(LocalDate)
        /// `[reminders] summary`: the week's summary, on its weekday.
        case summary(LocalDate)
    }

    /// How far back a missed fallback is still written after a long suspend.
    public static let catchUpDays = 7

    let policy: Policy
    let reminderTime: TimeOfDay?
    let fallbackTime: TimeOfDay?
    /// Past this time a day's reminder is pointless: the configured fallback time, even with `fallback_status = "none"`.
    let reminderCutoff: TimeOfDay?
    /// The last date whose reminder was handled (given or passed over).
    public private(set) var remindersThrough: LocalDate
    /// The last date whose fallback was handled.
    public private(set) var fallbacksThrough: LocalDate
    let summary: WeeklyTime?
    /// The last date whose summary was handled (given or passed over).
    public private(set) var summariesThrough: LocalDate

    /// A schedule starting at `start`: today's actions are still ahead (or overdue).
    public init(policy: Policy, settings: CheckinSettings, summary: WeeklyTime? = nil, start: Date) {
        self.policy = policy
        self.reminderTime = settings.reminderTime
        // No fallback status ("none") means no fallback action at all.
        self.fallbackTime = settings.fallbackStatus == nil ? nil : settings.fallbackTime
        self.reminderCutoff = settings.fallbackTime
        let yesterday = policy.localDate(of: start).adding(days: -1)
        remindersThrough = yesterday
        fallbacksThrough = yesterday
        self.summary = summary
        summariesThrough = yesterday
    }

    /// The instant of `time` within the (shifted) day `date`: with
    /// `day_starts_at = "04:00"`, a 02:00 time is on the next calendar date.
    func instant(_ time: TimeOfDay?, on date: LocalDate) -> Date? {
        time.map { policy.instant(within: date, hour: $0.hour, minute: $0.minute) }
    }

    /// The earliest instant at which `due(at:)` will have something for a
    /// workday (possibly already past); nil when nothing is configured.
    public func nextFire() -> Date? {
        var best: Date?
        for (time, through) in [(reminderTime, remindersThrough), (fallbackTime, fallbacksThrough)] {
            guard time != nil else { continue }
            // The next workday after the mark, within a fortnight (enough for any week with a workday).
            for offset in 1...14 {
                let date = through.adding(days: offset)
                guard policy.isWorkday(date), let fire = instant(time, on: date) else { continue }
                if best.map({ fire < $0 }) ?? true { best = fire }
                break
            }
        }
        // The summary: the next date of its weekday after the mark.
        if let summary {
            for offset in 1...7 {
                let date = summariesThrough.adding(days: offset)
                guard date.weekday == summary.weekday, let fire = instant(summary.time, on: date) else { continue }
                if best.map({ fire < $0 }) ?? true { best = fire }
                break
            }
        }
        return best
    }

    /// The actions due at `now`, each returned once; marks them handled.
    public mutating func due(at now: Date) -> [Action] {
        let today = policy.localDate(of: now)
        var actions: [Action] = []
        if fallbackTime != nil {
            var date = max(fallbacksThrough.adding(days: 1), today.adding(days: -Self.catchUpDays))
            while date <= today, let fire = instant(fallbackTime, on: date), fire <= now {
                if policy.isWorkday(date) { actions.append(.fallback(date)) }
                fallbacksThrough = date
                date = date.adding(days: 1)
            }
        }
        if let summary {
            // Given on its own day only (a summary a day late is noise), workday or not.
            var date = summariesThrough.adding(days: 1)
            while date <= today, let fire = instant(summary.time, on: date), fire <= now {
                if date == today, date.weekday == summary.weekday { actions.append(.summary(date)) }
                summariesThrough = date
                date = date.adding(days: 1)
            }
        }
        if reminderTime != nil {
            var date = remindersThrough.adding(days: 1)
            while date <= today, let fire = instant(reminderTime, on: date), fire <= now {
                let beforeFallback = instant(reminderCutoff, on: date).map { now < $0 } ?? true
                if date == today, beforeFallback, policy.isWorkday(date) { actions.append(.reminder(date)) }
                remindersThrough = date
                date = date.adding(days: 1)
            }
        }
        return actions
    }
}

/// Whether to nudge: at most once a day, and silent after the user
/// dismissed three reminders in a row without checking in.
///
/// Ignored means dismissed (the notification closed by the user, reason 2):
/// a reminder that the notification server let expire, or that no desktop
/// showed, was never seen to be ignored. The state is the dates of the last
/// reminders and of the dismissed ones; whether the user checked in is read
/// from the data when deciding, so a check-in entered later, or any
/// check-in since, ends the silence.
public struct ReminderStreak: Sendable, Equatable, Codable {
    /// After this many dismissed reminders in a row, reminders stop until the user checks in again.
    public static let limit = 3

    /// The dates reminders were given, oldest first (only the last `limit` are kept).
    public private(set) var reminded: [LocalDate] = []
    /// The dates whose reminder the user dismissed without an answer (only the last `limit`).
    public private(set) var dismissed: [LocalDate] = []

    /// The reminders on screen and not yet answered: the notification
    /// server's id and the date each asks about (the last few), so that an
    /// answer given after a reload or restart is still recorded for its
    /// date, and a date answered elsewhere withdraws its reminder.
    public private(set) var onScreen: [OnScreen] = []

    public struct OnScreen: Sendable, Equatable, Codable {
        public var id: UInt32
        public var date: LocalDate
    }

    public init(reminded: [LocalDate] = [], dismissed: [LocalDate] = [], onScreen: [OnScreen] = []) {
        self.reminded = Array(reminded.suffix(Self.limit))
        self.dismissed = Array(dismissed.suffix(Self.limit))
        self.onScreen = Array(onScreen.suffix(Self.limit))
    }

    enum CodingKeys: String, CodingKey { case reminded, dismissed, onScreen }

    /// A file written before dismissals (or reminders on screen) were kept reads as none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(reminded: try container.decode([LocalDate].self, forKey: .reminded),
                  dismissed: try container.decodeIfPresent([LocalDate].self, forKey: .dismissed) ?? [],
                  onScreen: try container.decodeIfPresent([OnScreen].self, forKey: .onScreen) ?? [])
    }

    /// The reminders on screen now (an id the server gives again replaces the old one).
    public mutating func setOnScreen(_ shown: [UInt32: LocalDate]) {
        onScreen = Array(shown.sorted { $0.key < $1.key }.map { OnScreen(id: $0.key, date: $0.value) }.suffix(Self.limit))
    }

    /// Why no reminder is given, or nil to give one.
    public enum Silence: Sendable, Equatable {
        case alreadyRemindedToday
        case ignoredInARow
    }

    /// - Parameter checkedIn: whether the user checked in (manual or automatic) on a date.
    public func silence(on date: LocalDate, checkedIn: (LocalDate) -> Bool) -> Silence? {
        if reminded.last == date { return .alreadyRemindedToday }
        // The last `limit` reminders, every one dismissed.
        guard reminded.count == Self.limit, reminded.allSatisfy(dismissed.contains), let first = reminded.first,
              first < date else { return nil }
        // Any check-in from the first of them up to yesterday breaks the streak.
        for day in DateSpan(first, date.adding(days: -1)) where checkedIn(day) { return nil }
        return .ignoredInARow
    }

    public mutating func record(_ date: LocalDate) {
        reminded = Array((reminded + [date]).suffix(Self.limit))
    }

    /// The user closed `date`'s reminder without answering it.
    public mutating func dismiss(_ date: LocalDate) {
        guard !dismissed.contains(date) else { return }
        dismissed = Array((dismissed + [date]).suffix(Self.limit))
    }
}
