import Foundation

/// Turns successive snapshots of "which rule is each path on" into arrivals
/// and departures, with the adapter's debounce (docs/design.md: the adapter
/// owns it). A path is whatever the adapter watches side by side (a
/// station interface for Wi-Fi, an interface and address family for the
/// wired method).
///
/// - A rule *arrives* when it becomes present on some path while it was on
///   none; a rule present on two paths at once is one presence.
/// - A rule that stops being present leaves *pending*: if it comes back
///   within `flapWindow` (a cable reseated, a dock's link renegotiating,
///   Wi-Fi dropping at the car park) it
///   never left, so neither a departure nor a second arrival is reported.
///   Once the window has passed without it, `expire(at:)` reports the
///   departure, stamped with the moment it actually left.
/// - With a window of 0 departures are reported at once.
///
/// Pure: time is passed in (docs/design.md, habit 5). The Wi-Fi and wired
/// adapters share it through `NetworkPresence`.
public struct PresenceTracker<Path: Hashable & Sendable>: Sendable {
    public enum Change: Sendable, Equatable {
        case arrival(rule: String, at: Date)
        case departure(rule: String, at: Date)
        /// Back within the flap window: neither a departure nor an arrival
        /// (reported so the adapter can say so in its log).
        case returned(rule: String, at: Date)
    }

    public let flapWindow: TimeInterval
    /// The rule each path is on now.
    private var current: [Path: String] = [:]
    /// Rules that stopped being present, and when: departures not yet reported.
    private var left: [String: Date] = [:]

    public init(flapWindow: TimeInterval) {
        self.flapWindow = max(0, flapWindow)
    }

    /// The rules present now, sorted.
    public var present: [String] { Set(current.values).sorted() }

    /// When the earliest pending departure becomes final (nil: none pending).
    public var nextDeadline: Date? {
        left.values.min().map { $0.addingTimeInterval(flapWindow) }
    }

    /// Takes every path's rule at `time` (nil or absent: on no rule) and
    /// returns what changed, departures first.
    public mutating func update(_ matches: [Path: String?], at time: Date) -> [Change] {
        var changes = expire(at: time)
        let now = matches.compactMapValues { $0 }
        let before = Set(current.values)
        let after = Set(now.values)
        for rule in after.subtracting(before).sorted() {
            if left.removeValue(forKey: rule) == nil {
                changes.append(.arrival(rule: rule, at: time))
            } else {
                changes.append(.returned(rule: rule, at: time))
            }
        }
        for rule in before.subtracting(after).sorted() {
            left[rule] = time
        }
        current = now
        return changes + expire(at: time)
    }

    /// The pending departures whose flap window has passed by `time`.
    public mutating func expire(at time: Date) -> [Change] {
        let due = left.filter { time.timeIntervalSince($0.value) >= flapWindow }
        for rule in due.keys { left.removeValue(forKey: rule) }
        return due.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map { .departure(rule: $0.key, at: $0.value) }
    }

    /// Every pending departure now, whatever its window (the adapter
    /// stopping: what it saw leave must not be lost).
    public mutating func flush() -> [Change] {
        let all = left.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map { Change.departure(rule: $0.key, at: $0.value) }
        left = [:]
        return all
    }
}
