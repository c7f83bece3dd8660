// libFuzzer entry point over the iCalendar reader (ICalendar.scan), built
// with DeskDaysCore by fuzz/ics.sh. Any text must give events or a
// ParseError naming a line of the text, never a trap or a hang; what it
// expands to stays within the bound the reader promises.
import DeskDaysCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICS(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let lines = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
    let horizon = LocalDate(year: 2100, month: 12, day: 31)!
    do {
        let scanned = try ICalendar.scan(text, horizon: horizon)
        precondition(scanned.events.count <= ICalendar.maxDays, "more days than the bound")
        for event in scanned.events {
            precondition((1...lines).contains(event.line), "an event naming no line of the text")
            _ = AttendanceStatus(named: event.summary)
        }
    } catch let error as ICalendar.ParseError {
        precondition((1...lines).contains(error.line), "an error naming no line of the text")
    } catch {
        fatalError("an error that is no ParseError: \(error)")
    }
    return 0
}
