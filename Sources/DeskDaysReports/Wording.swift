import Localization
import DeskDaysCore

// The words for a period's standing and its target, in one place for every
// rendering (status lines, text and HTML reports, the terminal calendar),
// in the user's language (`tr`); JSON keeps the raw values.

extension Report {
    /// The period is over: nothing can change its figures any more.
    public var isFinished: Bool { period.end < today }

    /// Where the user stands, in words: a finished period that was not met
    /// is "missed" (its JSON status stays `impossible`, docs/policy.md).
    public var standingWords: String {
        isFinished && status != .met && status != .notStarted ? tr("missed") : status.words
    }

    /// "N still needed", or for a finished period "N short".
    public var neededWords: String { neededWords(.process) }

    /// The same with the figure in `locale`'s digits.
    public func neededWords(_ locale: ReportLocale) -> String {
        let count = remainingRequired, figure = locale.number(count)
        return isFinished ? trn("\(figure) short", "\(figure) short", count)
            : trn("\(figure) still needed", "\(figure) still needed", count)
    }
}

extension Report.Status {
    /// "met", "on track", "behind" or "out of reach".
    public var words: String {
        switch self {
        case .met: return tr("met")
        case .onTrack: return tr("on track")
        case .behind: return tr("behind")
        case .impossible: return tr("out of reach")
        case .notStarted: return tr("not started")
        }
    }
}

extension Target {
    /// The target in words, with its figure written as `value` (the caller
    /// formats it, for its locale). `cap`/`pro-rata` are said in words,
    /// never as the configuration's values. `period`: what a weekly
    /// rule with `round = "period"` is averaged over.
    public func words(value: String, over period: PeriodKind) -> String {
        let week = reduce == .cap ? tr("at most the week's workdays") : tr("reduced for holidays and leave")
        switch kind {
        case .percent: return tr("\(value) % of eligible workdays")
        case .daysPerWeek where round == .period:
            switch period {
            case .week: return tr("\(value) office days a week (\(week))")
            case .month: return tr("\(value) office days a week (\(week)), averaged over the month")
            case .quarter: return tr("\(value) office days a week (\(week)), averaged over the quarter")
            case .year: return tr("\(value) office days a week (\(week)), averaged over the year")
            case .rolling: return tr("\(value) office days a week (\(week)), averaged over the rolling weeks")
            }
        case .daysPerWeek: return tr("\(value) office days a week (\(week))")
        case .daysPerPeriod:
            let fewer = reduce == .cap ? tr("at most the period's workdays") : week
            return tr("\(value) office days in the period (\(fewer))")
        case .compliantWeeks:
            return trn("\(weeks) week with \(value) office days each", "\(weeks) weeks with \(value) office days each", weeks)
        case .bestWeeks:
            return trn("\(value) office days in the best \(best) of \(window) week",
                       "\(value) office days in the best \(best) of \(window) weeks", window)
        }
    }
}
