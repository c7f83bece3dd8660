import Synchronization

/// Counts resumes from sleep and wakes everyone waiting for the next one.
///
/// Waiters name the count they last saw, so a resume that lands between
/// two waits (while an adapter restarts, while the timers write) is not lost.
final class ResumeSignal: Sendable {
    /// The count and the waiters, changed together under the lock.
    private struct State {
        var generation: UInt64 = 0
        var nextID = 0
        var waiters: [Int: AsyncStream<Void>.Continuation] = [:]
    }

    private let state = Mutex(State())

    /// How many resumes have happened so far.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Wakes every waiter.
    func fire() {
        let waiters = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.yield()
            waiter.finish()
        }
    }

    /// Returns once the count has moved past `seen` (at once if it already
    /// has), or when the calling task is cancelled.
    func wait(after seen: UInt64) async {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let id: Int? = state.withLock { state in
            guard state.generation == seen else { return nil }
            state.nextID += 1
            state.waiters[state.nextID] = continuation
            return state.nextID
        }
        guard let id else { return }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.waiters.removeValue(forKey: id) }
        }
        for await _ in stream { break }
    }
}
