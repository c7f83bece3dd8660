import DeskDaysCore

/// A second, deliberately plain reading of docs/policy.md, written from its text
/// (not from PolicyEngine) so that random calendars can be checked figure by
/// figure. Where docs/policy.md leaves a choice open it follows the readings the
/// engine documents: a future non-workday office plan is not counted;
/// `compliant_weeks` is `impossible` when weeks met plus weeks not yet over
/// *and not yet met* fall short; its `required` is Σ required_w; `best_weeks`
/// lists every week with the even share ceil(d / b).
struct ReferenceModel {
    let policy: Policy
    let today: LocalDate
    let statusOf: (LocalDate) -> AttendanceStatus?

    /// What the reference expects a report to say.
    struct Expected: Equatable, CustomStringConvertible {
        var start = day("2000-01-01"), end = day("2000-01-01")
        var kind = PeriodKind.week
        var label: String?
        var workdays = 0, excused = 0, eligible = 0, office = 0, remote = 0, unrecorded = 0
        var elapsed = 0, pending = 0, planned = 0
        var required = 0, requiredToDate = 0, remaining = 0
        var status = Report.Status.onTrack
        var weeks: [String]?
        var weeksMet: Int?, weeksRequired: Int?, weeksRemaining: Int?, officeAll: Int?

        var description: String {
            "\(kind.rawValue) \(start)…\(end) \(label ?? "-") | workdays \(workdays) excused \(excused) "
                + "eligible \(eligible) office \(office) remote \(remote) unrecorded \(unrecorded) "
                + "elapsed \(elapsed) pending \(pending) planned \(planned) | required \(required) "
                + "to_date \(requiredToDate) remaining \(remaining) \(status.rawValue) | weeks \(weeks ?? []) "
                + "met \(weeksMet.map(String.init) ?? "-") of \(weeksRequired.map(String.init) ?? "-") "
                + "remaining \(weeksRemaining.map(String.init) ?? "-") office_all \(officeAll.map(String.init) ?? "-")"
        }
    }

    /// The same fields read from a report.
    static func observed(_ report: Report) -> Expected {
        var seen = Expected()
        seen.start = report.period.start
        seen.end = report.period.end
        seen.kind = report.period.kind
        // docs/policy.md names quarters and years only; other labels are free text.
        seen.label = [.quarter, .year].contains(report.period.kind) ? report.period.label : nil
        seen.workdays = report.workdays
        seen.excused = report.excused
        seen.eligible = report.eligible
        seen.office = report.office
        seen.remote = report.remote
        seen.unrecorded = report.unrecorded
        seen.elapsed = report.elapsed
        seen.pending = report.pending
        seen.planned = report.plannedOffice
        seen.required = report.required
        seen.requiredToDate = report.requiredToDate
        seen.remaining = report.remainingRequired
        seen.status = report.status
        seen.weeks = report.weeks.map { _ in weekRows(report) }
        seen.weeksMet = report.weeksMet
        seen.weeksRequired = report.weeksRequired
        seen.weeksRemaining = report.weeksRemaining
        seen.officeAll = report.officeAll
        return seen
    }

    // MARK: - Calendar facts

    func ceilDiv(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }

    func firstOfMonth(index: Int) -> LocalDate {
        LocalDate(year: index / 12, month: index % 12 + 1, day: 1)!
    }

    func weekStart(of date: LocalDate) -> LocalDate {
        var start = date
        while start.weekday != policy.weekStart { start = start.adding(days: -1) }
        return start
    }

    func treatment(_ status: AttendanceStatus) -> Treatment {
        switch status {
        case .office: return .office
        case .remote: return .remote
        case .travel: return policy.counts[.travel] ?? .office
        case .sick, .vacation, .leave: return policy.counts[status] ?? .excused
        }
    }

    func isWorkday(_ date: LocalDate) -> Bool {
        policy.workdays.contains(date.weekday) && !policy.holidays.keys.contains(date)
    }

