import Localization
import DeskDaysCore
@testable import DeskDaysReports
import Foundation
import Testing

/// Names, widths, directions and digits in the six languages DeskDays has
/// catalogs for ("On the desktop"): what ICU's data gives each
/// locale, drawn so that no two weekdays, boxes or digit systems collide.
@Suite struct ScriptTests {
    static let locales = ["de_DE", "fr_FR", "es_ES", "pt_BR", "ja_JP", "ar_EG", "ar", "en_US"]

    /// The seven calendar headers differ in every language (pt_BR's
    /// two-letter cuts made Monday and Friday both `se`), and fit the
    /// terminal calendar's columns.
    @Test(arguments: locales)
    func weekdayHeadersAreDistinct(_ identifier: String) {
        let locale = ReportLocale(identifier: identifier)
        let headers = Weekday.allCases.map(locale.weekdayHeader)
        #expect(Set(headers).count == 7, "\(identifier): \(headers)")
        #expect(headers.allSatisfy { !$0.isEmpty && Localization.displayWidth($0) <= 3 }, "\(identifier): \(headers)")
    }

    /// The neutral locale's headers come from the catalogs: distinct in each.
    @Test func catalogWeekdayHeadersAreDistinct() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("po")
        let keys = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]
        for language in ["de", "fr", "es", "pt_BR", "ja", "ar"] {
            let catalog = try String(contentsOf: folder.appendingPathComponent("\(language).po"), encoding: .utf8)
            let lines = catalog.components(separatedBy: "\n")
            let headers = keys.map { key -> String in
                guard let at = lines.firstIndex(of: "msgid \"\(key)\""), at + 1 < lines.count else { return key }
                return lines[at + 1]
            }
            #expect(Set(headers).count == 7, "\(language): \(headers)")
        }
    }

    /// The calendar's header line keeps each name over its column of days.
    @Test func terminalHeadersAlignWithTheDays() {
        let data = Scenarios.workedExample()
        for identifier in ["pt_BR", "ja_JP", "de_DE"] {
            let calendar = TerminalCalendar(data: data, locale: ReportLocale(identifier: identifier), colour: false)
            let lines = calendar.renderMonth(LocalDate("2026-11-01")!).components(separatedBy: "\n")
            #expect(Localization.displayWidth(lines[1]) <= TerminalCalendar.cellWidth * 7, "\(identifier): \(lines[1])")
            #expect(lines[1].split(separator: " ").count == 7, "\(identifier): \(lines[1])")
        }
    }

    static let arabic = ReportLocale(time: Locale(identifier: "ar_EG"), numbers: Locale(identifier: "ar_EG"), messages: "ar")

    static func xs(_ pattern: String, in svg: String) -> [Double] {
        let regex = try! NSRegularExpression(pattern: pattern)
        let string = svg as NSString
        return regex.matches(in: svg, range: NSRange(location: 0, length: string.length)).map {
            Double(string.substring(with: $0.range(at: 1)))!
        }
    }

    /// The heatmap in Arabic: the week's first day in the rightmost column,
    /// the day numbers in the locale's digits, the chart itself `rtl`.
    @Test func arabicHeatmapStartsOnTheRight() {
        let data = Scenarios.workedExample()
        let english = CalendarHeatmap(data: data, locale: ReportLocale(identifier: "en_GB")).svg(standalone: false)
        let arabic = CalendarHeatmap(data: data, locale: Self.arabic).svg(standalone: false)
        #expect(arabic.hasPrefix("<svg direction=\"rtl\"") && english.hasPrefix("<svg direction=\"ltr\""))
        let header = #"<text class="muted" x="([0-9.]+)" y="[0-9.]+" text-anchor="middle" font-size="10">"#
        let left = Self.xs(header, in: english), right = Self.xs(header, in: arabic)
        #expect(left.count == 21 && right.count == 21, "three months of seven headers")
        for month in 0..<3 {
            let first = month * 7, last = month * 7 + 6
            #expect(left[first] < left[last], "English: Monday on the left")
            #expect(right[first] > right[last], "Arabic: Monday on the right")
        }
        // The first month is the rightmost one.
        #expect(right[0] > right[7] && right[7] > right[14])
        let days = Self.all(#"<text class="day-num"[^>]*>([^<]*)</text>"#, in: arabic)
        #expect(days.count == 92 && days.allSatisfy { $0.range(of: "[0-9]", options: .regularExpression) == nil }, "\(days.prefix(3))")
        #expect(days.contains("١٨"))
    }

    /// The burndown in Arabic: its y axis on the right, time running leftwards.
    @Test func arabicBurndownIsMirrored() {
        let data = Scenarios.workedExample()
        let svg = BurndownChart(data: data, locale: Self.arabic).svg()
        #expect(svg.contains(" direction=\"rtl\""))
        let axis = Self.xs(#"<text class="muted" x="([0-9.]+)" y="[0-9.]+" text-anchor="end">"#, in: svg)
        #expect(!axis.isEmpty && axis.allSatisfy { $0 > Double(BurndownChart.width) - 56 }, "\(axis)")
        // The actual line starts (day 0, value 0) at the right edge of the plot.
        let actual = Self.all(#"<polyline class="actual" points="([^"]*)""#, in: svg).first ?? ""
        let start = Double(actual.split(separator: ",").first ?? "") ?? 0
        #expect(start == Double(BurndownChart.width) - 56, "\(actual.prefix(40))")
        // Without a right-to-left language the chart is what it was (the golden files hold it).
        #expect(!BurndownChart(data: data, locale: ReportLocale(identifier: "en_GB")).svg().contains("direction="))
    }

    /// The pending marker is never a dot beside Arabic-Indic digits (`·` reads as `٠`).
    @Test func pendingIsNotConfusedWithZero() {
        #expect(DayKind.pending.symbol(Self.arabic) != "·")
        #expect(!"٠١٢٣٤٥٦٧٨٩".contains(DayKind.pending.symbol(Self.arabic)))
        #expect(Set(DayKind.allCases.map { $0.symbol(Self.arabic) }).count == DayKind.allCases.count)
        #expect(DayKind.pending.symbol(ReportLocale(identifier: "en_GB")) == "·")
    }

    /// One digit system: dates follow the number locale's digits.
    @Test func datesAndNumbersShareTheirDigits() {
        let date = LocalDate("2026-11-18")!
        #expect(Self.arabic.date(date).range(of: "[0-9]", options: .regularExpression) == nil, "\(Self.arabic.date(date))")
        let latin = ReportLocale(time: Locale(identifier: "ar_EG"), numbers: Locale(identifier: "en_US"), messages: "ar")
        #expect(latin.date(date).contains("18") && latin.date(date).contains("2026"), "\(latin.date(date))")
        #expect(Self.arabic.plain(2026) == "٢٠٢٦" && Self.arabic.latinDigits == false)
    }

    static func all(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        let string = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: string.length)).map { string.substring(with: $0.range(at: 1)) }
    }
}
