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
    let records = try Exchange.parseImport(text, file: "x", horizon: day("2030-01-01")).records
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
    let imported = try Exchange.parseImport(text, file: "cal.ics", horizon: day("2030-01-01"))
    #expect(imported.records.map(\.date) == [day("2026-11-23"), day("2026-11-24"), day("2026-11-27")])
    #expect(imported.records.map(\.status) == [.vacation, .vacation, .remote])
    #expect(imported.timedEvents == 1)
}

/// Dates outside those DeskDays keeps (1990 to 2099) are not read: an
/// event before 1990 gives nothing, a yearly one from 1988 its dates from
/// 1990, up to the horizon.
@Test func icsDatesOutsideTheKeptOnesAreNotRead() throws {
    let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:19850301\nSUMMARY:Sick\nEND:VEVENT\n"
        + "BEGIN:VEVENT\nDTSTART;VALUE=DATE:19880102\nRRULE:FREQ=YEARLY\nSUMMARY:Vacation\nEND:VEVENT\nEND:VCALENDAR\n"
    let imported = try Exchange.parseImport(text, file: "cal.ics", horizon: day("1992-12-31"))
    #expect(imported.records.map(\.date) == [day("1990-01-02"), day("1991-01-02"), day("1992-01-02")])
    #expect(imported.skipped.isEmpty)
}

/// A date libical cannot read is an error naming its line; nothing is imported.
@Test func icsBadDateNamesItsLine() {
    let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:Sick\nDTSTART;VALUE=DATE:100000101\nEND:VEVENT\nEND:VCALENDAR\n"
    #expect { try Exchange.parseImport(text, file: "cal.ics", horizon: day("2030-01-01")) } throws: { error in
        "\(error)".hasPrefix("cal.ics:4: DTSTART")
    }
}

/// An event whose whole title is no status word is skipped and named by
/// the line of its BEGIN:VEVENT, once however many days it covers; the
/// other events are imported.
@Test func anUnnamedEventIsSkippedAndNamedWithItsLine() throws {
    let text = "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20261123\nDTEND;VALUE=DATE:20261125\nSUMMARY:Team lunch\nEND:VEVENT\n"
        + "BEGIN:VEVENT\nDTSTART;VALUE=DATE:20261126\nSUMMARY:Out of Office: Vacation\nEND:VEVENT\n"
        + "BEGIN:VEVENT\nDTSTART;VALUE=DATE:20261127\nSUMMARY:Home Office\nEND:VEVENT\nEND:VCALENDAR\n"
    let imported = try Exchange.parseImport(text, file: "cal.ics", horizon: day("2030-01-01"))
    #expect(imported.records.map(\.date) == [day("2026-11-27")] && imported.records.map(\.status) == [.remote])
    #expect(imported.skipped.map(\.line) == [2, 7])
    #expect(imported.skipped.map(\.description).first?.hasPrefix("cal.ics:2: unknown status \"Team lunch\"") == true)
    #expect(imported.skipped.last?.description.contains("\"Out of Office: Vacation\"") == true)
}

@Test(arguments: [
    ("date,status\n2026-13-01,office\n", 2),
    ("when,what\n2026-11-01,office\n", 1),
    ("\n\nwhen,what\n2026-11-01,office\n", 3),
    ("date,status\n2026-11-02,office\n2026-11-03\n", 3),
    // An unterminated quote is named where it opens, not taken as the rest of the file.
    ("date,status,note\n2026-11-02,office,\"fine\"\n2026-11-03,office,\"oops\n2026-11-04,office,\n2026-11-05,remote,\n", 3),
    ("date,status\n2026-11-02,\"office\n", 2),
    // Text after a closing quote.
    ("date,status,note\n2026-11-02,office,\"a\"b\n", 2),
    // Lines are counted in the file, a quoted note's newlines included.
    ("date,status,note\n2026-11-02,office,\"two\nlines\"\n2026-11-31,office,\n", 4),
])
func badCSVNamesTheLine(text: String, line: Int) {
    do {
        _ = try Exchange.parseImport(text, file: "f.csv", horizon: day("2030-01-01"))
        Issue.record("accepted bad CSV")
    } catch {
        #expect(error.line == line, "\(error)")
    }
}

/// A row whose status is no known word is skipped and named with its line;
/// the others are imported. None of these phrases is an office day.
@Test func unknownStatusRowsAreSkippedAndNamed() throws {
    let text = """
    date,status,note
    2026-11-02,Out of office,"a note
    on two lines"
    2026-11-03,Office closed,
    2026-11-04,Not in office,
    2026-11-05,  Home   Office ,
    2026-11-06,office,
    2026-11-09,,

    """
    let imported = try Exchange.parseImport(text, file: "f.csv", horizon: day("2030-01-01"))
    #expect(imported.records.map(\.date) == [day("2026-11-05"), day("2026-11-06")])
    #expect(imported.records.map(\.status) == [.remote, .office])
    #expect(imported.skipped.map(\.line) == [2, 4, 5])
    #expect(imported.skipped.first?.description.hasPrefix("f.csv:2: unknown status \"Out of office\"") == true)
}

