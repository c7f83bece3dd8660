import Foundation
import Localization

/// Which days: the plan for the current period (docs/policy.md "Planning").
///
/// A pure function of the policy, today and each date's resolved status, on
/// top of the engine: whether a plan "ends the period met" is always the
/// engine's own `report` of the period with every open day resolved (plan
/// days office, the others remote), never a rule written again here.

/// What the user asks of a plan: weekdays to prefer, dates to leave out.
public struct PlanOptions: Sendable, Equatable {
    public var prefer: Set<Weekday>
    public var avoid: [DateSpan]

    public init(prefer: Set<Weekday> = [], avoid: [DateSpan] = []) {
        self.prefer = prefer
        self.avoid = avoid
    }

    public func avoids(_ date: LocalDate) -> Bool {
        avoid.contains { $0.contains(date) }
    }

    /// These options with `other`'s added (the flags add to `[plan]`).
    public func adding(_ other: PlanOptions) -> PlanOptions {
        PlanOptions(prefer: prefer.union(other.prefer), avoid: avoid + other.avoid)
    }

    /// `mon,tue` or `["mon", "tue"]`'s items: the weekdays, or the first name
    /// that is none (the one check of `--prefer` and `[plan] prefer`).
    public static func weekdays(_ names: [String]) -> Result<Set<Weekday>, PlanInputError> {
        var days: Set<Weekday> = []
        for name in names {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let day = Weekday(key: trimmed) else { return .failure(.weekday(trimmed)) }
            days.insert(day)
        }
        return .success(days)
    }

    /// `YYYY-MM-DD` or `YYYY-MM-DD..YYYY-MM-DD` (the one check of `--avoid`
    /// and `[plan] avoid`): supported dates, the first not after the last.
    public static func dates(_ text: String) -> Result<DateSpan, PlanInputError> {
        let parts = text.components(separatedBy: "..")
        guard parts.count <= 2, let first = LocalDate(parts[0]), let last = LocalDate(parts.last!),
              first.isSupported, last.isSupported else { return .failure(.dates(text)) }
        guard first <= last else { return .failure(.reversed(text)) }
        return .success(DateSpan(first, last))
    }
}

/// Where a record written by `plan --write` comes from: until records carry
/// their own plan flag (docs/policy.md "Plans need you"), an office record
/// whose note is this marker; `explain` says "planned with `deskdays plan`".
public enum PlanOrigin {
    public static let note = "deskdays plan"
}

/// A `--prefer`/`--avoid` value (or `[plan]` item) that is not one.
public enum PlanInputError: Error, Equatable, Sendable {
    case weekday(String), dates(String), reversed(String)

    /// The problem in one sentence, without the flag or key that gave it.
    public var sentence: String {
        switch self {
        case .weekday(let name): tr("unknown weekday \"\(name)\"; use mon, tue, wed, thu, fri, sat, sun")
        case .dates(let text): tr("\"\(text)\" is not a date or a range of dates; write YYYY-MM-DD or YYYY-MM-DD..YYYY-MM-DD")
        case .reversed(let text): tr("\"\(text)\" ends before it starts; write the earlier date first")
        }
    }
}

/// A plan: every existing office plan plus the fewest new days.
public struct Plan: Sendable, Equatable {
    /// The report as it stands today (its `period`, `status`, `remainingRequired`).
    public var report: Report
    /// The dates planning looks at: the period, or for `compliant_weeks` the
    /// whole weeks that belong to it.
    public var scope: DateSpan
    /// The whole plan, in date order (existing plans included).
    public var days: [LocalDate]
    /// The days not yet recorded as plans.
    public var new: [LocalDate]
    /// The existing office plans.
    public var existing: [LocalDate]
    /// The open days that are not avoided.
    public var usable: [LocalDate]
    /// Open days left out by `avoid`.
    public var avoided: [LocalDate]
    public var reachable: Bool
    /// By how much the period still ends short when the plan is kept: office
    /// days, or weeks for `compliant_weeks` (`byWeeks`). 0 when reachable.
    public var short: Int
    public var byWeeks: Bool { report.target.kind == .compliantWeeks }
}

/// What `status` says of the recorded plans (docs/cli.md: JSON key `plan`):
/// how many office plans the period holds, and how many office days the
/// plan still needs besides them (0: they reach the target).
public struct PlanStanding: Sendable, Equatable, Encodable {
    public var planned: Int
    public var short: Int

    public init(_ plan: Plan) {
        planned = plan.existing.count
        short = plan.reachable ? plan.new.count : plan.short
    }
}

