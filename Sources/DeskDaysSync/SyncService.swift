import DeskDaysCore
import DeskDaysStore
import Foundation
import Synchronization

/// The agent's merging of the sync folder (docs/design.md "Sync"): a merge
/// at each change its watchers see (`merge`), one at a time whichever
/// folder changed, and again when a line held until this clock reaches its
/// time is due, though no file changes (`mergeHeldLines`). Each problem is
/// told once per run, not on every change. The agent watches (inotify) and
/// speaks (its log, its notifications); what a merge does is here.
public final class SyncService: Sendable {
    /// What the service tells the agent's log.
    public enum Note: Sendable, Equatable {
        case info(String)
        case warning(String)
    }

    public let sync: Synchronizer
    private let beforeMerge: @Sendable () -> Void
    private let corrected: @Sendable (AttendanceStore.ClockCorrection) -> Void
    private let say: @Sendable (Note) -> Void
    private let serial = Mutex(())
    private let told = Mutex<Set<String>>([])
    private let held: AsyncStream<Date>
    private let nextHeld: AsyncStream<Date>.Continuation

    /// `beforeMerge` runs before each merge (the agent looks for a newer
    /// shared policy); `corrected` is told when a merge stamped this
    /// device's lines again (`correctClock`).
    public init(sync: Synchronizer, beforeMerge: @escaping @Sendable () -> Void = {},
                corrected: @escaping @Sendable (AttendanceStore.ClockCorrection) -> Void,
                say: @escaping @Sendable (Note) -> Void) {
        self.sync = sync
        self.beforeMerge = beforeMerge
        self.corrected = corrected
        self.say = say
        (held, nextHeld) = AsyncStream.makeStream(of: Date.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Publishes this device's journal (what it wrote while nobody watched).
    public func publish() {
        do {
            try sync.publish()
        } catch {
            say(.warning("\(error)"))
        }
    }

    /// Merges the folder now, after any merge under way.
    public func merge() {
        serial.withLock { _ in
            beforeMerge()
            do {
                let report = try sync.merge()
                if let until = report.heldUntil { nextHeld.yield(until) }
                if let correction = report.corrected { corrected(correction) }
                if report.merged > 0 {
                    say(.info("merged \(report.merged) journal line\(report.merged == 1 ? "" : "s") from the sync folder"))
                }
                for problem in report.problems where told.withLock({ $0.insert(problem).inserted }) {
                    say(.warning("sync: \(Printable.escaped(problem))"))
                }
            } catch {
                say(.warning("sync: \(error)"))
            }
        }
    }

    /// Merges again when a held line is due, until cancelled or `finish`:
    /// `sleep(until)` waits for this clock to read `until` (false: cancelled).
    /// The latest time asked for wins: a merge that found an earlier one replaces the wait.
    public func mergeHeldLines(sleep: @escaping @Sendable (Date) async -> Bool) async {
        var waiting: Task<Void, Never>?
        for await until in held {
            waiting?.cancel()
            waiting = Task {
                guard await sleep(until) else { return }
                self.merge()
            }
        }
        waiting?.cancel()
    }

    /// Ends `mergeHeldLines`.
    public func finish() {
        nextHeld.finish()
    }
}
