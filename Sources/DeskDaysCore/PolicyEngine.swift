/// The attendance arithmetic of docs/policy.md, as a pure function of the policy,
/// today's date and each date's resolved status.
public struct PolicyEngine: Sendable {
    public var policy: Policy

    public init(policy: Policy) {
        self.policy = policy
    }

    /// How one date counts (docs/policy.md "Counting a period").
    public enum DayCount: Equatable, Sendable {
        case skipped          // non-workday not counted
        case excused
        case office           // elapsed (incl. counted non-workdays)
        case remote
        case unrecorded
        case pending(plannedOffice: Bool)
    }

    /// `plan`: the status is a calendar's office plan, not yet attendance:
    /// on today it stays pending (planned), as on later dates.
    public func classify(_ date: LocalDate, status: AttendanceStatus?, today: LocalDate, plan: Bool = false) -> DayCount {
        let treatment = status.map(policy.treatment(of:))
        if plan, treatment == .office, date >= today {
            return policy.isWorkday(date) ? .pending(plannedOffice: true) : .skipped
        }
        guard policy.isWorkday(date) else {
            // A weekend or holiday in the office counts as an extra eligible
            // day, once it has happened: a future plan for it is no office day yet.
            if policy.countNonWorkdays, treatment == .office, date <= today { return .office }
            return .skipped
        }
        if treatment == .excused { return .excused }
        if date < today || (date == today && treatment != nil) {
            switch treatment {
            case .office: return .office
            case .remote: return .remote
            case .none: return .unrecorded
            case .excused: return .excused
            }
        }
        return .pending(plannedOffice: treatment == .office)
    }

    /// The report for `selector` as seen on `today`. `statusOf` returns a
    /// date's resolved status (nil: no record).
    /// With `min_hours` set, `presence` gives `short_days`.
    /// `plans`: the dates whose office status is a calendar's plan (`classify`).
    public func report(_ selector: PeriodSelector = .current, today: LocalDate,
                       presence: [LocalDate: DayPresence] = [:], plans: Set<LocalDate> = [],
                       statusOf: (LocalDate) -> AttendanceStatus?) -> Report {
        let period = policy.reportPeriod(selector, today: today)
        var report = Report(today: today, period: period, target: policy.target)
        if policy.minHours > 0 {
            // Short days before today, whatever finally resolved them.
            report.shortDays = period.span.filter { date in
                date < today && policy.isWorkday(date) && presence[date]?.isShort(minHours: policy.minHours) == true
            }.count
        }
        // Week-based targets look at whole weeks, possibly beyond the period.
        let weekSpan = DateSpan(policy.weekStart(of: period.start), policy.week(containing: period.end).end)
        let needsWeeks = [.daysPerWeek, .compliantWeeks, .bestWeeks].contains(policy.target.kind)
        let walk = needsWeeks ? weekSpan : period.span
        var counts: [LocalDate: DayCount] = [:]
        counts.reserveCapacity(walk.count)
        for date in walk {
            let count = classify(date, status: statusOf(date), today: today, plan: plans.contains(date))
            counts[date] = count
            guard period.span.contains(date) else { continue }
            if policy.isWorkday(date) { report.workdays += 1 }
            switch count {
            case .skipped: break
            case .excused: report.excused += 1
            case .office:
                report.office += 1
                if !policy.isWorkday(date) { report.eligible += 1 } // counted non-workday
            case .remote: report.remote += 1
            case .unrecorded:
                report.unrecorded += 1
                report.missing.append(date)
            case .pending(let planned): if planned { report.plannedOffice += 1 }
            }
        }
        report.eligible += report.workdays - report.excused
        report.elapsed = report.office + report.remote + report.unrecorded
        report.pending = report.eligible - report.elapsed
        if let starts = policy.starts, period.end < starts {
            // Before the rule: the days as they were, and no target.
            report.status = .notStarted
            report.ruleStarts = starts
            return report
        }

        switch policy.target.kind {
        case .percent:
            report.required = ceilDiv(policy.target.hundredths * report.eligible, 10_000)
            applyDerived(&report)
        case .daysPerPeriod:
            // The whole period's nominal days are the base: a period the
            // rule's start shortened asks its share (docs/policy.md "The rule's start").
            let nominal = period.wholeSpan.filter { policy.workdays.contains($0.weekday) }.count
            switch policy.target.reduce {
            case .cap:
                let inside = period.span.filter { policy.workdays.contains($0.weekday) }.count
                let asked = period.whole == nil ? ceilDiv(policy.target.hundredths, 100)
                    : nominal == 0 ? 0 : ceilDiv(policy.target.hundredths * inside, 100 * nominal)
                report.required = min(report.eligible, asked)
            case .proRata:
                report.required = nominal == 0 ? 0 : ceilDiv(policy.target.hundredths * report.eligible, 100 * nominal)
            }
            applyDerived(&report)
        case .daysPerWeek:
            let weeks = weekStarts(in: weekSpan).map { start in
                weekFigures(start: start, within: period.span, counts: counts)
            }
            report.weeks = weeks
            report.required = policy.target.round == .period
                ? averagedWeeklyRequirement(period: period.span, eligible: report.eligible)
                : weeks.reduce(0) { $0 + $1.required }
            applyDerived(&report)
        case .compliantWeeks:
            applyCompliantWeeks(&report, counts: counts, today: today)
        case .bestWeeks:
            applyBestWeeks(&report, counts: counts, today: today)
        }
        return report
    }