@Test func unknownStatusInJSONIsSkippedAndNamedByEntry() throws {
    let text = #"[{"date": "2026-11-02", "status": "Out of office"}, {"date": "2026-11-03", "status": "WFH"}]"#
    let imported = try Exchange.parseImport(text, file: "f.json", horizon: day("2030-01-01"))
    #expect(imported.records.map(\.status) == [.remote])
    #expect(imported.skipped.first?.description.hasPrefix("f.json: entry 1: unknown status \"Out of office\"") == true)
}

/// The employer's CSV: an unterminated quote is an error naming its line,
/// never dates silently swallowed (which `reconcile` would count as agreeing).
@Test(arguments: [
    ("Date,Door\n2026-11-02,\"Main\n2026-11-03,Main\n2026-11-04,Main\n", 2),
    ("Date,Door\n2026-11-02,Main\n\"2026-11-03,Main\n", 3),
    ("Date,Door\n2026-11-02,\"Main\"x\n", 2),
])
func employerCSVWithABrokenQuoteNamesTheLine(text: String, line: Int) {
    do {
        let export = try EmployerExport.parse(text, file: "hr.csv", dateColumn: nil, policy: Policy())
        Issue.record("accepted \(export)")
    } catch {
        #expect(error.line == line, "\(error)")
        #expect(error.description.contains("quote"), "\(error)")
    }
}

@Test func employerCSVRowsKeepTheirLines() throws {
    let text = "Date,Door\n2026-11-02,\"Main,\nEast\"\n2026-11-02,Main\nnot a date,Main\n"
    do {
        _ = try EmployerExport.parse(text, file: "hr.csv", dateColumn: nil, policy: Policy())
        Issue.record("accepted a bad date")
    } catch {
        #expect(error.line == 5, "\(error)")
    }
    let good = try EmployerExport.parse("Date,Door\n2026-11-02,\"Main, \"\"East\"\"\"\n2026-11-03,Main\n",
                                        file: "hr.csv", dateColumn: nil, policy: Policy())
    #expect(good.rows == [day("2026-11-02"): 1, day("2026-11-03"): 1])
}

/// Status words are whole values: trimmed, case-folded, whitespace collapsed.
@Test(arguments: [
    ("Office", AttendanceStatus.office), ("  in   the OFFICE ", .office), ("WFH", .remote), ("Home Office", .remote),
    ("home\toffice", .remote), ("homeoffice", .remote), ("Remote", .remote), ("PTO", .vacation),
    ("Annual leave", .vacation), ("Urlaub", .vacation), ("Büro", .office), ("TÉLÉTRAVAIL", .remote), ("在宅勤務", .remote),
])
func statusWordsAsWholeValues(text: String, status: AttendanceStatus) {
    #expect(AttendanceStatus(named: text) == status)
}

@Test(arguments: ["Out of office", "Office closed", "Not in office", "Out of Office: Vacation", "Office (a meeting)",
                  "office!", "officer", "home-office party", "", "   ", "vacation\u{0}", "sick office"])
func phrasesThatOnlyContainAStatusWordNameNone(text: String) {
    #expect(AttendanceStatus(named: text) == nil)
}

/// One table: every word names the status it is listed under (a word listed
/// under two statuses would fail here for one of them).
@Test func everySynonymNamesItsOwnStatus() {
    for (status, words) in AttendanceStatus.synonyms {
        for word in words { #expect(AttendanceStatus(named: word) == status, "\(word)") }
    }
    for status in AttendanceStatus.allCases { #expect(AttendanceStatus(named: status.rawValue) == status) }
}

/// Each catalog's own word for a status (po/LANG.po, as `days` prints it) is accepted as that status.
@Test func everyCatalogsStatusWordIsAccepted() throws {
    let po = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("po")
    let files = try FileManager.default.contentsOfDirectory(atPath: po.path).filter { $0.hasSuffix(".po") }
    #expect(files.count >= 6)
    for file in files {
        let lines = try String(contentsOf: po.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
        for status in AttendanceStatus.allCases {
            guard let index = lines.firstIndex(of: "msgid \"\(status.rawValue)\""), index + 1 < lines.count else {
                Issue.record("\(file) has no msgid \"\(status.rawValue)\"")
                continue
            }
            let translation = String(lines[index + 1].dropFirst("msgstr \"".count).dropLast())
            #expect(AttendanceStatus(named: translation) == status, "\(file): \(translation)")
        }
    }
}

@Test func badJSONIsOneClearError() {
    #expect(throws: ImportError.self) {
        try Exchange.parseImport("[{\"date\": 5}]", file: "f.json", horizon: day("2030-01-01"))
    }
}