extension PolicyEngine {
    /// The plan for the period containing `today` (docs/policy.md "Planning").
    ///
    /// `todayOpen`: today may still get a plan (before the end-of-day
    /// fallback time); `plans`: the dates whose office status is a plan not
    /// yet attendance (as for `report`); `statusOf`: each date's resolved status.
    public func plan(today: LocalDate, todayOpen: Bool, options: PlanOptions = PlanOptions(),
                     plans: Set<LocalDate> = [], statusOf: (LocalDate) -> AttendanceStatus?) -> Plan {
        let now = report(.current, today: today, plans: plans, statusOf: statusOf)
        let period = now.period
        var scope = period.span
        if policy.target.kind == .compliantWeeks {
            // A week belongs to the period holding its first day, and is judged whole.
            let first = policy.weekStart(of: period.start)
            scope = DateSpan(first < period.start ? first.adding(days: 7) : first, policy.week(containing: period.end).end)
        }
        var existing: [LocalDate] = [], open: [LocalDate] = []
        if scope.start <= scope.end {
            for date in scope where date >= today {
                let status = statusOf(date)
                switch classify(date, status: status, today: today, plan: plans.contains(date)) {
                // An office plan (a `travel` record ahead is a record, not a plan).
                case .pending(plannedOffice: true) where status == .office: existing.append(date)
                case .pending(plannedOffice: false) where status == nil && policy.isWorkday(date)
                    && (date > today || todayOpen): open.append(date)
                default: break
                }
            }
        }
        let usable = open.filter { !options.avoids($0) }
        let avoided = open.filter { options.avoids($0) }
        // The period's end with every date resolved: plan days office, other open days remote.
        let openSet = Set(open)
        let end = max(scope.end, period.end).adding(days: 1)
        func kept(_ days: Set<LocalDate>) -> Report {
            report(.containing(today), today: end) { date in
                days.contains(date) ? .office : openSet.contains(date) ? .remote : statusOf(date)
            }
        }
        var plan = Plan(report: now, scope: scope, days: existing, new: [], existing: existing, usable: usable,
                        avoided: avoided, reachable: true, short: 0)
        let chosen: [LocalDate]?
        if policy.target.kind == .compliantWeeks {
            chosen = compliantWeeksDays(usable: usable, options: options, kept: kept)
        } else {
            chosen = fewestDays(usable: usable, guess: max(0, now.remainingRequired - existing.count),
                                options: options, kept: kept)
        }
        if let chosen, kept(Set(chosen)).status == .met {
            plan.new = chosen
        } else {
            // Out of reach: every usable day, and what is still missing then.
            let all = kept(Set(usable))
            plan.new = usable
            plan.reachable = false
            plan.short = policy.target.kind == .compliantWeeks
                ? max(0, (all.weeksRequired ?? 0) - (all.weeksMet ?? 0)) : all.remainingRequired
        }
        plan.days = (existing + plan.new).sorted()
        return plan
    }

    /// The day-count kinds and `best_weeks`: any usable day serves as well
    /// as another, so only how many matters; the fewest that the engine
    /// judges met (it is met from some count on), then the days by the ties.
    func fewestDays(usable: [LocalDate], guess: Int, options: PlanOptions,
                    kept: (Set<LocalDate>) -> Report) -> [LocalDate]? {
        func met(_ count: Int) -> Bool { kept(Set(usable.prefix(count))).status == .met }
        var count: Int
        let guess = min(guess, usable.count)
        if met(guess), guess == 0 || !met(guess - 1) {
            count = guess
        } else {
            guard met(usable.count) else { return nil }
            var low = 0, high = usable.count // met(high), and count > low - 1
            if met(0) { return [] }
            while high - low > 1 {
                let middle = (low + high) / 2
                if met(middle) { high = middle } else { low = middle }
            }
            count = high
        }
        return choose(count, from: usable, options: options)
    }

    /// `compliant_weeks`: each week's shortfall with the plans kept, from
    /// the engine's weeks table; the `k − weeks_met` smallest that fit in
    /// their week's usable days (ties: the earlier week).
    func compliantWeeksDays(usable: [LocalDate], options: PlanOptions,
                            kept: (Set<LocalDate>) -> Report) -> [LocalDate]? {
        let base = kept([])
        let needed = (base.weeksRequired ?? 0) - (base.weeksMet ?? 0)
        guard needed > 0 else { return [] }
        let byWeek = Dictionary(grouping: usable) { policy.weekStart(of: $0) }
        let candidates = (base.weeks ?? []).filter { !$0.met }.compactMap { week -> (LocalDate, Int)? in
            let short = week.required - week.office
            return short <= (byWeek[week.start]?.count ?? 0) ? (week.start, short) : nil
        }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        guard candidates.count >= needed else { return nil }
        return candidates.prefix(needed).flatMap { start, short in
            choose(short, from: byWeek[start]!, options: options)
        }.sorted()
    }

    /// `count` of the `usable` days (date order) by the ties of
    /// docs/policy.md: the most on preferred weekdays, then the smallest
    /// largest number in any one week, then the earliest dates.
    public func choose(_ count: Int, from usable: [LocalDate], options: PlanOptions) -> [LocalDate] {
        guard count > 0 else { return [] }
        guard count < usable.count else { return usable }
        let preferred = usable.filter { options.prefer.contains($0.weekday) }
        let others = usable.filter { !options.prefer.contains($0.weekday) }
        // Every preferred day when they are too few, else only preferred days.
        let forced = count > preferred.count ? preferred : []
        let pool = count > preferred.count ? others : preferred
        let forcedPerWeek = Dictionary(grouping: forced) { policy.weekStart(of: $0) }.mapValues(\.count)
        let poolPerWeek = Dictionary(grouping: pool) { policy.weekStart(of: $0) }.mapValues(\.count)
        let wanted = count - forced.count
        // The smallest cap per week that still gives `count` days.
        var cap = 1
        while true {
            if forcedPerWeek.values.allSatisfy({ $0 <= cap }),
               poolPerWeek.reduce(0, { $0 + min($1.value, cap - (forcedPerWeek[$1.key] ?? 0)) }) >= wanted { break }
            cap += 1
        }
        // Under a cap per week the earliest days, taken in date order, are the earliest set.
        var taken = forcedPerWeek
        var chosen = forced
        for date in pool where chosen.count < count {
            let week = policy.weekStart(of: date)
            if taken[week, default: 0] < cap {
                taken[week, default: 0] += 1
                chosen.append(date)
            }
        }
        return chosen.sorted()
    }
}
