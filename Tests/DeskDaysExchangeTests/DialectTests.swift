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
