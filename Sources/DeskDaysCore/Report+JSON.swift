import Foundation

/// The JSON form of a report: exactly the keys of docs/cli.md `report --json`,
/// every one always present, in the documented order.
extension Report: Encodable {
    enum CodingKeys: String, CodingKey {
        case today, period, target, workdays, excused, eligible, office, remote, unrecorded, elapsed, missing
        case pending, plannedOffice = "planned_office", required
        case requiredToDate = "required_to_date", remainingRequired = "remaining_required"
        case complianceToDate = "compliance_to_date", status
        case weeks, week, weeksMet = "weeks_met", weeksRequired = "weeks_required"
        case weeksRemaining = "weeks_remaining", weeksRequiredToDate = "weeks_required_to_date", officeAll = "office_all"
        case shortDays = "short_days"
    }

    struct PeriodJSON: Encodable {
        var kind: String, start: LocalDate, end: LocalDate, label: String
    }

    struct TargetJSON: Encodable {
        var kind: String
        var value: Double
        var reduce: String?
        var round: String?
        var weeks: Int?
        var best: Int?
        var window: Int?
    }

    struct WeekJSON: Encodable {
        var start: LocalDate, required: Int, office: Int, met: Bool
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(today, forKey: .today)
        try c.encode(PeriodJSON(kind: period.kind.rawValue, start: period.start, end: period.end, label: period.label),
                     forKey: .period)
        var targetJSON = TargetJSON(kind: target.kind.rawValue, value: target.value)
        switch target.kind {
        case .daysPerWeek:
            targetJSON.reduce = target.reduce.rawValue
            if target.round == .period { targetJSON.round = target.round.rawValue }
        case .daysPerPeriod: targetJSON.reduce = target.reduce.rawValue
        case .compliantWeeks: targetJSON.reduce = target.reduce.rawValue; targetJSON.weeks = target.weeks
        case .bestWeeks: targetJSON.best = target.best; targetJSON.window = target.window
        case .percent: break
        }
        try c.encode(targetJSON, forKey: .target)
        try c.encode(workdays, forKey: .workdays)
        try c.encode(excused, forKey: .excused)
        try c.encode(eligible, forKey: .eligible)
        try c.encode(office, forKey: .office)
        try c.encode(remote, forKey: .remote)
        try c.encode(unrecorded, forKey: .unrecorded)
        try c.encode(missing, forKey: .missing)
        try c.encode(elapsed, forKey: .elapsed)
        try c.encode(pending, forKey: .pending)
        try c.encode(plannedOffice, forKey: .plannedOffice)
        try c.encode(required, forKey: .required)
        try c.encode(requiredToDate, forKey: .requiredToDate)
        try c.encode(remainingRequired, forKey: .remainingRequired)
        // A fraction rounded to four places (0.5882), or null.
        try c.encode(complianceToDate.map { ($0 * 10_000).rounded() / 10_000 }, forKey: .complianceToDate)
        try c.encode(status.rawValue, forKey: .status)
        if let weeks {
            try c.encode(weeks.map { WeekJSON(start: $0.start, required: $0.required, office: $0.office, met: $0.met) },
                         forKey: .weeks)
        }
        // A weekly rule: this week at a glance (docs/cli.md "report --json").
        try c.encodeIfPresent(currentWeek.map { WeekJSON(start: $0.start, required: $0.required, office: $0.office, met: $0.met) },
                              forKey: .week)
        try c.encodeIfPresent(weeksMet, forKey: .weeksMet)
        try c.encodeIfPresent(weeksRequired, forKey: .weeksRequired)
        try c.encodeIfPresent(weeksRemaining, forKey: .weeksRemaining)
        try c.encodeIfPresent(weeksRequiredToDate, forKey: .weeksRequiredToDate)
        try c.encodeIfPresent(officeAll, forKey: .officeAll)
        try c.encodeIfPresent(shortDays, forKey: .shortDays)
    }
}

extension PolicyEngine {
    /// The report from stored records and check-ins (resolved here by
    /// `Resolver`); with `min_hours` set, `presence` (from `DayPresence.days`)
    /// decides which automatic days are long enough.
    public func report(_ selector: PeriodSelector = .current, today: LocalDate,
                       records: [DayRecord], checkIns: [AutomaticCheckIn],
                       presence: [LocalDate: DayPresence] = [:]) -> Report {
        let span = dataSpan(selector, today: today)
        let resolved = Resolver.resolve(span, records: records, checkIns: checkIns,
                                        short: shortDates(presence), today: today)
        return report(selector, today: today, presence: presence, plans: Self.plans(resolved)) { resolved[$0]?.status }
    }

    /// The dates whose resolved status is a calendar's office plan.
    public static func plans(_ resolved: [LocalDate: ResolvedDay]) -> Set<LocalDate> {
        Set(resolved.values.filter { ($0.origin == .calendar || $0.plan != nil) && $0.status == .office }.map(\.date))
    }

    /// The dates whose automatic presence is shorter than `min_hours` (none when off).
    public func shortDates(_ presence: [LocalDate: DayPresence]) -> Set<LocalDate> {
        guard policy.minHours > 0 else { return [] }
        return Set(presence.values.filter { $0.isShort(minHours: policy.minHours) }.map(\.date))
    }

    /// The dates a report for `selector` can look at (its period widened to whole weeks).
    public func dataSpan(_ selector: PeriodSelector, today: LocalDate) -> DateSpan {
        let period = policy.reportPeriod(selector, today: today)
        return DateSpan(policy.weekStart(of: period.start), policy.week(containing: period.end).end)
    }
}