    // MARK: - Targets

    /// remaining_required, required_to_date and status for the day-count kinds.
    func applyDerived(_ report: inout Report) {
        report.remainingRequired = max(0, report.required - report.office)
        report.requiredToDate = report.eligible == 0 ? 0
            : ceilDiv(report.required * report.elapsed, report.eligible)
        if report.office >= report.required {
            report.status = .met
        } else if report.remainingRequired > report.pending {
            report.status = .impossible
        } else if report.office >= report.requiredToDate {
            report.status = .onTrack
        } else {
            report.status = .behind
        }
    }

    /// `days_per_week` with `round = "period"`: the rule averaged over the
    /// period and rounded once (docs/policy.md "A weekly rule averaged over
    /// the period"): 3 a week over a 13-week quarter of 65 workdays is 39.
    func averagedWeeklyRequirement(period: DateSpan, eligible: Int) -> Int {
        let nominalWeek = policy.workdays.count
        guard nominalWeek > 0 else { return 0 }
        let n = policy.target.hundredths
        switch policy.target.reduce {
        case .cap:
            let nominal = period.filter { policy.workdays.contains($0.weekday) }.count
            return min(eligible, ceilDiv(n * nominal, 100 * nominalWeek))
        case .proRata:
            return ceilDiv(n * eligible, 100 * nominalWeek)
        }
    }

    func weekStarts(in span: DateSpan) -> [LocalDate] {
        stride(from: 0, to: span.count, by: 7).map { span.start.adding(days: $0) }
    }

    /// A week's `required_w` and office days, over the dates of the week inside `scope`.
    func weekFigures(start: LocalDate, within scope: DateSpan, counts: [LocalDate: DayCount]) -> Report.Week {
        let week = DateSpan(start, start.adding(days: 6))
        let nominalWeek = week.filter { policy.workdays.contains($0.weekday) }.count
        var nominalInside = 0, eligibleInside = 0, office = 0
        for date in week where scope.contains(date) {
            if policy.workdays.contains(date.weekday) { nominalInside += 1 }
            let count = counts[date]
            if policy.isWorkday(date), count != .excused { eligibleInside += 1 }
            if count == .office { office += 1 }
        }
        let n = policy.target.hundredths
        let required: Int
        if nominalWeek == 0 {
            required = 0
        } else {
            switch policy.target.reduce {
            case .cap: required = min(eligibleInside, ceilDiv(n * nominalInside, 100 * nominalWeek))
            case .proRata: required = ceilDiv(n * eligibleInside, 100 * nominalWeek)
            }
        }
        return Report.Week(start: start, required: required, office: office, met: office >= required)
    }

