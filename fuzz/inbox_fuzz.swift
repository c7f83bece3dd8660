// libFuzzer entry point over an inbox file from the sync folder: the
// streaming reader (`InboxLine.Splitter`: encodings, CRLF, a torn last
// line) and the line parser (`InboxLine`). Built from Sources/DeskDaysCore
// and Sources/Localization by fuzz/inbox.sh. Any input must neither crash
// nor trap, a read in two pieces must give the lines one read gives, the
// reader's offsets must stay within the file, and a line accepted must
// carry a rule name and a time as RFC 3339 can write them.
import DeskDaysCore
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInboxFile(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    func read(cut: Int) -> (InboxLine.Splitter, [InboxLine.Splitter.Line]) {
        var splitter = InboxLine.Splitter()
        var lines: [InboxLine.Splitter.Line] = []
        splitter.feed(bytes[..<cut]) { lines.append($0) }
        splitter.feed(bytes[cut...]) { lines.append($0) }
        splitter.finish { lines.append($0) }
        return (splitter, lines)
    }
    let (splitter, lines) = read(cut: count)
    guard splitter.complete <= splitter.offset, splitter.offset == count, lines.count == splitter.lines,
          lines.enumerated().allSatisfy({ $0.element.number == $0.offset + 1 }),
          zip(lines, lines.dropFirst()).allSatisfy({ $0.start < $1.start }),
          lines.allSatisfy({ $0.start < max(splitter.complete, 1) }) else {
        fatalError("the reader's offsets are wrong")
    }
    if read(cut: count / 3).1 != lines { fatalError("a read in two pieces gave other lines") }
    for line in lines {
        guard let text = line.text, case .checkIn(let parsed) = InboxLine.parse(text) else { continue }
        if RuleName.problem(parsed.rule) != nil { fatalError("a rule that is not a name was accepted") }
        // Years 0000–9999 with an offset under a day: within ±10,000 years of 1970.
        if !(abs(parsed.time.timeIntervalSince1970) < 400_000_000_000) { fatalError("a time no RFC 3339 text gives was accepted") }
        _ = Validation.timeProblem(parsed.time, now: ClockTime(reading: Date(timeIntervalSince1970: 1_795_194_000)))
    }
    return 0
}
