import Foundation

/// The agent's "now": the system clock, or an injected starting instant
/// (`DESKDAYS_NOW`) that then advances with the system clock.
///
/// A fixed offset rather than a fixed instant, so reminders and the
/// fallback can be tested end to end: start two seconds before 10:30 and
/// the 10:30 reminder fires two seconds later.
public struct AgentClock: Sendable {
    let offset: TimeInterval

    /// - Parameter start: the instant "now" is at this moment (nil: the system clock).
    public init(start: Date? = nil) {
        offset = start.map { $0.timeIntervalSinceNow } ?? 0
    }

    /// Whether "now" is the system clock's (no injected start).
    public var isSystemClock: Bool { offset == 0 }

    @Sendable public func now() -> Date {
        Date().addingTimeInterval(offset)
    }
}
