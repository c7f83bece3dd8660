/// Where the user stands: the figures of docs/policy.md for one period.
///
/// Its JSON form is the contract of docs/cli.md `report --json`.
public struct Report: Sendable, Equatable {
    /// One week of a week-based target.
    public struct Week: Sendable, Equatable {
        public var start: LocalDate
        public var required: Int
        public var office: Int
        public var met: Bool
    }

    public enum Status: String, Sendable, Equatable {
        case met, onTrack = "on_track", behind, impossible
        /// The period ends before the rule's start: it has no target.
        case notStarted = "not_started"
    }

    public var today: LocalDate
    public var period: Period
    public var target: Target

    public var workdays = 0
    public var excused = 0
    public var eligible = 0
    public var office = 0
    public var remote = 0
    public var unrecorded = 0
    public var elapsed = 0
    public var pending = 0
    public var plannedOffice = 0
    /// The period's past workdays with no status (none recorded, or an
    /// automatic day short of `min_hours`): what to catch up, in date order.
    public var missing: [LocalDate] = []

    public var required = 0
    public var requiredToDate = 0
    public var remainingRequired = 0
    public var status: Status = .onTrack
    /// `not_started`: the date the rule starts (`policy.starts`).
    public var ruleStarts: LocalDate?

    /// Week-based targets only.
    public var weeks: [Week]?
    /// A weekly rule's (`days_per_week`, `compliant_weeks`) row of the week
    /// holding today, from `weeks`; nil for the other rules or another period.
    public var currentWeek: Week? {
        guard target.kind == .daysPerWeek || target.kind == .compliantWeeks else { return nil }
        return weeks?.first { $0.start <= today && today <= $0.start.adding(days: 6) }
    }
    /// `compliant_weeks` only.
    public var weeksMet: Int?
    public var weeksRequired: Int?
    public var weeksRemaining: Int?
    /// `compliant_weeks`: the weeks that should be compliant by now (the pace).
    public var weeksRequiredToDate: Int?
    /// `best_weeks` only: the window's total office days (`office` is the best weeks' sum).
    public var officeAll: Int?
    /// With `min_hours` set: the period's workdays before today with an
    /// arrival but less time on site than `min_hours`.
    public var shortDays: Int?

    /// `office / elapsed`, or nil when nothing has elapsed.
    public var complianceToDate: Double? {
        elapsed == 0 ? nil : Double(office) / Double(elapsed)
    }

    /// Office days still needed (0 when met): what the user asks first.
    public var officeDaysNeeded: Int { remainingRequired }
}

/// `ceil(numerator / denominator)` on integers, denominator > 0.
@inline(__always)
public func ceilDiv(_ numerator: Int, _ denominator: Int) -> Int {
    precondition(denominator > 0)
    return numerator >= 0 ? (numerator + denominator - 1) / denominator : -((-numerator) / denominator)
}

/// The shapes `deskdays status` prints (docs/cli.md): a sentence, one line
/// of JSON, waybar's JSON, i3blocks' three lines.
public enum StatusFormat: String, CaseIterable, Sendable {
    case text, json, waybar, i3blocks
}
