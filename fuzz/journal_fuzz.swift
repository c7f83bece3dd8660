// libFuzzer entry point over a journal line from the sync folder (issue
// 28): decoding (the fast reader and Foundation's), the door's checks
// (`JournalEntry.problem`) and what a merge then does with a line it
// accepts (its change, the clock after it). Built from Sources/DeskDaysCore,
// Sources/Localization and the journal's own files (DeskDaysSync's, over the
// store's row) by fuzz/journal.sh. Any
// input must neither crash nor trap, the two readers must agree, and a
// line accepted must hold only values every other door takes.
import DeskDaysCore
import Localization
import Foundation

private let now = ClockTime(reading: Date(timeIntervalSince1970: 1_795_194_000)) // 2026-11-20T17:00:00Z

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournalLine(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let line = ArraySlice(UnsafeBufferPointer(start: start, count: count))
    let fast = JournalEntry.fastDecode(line)
    let slow = try? JSONDecoder().decode(JournalEntry.self, from: Data(line))
    if let fast, let slow, fast != slow { fatalError("the fast reader and JSONDecoder disagree") }
    guard let entry = fast ?? slow else { return 0 }
    guard entry.problem(now: now) == nil else { return 0 }
    // Accepted: every value is one a flag or an import could give.
    guard let change = entry.change, change.date.isSupported, entry.seq >= 1, entry.seq <= Validation.greatestCount,
          entry.n >= 0, entry.n <= Validation.greatestCount,
          entry.time.date.timeIntervalSince(now.date) <= Validation.furthestAhead else {
        fatalError("a line with a value no door takes was accepted")
    }
    // What a merge and the next change here do with it: no arithmetic traps.
    let next = HLC.next(after: entry.time, physical: HLC.milliseconds(now.date))
    if !(next > entry.time) { fatalError("the clock went back") }
    _ = UTCTimestamp.string(from: entry.time.date)
    _ = entry.encoded()
    return 0
}
