import DeskDaysCore
import Foundation
import ICal
import Testing

func day(_ text: String) -> LocalDate { LocalDate(text)! }

/// All-day events from iCalendar text through libical (holiday feeds,
/// `.ics` imports, the vdir), and the documents `export --format ics` writes.
@Suite struct ICalendarTests {
    static let horizon = day("2030-12-31")

    /// A calendar with CRLF line ends around the given event lines.
    static func calendar(_ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"] + lines + ["END:VCALENDAR"])
            .joined(separator: "\r\n") + "\r\n"
    }

    static func event(_ lines: String...) -> [String] { ["BEGIN:VEVENT"] + lines + ["END:VEVENT"] }

    static func dates(_ text: String, horizon: LocalDate = horizon) throws -> [String] {
        try ICalendar.read(text, through: horizon).events.flatMap { event in event.dates.map { "\($0) \(event.summary)" } }
    }

    /// The error reading `text` gives (nil: none).
    static func failure(_ text: String, horizon: LocalDate = horizon) -> ICalendar.Unreadable? {
        do {
            _ = try ICalendar.read(text, through: horizon)
            return nil
        } catch {
            return error
        }
    }

    @Test func singleDayWithExclusiveEnd() throws {
        let text = Self.calendar(Self.event("UID:1", "DTSTART;VALUE=DATE:20261225", "DTEND;VALUE=DATE:20261226",
                                            "SUMMARY:Christmas Day"))
        let events = try ICalendar.read(text, through: Self.horizon).events
        #expect(events == [ICalendar.Event(starts: [Int32(day("2026-12-25").dayNumber)], extraDays: 0,
                                           summary: "Christmas Day", uid: "1", line: 4)])
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

    /// A rule, a horizon and the dates it must expand to.
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
        // Values libical cannot hold never reach it or trapping arithmetic: a huge interval ends the repetition,
        .init(start: "20260101", rule: "RRULE:FREQ=YEARLY;INTERVAL=9223372036854775807", dates: ["2026-01-01"]),
        .init(start: "20260101", rule: "RRULE:FREQ=YEARLY;INTERVAL=9223372036854775806;COUNT=9223372036854775807",
              dates: ["2026-01-01"]),
        .init(start: "20260101", rule: "RRULE:FREQ=MONTHLY;INTERVAL=99999999999999999999", dates: ["2026-01-01"]),
        // a huge count the horizon.
        .init(start: "20260101", rule: "RRULE:FREQ=YEARLY;COUNT=9223372036854775807", horizon: "2027-06-30",
              dates: ["2026-01-01", "2027-01-01"]),
        .init(start: "20260101", rule: "RRULE:FREQ=YEARLY;INTERVAL=3;UNTIL=99991231", dates: ["2026-01-01", "2029-01-01"]),
        // Any repetition libical knows, not only yearly ones.
        .init(start: "20261224", rule: "RRULE:FREQ=WEEKLY;COUNT=2", dates: ["2026-12-24", "2026-12-31"]),
        .init(start: "20261130", rule: "RRULE:FREQ=MONTHLY;BYDAY=-1MO;COUNT=3", dates: ["2026-11-30", "2026-12-28", "2027-01-25"]),
        // Dates before 1990 are not read: a rule from year 1 gives its dates from 1990 on.
        .init(start: "00010101", rule: "RRULE:FREQ=YEARLY", horizon: "1991-06-30", dates: ["1990-01-01", "1991-01-01"]),
    ]

    @Test(arguments: ruleCases)
    func rules(_ c: RuleCase) throws {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:\(c.start)", c.rule, "SUMMARY:H"))
        #expect(try Self.dates(text, horizon: day(c.horizon)) == c.dates.map { "\($0) H" })
    }

    /// Whatever horizon is asked for, no date after 2099-12-31 is read.
    @Test func noDateAfter2099() throws {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:20981231", "RRULE:FREQ=YEARLY", "SUMMARY:H"))
        let dates = try ICalendar.read(text, through: LocalDate(year: 2200, month: 1, day: 1)!).events.flatMap(\.dates)
        #expect(dates == [day("2098-12-31"), day("2099-12-31")])
    }

    @Test func multiDayYearlyEvent() throws {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:20261224", "DTEND;VALUE=DATE:20261226",
                                            "RRULE:FREQ=YEARLY;COUNT=2", "SUMMARY:Xmas"))
        #expect(try Self.dates(text) == ["2026-12-24 Xmas", "2026-12-25 Xmas", "2027-12-24 Xmas", "2027-12-25 Xmas"])
    }

    /// RDATE adds dates, EXDATE removes them.
    @Test func rdateAndExdate() throws {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:20261102", "RRULE:FREQ=WEEKLY;COUNT=3",
                                            "EXDATE;VALUE=DATE:20261109", "RDATE;VALUE=DATE:20261104", "SUMMARY:R"))
        #expect(try Self.dates(text) == ["2026-11-02 R", "2026-11-04 R", "2026-11-16 R"])
    }

    /// A repetition value that is no positive whole number is an error naming the RRULE's line.
    @Test(arguments: ["INTERVAL=0", "INTERVAL=-1", "INTERVAL=x", "COUNT=0", "COUNT=-5", "COUNT=three"])
    func badRepetitionValuesNameTheLine(part: String) {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:20260101", "RRULE:FREQ=YEARLY;\(part)", "SUMMARY:H"))
        let error = Self.failure(text)
        #expect(error?.line == 6)
        #expect(error?.reason.contains(part) == true, "\(String(describing: error))")
    }

    /// Rules that would never end or never move on are bounded, and named.
    @Test(arguments: [
        // More than 10,000 dates within the dates read.
        ("20000101", "RRULE:FREQ=DAILY", "2030-12-31", "10000"),
        // The same date again and again (seconds on a date).
        ("20261003", "RRULE:FREQ=SECONDLY", "2030-12-31", "100000"),
        // An interval of days libical cannot hold, and which would reach 2079.
        ("19900101", "RRULE:FREQ=DAILY;INTERVAL=32768", "2099-12-31", "32767"),
    ])
    func endlessRulesAreNamed(start: String, rule: String, horizon: String, bound: String) {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:\(start)", rule, "SUMMARY:H"))
        let error = Self.failure(text, horizon: day(horizon))
        #expect(error?.line == 6)
        #expect(error?.reason.contains(bound) == true, "\(String(describing: error))")
    }

    /// A document that would expand to more than `maxDays` dates is refused, not held in memory.
    @Test func tooManyDaysIsAnError() {
        let long = Self.event("DTSTART;VALUE=DATE:20260101", "DTEND;VALUE=DATE:20261231", "RRULE:FREQ=YEARLY;COUNT=5", "SUMMARY:Y")
        let text = Self.calendar(Array(repeating: long, count: ICalendar.maxDays / (5 * 364) + 1).flatMap { $0 })
        #expect(Self.failure(text)?.reason.contains("\(ICalendar.maxDays)") == true)
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
        let error = Self.failure(lines.joined(separator: "\r\n"))
        #expect(error?.line == 2)
        #expect(error?.reason.contains("END:VEVENT") == true)
    }

    /// A file cut short (no END:VCALENDAR), or another component left open,
    /// is named by the line of the BEGIN that is never closed.
    @Test(arguments: [
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20261003", "SUMMARY:A", "END:VEVENT"], 1, "VCALENDAR"),
        (["BEGIN:VCALENDAR", "BEGIN:VTODO", "SUMMARY:T", "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20261003", "END:VEVENT",
          "END:VCALENDAR"], 2, "VTODO"),
    ])
    func cutShortNamesTheOpenComponent(lines: [String], line: Int, name: String) {
        let error = Self.failure(lines.joined(separator: "\r\n") + "\r\n")
        #expect(error?.line == line && error?.reason.contains("END:\(name)") == true, "\(String(describing: error))")
    }

    /// A multi-day event across 1 January 1990 gives its days from 1990 on.
    @Test func anEventAcross1990GivesItsDaysFrom1990() throws {
        let text = Self.calendar(Self.event("DTSTART;VALUE=DATE:19891230", "DTEND;VALUE=DATE:19900103", "SUMMARY:C"))
        #expect(try Self.dates(text) == ["1990-01-01 C", "1990-01-02 C"])
    }

    /// Text that is no calendar is one sentence saying so.
    @Test(arguments: ["Christmas,2026-12-25\n", "", "BEGIN:VTODO\r\nSUMMARY:x\r\nEND:VTODO\r\n"])
    func notACalendar(text: String) {
        #expect(Self.failure(text)?.reason.contains("not an iCalendar file") == true)
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
        let events = try ICalendar.read(text, through: Self.horizon).events
        #expect(events.flatMap(\.dates) == [day("2026-10-03")])
        #expect(events.map(\.summary) == ["Tag der Deutschen Einheit"])
        #expect(events.map(\.description) == ["long text"])
        #expect(events.map(\.line) == [4])
    }

    @Test func plainNewlinesAndEscapes() throws {
        let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20270101\nSUMMARY:New Year\\, Day\\; \\\\1\\n2\n"
            + "END:VEVENT\nEND:VCALENDAR\n"
        #expect(try Self.dates(text) == ["2027-01-01 New Year, Day; \\1\n2"])
    }

    /// Timed events are not days: counted and skipped, whatever their zone; all-day events around them are kept.
    @Test func timedEventsAreSkipped() throws {
        let text = Self.calendar(
            Self.event("DTSTART:20261225T090000Z", "DTEND:20261225T100000Z", "SUMMARY:Meeting")
                + Self.event("DTSTART;TZID=Europe/Berlin:20261226T090000", "SUMMARY:Brunch")
                + Self.event("DTSTART;VALUE=DATE-TIME:20261227T090000", "SUMMARY:Call")
                + Self.event("DTSTART;VALUE=DATE:20261231", "SUMMARY:Eve"))
        let document = try ICalendar.read(text, through: Self.horizon)
        #expect(document.events.flatMap(\.dates) == [day("2026-12-31")] && document.timedEvents == 3)
        // Their lines are still the events' own.
        #expect(document.events.map(\.line) == [17])
    }

    /// DTSTART lines outside a VEVENT (a VTIMEZONE's) are not events.
    @Test func timeZoneBlocksAreIgnored() throws {
        let text = Self.calendar(["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:STANDARD", "DTSTART:19701025T030000",
                                  "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE"]
                                 + Self.event("DTSTART;VALUE=DATE:20261003", "SUMMARY:Unity"))
        #expect(try Self.dates(text) == ["2026-10-03 Unity"])
    }

    /// A DTSTART that is no date is an error naming its line (counted in the raw text, folds included).
    @Test(arguments: ["DTSTART:tomorrow", "DTSTART;VALUE=DATE:", "DTSTART;VALUE=DATE:100000101"])
    func badStartNamesTheLine(bad: String) {
        let text = Self.calendar(["BEGIN:VEVENT", "SUMMARY:Long", " er", bad, "END:VEVENT"])
        let error = Self.failure(text)
        #expect(error?.line == 7)
        #expect(error?.description.hasPrefix("line 7: DTSTART") == true, "\(String(describing: error))")
    }

    /// An event without DTSTART is named by its BEGIN:VEVENT.
    @Test func missingStartNamesTheEvent() {
        let error = Self.failure(Self.calendar(Self.event("SUMMARY:Nothing")))
        #expect(error?.line == 4 && error?.reason.contains("DTSTART") == true, "\(String(describing: error))")
    }

    // MARK: - Outlook

    static let outlook = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/calendar/holidays/outlook-feiertage.ics")

    /// Outlook's holiday calendar: yearly midnight-to-midnight events in
    /// `W. Europe Standard Time` are all-day on their wall-clock dates; an
    /// UNTIL written in UTC (23:00 the day before) keeps its last year; the
    /// timed event is counted, not a day.
    @Test func outlookHolidayCalendar() throws {
        let text = try String(contentsOf: Self.outlook, encoding: .utf8)
        let document = try ICalendar.read(text, from: day("2026-01-01"), through: day("2028-12-31"))
        let dates = Dictionary(grouping: document.events, by: \.summary).mapValues { $0.flatMap(\.dates).map(\.description) }
        #expect(dates["Tag der Deutschen Einheit"] == ["2026-10-03", "2027-10-03", "2028-10-03"])
        #expect(dates["Weihnachten"] == ["2026-12-25", "2026-12-26", "2027-12-25", "2027-12-26", "2028-12-25", "2028-12-26"])
        #expect(dates["Neujahr"] == ["2027-01-01", "2028-01-01"])
        #expect(dates["Tag der Arbeit"] == ["2027-05-01"])
        #expect(document.timedEvents == 1 && document.events.count == 4)
    }

    // MARK: - Writing

    @Test func exportedDocumentReadsBack() throws {
        let events = [
            ICalendar.ExportedEvent(date: day("2026-12-25"), summary: "Christmas, Day; \\ one\ntwo", uid: "a@x",
                                    description: String(repeating: "ünïcode note, ", count: 12)),
            ICalendar.ExportedEvent(date: day("2027-01-01"), summary: "New Year", uid: "b@x"),
        ]
        let text = ICalendar.document(events, productID: "-//DeskDays//EN", stamp: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//DeskDays//EN\r\nCALSCALE:GREGORIAN\r\n"), "\(text)")
        #expect(text.contains("DTSTAMP:20261118T110640Z\r\n"), "\(text)")
        #expect(text.contains("SUMMARY:Christmas\\, Day\\; \\\\ one\\ntwo\r\n"), "\(text)")
        // Folded at 75 octets, never inside a character.
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75, "\(line)") }
        #expect(text.hasSuffix("END:VCALENDAR\r\n") && text.contains("DTSTART;VALUE=DATE:20261225\r\nDTEND;VALUE=DATE:20261226\r\n"))
        let back = try ICalendar.read(text, through: Self.horizon).events
        #expect(back.flatMap(\.dates) == events.map(\.date))
        #expect(back.map(\.summary) == events.map(\.summary))
        #expect(back.map(\.uid) == ["a@x", "b@x"])
        #expect(back.map(\.description) == [String(repeating: "ünïcode note, ", count: 12).trimmingCharacters(in: .whitespaces), nil])
    }

    /// Readers on many threads at once (the agent's and a command's): one at a time inside libical, same answers.
    @Test func concurrentReadsAgree() async throws {
        let text = try String(contentsOf: Self.outlook, encoding: .utf8)
        let expected = try ICalendar.read(text, through: Self.horizon)
        let results = try await withThrowingTaskGroup(of: ICalendar.Document.self) { group in
            for _ in 0..<16 { group.addTask { try ICalendar.read(text, through: Self.horizon) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0 == expected })
    }
}
