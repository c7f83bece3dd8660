import DeskDaysCore

/// What the pipeline did with an automatic check-in.
public enum SubmitOutcome: Sendable, Hashable {
    /// The first check-in of its source on that local date: stored, durably.
    case stored(LocalDate)
    /// That source already checked in on that local date: nothing written.
    case duplicate(LocalDate)

    /// The local date the check-in fell on.
    public var date: LocalDate {
        switch self {
        case let .stored(date), let .duplicate(date): return date
        }
    }
}