    /// `compliant_weeks`: a week belongs to the period holding its first day
    /// and is judged over the whole week.
    func applyCompliantWeeks(_ report: inout Report, counts: [LocalDate: DayCount], today: LocalDate) {
        let span = report.period.span
        let starts = weekStarts(in: DateSpan(policy.weekStart(of: span.start), span.end)).filter { span.contains($0) }
        let weeks = starts.map { start in
            weekFigures(start: start, within: DateSpan(start, start.adding(days: 6)), counts: counts)
        }
        var k = policy.target.weeks
        if let whole = report.period.whole {
            // Shortened by the rule's start: its share of the whole period's weeks.
            let wholeWeeks = weekStarts(in: DateSpan(policy.weekStart(of: whole.start), whole.end)).filter { whole.contains($0) }.count
            k = wholeWeeks == 0 ? 0 : ceilDiv(k * weeks.count, wholeWeeks)
        }
        let over = weeks.filter { $0.start.adding(days: 6) < today }
        let notOver = weeks.count - over.count
        let met = weeks.filter(\.met).count
        // The weeks still to win: not over, not yet compliant, and short by no
        // more office days than they have pending eligible days. (A week not
        // yet over that is already compliant is in `met`.)
        let shortfalls = weeks.filter { $0.start.adding(days: 6) >= today && !$0.met }.compactMap { week -> Int? in
            let pending = DateSpan(week.start, week.start.adding(days: 6)).filter {
                if case .pending = counts[$0] { return true }
                return false
            }.count
            let short = max(0, week.required - week.office)
            return short <= pending ? short : nil
        }.sorted()
        report.weeks = weeks
        report.weeksMet = met
        report.weeksRequired = k
        report.weeksRemaining = notOver
        // The day figures: every week of the period's requirement; what is
        // left is the fewest office days that still make k weeks compliant
        // (docs/policy.md), so a short week is never hidden by surplus elsewhere.
        report.required = weeks.reduce(0) { $0 + $1.required }
        report.remainingRequired = met >= k ? 0 : shortfalls.prefix(k - met).reduce(0, +)
        report.requiredToDate = over.reduce(0) { $0 + $1.required }
        let pace = weeks.isEmpty ? 0 : ceilDiv(k * over.count, weeks.count)
        report.weeksRequiredToDate = pace
        if met >= k {
            report.status = .met
        } else if met + shortfalls.count < k {
            report.status = .impossible
        } else if met >= pace {
            report.status = .onTrack
        } else {
            report.status = .behind
        }
    }

    /// `best_weeks`: the best `b` weeks of the trailing window must hold `d` office days.
    func applyBestWeeks(_ report: inout Report, counts: [LocalDate: DayCount], today: LocalDate) {
        let span = report.period.span
        // The rule's start drops the window's weeks before it; its own week
        // counts from `starts` on, and `best` and `value` shrink in proportion.
        let starts = weekStarts(in: DateSpan(policy.weekStart(of: span.start), span.end))
        let b = report.period.whole == nil ? max(0, policy.target.best) : min(max(0, policy.target.best), starts.count)
        let d = policy.target.best <= 0 ? ceilDiv(policy.target.hundredths, 100)
            : ceilDiv(policy.target.hundredths * b, 100 * policy.target.best)
        var weeks: [Report.Week] = []
        var potentials: [Int] = []
        let share = b <= 0 ? 0 : ceilDiv(d, b)
        for start in starts {
            let week = DateSpan(start, start.adding(days: 6))
            var office = 0, pending = 0
            for date in week where span.contains(date) {
                switch counts[date] {
                case .office: office += 1
                case .pending: pending += 1
                default: break
                }
            }
            weeks.append(Report.Week(start: start, required: share, office: office, met: office >= share))
            potentials.append(office + pending)
        }
        let best = weeks.map(\.office).sorted(by: >).prefix(b).reduce(0, +)
        let bestPossible = potentials.sorted(by: >).prefix(b).reduce(0, +)
        let over = starts.filter { $0.adding(days: 6) < today }.count
        report.weeks = weeks
        report.officeAll = report.office
        report.office = best
        report.required = d
        report.remainingRequired = max(0, d - best)
        report.requiredToDate = starts.isEmpty ? 0 : ceilDiv(d * over, starts.count)
        if best >= d {
            report.status = .met
        } else if bestPossible < d {
            report.status = .impossible
        } else if best >= report.requiredToDate {
            report.status = .onTrack
        } else {
            report.status = .behind
        }
    }
}
