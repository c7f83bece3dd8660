/// How long the reader waits between attempts to reopen a missing device:
/// doubling from `initial` up to `maximum`, reset on success.
public struct Backoff: Sendable, Hashable {
    public var initialSeconds: Double
    public var maximumSeconds: Double

    public init(initialSeconds: Double, maximumSeconds: Double) {
        self.initialSeconds = initialSeconds
        self.maximumSeconds = max(maximumSeconds, initialSeconds)
    }

    /// 0.5 s doubling to 30 s: quick after a brief unplug, quiet when the
    /// receiver stays away all day.
    public static let standard = Backoff(initialSeconds: 0.5, maximumSeconds: 30)
}
