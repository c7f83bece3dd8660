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

/// Judges whole weeks and finds streaks of compliant ones.
///
/// A week is always judged whole, from `week_start`, whatever period its
/// days fall in, so a week spanning two quarters counts once. Its
/// requirement follows the target kind:
/// - `percent`: `ceil(p × E / 100)`, E here including counted office days on non-workdays;
/// - `days_per_week`, `compliant_weeks`: the `required_w` of docs/policy.md over the whole week;
/// - `days_per_period`: the period's target spread over its nominal workdays,
///   `ceil(n × E / nominal(P))`, P the period holding the week's first day;
/// - `best_weeks`: the engine's per-week share `ceil(d / b)`.
/// E is the week's eligible days (workdays not excused).
public struct StreakCalculator: Sendable {
    public var policy: Policy
    public var today: LocalDate

    public init(policy: Policy, today: LocalDate) {
        self.policy = policy
        self.today = today
    }

    /// Every week from the one containing `first` to the one containing today.
    public func weeks(from first: LocalDate, statusOf: (LocalDate) -> AttendanceStatus?) -> [WeekOutcome] {
        var start = policy.weekStart(of: min(first, today))
        let last = policy.weekStart(of: today)
        var result: [WeekOutcome] = []
        var nominalByPeriod: [LocalDate: Int] = [:]
        while start <= last {
            result.append(week(start, statusOf: statusOf, nominalByPeriod: &nominalByPeriod))
            start = start.adding(days: 7)
        }
        return result
    }

    /// Judges the single week that starts on `start`.
    public func week(_ start: LocalDate, statusOf: (LocalDate) -> AttendanceStatus?) -> WeekOutcome {
        var cache: [LocalDate: Int] = [:]
        return week(start, statusOf: statusOf, nominalByPeriod: &cache)
    }

    private func week(_ start: LocalDate, statusOf: (LocalDate) -> AttendanceStatus?,
                      nominalByPeriod: inout [LocalDate: Int]) -> WeekOutcome {
        // `extra`: counted office days on non-workdays, eligible for the
        // percent rule only, as in the engine's period figures.
        var office = 0, eligible = 0, nominal = 0, extra = 0
        for offset in 0..<7 {
            let date = start.adding(days: offset)
            if policy.workdays.contains(date.weekday) { nominal += 1 }
            switch DayKind.classify(date, status: statusOf(date), policy: policy, today: today) {
            case .office:
                office += 1
                if policy.isWorkday(date) { eligible += 1 } else { extra += 1 }
            case .remote, .unrecorded, .planned, .pending: eligible += 1
            case .excused, .holiday, .weekend: break
            }
        }
        let required = requirement(start: start, eligible: eligible, extra: extra, nominal: nominal,
                                   nominalByPeriod: &nominalByPeriod)
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

    private func requirement(start: LocalDate, eligible: Int, extra: Int, nominal: Int,
                             nominalByPeriod: inout [LocalDate: Int]) -> Int {
        let target = policy.target
        switch target.kind {
        case .percent:
            return ceilDivide(target.hundredths * (eligible + extra), 10_000)
        case .daysPerWeek, .compliantWeeks:
            guard nominal > 0 else { return 0 }
            switch target.reduce {
            // The whole week is inside its own scope, so docs/policy.md's `n × Wp / W` is `n`.
            case .cap: return min(eligible, ceilDivide(target.hundredths, 100))
            case .proRata: return ceilDivide(target.hundredths * eligible, 100 * nominal)
            }
        case .daysPerPeriod:
            let period = policy.period(policy.period, containing: start)
            let periodNominal = nominalByPeriod[period.start] ?? {
                let count = period.span.filter { policy.workdays.contains($0.weekday) }.count
                nominalByPeriod[period.start] = count
                return count
            }()
            return periodNominal == 0 ? 0 : ceilDivide(target.hundredths * eligible, 100 * periodNominal)
        case .bestWeeks:
            return target.best <= 0 ? 0 : ceilDivide(ceilDivide(target.hundredths, 100), target.best)
        }
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

/// `ceil(numerator / denominator)` for a non-negative numerator and a positive denominator.
func ceilDivide(_ numerator: Int, _ denominator: Int) -> Int {
    (numerator + denominator - 1) / denominator
}
