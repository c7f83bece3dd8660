import Foundation

/// A reading of this machine's clock: the wall clock in a command, the
/// agent's `AgentClock` in the agent. Journal lines, hybrid clock times,
/// the times records and removals are stored with, and the check of other
/// devices' lines (`Validation.timeProblem`) take only this.
///
/// The date a command answers for (`--today`, `DESKDAYS_TODAY`,
/// `DESKDAYS_NOW`) is an `AskedTime`, a type of its own with no way to
/// become a `ClockTime`: a question about another date can neither stamp a
/// line nor judge another device's (docs/design.md "Two dates").
public struct ClockTime: Sendable, Hashable, Comparable {
    public let date: Date

    /// A reading of a clock: the system's (`now()`) or one injected into the agent.
    public init(reading date: Date) {
        self.date = date
    }

    /// The system's wall clock, now.
    public static func now() -> ClockTime { ClockTime(reading: Date()) }

    public static func < (a: ClockTime, b: ClockTime) -> Bool { a.date < b.date }
}

/// The instant a command answers for: the clock's now, or the one
/// `--today`, `DESKDAYS_TODAY` or `DESKDAYS_NOW` names (a what-if date).
/// Reports and answers read it; nothing that writes or checks a journal
/// line can take it (`ClockTime`).
public struct AskedTime: Sendable, Hashable {
    public let date: Date
    /// Whether it is the clock's now (nothing fixed it).
    public let isClock: Bool

    /// A fixed instant (`--today`, `DESKDAYS_TODAY`, `DESKDAYS_NOW`).
    public init(fixed date: Date) {
        self.date = date
        isClock = false
    }

    /// The clock's now: a question about the present.
    public init(clock: ClockTime) {
        date = clock.date
        isClock = true
    }
}
