/// Retry delays after a device or service is lost, shared by every adapter
/// and the agent's supervisor: doubling from `initialSeconds` up to
/// `maximumSeconds`, back to the start after a success. Pure, so tests read
/// the sequence.
public struct Backoff: Sendable, Hashable {
    public var initialSeconds: Double
    public var maximumSeconds: Double
    private var attempt = 0

    public init(initialSeconds: Double = 0.5, maximumSeconds: Double = 30) {
        self.initialSeconds = initialSeconds
        self.maximumSeconds = Swift.max(maximumSeconds, initialSeconds)
    }

    /// 0.5 s doubling to 30 s: quick after a brief unplug, quiet when the
    /// device stays away all day.
    public static let standard = Backoff()

    /// The delay in seconds before the next retry.
    public mutating func next() -> Double {
        defer { attempt += 1 }
        return Swift.min(maximumSeconds, initialSeconds * Double(1 << Swift.min(attempt, 30)))
    }

    /// After a success: the next delay is `initialSeconds` again.
    public mutating func reset() { attempt = 0 }
}
