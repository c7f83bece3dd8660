import Foundation
import Logging
import Synchronization

/// Counts resumes from sleep and wakes everyone waiting for the next one.
///
/// Waiters name the count they last saw, so a resume that lands between
/// two waits (while an adapter restarts, while the timers write) is not lost.
final class ResumeSignal: Sendable {
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

extension Agent {
    /// Follows logind's sleep signal until cancelled (see `SleepWatcher`).
    func watchSleep() async {
        await sleepWatcher.run { [self] sleeping in
            if sleeping {
                logger.notice("the system is going to sleep")
            } else {
                let count = adapters.count
                logger.notice("resumed from sleep; re-arming \(count) adapter\(count == 1 ? "" : "s")")
                resumes.fire()
            }
        }
    }

    /// Runs an adapter until it ends, or until the system resumes from sleep
    /// after resume count `seen`: then it is cancelled, awaited, and true is
    /// returned so the supervisor starts it afresh at once, which reopens
    /// its device (serial port, PC/SC context, the Wi-Fi link read).
    func runUntilResume(_ entry: AdapterRegistry.Entry, after seen: UInt64) async throws -> Bool {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await entry.adapter.run { event in await self.deliver(event) }
                return false
            }
            group.addTask {
                await self.resumes.wait(after: seen)
                try Task.checkCancellation()
                return true
            }
            // Leaving the group awaits the loser, so the old adapter has let go of its device.
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
    }

    /// Sleeps for `duration`, cut short by a resume after count `seen` (or cancellation).
    func sleep(for duration: Duration, unlessResumedAfter seen: UInt64) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: duration) }
            group.addTask { await self.resumes.wait(after: seen) }
            await group.next()
            group.cancelAll()
        }
    }
}
