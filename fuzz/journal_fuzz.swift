// libFuzzer entry point over a sync journal line (JournalEntry.decode: the
// fast reader, then Foundation's decoder), built from
// Sources/DeskDaysStore/Journal.swift and UTCTimestamp.swift by
// fuzz/journal.sh. Any bytes must decode or give nil, never trap; a line
// that decodes reads back the same once written again, and its change
// (what the line means, checked) never traps either. What a decoded line
// is then used for (its clock as text, HLC arithmetic) is the sync
// validation's to guard, not the decoder's.
import DeskDaysCore
import Foundation

/// Journal.swift names `Removal` (in Removal.swift, which needs GRDB) only
/// as what a clear removed; the decoder never makes one.
public struct Removal: Sendable, Equatable {}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let line = Array(UnsafeBufferPointer(start: start, count: count))[...]
    guard let entry = JournalEntry.decode(line) else { return 0 }
    _ = entry.change
    // The device id shares the known string's storage when it is the same text.
    precondition(JournalEntry.decode(line, device: entry.device) == entry, "decoding with the known device changed the line")
    let again = Array(entry.encoded().utf8)[...]
    precondition(JournalEntry.decode(again) == entry, "a decoded line does not read back the same")
    return 0
}
