import Localization
import DeskDaysCore

/// Milestones (docs/policy.md "Milestones"): office days recorded, the
/// longest run of compliant weeks, and whole periods met, each with the
/// level it has reached and the next one. Counted from the history the
/// streaks read, up to today.
public struct Milestones: Sendable, Equatable, Codable {
    /// One count and its levels.
    public struct Count: Sendable, Equatable, Codable {
        public var count: Int
        /// The highest level reached; nil below the first.
        public var reached: Int?
        /// The next level; nil past the last.
        public var next: Int?

        public init(_ count: Int, levels: [Int]) {
            self.count = count
            reached = levels.last { $0 <= count }
            next = levels.first { $0 > count }
        }
    }

    public static let officeDayLevels = [10, 25, 50, 100, 250, 500, 1000]
    public static let weekLevels = [4, 8, 13, 26, 52]
    public static let periodLevels = [1, 2, 4, 8, 12, 20]

    public var officeDays: Count
    public var weeksInARow: Count
    /// Nil for a rolling window or `best_weeks` (their windows overlap: no whole periods to count).
    public var periodsMet: Count?

    enum CodingKeys: String, CodingKey {
        case officeDays = "office_days", weeksInARow = "weeks_in_a_row", periodsMet = "periods_met"
    }

    public init(officeDays: Int, longestStreak: Int, periodsMet: Int?) {
        self.officeDays = Count(officeDays, levels: Self.officeDayLevels)
        weeksInARow = Count(longestStreak, levels: Self.weekLevels)
        self.periodsMet = periodsMet.map { Count($0, levels: Self.periodLevels) }
    }

    /// The history's milestones: office days up to `today`, the longest
    /// streak, and the whole periods before today's that were met (since
    /// the rule's start, from the period holding `first`).
    public static func counted(policy: Policy, today: LocalDate, first: LocalDate, streaks: Streaks,
                               statusOf: (LocalDate) -> AttendanceStatus?) -> Milestones {
        var office = 0
        if first <= today {
            for date in DateSpan(first, today) where statusOf(date) == .office { office += 1 }
        }
        var periodsMet: Int?
        if policy.period != .rolling, policy.target.kind != .bestWeeks {
            let engine = PolicyEngine(policy: policy)
            let current = policy.reportPeriod(.current, today: today)
            var met = 0
            var start = policy.reportPeriod(.containing(min(first, today)), today: today).wholeSpan.start
            while start < current.wholeSpan.start {
                if engine.report(.containing(start), today: today, statusOf: statusOf).status == .met { met += 1 }
                start = policy.reportPeriod(.containing(start), today: today).wholeSpan.end.adding(days: 1)
            }
            periodsMet = met
        }
        return Milestones(officeDays: office, longestStreak: streaks.longest, periodsMet: periodsMet)
    }

    /// "Milestones: 100 office days, 8 compliant weeks in a row, 2 periods
    /// met. Next: 250 office days (127 more)." The levels reached (none yet:
    /// only the next), for `report` and the window's Insights.
    public func line(locale: ReportLocale) -> String {
        var reached: [String] = []
        if let level = officeDays.reached {
            reached.append(trn("\(locale.number(level)) office day", "\(locale.number(level)) office days", level))
        }
        if let level = weeksInARow.reached {
            reached.append(trn("\(locale.number(level)) compliant week in a row", "\(locale.number(level)) compliant weeks in a row", level))
        }
        if let level = periodsMet?.reached {
            reached.append(trn("\(locale.number(level)) period met", "\(locale.number(level)) periods met", level))
        }
        var sentences: [String] = []
        if !reached.isEmpty { sentences.append(tr("Milestones: \(locale.list(reached)).")) }
        if let next = officeDays.next {
            let more = next - officeDays.count
            sentences.append(trn("Next milestone: \(locale.number(next)) office days (\(locale.number(more)) more).",
                                 "Next milestone: \(locale.number(next)) office days (\(locale.number(more)) more).", more))
        }
        return Localization.sentences(sentences)
    }
}