    /// (start, end, label) of the period of `kind` holding `date`.
    func period(_ kind: PeriodKind, containing date: LocalDate) -> (LocalDate, LocalDate, String?) {
        let fiscal = policy.fiscalYearStartMonth
        let monthIndex = date.year * 12 + date.month - 1
        let intoYear = (date.month - fiscal + 12) % 12
        let fiscalStartIndex = monthIndex - intoYear
        // A fiscal year is named by the calendar year its last month falls in.
        let fiscalName = (fiscalStartIndex + 11) / 12
        switch kind {
        case .week:
            let start = weekStart(of: date)
            return (start, start.adding(days: 6), nil)
        case .month:
            return (firstOfMonth(index: monthIndex), firstOfMonth(index: monthIndex + 1).adding(days: -1), nil)
        case .quarter:
            let quarter = intoYear / 3
            let startIndex = fiscalStartIndex + 3 * quarter
            let label = fiscal == 1 ? "Q\(quarter + 1) \(date.year)" : "Q\(quarter + 1) FY\(fiscalName)"
            return (firstOfMonth(index: startIndex), firstOfMonth(index: startIndex + 3).adding(days: -1), label)
        case .year:
            let label = fiscal == 1 ? "\(date.year)" : "FY\(fiscalName)"
            return (firstOfMonth(index: fiscalStartIndex),
                    firstOfMonth(index: fiscalStartIndex + 12).adding(days: -1), label)
        case .rolling:
            return window(policy.rollingWeeks, endingWith: date)
        }
    }

    func window(_ weeks: Int, endingWith date: LocalDate) -> (LocalDate, LocalDate, String?) {
        let last = weekStart(of: date)
        return (last.adding(days: -7 * (weeks - 1)), last.adding(days: 6), nil)
    }

    func period(for selector: PeriodSelector) -> (LocalDate, LocalDate, String?) {
        func around(_ date: LocalDate) -> (LocalDate, LocalDate, String?) {
            policy.target.kind == .bestWeeks ? window(policy.target.window, endingWith: date)
                : period(policy.period, containing: date)
        }
        switch selector {
        case .current: return around(today)
        case .containing(let date): return around(date)
        case .previous: return around(around(today).0.adding(days: -1))
        }
    }

    // MARK: - One date

    /// How one date counts in the period walk.
    enum Day: Equatable { case outside, excused, office, remote, unrecorded, pending, plannedOffice }

    /// docs/policy.md "Counting a period", line by line.
    func count(_ date: LocalDate) -> Day {
        let status = statusOf(date)
        let how = status.map(treatment)
        if !isWorkday(date) {
            return policy.countNonWorkdays && how == .office && date <= today ? .office : .outside
        }
        if how == .excused { return .excused }
        let happened = date < today || (date == today && status != nil)
        guard happened else { return how == .office ? .plannedOffice : .pending }
        switch how {
        case .office: return .office
        case .remote: return .remote
        default: return .unrecorded
        }
    }

    // MARK: - The report

