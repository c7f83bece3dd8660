import DeskDaysCore
import Foundation

/// Locale-aware formatting of dates and numbers for human output.
///
/// The locale comes from the POSIX variables (`LC_ALL`, then `LC_TIME` or
/// `LC_NUMERIC`, then `LANG`); JSON never goes through here.
public struct ReportLocale: @unchecked Sendable {
    // DateFormatter and NumberFormatter are not Sendable; this value owns its
    // formatters and is only read after `init`.
    public let timeLocale: Locale
    public let numberLocale: Locale
    private let mediumDate: DateFormatter
    private let monthYear: DateFormatter
    private let shortMonth: DateFormatter
    private let dayMonth: DateFormatter
    private let integer: NumberFormatter
    private let percent: NumberFormatter
    private let calendar: Calendar

    public init(time: Locale, numbers: Locale) {
        timeLocale = time
        numberLocale = numbers
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        self.calendar = calendar
        func dateFormatter(template: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = time
            formatter.calendar = calendar
            formatter.timeZone = calendar.timeZone
            formatter.setLocalizedDateFormatFromTemplate(template)
            return formatter
        }
        mediumDate = dateFormatter(template: "yMMMd")
        monthYear = dateFormatter(template: "yMMMM")
        shortMonth = dateFormatter(template: "MMM")
        dayMonth = dateFormatter(template: "dMMM")
        integer = NumberFormatter()
        integer.locale = numbers
        integer.numberStyle = .decimal
        percent = NumberFormatter()
        percent.locale = numbers
        percent.numberStyle = .percent
        percent.minimumFractionDigits = 1
        percent.maximumFractionDigits = 1
    }

    /// A fixed locale for golden files and tests.
    public init(identifier: String) {
        self.init(time: Locale(identifier: identifier), numbers: Locale(identifier: identifier))
    }

    /// The locale the user's environment asks for.
    public init(environment: [String: String]) {
        self.init(time: ReportLocale.locale(for: "LC_TIME", in: environment),
                  numbers: ReportLocale.locale(for: "LC_NUMERIC", in: environment))
    }

    /// POSIX precedence: `LC_ALL`, then the category, then `LANG`; `C` and
    /// `POSIX` mean the neutral English locale.
    public static func locale(for category: String, in environment: [String: String]) -> Locale {
        let raw = [environment["LC_ALL"], environment[category], environment["LANG"]]
            .compactMap { $0 }.first { !$0.isEmpty } ?? "C"
        // "de_DE.UTF-8@euro" → "de_DE"
        let name = String(raw.split(separator: ".").first ?? "").split(separator: "@").first.map(String.init) ?? ""
        if name.isEmpty || name == "C" || name == "POSIX" { return Locale(identifier: "en_US_POSIX") }
        return Locale(identifier: name)
    }

    /// The BCP 47 language of the time locale, for `<html lang>`.
    public var languageTag: String {
        let code = timeLocale.language.languageCode?.identifier ?? "en"
        return code.isEmpty ? "en" : code
    }

    func instant(_ date: LocalDate) -> Date {
        calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12))!
    }

    /// "18 Nov 2026", "Nov 18, 2026", "18.11.2026" … as the locale writes it.
    public func date(_ date: LocalDate) -> String { mediumDate.string(from: instant(date)) }

    /// "November 2026".
    public func monthTitle(_ date: LocalDate) -> String { monthYear.string(from: instant(date)) }

    /// "Nov".
    public func monthShort(_ date: LocalDate) -> String { shortMonth.string(from: instant(date)) }

    /// "18 Nov".
    public func dayMonth(_ date: LocalDate) -> String { dayMonth.string(from: instant(date)) }

    /// The weekday's short standalone name ("Mon", "Di").
    public func weekdayName(_ weekday: Weekday) -> String {
        let symbols = mediumDate.shortStandaloneWeekdaySymbols ?? []
        // Foundation lists Sunday first.
        let index = weekday.rawValue % 7
        return index < symbols.count ? symbols[index] : weekday.key
    }

    /// A weekday abbreviated to at most two characters, for calendar headers.
    public func weekdayHeader(_ weekday: Weekday) -> String {
        String(weekdayName(weekday).filter { $0 != "." }.prefix(2))
    }

    /// An integer with the locale's digits and grouping.
    public func number(_ value: Int) -> String { integer.string(from: NSNumber(value: value)) ?? String(value) }

    /// A fraction as a percentage with one decimal ("58.8%", "58,8 %").
    public func percentage(_ fraction: Double) -> String {
        percent.string(from: NSNumber(value: fraction)) ?? String(format: "%.1f%%", fraction * 100)
    }
}
