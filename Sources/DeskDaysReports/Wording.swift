import DeskDaysCore

// The words for a period's standing and its target, in one place for every
// rendering (status lines, text and HTML reports, the terminal calendar).

extension Report {
    /// The period is over: nothing can change its figures any more.
    public var isFinished: Bool { period.end < today }

    /// Where the user stands, in words: a finished period that was not met
    /// is "missed" (its JSON status stays `impossible`, docs/policy.md).
    public var standingWords: String {
        isFinished && status != .met ? "missed" : status.words
    }

    /// "N still needed", or for a finished period "N short".
    public var neededWords: String {
        isFinished ? "\(remainingRequired) short" : "\(remainingRequired) still needed"
    }
}

extension Report.Status {
    /// "met", "on track", "behind" or "out of reach".
    public var words: String {
        switch self {
        case .met: return "met"
        case .onTrack: return "on track"
        case .behind: return "behind"
        case .impossible: return "out of reach"
        }
    }
}

extension Target {
    /// The target in words, with its figure written as `value` (the caller
    /// formats it, for its locale).
    public func words(value: String) -> String {
        switch kind {
        case .percent: return "\(value) % of eligible workdays"
        case .daysPerWeek: return "\(value) office days a week (\(reduce.rawValue))"
        case .daysPerPeriod: return "\(value) office days in the period (\(reduce.rawValue))"
        case .compliantWeeks: return "\(weeks) weeks with \(value) office days each"
        case .bestWeeks: return "\(value) office days in the best \(best) of \(window) weeks"
        }
    }
}
