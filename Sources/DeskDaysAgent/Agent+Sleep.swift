import Foundation
import DeskDaysCore
import Logging

extension Agent {
    /// Follows logind's sleep signal until cancelled (see `SleepWatcher`).
    func watchSleep() async {
        await sleepWatcher.run { [self] sleeping in
            if sleeping {
                logger.notice("the system is going to sleep")
                // On the watcher's thread: the departure is committed before it reads the bus again.
                let done = DispatchSemaphore(value: 0)
                Task { await self.departAll(because: "suspending"); done.signal() }
                done.wait()
            } else {
                let count = adapters.count
                logger.notice("resumed from sleep; re-arming \(count) adapter\(count == 1 ? "" : "s")")
                resumes.fire()
                answerMayHaveChanged()
            }
        }
    }

    /// Runs an adapter until it ends, or until the system resumes from sleep
    /// after resume count `seen`: then it is cancelled, awaited, and true is
    /// returned so the supervisor starts it afresh at once, which reopens
    /// its device (serial port, PC/SC context, the Wi-Fi link read).
    func runUntilResume(_ adapter: any CheckInAdapter, after seen: UInt64) async throws -> Bool {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await adapter.run { event in await self.deliver(event) }
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
        await sleep(until: clock.now().addingTimeInterval(duration.seconds), unlessResumedAfter: seen)
    }

    /// Sleeps until the agent's clock reaches `instant`, cut short by a resume after count `seen` (or cancellation).
    func sleep(until instant: Date, unlessResumedAfter seen: UInt64) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await self.clock.sleep(until: instant) }
            group.addTask { await self.resumes.wait(after: seen) }
            await group.next()
            group.cancelAll()
        }
    }
}
