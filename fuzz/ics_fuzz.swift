// libFuzzer entry point over the iCalendar reader (ICalendar.read, on
// libical), built with DeskDaysCore and ICal by fuzz/ics.sh. Any text must
// give events or an Unreadable naming a line of the text (or none), never a
// trap or a hang; what it expands to stays within the bounds the reader
// promises and the dates DeskDays keeps.
import DeskDaysCore
import ICal

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICS(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let lines = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
    let horizon = LocalDate(year: 2100, month: 12, day: 31)!
    do {
        let document = try ICalendar.read(text, through: horizon)
        var days = 0
        for event in document.events {
            precondition((0...lines).contains(event.line), "an event naming no line of the text")
            precondition(event.starts.count <= ICalendar.maxOccurrences, "more dates than the bound")
            days += event.dates.count
            precondition(event.dates.allSatisfy(\.isSupported), "a date outside 1990–2099")
            _ = AttendanceStatus(named: event.summary)
        }
        precondition(days <= ICalendar.maxDays, "more days than the bound")
    } catch {
        precondition(error.line.map { (1...lines).contains($0) } ?? true, "an error naming no line of the text")
    }
    return 0
}
