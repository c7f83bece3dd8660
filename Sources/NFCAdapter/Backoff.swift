/// Retry delays after a reader or service is lost: 0.5 s doubling to 30 s,
/// back to the start after a success. Pure, so tests read the sequence.
struct Backoff {
    static let initial = 0.5
    static let maximum = 30.0
    private var attempt = 0

    /// The delay in seconds before the next retry.
    mutating func next() -> Double {
        defer { attempt += 1 }
        return min(Self.maximum, Self.initial * Double(1 << min(attempt, 16)))
    }

    mutating func reset() { attempt = 0 }
}
