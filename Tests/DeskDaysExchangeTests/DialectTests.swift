import Foundation
import DeskDaysCore
import DeskDaysExchange
import Testing

/// CSVs that are not DeskDays' own (docs/cli.md `import`): the delimiter
/// read from the header, the date formats, a list of dates without a status
/// column, named columns, and a JSON of another shape refused in one sentence.
struct DialectTests {
    static func day(_ text: String) -> LocalDate { LocalDate(text)! }
    static let horizon = LocalDate("2030-01-01")!

    @Test(arguments: [",", ";", "\t"])
    func theDelimiterIsReadFromTheHeader(_ separator: String) throws {
        let text = ["date", "status", "note"].joined(separator: separator) + "\n"
            + ["2026-11-16", "office", "a, b; c"].joined(separator: separator).replacingOccurrences(of: "a, b; c", with: "\"a, b; c\"") + "\n"
        let records = try Exchange.parseImport(text, file: "f.csv", horizon: Self.horizon).records
        #expect(records.map(\.date) == [Self.day("2026-11-16")] && records.map(\.status) == [.office])
        #expect(records.first?.note == "a, b; c")
    }

    @Test func aGermanTimeClockExportIsAListOfOfficeDates() throws {
        let text = "Datum;Kommen;Gehen\n01.10.2026;08:00;16:00\n2.10.2026;08:10;16:05\n"
        let records = try Exchange.parseImport(text, file: "zeit.csv", horizon: Self.horizon, options: ImportOptions(status: .office)).records
        #expect(records.map(\.date) == [Self.day("2026-10-01"), Self.day("2026-10-02")])
        #expect(records.allSatisfy { $0.status == .office })
        // Without --status there is no status column: one sentence naming what is needed.
        #expect(throws: ImportError.self) { try Exchange.parseImport(text, file: "zeit.csv", horizon: Self.horizon) }
    }

    @Test func slashesNeedTheirFormatAndEachFormatReadsItsOwnDates() throws {
        let text = "date,status\n05/10/2026,office\n13/10/2026,remote\n"
        let error = #expect(throws: ImportError.self) { try Exchange.parseImport(text, file: "f.csv", horizon: Self.horizon) }
        #expect(error?.line == 2 && error?.message.contains("--date-format") == true, "\(String(describing: error))")
        let records = try Exchange.parseImport(text, file: "f.csv", horizon: Self.horizon,
                                               options: ImportOptions(dateFormat: .dayMonthSlashed)).records
        #expect(records.map(\.date) == [Self.day("2026-10-05"), Self.day("2026-10-13")])
        #expect(DateFormat.monthDaySlashed.date("10/13/2026") == Self.day("2026-10-13"))
        #expect(DateFormat.monthDaySlashed.date("13/10/2026") == nil)
        #expect(DateFormat.dotted.date("31.11.2026") == nil && DateFormat.dotted.date("1.10.2026") == nil)
        #expect(DateFormat.dottedShort.date("1.10.2026") == Self.day("2026-10-01"))
        #expect(DateFormat.iso.date("2026-1-05") == nil)
    }

