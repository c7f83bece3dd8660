import DeskDaysCore
import DeskDaysStore
import Foundation
import Synchronization

/// What a merge's new lines do, worked out without the database (from what
/// each date held before, `SyncTables.held`): the rows of the dates
/// that held nothing (`FreshDays`), the lines to apply one by one in
/// order, and the dates to replay from their lines.
///
/// A date is fresh when it held nothing, and its new lines come in clock
/// order and clear nothing. Any other date takes each line through
/// `SyncTables.merge` while its lines come in clock order, and is
/// replayed once one comes late.
struct MergePlan: Sendable {
    var rows = FreshDays()
    /// Indexes into the merge's lines, applied in this order.
    var applied: [Int] = []
    var replay: Set<String> = []

    init(entries: [JournalEntry], added: [Int], held: SyncHeld) {
        // Lines are read in place: a copy of each would retain every field.
        entries.withUnsafeBufferPointer { entries in
            // A date's state is looked up once per run of its lines (a
            // journal's lines come date by date), not once per line.
            var fresh: [String: Bool] = [:]
            var lastOfDate: [String: (HLC, Int64)] = [:]
            var run: (date: String, heldSome: Bool, fresh: Bool, last: (HLC, Int64)?)?
            func endRun() {
                guard let run, !run.heldSome else { return }
                fresh[run.date] = run.fresh
                lastOfDate[run.date] = run.last
            }
            for index in added {
                let date = entries[index].date
                if run?.date != date {
                    endRun()
                    run = (date, !held.holdsNothing(date), fresh[date] ?? true, lastOfDate[date])
                }
                guard !run!.heldSome, run!.fresh else { continue }
                let time = entries[index].time, seq = entries[index].seq
                let inOrder = run!.last.map { $0 < (time, seq) } ?? true
                run!.fresh = inOrder && entries[index].op != "clear"
                run!.last = (time, seq)
            }
            endRun()
            var latestOfDate = held.latest.mapValues { (HLC(wall: $0.wall, counter: $0.counter), $0.device, $0.seq) }
            var freshRun: (date: String, fresh: Bool)?
            for index in added {
                let date = entries[index].date
                if freshRun?.date != date { freshRun = (date, fresh[date] == true) }
                if freshRun!.fresh {
                    if let change = entries[index].change { rows.apply(change, wall: entries[index].hlc) }
                    continue
                }
                if replay.contains(date) { continue }
                let time = entries[index].time, seq = entries[index].seq
                if let latest = latestOfDate[date], (time, entries[index].device, seq) < (latest.0, latest.1, latest.2) {
                    replay.insert(date)
                    continue
                }
                latestOfDate[date] = (time, entries[index].device, seq)
                applied.append(index)
            }
        }
    }
}

/// Runs `work` here while `background` runs on a thread of its own, and
/// returns `background`'s result once both are done (also when `work`
/// throws). Neither may write what the other reads. A thread of its own,
/// not one of Dispatch's pools: their threads may all be waiting on the
/// very database call this is part of.
func overlapping<T: Sendable>(_ work: () throws -> Void, background: @escaping @Sendable () -> T) throws -> T {
    let box = OverlapResult<T>(), done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let value = background()
        box.value.withLock { $0 = value }
        done.signal()
    }
    thread.name = "deskdays-merge"
    thread.start()
    do {
        try work()
    } catch {
        done.wait()
        throw error
    }
    done.wait()
    return box.value.withLock { $0! }
}

/// `overlapping`'s result: written before its semaphore is signalled, read
/// after it is waited for.
private final class OverlapResult<T: Sendable>: Sendable {
    let value = Mutex<T?>(nil)
}
