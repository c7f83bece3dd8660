import DeskDaysCore
@testable import DeskDaysReports
import Foundation
import Testing

/// Human output in the user's language and formats, JSON unchanged, and
/// colour only where it belongs. (These processes run under LC_ALL=C, so
/// messages are English; the catalogs' own tests run the CLI in German.)
@Suite struct ReportLanguageTests {
    static let neutral = ReportLocale(environment: ["LC_ALL": "C"])
    static let german = ReportLocale(identifier: "de_DE")

    static func policy(_ period: PeriodKind, fiscal: Int = 1, rolling: Int = 12) -> Policy {
        var policy = Policy(timeZone: TimeZone(identifier: "UTC")!)
        policy.period = period
        policy.fiscalYearStartMonth = fiscal
        policy.rollingWeeks = rolling
        return policy
    }

    /// In the C locale a period is named exactly as its JSON label (which
    /// never changes): the human name is built from the same values.
    @Test(arguments: [(PeriodKind.week, 1, 12), (.month, 1, 12), (.quarter, 1, 12), (.quarter, 4, 12), (.quarter, 10, 12),
                      (.year, 1, 12), (.year, 4, 12), (.rolling, 1, 12), (.rolling, 1, 4)])
    func neutralPeriodNamesAreTheJSONLabels(_ kind: PeriodKind, _ fiscal: Int, _ rolling: Int) {
        let policy = Self.policy(kind, fiscal: fiscal, rolling: rolling)
        for date in ["2026-01-01", "2026-03-31", "2026-11-18", "2028-02-29"].map({ LocalDate($0)! }) {
            let period = policy.period(kind, containing: date)
            #expect(period.name != nil)
            #expect(Self.neutral.periodLabel(period) == period.label)
        }
    }

    /// The neutral locale's names are what ICU's English would say (so C
    /// output keeps its bytes), but come from the catalog.
    @Test func neutralNamesMatchICUEnglish() {
        let icu = ReportLocale(identifier: "en_US")
        for weekday in Weekday.allCases {
            #expect(Self.neutral.weekdayName(weekday) == icu.weekdayName(weekday))
            #expect(Self.neutral.weekdayHeader(weekday) == icu.weekdayHeader(weekday))
        }
        for month in 1...12 {
            let date = LocalDate(year: 2026, month: month, day: 1)!
            #expect(Self.neutral.monthTitle(date) == icu.monthTitle(date))
        }
    }

    @Test func periodNamesFollowLCTime() {
        let date = LocalDate("2026-10-14")!
        #expect(Self.german.periodLabel(Self.policy(.month).period(.month, containing: date)) == "Oktober 2026")
        let week = Self.german.periodLabel(Self.policy(.week).period(.week, containing: date))
        #expect(week.contains("12.10.2026") || week.contains("12. Okt. 2026"), "\(week)")
        // A hand-made period shows its own label.
        #expect(Self.german.periodLabel(Period(kind: .month, span: DateSpan(date, date), label: "Custom")) == "Custom")
    }

    /// The English status line and report under C are what they always were.
    @Test func neutralStatusLineAndText() {
        let report = Scenarios.workedExample().report
        #expect(Render.statusLine(report, locale: Self.neutral)
                == "Q4 2026: behind — 20 of 35 office days, 15 more office days needed, 23 workdays left.")
        let text = Render.text(report, locale: Self.neutral)
        #expect(text.hasPrefix("Q4 2026 (2026-10-01 to 2026-12-31), today 2026-11-18\nStatus: behind\nTarget: 60 % of eligible workdays\n"))
        #expect(text.contains("Office share so far: 58.8 %"))
        #expect(streakLine(Streaks(current: 1, longest: 4), locale: Self.neutral)
                == "Streak: 1 compliant week in a row (longest 4).")
    }

    @Test func germanFiguresInTheStatusLineAndText() {
        var report = Scenarios.workedExample().report
        report.required = 1234
        #expect(Render.statusLine(report, locale: Self.german).contains("20 of 1.234 office days"))
        let text = Render.text(report, locale: Self.german)
        #expect(text.contains("Office share so far: 58,8"))
        #expect(text.contains("(01.10.2026 to 31.12.2026)") || text.contains("(1. Okt. 2026 to 31. Dez. 2026)"), "\(text)")
    }

    /// JSON is the same bytes in every locale: the period keeps its English label.
    @Test func jsonIgnoresTheLocale() throws {
        let data = Scenarios.workedExample()
        var report = data.report
        report.period = Self.policy(.month).period(.month, containing: LocalDate("2026-10-14")!)
        let json = try Render.json(ReportWithStreaks(report: report, streaks: data.streaks!))
        #expect(json.contains("\"label\" : \"October 2026\""))
        #expect(try Render.jsonLine(report) == Render.jsonLine(report))
    }

    @Test(arguments: [
        ([:], true, true), (["NO_COLOR": "1"], true, false), (["NO_COLOR": ""], true, true),
        (["TERM": "xterm"], false, false), (["NO_COLOR": "yes"], false, false),
    ])
    func colourOnlyOnATerminalWithoutNoColor(_ environment: [String: String], _ terminal: Bool, _ expected: Bool) {
        #expect(TerminalCalendar.wantsColour(environment: environment, outputIsTerminal: terminal) == expected)
    }

    /// Without colour every kind still has its own symbol, in the grid and the legend.
    @Test func symbolsTellEveryKindApart() {
        let symbols = DayKind.allCases.map(\.symbol)
        #expect(Set(symbols).count == symbols.count)
        let legend = TerminalCalendar(data: Scenarios.workedExample(), locale: Self.neutral, colour: false).legend()
        for kind in DayKind.legendOrder { #expect(legend.contains("\(kind.symbol) \(kind.label)")) }
    }

    /// `<html lang>` follows the first language asked for that has a catalog.
    @Test func messageLanguageFromTheCatalogs() throws {
        let folder = try Tools.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for language in ["ar", "fr", "pt_BR"] {
            let directory = folder.appendingPathComponent("\(language)/LC_MESSAGES")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: directory.appendingPathComponent("deskdays.mo").path, contents: Data())
        }
        func language(_ variables: [String: String]) -> String {
            var environment = variables
            environment["DESKDAYS_LOCALEDIR"] = folder.path
            return ReportLocale(environment: environment).messageLanguage
        }
        #expect(language(["LANG": "ar_EG.UTF-8"]) == "ar")
        #expect(language(["LANG": "pt_BR.UTF-8"]) == "pt-BR")
        #expect(language(["LANG": "de_DE.UTF-8", "LANGUAGE": "de:fr"]) == "fr")
        #expect(language(["LANG": "ar_EG.UTF-8", "LC_ALL": "C"]) == "en")
        #expect(language(["LANG": "xx_YY.UTF-8"]) == "en")
        #expect(language([:]) == "en")
        #expect(ReportLocale(identifier: "ar_EG").messageLanguage == "en", "a fixed locale for tests speaks English")
        let rtl = ["ar", "he", "fa", "ur"].map { ReportLocale(time: Locale(identifier: "en"), numbers: Locale(identifier: "en"), messages: $0) }
        #expect(rtl.allSatisfy { $0.textDirection == "rtl" })
        #expect(["en", "de", "ja", "pt-BR"].allSatisfy {
            ReportLocale(time: Locale(identifier: "en"), numbers: Locale(identifier: "en"), messages: $0).textDirection == "ltr"
        })
    }
}
