// libFuzzer entry point over an inbox file from the sync folder: the
// reader (encodings, CRLF, a torn last line) and the line parser
// (`InboxLine`). Built from Sources/DeskDaysCore and Sources/Localization by
// fuzz/inbox.sh. Any input must neither crash nor trap, the reader's
// offsets must stay within the file, and a line accepted must carry a rule
// name and a time as RFC 3339 can write them.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInboxFile(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let text = InboxLine.text(bytes)
    guard text.complete <= text.size, text.size == count, text.lines.count == text.starts.count,
          zip(text.starts, text.starts.dropFirst()).allSatisfy({ $0 < $1 }), text.starts.allSatisfy({ $0 < max(text.complete, 1) }) else {
        fatalError("the reader's offsets are wrong")
    }
    for line in text.lines {
        guard let line, case .checkIn(let parsed) = InboxLine.parse(line) else { continue }
        if RuleName.problem(parsed.rule) != nil { fatalError("a rule that is not a name was accepted") }
        // Years 0000–9999 with an offset under a day: within ±10,000 years of 1970.
        if !(abs(parsed.time.timeIntervalSince1970) < 400_000_000_000) { fatalError("a time no RFC 3339 text gives was accepted") }
        _ = Validation.timeProblem(parsed.time, now: Date(timeIntervalSince1970: 1_795_194_000))
    }
    return 0
}
