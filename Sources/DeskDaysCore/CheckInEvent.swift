import Foundation

/// One automatic check-in as an adapter (or `deskdays event`) reports it:
/// which method saw the user, the *name* of the configured rule that
/// matched, and when. Never the identifier (UID, SSID, payload, position).
public struct CheckInEvent: Sendable, Hashable {
    public let source: Source
    public let rule: String?
    public let time: Date

    public init(source: Source, rule: String?, time: Date) {
        precondition(source.isAutomatic, "CheckInEvent is for automatic sources")
        self.source = source
        self.rule = rule
        self.time = time
    }
}
