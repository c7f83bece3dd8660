import Foundation

/// The employer's rules, as docs/policy.md defines them. Every field is a
/// configuration choice with the documented default.
public struct Policy: Sendable, Equatable {
    public var timeZone: TimeZone
    public var workdays: Set<Weekday>
    public var weekStart: Weekday
    public var period: PeriodKind
    public var fiscalYearStartMonth: Int
    public var rollingWeeks: Int
    public var countNonWorkdays: Bool
    /// Holidays from the config and from `holidays_ics`, with their names.
    public var holidays: [LocalDate: String]
    public var target: Target
    /// Treatment of the configurable statuses; `office` and `remote` are fixed.
    public var counts: [AttendanceStatus: Treatment]

    public init(timeZone: TimeZone = .current,
                workdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday],
                weekStart: Weekday = .monday,
                period: PeriodKind = .quarter,
                fiscalYearStartMonth: Int = 1,
                rollingWeeks: Int = 12,
                countNonWorkdays: Bool = false,
                holidays: [LocalDate: String] = [:],
                target: Target = Target(),
                counts: [AttendanceStatus: Treatment] = Policy.defaultCounts) {
        self.timeZone = timeZone
        self.workdays = workdays
        self.weekStart = weekStart
        self.period = period
        self.fiscalYearStartMonth = fiscalYearStartMonth
        self.rollingWeeks = rollingWeeks
        self.countNonWorkdays = countNonWorkdays
        self.holidays = holidays
        self.target = target
        self.counts = counts
    }

    public static let defaultCounts: [AttendanceStatus: Treatment] = [
        .travel: .office, .sick: .excused, .vacation: .excused, .leave: .excused,
    ]

    /// How `status` counts under this policy.
    public func treatment(of status: AttendanceStatus) -> Treatment {
        switch status {
        case .office: return .office
        case .remote: return .remote
        default: return counts[status] ?? Policy.defaultCounts[status] ?? .remote
        }
    }

    /// A workday: weekday in `workdays` and not a holiday.
    public func isWorkday(_ date: LocalDate) -> Bool {
        workdays.contains(date.weekday) && holidays[date] == nil
    }

    /// The local date of an instant in `timeZone`.
    public func localDate(of instant: Date) -> LocalDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!
    }

    /// The instant of `hour:minute` local time on `date` (the next valid
    /// instant when a DST gap swallows it).
    public func instant(of date: LocalDate, hour: Int = 12, minute: Int = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = DateComponents(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute)
        return calendar.date(from: parts)!
    }
}

/// `policy.period`.
public enum PeriodKind: String, CaseIterable, Sendable, Codable {
    case week, month, quarter, year, rolling
}

/// `[policy.target]`.
public struct Target: Sendable, Equatable {
    public enum Kind: String, CaseIterable, Sendable, Codable {
        case percent
        case daysPerWeek = "days_per_week"
        case daysPerPeriod = "days_per_period"
        case compliantWeeks = "compliant_weeks"
        case bestWeeks = "best_weeks"
    }

    public enum Reduce: String, CaseIterable, Sendable, Codable {
        case cap
        case proRata = "pro-rata"
    }

    public var kind: Kind
    /// `value` in hundredths, so that every division is an exact rational
    /// (docs/policy.md allows up to two decimals): 60 % is 6000, 2.5 days is 250.
    public var hundredths: Int
    public var reduce: Reduce
    /// `compliant_weeks`: how many compliant weeks the period needs.
    public var weeks: Int
    /// `best_weeks`: how many of the best weeks count.
    public var best: Int
    /// `best_weeks`: the trailing window in weeks.
    public var window: Int

    public init(kind: Kind = .percent, hundredths: Int = 6000, reduce: Reduce = .cap,
                weeks: Int = 0, best: Int = 0, window: Int = 12) {
        self.kind = kind
        self.hundredths = hundredths
        self.reduce = reduce
        self.weeks = weeks
        self.best = best
        self.window = window
    }

    /// The value as a JSON number (60, 2.5).
    public var value: Double { Double(hundredths) / 100 }
}
