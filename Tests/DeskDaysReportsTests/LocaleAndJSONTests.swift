import DeskDaysCore
import DeskDaysReports
import Foundation
import Testing

/// Locale-following human output, locale-free JSON, and the calendar's
/// agreement with the engine's figures.
@Suite struct LocaleAndJSONTests {
    @Test(arguments: [
        (["LANG": "de_DE.UTF-8"], "de_DE"),
        (["LANG": "de_DE.UTF-8", "LC_TIME": "fr_FR.UTF-8"], "fr_FR"),
        (["LC_ALL": "en_GB.UTF-8", "LC_TIME": "fr_FR.UTF-8"], "en_GB"),
        (["LANG": "sr_RS.UTF-8@latin"], "sr_RS"),
        (["LANG": "C"], "en_US_POSIX"),
        ([:], "en_US_POSIX"),
    ])
    func localeFromEnvironment(_ environment: [String: String], expected: String) {
        #expect(ReportLocale.locale(for: "LC_TIME", in: environment).identifier == expected)
    }

    @Test func germanDatesNumbersAndWeekdays() {
        let german = ReportLocale(identifier: "de_DE")
        let date = LocalDate("2026-11-18")!
        #expect(german.monthTitle(date) == "November 2026")
        #expect(german.date(date).contains("18."))
        #expect(german.weekdayHeader(.tuesday) == "Di")
        #expect(german.number(12345) == "12.345")
        #expect(german.percentage(0.5882).contains("58,8"))
        let calendar = TerminalCalendar(data: Scenarios.workedExample(), locale: german, colour: false).render(months: 1)
        #expect(calendar.contains(" Mo   Di   Mi   Do   Fr   Sa   So"))
        #expect(calendar.contains("58,8"))
    }

    /// The formatters are made on first use, by whichever thread asks
    /// first: many threads formatting with one fresh locale at once get the
    /// same words as one thread does.
    @Test func formattersMadeOnFirstUseAgreeAcrossThreads() async {
        let date = LocalDate("2026-11-18")!
        let expected = ReportLocale(identifier: "de_DE")
        let words = [expected.date(date), expected.number(12345), expected.percentage(0.5882), expected.monthShort(date)]
        let shared = ReportLocale(identifier: "de_DE")
        let results = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<16 {
                group.addTask { [shared.date(date), shared.number(12345), shared.percentage(0.5882), shared.monthShort(date)] }
            }
            return await group.reduce(into: [[String]]()) { $0.append($1) }
        }
        #expect(results.count == 16)
        #expect(results.allSatisfy { $0 == words })
        #expect(words[1] == "12.345")
    }

    @Test func jsonKeepsEveryReportKeyAndAddsStreaks() throws {
        let data = Scenarios.workedExample()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let plain = try JSONSerialization.jsonObject(with: encoder.encode(data.report)) as! [String: Any]
        let merged = try JSONSerialization.jsonObject(
            with: encoder.encode(ReportWithStreaks(report: data.report, streaks: data.streaks!))) as! [String: Any]
        #expect(Set(merged.keys) == Set(plain.keys).union(["streak_weeks", "longest_streak_weeks"]))
        func canonical(_ value: Any?) throws -> Data {
            try JSONSerialization.data(withJSONObject: ["v": value ?? NSNull()], options: [.sortedKeys])
        }
        for (key, value) in plain {
            #expect(try canonical(merged[key]) == canonical(value), "\(key) changed")
        }
        #expect(merged["streak_weeks"] as? Int == data.streaks!.current)
        #expect(merged["longest_streak_weeks"] as? Int == data.streaks!.longest)
    }

    @Test(arguments: ["worked", "weekly"])
    func dayKindsAgreeWithTheEngine(_ scenario: String) {
        let data = scenario == "worked" ? Scenarios.workedExample() : Scenarios.weeklySundayStart()
        var counts: [DayKind: Int] = [:]
        for date in data.period.span { counts[data.kind(date), default: 0] += 1 }
        let report = data.report
        #expect(counts[.office, default: 0] == report.office)
        #expect(counts[.remote, default: 0] == report.remote)
        #expect(counts[.unrecorded, default: 0] == report.unrecorded)
        #expect(counts[.excused, default: 0] == report.excused)
        #expect(counts[.planned, default: 0] == report.plannedOffice)
        #expect(counts[.planned, default: 0] + counts[.pending, default: 0] == report.pending)
    }

    @Test func colourOnlyWhenAsked() {
        let data = Scenarios.workedExample()
        let plain = TerminalCalendar(data: data, locale: ReportLocale(identifier: "en_GB"), colour: false).render(months: 3)
        let coloured = TerminalCalendar(data: data, locale: ReportLocale(identifier: "en_GB"), colour: true).render(months: 3)
        #expect(!plain.contains("\u{1B}["))
        #expect(coloured.contains("\u{1B}["))
        // Stripped of colour, both say the same thing.
        let stripped = coloured.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                == plain.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
    }
}