    @Test func namedColumnsAreUsedAndAMissingOneIsNamed() throws {
        let text = "Tag,Ort\n2026-11-16,wfh\n2026-11-17,Office\n"
        let records = try Exchange.parseImport(text, file: "f.csv", horizon: Self.horizon,
                                               options: ImportOptions(dateColumn: "Tag", statusColumn: "Ort")).records
        #expect(records.map(\.status) == [.remote, .office])
        let error = #expect(throws: ImportError.self) {
            try Exchange.parseImport(text, file: "f.csv", horizon: Self.horizon, options: ImportOptions(dateColumn: "Tag", statusColumn: "Where"))
        }
        #expect(error?.message.contains("\"Where\"") == true, "\(String(describing: error))")
    }

    @Test(arguments: [#"{"date":"2026-11-16","status":"office"}"#, #"[{"day":"2026-11-16","where":"office"}]"#])
    func aJSONOfAnotherShapeIsRefusedNamingTheShapeExpected(_ text: String) {
        let error = #expect(throws: ImportError.self) { try Exchange.parseImport(text, file: "f.json", horizon: Self.horizon) }
        #expect(error?.message.contains(#"a list of {"date", "status"} objects"#) == true, "\(String(describing: error))")
    }

    @Test func anEmployerExportWithSemicolonsAndDottedDatesReconciles() throws {
        let export = try EmployerExport.parse("Datum;Kommen;Gehen\n01.10.2026;08:00;16:00\n02.10.2026;08:10;16:05\n",
                                              file: "zeit.csv", dateColumn: nil, policy: Policy())
        #expect(export.column == "Datum")
        #expect(Set(export.rows.keys) == [Self.day("2026-10-01"), Self.day("2026-10-02")])
        let american = try EmployerExport.parse("Date\n10/13/2026\n", file: "us.csv", dateColumn: nil, dateFormat: .monthDaySlashed,
                                                policy: Policy())
        #expect(Set(american.rows.keys) == [Self.day("2026-10-13")])
    }
}

/// Time clocks' cells (docs/cli.md "Time clocks"): the times and date-times
/// they write, read to the instant, local to the policy's timezone.
struct ClockCellTests {
    static let berlin = Policy(timeZone: TimeZone(identifier: "Europe/Berlin")!, dayStartMinutes: 4 * 60)

    static func utc(_ cell: DateCell?) -> String? {
        guard let at = cell?.instant(berlin) else { return nil }
        return ISO8601DateFormatter().string(from: at)
    }

    @Test(arguments: [
        ("13.11.2026 02:29", "DD.MM.YYYY HH:mm", "2026-11-13T01:29:00Z", "2026-11-12"),
        ("13.11.2026 14:05:09", "DD.MM.YYYY HH:mm:ss", "2026-11-13T13:05:09Z", "2026-11-13"),
        ("2026-11-13T08:00", "YYYY-MM-DD", "2026-11-13T07:00:00Z", "2026-11-13"),
        ("2026-11-13 08:00:00.250+02:00", "YYYY-MM-DD", "2026-11-13T06:00:00Z", "2026-11-13"),
        ("2026-11-13T03:00Z", "YYYY-MM-DD", "2026-11-13T03:00:00Z", "2026-11-13"),
        ("11/13/2026 2:29 PM", "MM/DD/YYYY", "2026-11-13T13:29:00Z", "2026-11-13"),
        ("11/13/2026 12:10 am", "MM/DD/YYYY", "2026-11-12T23:10:00Z", "2026-11-12"),
        ("2.7.2026 8:15", "D.M.YYYY", "2026-07-02T06:15:00Z", "2026-07-02"),
    ])
    func aDateTimeIsReadToTheInstantAndItsDay(_ text: String, format: String, instant: String, day: String) throws {
        let cell = DateFormat.cell(text, format: DateFormat(named: format))
        #expect(Self.utc(cell) == instant, "\(text)")
        #expect(cell?.day(Self.berlin).description == day, "\(text): through day_starts_at 04:00")
    }

    @Test(arguments: ["13.11.2026 25:00", "13.11.2026 8.00", "13.11.2026 08:00 XYZ", "13.11.2026 13:00 PM",
                      "13.11.2026 08:61", "2026-11-13T08", "13.11.2026 08:00:00."])
    func aCellThatIsNoDateTimeIsRefused(_ text: String) {
        #expect(DateFormat.cell(text, format: DateFormat(named: "DD.MM.YYYY")) == nil && DateFormat.cell(text, format: nil) == nil, "\(text)")
    }

    @Test func theFormatMayNameTheTime() {
        #expect(DateFormat(named: "DD.MM.YYYY HH:mm") == .dotted)
        #expect(DateFormat(named: "yyyy-mm-ddTHH:mm:ss") == .iso)
        #expect(DateFormat(named: "DD.MM.YYYY HH") == nil)
    }

    @Test func aNightShiftsDepartureIsTheNextMorning() throws {
        let cell = try #require(DateFormat.cell("12.11.2026", format: nil))
        let arrival = try #require(try cell.clockCell("22:00", column: "Kommen", after: nil, format: nil, policy: Self.berlin, file: "f", line: 2))
        let departure = try #require(try cell.clockCell("02:29", column: "Gehen", after: arrival, format: nil, policy: Self.berlin, file: "f", line: 2))
        #expect(ISO8601DateFormatter().string(from: departure) == "2026-11-13T01:29:00Z")
        #expect(Self.berlin.localDate(of: departure).description == "2026-11-12")
        #expect(try cell.clockCell(" ", column: "Gehen", after: arrival, format: nil, policy: Self.berlin, file: "f", line: 2) == nil)
        let error = #expect(throws: ImportError.self) {
            try cell.clockCell("12.11.2026 21:00", column: "Gehen", after: arrival, format: nil, policy: Self.berlin, file: "f", line: 2)
        }
        #expect(error?.description.hasPrefix("f:2:") == true)
    }
}
