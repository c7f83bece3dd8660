/// A reporting period: its kind, its dates and a label.
///
/// `label` is the English form that `report --json` carries (byte for byte
/// the same in every locale); human output names the period from `name`
/// in the user's language (`ReportLocale.periodLabel`).
public struct Period: Sendable, Hashable {
    public var kind: PeriodKind
    public var span: DateSpan
    public var label: String
    /// What the label says, as values (nil for a period made by hand: its label is shown as it is).
    public var name: Name?
    /// The whole period when the rule's start shortened it to `span` (P'
    /// of docs/policy.md "The rule's start"); nil when it was not shortened.
    public var whole: DateSpan?

    /// The parts of a period's label.
    public enum Name: Sendable, Hashable {
        /// "Week of 2026-11-16".
        case weekOf(LocalDate)
        /// "November 2026" (any date of the month).
        case month(LocalDate)
        /// "Q4 2026", or with a fiscal year "Q2 FY2027" (`year` is the year written).
        case quarter(Int, year: Int, fiscal: Bool)
        /// "2026", or "FY2027".
        case year(Int, fiscal: Bool)
        /// "8 weeks to 2026-11-22".
        case rolling(weeks: Int, to: LocalDate)
    }

    public init(kind: PeriodKind, span: DateSpan, label: String, name: Name? = nil) {
        self.kind = kind
        self.span = span
        self.label = label
        self.name = name
    }

    public var start: LocalDate { span.start }
    public var end: LocalDate { span.end }
    /// The whole period, shortened or not (P).
    public var wholeSpan: DateSpan { whole ?? span }
}

/// Which period a report is about (`report --period`).
public enum PeriodSelector: Sendable, Hashable {
    case current
    case previous
    case containing(LocalDate)

    /// Parses `current`, `previous` or `YYYY-MM-DD`.
    public init?(_ text: String) {
        switch text {
        case "current": self = .current
        case "previous": self = .previous
        default:
            guard let date = LocalDate(text) else { return nil }
            self = .containing(date)
        }
    }
}

// English month names for `Period.label` only (the JSON form); human output
// names months through ReportLocale (ICU, LC_TIME).
private let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                          "August", "September", "October", "November", "December"]

extension Policy {
    /// The first day of the week (from `weekStart`) that contains `date`.
    public func weekStart(of date: LocalDate) -> LocalDate {
        date.adding(days: -((date.weekday.rawValue - weekStart.rawValue + 7) % 7))
    }

    /// The whole week that contains `date`.
    public func week(containing date: LocalDate) -> DateSpan {
        let start = weekStart(of: date)
        return DateSpan(start, start.adding(days: 6))
    }

    /// The first day of the fiscal year that contains `date`.
    public func fiscalYearStart(of date: LocalDate) -> LocalDate {
        let year = date.month >= fiscalYearStartMonth ? date.year : date.year - 1
        return LocalDate(year: year, month: fiscalYearStartMonth, day: 1)!
    }

    /// The period of kind `kind` that contains `date` (docs/policy.md "Periods").
    public func period(_ kind: PeriodKind, containing date: LocalDate) -> Period {
        switch kind {
        case .week:
            let span = week(containing: date)
            return Period(kind: .week, span: span, label: "Week of \(span.start)", name: .weekOf(span.start))
        case .month:
            let start = date.firstOfMonth
            return Period(kind: .month, span: DateSpan(start, start.addingMonths(1).adding(days: -1)),
                          label: "\(monthNames[date.month - 1]) \(date.year)", name: .month(start))
        case .quarter:
            let fyStart = fiscalYearStart(of: date)
            let monthsIn = (date.year - fyStart.year) * 12 + date.month - fyStart.month
            let quarter = monthsIn / 3
            let start = fyStart.addingMonths(quarter * 3)
            let span = DateSpan(start, start.addingMonths(3).adding(days: -1))
            let label = fiscalYearStartMonth == 1
                ? "Q\(quarter + 1) \(fyStart.year)"
                : "Q\(quarter + 1) FY\(fyStart.year + 1)"
            let fiscal = fiscalYearStartMonth != 1
            return Period(kind: .quarter, span: span, label: label,
                          name: .quarter(quarter + 1, year: fiscal ? fyStart.year + 1 : fyStart.year, fiscal: fiscal))
        case .year:
            let start = fiscalYearStart(of: date)
            let end = start.addingMonths(12).adding(days: -1)
            let label = fiscalYearStartMonth == 1 ? "\(start.year)" : "FY\(end.year)"
            let fiscal = fiscalYearStartMonth != 1
            return Period(kind: .year, span: DateSpan(start, end), label: label,
                          name: .year(fiscal ? end.year : start.year, fiscal: fiscal))
        case .rolling:
            return rollingWindow(weeks: rollingWeeks, endingWith: date)
        }
    }

    /// `weeks` whole weeks ending with the week that contains `date`.
    public func rollingWindow(weeks: Int, endingWith date: LocalDate) -> Period {
        let lastWeek = week(containing: date)
        let start = lastWeek.start.adding(days: -7 * (max(weeks, 1) - 1))
        return Period(kind: .rolling, span: DateSpan(start, lastWeek.end),
                      label: "\(max(weeks, 1)) weeks to \(lastWeek.end)", name: .rolling(weeks: max(weeks, 1), to: lastWeek.end))
    }

    /// The period a report covers. `best_weeks` targets always use their own
    /// trailing window, whatever `period` says (docs/policy.md). The one that
    /// contains `starts` begins on it (docs/policy.md "The rule's start").
    public func reportPeriod(_ selector: PeriodSelector, today: LocalDate) -> Period {
        let make: (LocalDate) -> Period = { date in
            var found = target.kind == .bestWeeks
                ? rollingWindow(weeks: target.window, endingWith: date)
                : period(period, containing: date)
            if let starts, found.start < starts, starts <= found.end {
                found.whole = found.span
                found.span = DateSpan(starts, found.end)
            }
            return found
        }
        switch selector {
        case .current: return make(today)
        case .containing(let date): return make(date)
        case .previous: return make(make(today).wholeSpan.start.adding(days: -1))
        }
    }
}
