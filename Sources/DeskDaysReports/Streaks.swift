import DeskDaysCore

/// One whole week judged against the policy, for streaks and the weekly chart.
public struct WeekOutcome: Sendable, Equatable {
    /// Whether the week is won, lost, or outside the count.
    public enum Verdict: String, Sendable, Equatable {
        /// Office days reached the requirement.
        case met
        /// The week is over and fell short.
        case missed
        /// No eligible day at all (holidays, vacation): neither extends nor breaks a streak.
        case excused
        /// Not over yet and not yet met: cannot break a streak before it ends.
        case open
    }

    public var start: LocalDate
    public var office: Int
    public var required: Int
    public var eligible: Int
    public var verdict: Verdict
}

/// The current and longest runs of compliant weeks.
public struct Streaks: Sendable, Equatable {
    /// Compliant weeks in a row up to now (an open week does not break it).
    public var current: Int
    /// The longest such run in the history given.
    public var longest: Int

    public init(current: Int, longest: Int) {
        self.current = current
        self.longest = longest
    }
}

/// Judges weeks and finds streaks of compliant ones (docs/policy.md
/// "Streaks"): a week is met as the report's weeks table says for
/// `days_per_week` and `compliant_weeks` (the engine's own rows, so the
/// streak never contradicts the table); for `percent` and
/// `days_per_period` when its office days inside the period reach
/// `ceil(required × E_w / eligible)`, the period's requirement spread over
/// its eligible days; for `best_weeks` when it reaches the engine's
/// per-week share `ceil(d / b)`. A week that crosses two periods is one
/// week, judged by its part in the period it ends in.
public struct StreakCalculator: Sendable {
    public var policy: Policy
    public var today: LocalDate

    public init(policy: Policy, today: LocalDate) {
        self.policy = policy
        self.today = today
    }

    /// Every week from the one containing `first` to the one containing today.
    public func weeks(from first: LocalDate, statusOf: (LocalDate) -> AttendanceStatus?) -> [WeekOutcome] {
        let start = min(first, today)
        if policy.target.kind == .bestWeeks {
            var result: [WeekOutcome] = []
            var week = policy.weekStart(of: start)
            while week <= today {
                result.append(self.week(week, statusOf: statusOf))
                week = week.adding(days: 7)
            }
            return result
        }
        if policy.period == .rolling {
            // Windows overlap: each week is judged in the window that ends
            // with it, the one that was current while the week ran.
            var result: [WeekOutcome] = []
            var week = policy.weekStart(of: start)
            while week <= today {
                result += rows(in: policy.period(.rolling, containing: week), from: week, statusOf: statusOf)
                week = week.adding(days: 7)
            }
            return result
        }
        var parts: [WeekOutcome] = []
        var period = policy.period(policy.period, containing: start)
        while period.start <= today {
            parts += rows(in: period, statusOf: statusOf).filter { $0.start >= policy.weekStart(of: start) }
            period = policy.period(policy.period, containing: period.end.adding(days: 1))
        }
        // A week in two periods is one week, judged by its part in the period
        // it ends in: that period's table is the one shown when the week is over.
        var result: [WeekOutcome] = []
        for part in parts {
            if result.last?.start == part.start { result[result.count - 1] = part } else { result.append(part) }
        }
        return result
    }

    /// The weeks of `period` (up to the one holding today, or all of them
    /// with `whole`; from the week of `from` on, when given), as its report
    /// judges them: a week's days inside the period only.
    public func rows(in period: Period, whole: Bool = false, from: LocalDate? = nil,
                     statusOf: (LocalDate) -> AttendanceStatus?) -> [WeekOutcome] {
        let engine = PolicyEngine(policy: policy)
        // The period of its last day: a rolling window is the one ending with
        // that day's week (the one of its first day would end 11 weeks earlier).
        let report = engine.report(.containing(period.end), today: today, statusOf: statusOf)
        var result: [WeekOutcome] = []
        var start = policy.weekStart(of: max(period.start, from ?? period.start))
        var tableRows = report.weeks.map { Dictionary($0.map { ($0.start, $0) }, uniquingKeysWith: { first, _ in first }) } ?? [:]
        while start <= (whole ? period.end : min(period.end, today)) {
            defer { start = start.adding(days: 7) }
            // The week's eligible and office days inside the period.
            var office = 0, eligible = 0
            for date in DateSpan(start, start.adding(days: 6)) where report.period.span.contains(date) {
                switch DayKind.classify(date, status: statusOf(date), policy: policy, today: today) {
                case .office: office += 1; eligible += 1
                case .remote, .unrecorded, .planned, .pending: eligible += 1
                case .excused, .holiday, .weekend: break
                }
            }
            let required: Int
            if report.weeks != nil {
                // The table's own row (compliant_weeks lists a week in the period of its first day only).
                guard let row = tableRows.removeValue(forKey: start) else { continue }
                office = row.office
                required = row.required
            } else {
                required = report.eligible == 0 ? 0 : ceilDiv(report.required * eligible, report.eligible)
            }
            let over = start.adding(days: 6) < today
            let verdict: WeekOutcome.Verdict = required == 0 && office == 0 ? .excused
                : office >= required ? .met : over ? .missed : .open
            result.append(WeekOutcome(start: start, office: office, required: required, eligible: eligible, verdict: verdict))
        }
        return result
    }

    /// Judges the single week that starts on `start` against `best_weeks`'
    /// per-week share `ceil(d / b)` (the one rule that judges a week on its
    /// own; every other kind is judged by its period's report, `rows`).
    public func week(_ start: LocalDate, statusOf: (LocalDate) -> AttendanceStatus?) -> WeekOutcome {
        var office = 0, eligible = 0
        for date in DateSpan(start, start.adding(days: 6)) {
            switch DayKind.classify(date, status: statusOf(date), policy: policy, today: today) {
            case .office:
                office += 1
                if policy.isWorkday(date) { eligible += 1 }
            case .remote, .unrecorded, .planned, .pending: eligible += 1
            case .excused, .holiday, .weekend: break
            }
        }
        let required = policy.target.bestWeeksShare
        let over = start.adding(days: 6) < today
        let verdict: WeekOutcome.Verdict
        if eligible == 0 && office == 0 {
            verdict = .excused
        } else if office >= required {
            verdict = .met
        } else {
            verdict = over ? .missed : .open
        }
        return WeekOutcome(start: start, office: office, required: required, eligible: eligible, verdict: verdict)
    }

    /// The streaks of a run of weeks in date order.
    public static func streaks(_ weeks: [WeekOutcome]) -> Streaks {
        var run = 0, longest = 0
        for week in weeks {
            switch week.verdict {
            case .met: run += 1; longest = max(longest, run)
            case .missed: run = 0
            case .excused, .open: break
            }
        }
        return Streaks(current: run, longest: longest)
    }
}
