import Foundation
import DeskDaysCore
import Testing

/// All-day events from iCalendar text (holiday feeds and `.ics` imports).
@Suite struct ICalendarTests {
    static let horizon = day("2030-12-31")

    /// A calendar with CRLF line ends around the given event lines.
    static func calendar(_ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + lines + ["END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
    }

    static func event(_ lines: String...) -> [String] { ["BEGIN:VEVENT"] + lines + ["END:VEVENT"] }

    static func dates(_ text: String, horizon: LocalDate = horizon) throws -> [String] {
        try ICalendar.allDayEvents(in: text, horizon: horizon).map { "\($0.date) \($0.summary)" }
    }

    @Test func singleDayWithExclusiveEnd() throws {
        let text = Self.calendar(Self.event("UID:1", "DTSTART;VALUE=DATE:20261225", "DTEND;VALUE=DATE:20261226",
                                            "SUMMARY:Christmas Day"))
        let events = try ICalendar.allDayEvents(in: text, horizon: Self.horizon)
        #expect(events == [ICalendar.Event(date: day("2026-12-25"), summary: "Christmas Day", line: 4)])
    }

    @Test func bareDateWithoutEnd() throws {
        let text = Self.calendar(Self.event("DTSTART:20261003", "SUMMARY:Unity"))
        #expect(try Self.dates(text) == ["2026-10-03 Unity"])
    }

    @Test func multiDayEventEndIsExclusive() throws {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:20261230", "DTEND;VALUE=DATE:20270102",
                                            "SUMMARY:Closure"))
        #expect(try Self.dates(text) == ["2026-12-30 Closure", "2026-12-31 Closure", "2027-01-01 Closure"])
    }

    @Test func endNotAfterStartIsOneDay() throws {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:20261230", "DTEND;VALUE=DATE:20261230",
                                            "SUMMARY:Odd"))
        #expect(try Self.dates(text) == ["2026-12-30 Odd"])
    }

    /// A yearly rule, a horizon and the dates it must expand to.
    struct RuleCase: CustomTestStringConvertible, Sendable {
        var start: String
        var rule: String
        var horizon: String = "2030-12-31"
        var dates: [String]
        var testDescription: String { "\(start) \(rule) to \(horizon)" }
    }

    static let ruleCases: [RuleCase] = [
        .init(start: "20260101", rule: "RRULE:FREQ=YEARLY;COUNT=3", dates: ["2026-01-01", "2027-01-01", "2028-01-01"]),
        .init(start: "20260704", rule: "RRULE:FREQ=YEARLY;UNTIL=20281231",
              dates: ["2026-07-04", "2027-07-04", "2028-07-04"]),
        .init(start: "20260704", rule: "RRULE:FREQ=YEARLY;UNTIL=20280704T000000Z",
              dates: ["2026-07-04", "2027-07-04", "2028-07-04"]),
        .init(start: "20260704", rule: "RRULE:FREQ=YEARLY;UNTIL=20280703",
              dates: ["2026-07-04", "2027-07-04"]),
        .init(start: "20260704", rule: "RRULE:FREQ=YEARLY;UNTIL=20351231", horizon: "2027-12-31",
              dates: ["2026-07-04", "2027-07-04"]),
        .init(start: "20261225", rule: "RRULE:FREQ=YEARLY", horizon: "2029-06-30",
              dates: ["2026-12-25", "2027-12-25", "2028-12-25"]),
        .init(start: "20261225", rule: "RRULE:FREQ=YEARLY;COUNT=10", horizon: "2028-12-25",
              dates: ["2026-12-25", "2027-12-25", "2028-12-25"]),
        .init(start: "20240229", rule: "RRULE:FREQ=YEARLY;COUNT=2", dates: ["2024-02-29", "2028-02-29"]),
        .init(start: "20260101", rule: "RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=3",
              dates: ["2026-01-01", "2028-01-01", "2030-01-01"]),
        .init(start: "20260101", rule: "rrule:freq=yearly;count=2", dates: ["2026-01-01", "2027-01-01"]),
        // Values from the file never reach trapping arithmetic: a huge interval ends the repetition.
        .init(start: "20260101", rule: "RRULE:FREQ=YEARLY;INTERVAL=9223372036854775807", dates: ["2026-01-01"]),
        .init(start: "20260101", rule: "RRULE:FREQ=YEARLY;INTERVAL=9223372036854775806;COUNT=9223372036854775807",
              dates: ["2026-01-01"]),
        .init(start: "20260101", rule: "RRULE:FREQ=YEARLY;COUNT=9223372036854775807", horizon: "2027-06-30",
              dates: ["2026-01-01", "2027-01-01"]),
        .init(start: "20260101", rule: "RRULE:FREQ=YEARLY;INTERVAL=3;UNTIL=99991231", dates: ["2026-01-01", "2029-01-01"]),
    ]

    @Test(arguments: ruleCases)
    func yearlyRules(_ c: RuleCase) throws {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:\(c.start)", c.rule, "SUMMARY:H"))
        #expect(try Self.dates(text, horizon: day(c.horizon)) == c.dates.map { "\($0) H" })
    }

    @Test func multiDayYearlyEvent() throws {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:20261224", "DTEND;VALUE=DATE:20261226",
                                            "RRULE:FREQ=YEARLY;COUNT=2", "SUMMARY:Xmas"))
        #expect(try Self.dates(text) == ["2026-12-24 Xmas", "2026-12-25 Xmas", "2027-12-24 Xmas", "2027-12-25 Xmas"])
    }

    @Test func unsupportedRepetitionIsAnError() {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:20261224", "RRULE:FREQ=WEEKLY;COUNT=2", "SUMMARY:W"))
        #expect(throws: ICalendar.ParseError.self) { try Self.dates(text) }
    }

    /// A repetition value that is no positive whole number is an error naming the event's line.
    @Test(arguments: ["INTERVAL=0", "INTERVAL=-1", "INTERVAL=x", "INTERVAL=99999999999999999999", "COUNT=0", "COUNT=-5", "COUNT=three"])
    func badRepetitionValuesNameTheLine(part: String) {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:20260101", "RRULE:FREQ=YEARLY;\(part)", "SUMMARY:H"))
        let error = #expect(throws: ICalendar.ParseError.self) { try Self.dates(text) }
        #expect(error?.line == 4)
        #expect(error?.message.contains(part) == true, "\(String(describing: error))")
    }

    /// A rule from year 1 would give two thousand dates: bounded, and named.
    @Test func tooManyOccurrencesIsAnError() {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:00010101", "RRULE:FREQ=YEARLY", "SUMMARY:H"))
        let error = #expect(throws: ICalendar.ParseError.self) { try Self.dates(text) }
        #expect(error?.line == 4)
    }

    /// A document that would expand to more than `maxDays` dates is refused, not held in memory.
    @Test func tooManyDaysIsAnError() {
        let long = Self.event("DTSTART;VALUE=DATE:20260101", "DTEND;VALUE=DATE:20261231", "RRULE:FREQ=YEARLY;COUNT=5", "SUMMARY:Y")
        let text = Self.calendar(Array(repeating: long, count: ICalendar.maxDays / (5 * 364) + 1).flatMap { $0 })
        #expect(throws: ICalendar.ParseError.self) { try Self.dates(text) }
    }

    /// A BEGIN:VEVENT without its END:VEVENT is named by its line, whether
    /// the next event, END:VCALENDAR or the end of the file comes first.
    @Test(arguments: [
        ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20261003", "SUMMARY:A",
         "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20261004", "SUMMARY:B", "END:VEVENT", "END:VCALENDAR"],
        ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20261003", "SUMMARY:A", "END:VCALENDAR"],
        ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20261003", "SUMMARY:A"],
    ])
    func missingEndNamesTheEvent(lines: [String]) {
        let error = #expect(throws: ICalendar.ParseError.self) { try Self.dates(lines.joined(separator: "\r\n")) }
        #expect(error?.line == 2)
        #expect(error?.message.contains("END:VEVENT") == true)
    }

    /// A stray END:VEVENT does not repeat the event before it.
    @Test func strayEndAddsNothing() throws {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:20261003", "SUMMARY:Unity") + ["END:VEVENT"])
        #expect(try Self.dates(text) == ["2026-10-03 Unity"])
    }

    /// RFC 5545 folding: a line break followed by one space or tab continues the line.
    @Test func foldedLines() throws {
        let text = Self.calendar(["BEGIN:VEVENT", "DTSTART;VALUE=DATE:2026", " 1003", "SUMMARY:Tag der Deutschen",
                                  "  Einheit", "DESCRIPTION:long", "\t text", "END:VEVENT"])
        let events = try ICalendar.allDayEvents(in: text, horizon: Self.horizon)
        #expect(events.map(\.date) == [day("2026-10-03")])
        #expect(events.map(\.summary) == ["Tag der Deutschen Einheit"])
        #expect(events.map(\.line) == [4])
    }

    @Test func plainNewlinesAndEscapes() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20270101\nSUMMARY:New Year\\, Day\\; \\\\1\\n2\n"
            + "END:VEVENT\nEND:VCALENDAR\n"
        #expect(try Self.dates(text) == ["2027-01-01 New Year, Day; \\1\n2"])
    }

    /// Timed events are not days: skipped, whatever their zone; all-day events around them are kept.
    @Test func timedEventsAreSkipped() throws {
        let text = Self.calendar(
            Self.event("DTSTART:20261225T090000Z", "DTEND:20261225T100000Z", "SUMMARY:Meeting")
                + Self.event("DTSTART;TZID=Europe/Berlin:20261226T090000", "SUMMARY:Brunch")
                + Self.event("DTSTART;VALUE=DATE-TIME:20261227T090000", "SUMMARY:Call")
                + Self.event("DTSTART;VALUE=DATE:20261231", "SUMMARY:Eve"))
        #expect(try Self.dates(text) == ["2026-12-31 Eve"])
    }

    /// DTSTART lines outside a VEVENT (a VTIMEZONE's) are not events.
    @Test func timeZoneBlocksAreIgnored() throws {
        let text = Self.calendar(["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000",
                                  "END:STANDARD", "END:VTIMEZONE"] + Self.event("DTSTART;VALUE=DATE:20261003",
                                                                                "SUMMARY:Unity"))
        #expect(try Self.dates(text) == ["2026-10-03 Unity"])
    }

    /// A DTSTART that is no date is an error naming its line (counted in the raw text, folds included).
    @Test(arguments: ["DTSTART;VALUE=DATE:2026-12-25", "DTSTART:tomorrow", "DTSTART;VALUE=DATE:"])
    func badStartNamesTheLine(bad: String) {
        let text = Self.calendar(["BEGIN:VEVENT", "SUMMARY:Long", " er", bad, "END:VEVENT"])
        let error = #expect(throws: ICalendar.ParseError.self) { try Self.dates(text) }
        #expect(error?.line == 7)
        #expect(error?.description.hasPrefix("line 7: DTSTART") == true)
    }

    @Test func exportedDocumentReadsBack() throws {
        let events = [
            ICalendar.ExportedEvent(date: day("2026-12-25"), summary: "Christmas, Day; \\ one\ntwo", uid: "a@x",
                                    description: String(repeating: "ünïcode note, ", count: 12)),
            ICalendar.ExportedEvent(date: day("2027-01-01"), summary: "New Year", uid: "b@x"),
        ]
        let text = ICalendar.document(events, productID: "-//DeskDays//EN", stamp: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(text.contains("DTSTAMP:20261118T110640Z"), "\(text)")
        // Folded at 75 octets, never inside a character.
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75, "\(line)") }
        #expect(text.hasSuffix("\r\n") && text.contains("DTSTART;VALUE=DATE:20261225\r\n"))
        let back = try ICalendar.allDayEvents(in: text, horizon: Self.horizon)
        #expect(back.map(\.date) == events.map(\.date))
        #expect(back.map(\.summary) == events.map(\.summary))
    }
}
