import Foundation

/// The employer's rules, as docs/policy.md defines them. Every field is a
/// configuration choice with the documented default.
public struct Policy: Sendable, Equatable {
    public var timeZone: TimeZone
    public var workdays: Set<Weekday> { didSet { workdayBits = Self.bits(workdays) } }
    /// `workdays` as bits (1 << rawValue): `isWorkday` runs for every date
    /// of a long history at each answer, and a set's lookup hashes.
    private var workdayBits: UInt8 = 0
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
    /// `day_starts_at` in minutes after local midnight (0 to 719): an
    /// automatic sign, and "now", earlier in the day than this belongs to
    /// the day before (night shifts; docs/policy.md "The day's start").
    public var dayStartMinutes: Int
    /// `min_hours`: an automatic day counts as office only with at least
    /// this much time on site; 0 is off (docs/policy.md "Time on site").
    public var minHours: Double
    /// `starts`: the rule's first date; dates before it are outside the rule
    /// (docs/policy.md "The rule's start"). nil: the rule always ran.
    public var starts: LocalDate?

    public init(timeZone: TimeZone = .current,
                workdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday],
                weekStart: Weekday = .monday,
                period: PeriodKind = .quarter,
                fiscalYearStartMonth: Int = 1,
                rollingWeeks: Int = 12,
                countNonWorkdays: Bool = false,
                holidays: [LocalDate: String] = [:],
                target: Target = Target(),
                counts: [AttendanceStatus: Treatment] = Policy.defaultCounts,
                dayStartMinutes: Int = 0,
                minHours: Double = 0,
                starts: LocalDate? = nil) {
        self.timeZone = timeZone
        self.workdays = workdays
        workdayBits = Self.bits(workdays)
        self.weekStart = weekStart
        self.period = period
        self.fiscalYearStartMonth = fiscalYearStartMonth
        self.rollingWeeks = rollingWeeks
        self.countNonWorkdays = countNonWorkdays
        self.holidays = holidays
        self.target = target
        self.counts = counts
        self.dayStartMinutes = dayStartMinutes
        self.minHours = minHours
        self.starts = starts
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
        workdayBits & (1 << date.weekday.rawValue) != 0 && (holidays.isEmpty || holidays[date] == nil)
    }

    static func bits(_ days: Set<Weekday>) -> UInt8 {
        days.reduce(0) { $0 | 1 << $1.rawValue }
    }

    /// The date an instant belongs to: its calendar date in `timeZone`, the
    /// day before when its wall-clock time is earlier than `day_starts_at`
    /// (docs/policy.md "The day's start"). The one place that turns an
    /// automatic sign, or "now", into a date; on wall-clock time, so DST
    /// nights need nothing special.
    public func localDate(of instant: Date) -> LocalDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        let date = LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!
        return parts.hour! * 60 + parts.minute! < dayStartMinutes ? date.adding(days: -1) : date
    }

    /// The calendar date and wall-clock minutes of an instant in `timeZone` (no shift).
    public func wallClock(of instant: Date) -> (date: LocalDate, minutes: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        return (LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!, parts.hour! * 60 + parts.minute!)
    }

    /// The instant `date` begins: `day_starts_at` on its calendar date (the
    /// next valid instant in a DST gap). The date ends where the next begins.
    public func start(of date: LocalDate) -> Date {
        instant(of: date, hour: dayStartMinutes / 60, minute: dayStartMinutes % 60)
    }

    /// The instant of the wall-clock time `hour:minute` within the (shifted)
    /// day `date`: a time earlier than `day_starts_at` falls on the next
    /// calendar date ([checkin] times, docs/policy.md "The day's start").
    public func instant(within date: LocalDate, hour: Int, minute: Int) -> Date {
        instant(of: hour * 60 + minute < dayStartMinutes ? date.adding(days: 1) : date, hour: hour, minute: minute)
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

    /// `round`, for `days_per_week`: each week's share rounded up and summed
    /// (`week`), or the rule averaged over the period and rounded once
    /// (`period`; docs/policy.md "A weekly rule averaged over the period").
    public enum Round: String, CaseIterable, Sendable, Codable {
        case week, period
    }

    public var kind: Kind
    /// `value` in hundredths, so that every division is an exact rational
    /// (docs/policy.md allows up to two decimals): 60 % is 6000, 2.5 days is 250.
    public var hundredths: Int
    public var reduce: Reduce
    /// `days_per_week` only: per week (default) or averaged over the period.
    public var round: Round
    /// `compliant_weeks`: how many compliant weeks the period needs.
    public var weeks: Int
    /// `best_weeks`: how many of the best weeks count.
    public var best: Int
    /// `best_weeks`: the trailing window in weeks.
    public var window: Int

    public init(kind: Kind = .percent, hundredths: Int = 6000, reduce: Reduce = .cap,
                weeks: Int = 0, best: Int = 0, window: Int = 12, round: Round = .week) {
        self.kind = kind
        self.hundredths = hundredths
        self.reduce = reduce
        self.round = round
        self.weeks = weeks
        self.best = best
        self.window = window
    }

    /// The value as a JSON number (60, 2.5).
    public var value: Double { Double(hundredths) / 100 }

    /// `best_weeks`' share of one week: `ceil(d / b)` office days, `d` the
    /// target's value rounded up (docs/policy.md).
    public var bestWeeksShare: Int { best <= 0 ? 0 : ceilDiv(ceilDiv(hundredths, 100), best) }

    /// The most office days a target may ask: every day of the longest
    /// period (520 rolling weeks). A larger `value` is refused when read.
    public static let mostOfficeDays = 520 * 7
}
