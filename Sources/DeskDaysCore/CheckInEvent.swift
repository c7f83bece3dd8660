import Foundation

/// One automatic sign of the user as an adapter (or `deskdays event`)
/// reports it: which method saw the user arrive (or leave), the *name* of
/// the configured rule that matched, and when. Never the identifier (UID,
/// SSID, payload, position, gateway address).
public struct CheckInEvent: Sendable, Hashable {
    /// docs/policy.md "Time on site": every automatic check-in is an
    /// arrival; methods that see the user leave (Wi-Fi, GPS, wired,
    /// `event --leave`) also report departures. A departure is not a check-in.
    public enum Kind: String, Sendable, Hashable {
        case arrival
        case departure
    }

    public let source: Source
    public let rule: String?
    public let time: Date
    public let kind: Kind

    public init(source: Source, rule: String?, time: Date, kind: Kind = .arrival) {
        precondition(source.isAutomatic, "CheckInEvent is for automatic sources")
        self.source = source
        self.rule = rule
        self.time = time
        self.kind = kind
    }
}
