import Foundation

/// Turns successive link snapshots into arrivals (docs/design.md: the adapter
/// owns its debounce). One arrival per connection to a rule's network; a
/// link that drops and comes back to the same rule within `flapWindow`
/// (the office Wi-Fi flapping at the car park) is the same arrival. Pure:
/// time is passed in.
public struct ArrivalTracker: Sendable {
    public let flapWindow: TimeInterval
    /// The rule each interface is currently connected to.
    private var current: [UInt32: String] = [:]
    /// When each rule was last seen connected (updated on every snapshot
    /// and at its disconnect).
    private var lastSeen: [String: Date] = [:]

    public init(flapWindow: TimeInterval = 300) {
        self.flapWindow = flapWindow
    }

    /// Takes the matched rule (or nil) of every connected station interface
    /// at `time`; returns the rules that just arrived.
    public mutating func update(_ matches: [UInt32: String?], at time: Date) -> [String] {
        var arrivals: [String] = []
        let connected = matches.compactMapValues { $0 }
        for (index, rule) in current where connected[index] != rule {
            lastSeen[rule] = time
        }
        let before = Set(current.values)
        for (index, rule) in connected.sorted(by: { $0.key < $1.key }) where current[index] != rule {
            let flapping = lastSeen[rule].map { time.timeIntervalSince($0) < flapWindow } ?? false
            if !before.contains(rule), !flapping, !arrivals.contains(rule) {
                arrivals.append(rule)
            }
        }
        current = connected
        for rule in connected.values { lastSeen[rule] = time }
        return arrivals
    }
}
