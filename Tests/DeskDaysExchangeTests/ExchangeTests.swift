import Foundation
import DeskDaysCore
import DeskDaysExchange
import Testing

private func day(_ text: String) -> LocalDate { LocalDate(text)! }

@Test(arguments: [Exchange.Format.csv, .json])
func exportThenImportKeepsStatusesAndNotes(format: Exchange.Format) throws {
    let days = [
        ExchangeDay(date: day("2026-11-16"), workday: true, status: .travel, origin: .manual, sources: [.manual],
                    note: "Client, \"Paris\"\nday two"),
        ExchangeDay(date: day("2026-11-17"), workday: true, status: .office, origin: .automatic, sources: [.nfc, .wifi]),
        ExchangeDay(date: day("2026-11-18"), workday: true, status: nil, origin: nil, sources: []),
    ]
    let text = try Exchange.export(days, format: format, now: Date(timeIntervalSince1970: 1_795_000_000))
    let records = try Exchange.parseImport(text, file: "x", horizon: day("2030-01-01"))
    #expect(records.map(\.date) == [day("2026-11-16"), day("2026-11-17")])
    #expect(records.map(\.status) == [.travel, .office])
    #expect(records.first?.note == "Client, \"Paris\"\nday two")
}

@Test func icsAllDayEventsBecomeRecords() throws {
    let text = """
    BEGIN:VCALENDAR
    BEGIN:VEVENT
    DTSTART;VALUE=DATE:20261123
    DTEND;VALUE=DATE:20261125
    SUMMARY:Annual leave
    END:VEVENT
    BEGIN:VEVENT
    DTSTART:20261126T090000Z
    SUMMARY:Office (a meeting, not a day)
    END:VEVENT
    BEGIN:VEVENT
    DTSTART;VALUE=DATE:20261127
    SUMMARY:WFH
    END:VEVENT
    END:VCALENDAR
    """
    let records = try Exchange.parseImport(text, file: "cal.ics", horizon: day("2030-01-01"))
    #expect(records.map(\.date) == [day("2026-11-23"), day("2026-11-24"), day("2026-11-27")])
    #expect(records.map(\.status) == [.vacation, .vacation, .remote])
}

@Test func anUnnamedEventIsAnErrorWithItsLine() {
    let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20261123\nSUMMARY:Team lunch\nEND:VEVENT\nEND:VCALENDAR\n"
    #expect(throws: ImportError.self) { try Exchange.parseImport(text, file: "cal.ics", horizon: day("2030-01-01")) }
    do {
        _ = try Exchange.parseImport(text, file: "cal.ics", horizon: day("2030-01-01"))
    } catch {
        #expect(error.line == 2)
        #expect(error.description.contains("Team lunch"))
    }
}

@Test(arguments: [
    ("date,status\n2026-13-01,office\n", 2),
    ("when,what\n2026-11-01,office\n", 1),
    ("date,status\n2026-11-02,office\n2026-11-03,beach\n", 3),
])
func badCSVNamesTheLine(text: String, line: Int) {
    do {
        _ = try Exchange.parseImport(text, file: "f.csv", horizon: day("2030-01-01"))
        Issue.record("accepted bad CSV")
    } catch {
        #expect(error.line == line, "\(error)")
    }
}

@Test func badJSONIsOneClearError() {
    #expect(throws: ImportError.self) {
        try Exchange.parseImport("[{\"date\": 5}]", file: "f.json", horizon: day("2030-01-01"))
    }
}
