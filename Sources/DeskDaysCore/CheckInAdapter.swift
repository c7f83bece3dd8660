/// The one shape every input adapter has (docs/design.md, habit 6, after gpsd's driver
/// table): it owns one device, turns what it sees into `CheckInEvent`s and
/// keeps running through device loss. The agent supervises these.
public protocol CheckInAdapter: Sendable {
    /// The method this adapter reports as.
    var source: Source { get }

    /// Runs until the task is cancelled, calling `emit` once per arrival
    /// (the adapter owns debounce of its own signal). Device loss is retried
    /// with backoff inside; a thrown error means the adapter cannot work at
    /// all (e.g. the library is unusable) and the supervisor decides.
    func run(emit: @escaping @Sendable (CheckInEvent) async -> Void) async throws
}