    func expected(_ selector: PeriodSelector) -> Expected {
        var out = Expected()
        let (start, end, label) = period(for: selector)
        out.start = start
        out.end = end
        out.label = label
        out.kind = policy.target.kind == .bestWeeks ? .rolling : policy.period
        let dates = DateSpan(start, end)
        var extra = 0
        for date in dates {
            if isWorkday(date) { out.workdays += 1 }
            switch count(date) {
            case .outside: break
            case .excused: out.excused += 1
            case .office:
                out.office += 1
                if !isWorkday(date) { extra += 1 }
            case .remote: out.remote += 1
            case .unrecorded: out.unrecorded += 1
            case .pending: out.pending += 1
            case .plannedOffice: out.pending += 1; out.planned += 1
            }
        }
        out.eligible = out.workdays - out.excused + extra
        out.elapsed = out.office + out.remote + out.unrecorded

        let h = policy.target.hundredths
        let perWeek = policy.workdays.count // every week holds each weekday once
        /// required_w of the week from `weekFirst`, over its dates inside `scope`.
        func requiredW(_ weekFirst: LocalDate, _ scope: DateSpan) -> (required: Int, office: Int) {
            let inside = (0..<7).map { weekFirst.adding(days: $0) }.filter(scope.contains)
            let nominalInside = inside.filter { policy.workdays.contains($0.weekday) }.count
            let eligibleInside = inside.filter { isWorkday($0) && count($0) != .excused }.count
            let office = inside.filter { count($0) == .office }.count
            guard perWeek > 0 else { return (0, office) }
            switch policy.target.reduce {
            case .cap: return (min(eligibleInside, ceilDiv(h * nominalInside, 100 * perWeek)), office)
            case .proRata: return (ceilDiv(h * eligibleInside, 100 * perWeek), office)
            }
        }
        func derived() {
            out.remaining = max(0, out.required - out.office)
            out.requiredToDate = out.eligible == 0 ? 0 : ceilDiv(out.required * out.elapsed, out.eligible)
            out.status = out.office >= out.required ? .met
                : out.remaining > out.pending ? .impossible
                : out.office >= out.requiredToDate ? .onTrack : .behind
        }

        switch policy.target.kind {
        case .percent:
            out.required = ceilDiv(h * out.eligible, 10_000)
            derived()
        case .daysPerPeriod:
            switch policy.target.reduce {
            case .cap: out.required = min(out.eligible, ceilDiv(h, 100))
            case .proRata:
                let nominal = dates.filter { policy.workdays.contains($0.weekday) }.count
                out.required = nominal == 0 ? 0 : ceilDiv(h * out.eligible, 100 * nominal)
            }
            derived()
        case .daysPerWeek:
            var rows: [String] = []
            var first = weekStart(of: start)
            while first <= end {
                let (required, office) = requiredW(first, dates)
                rows.append("\(first) \(required) \(office) \(office >= required)")
                out.required += required
                first = first.adding(days: 7)
            }
            out.weeks = rows
            derived()
        case .compliantWeeks:
            var rows: [String] = []
            var met = 0, over = 0, total = 0, requiredOver = 0
            var shortfalls: [Int] = []
            for first in dates where first.weekday == policy.weekStart {
                let whole = DateSpan(first, first.adding(days: 6))
                let (required, office) = requiredW(first, whole)
                rows.append("\(first) \(required) \(office) \(office >= required)")
                out.required += required
                total += 1
                if office >= required { met += 1 }
                if whole.end < today {
                    over += 1
                    requiredOver += required
                } else if office < required {
                    // A week still to win, when its office days short fit in its pending ones.
                    let pending = whole.filter { [.pending, .plannedOffice].contains(count($0)) }.count
                    if required - office <= pending { shortfalls.append(required - office) }
                }
            }
            let k = policy.target.weeks
            out.weeks = rows
            out.weeksMet = met
            out.weeksRequired = k
            out.weeksRemaining = total - over
            out.remaining = met >= k ? 0 : shortfalls.sorted().prefix(k - met).reduce(0, +)
            out.requiredToDate = requiredOver
            let pace = total == 0 ? 0 : ceilDiv(k * over, total)
            out.status = met >= k ? .met : met + shortfalls.count < k ? .impossible : met >= pace ? .onTrack : .behind
        case .bestWeeks:
            let d = ceilDiv(h, 100)
            let b = policy.target.best
            let m = policy.target.window
            let share = b == 0 ? 0 : ceilDiv(d, b)
            var offices: [Int] = [], potentials: [Int] = [], rows: [String] = []
            var over = 0
            for index in 0..<m {
                let first = start.adding(days: 7 * index)
                let days = (0..<7).map { first.adding(days: $0) }.map(count)
                let office = days.filter { $0 == .office }.count
                let open = days.filter { $0 == .pending || $0 == .plannedOffice }.count
                offices.append(office)
                potentials.append(office + open)
                rows.append("\(first) \(share) \(office) \(office >= share)")
                if first.adding(days: 6) < today { over += 1 }
            }
            let best = offices.sorted(by: >).prefix(b).reduce(0, +)
            let bestPossible = potentials.sorted(by: >).prefix(b).reduce(0, +)
            out.officeAll = out.office
            out.office = best
            out.weeks = rows
            out.required = d
            out.remaining = max(0, d - best)
            out.requiredToDate = ceilDiv(d * over, m)
            out.status = best >= d ? .met : bestPossible < d ? .impossible
                : best >= out.requiredToDate ? .onTrack : .behind
        }
        return out
    }
}
