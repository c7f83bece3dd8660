import Localization
import DeskDaysCore
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Locale-aware formatting of dates and numbers for human output.
///
/// The locale comes from the POSIX variables (`LC_ALL`, then `LC_TIME` or
/// `LC_NUMERIC`, then `LANG`); JSON never goes through here.
public struct ReportLocale: Sendable {
    public let timeLocale: Locale
    public let numberLocale: Locale
    /// The language the messages are shown in (BCP 47, "en" for English and
    /// C), for `<html lang>` and `dir`: the first language asked for that
    /// has a catalog (docs/cli.md "Languages").
    public let messageLanguage: String
    /// The formatters, made on first use: JSON never formats a date or a
    /// number for people, and making them (ICU's patterns and symbols)
    /// took 0.6 ms of every `status --format json` (docs/performance.md).
    private let formatters: LazyFormatters

    public init(time: Locale, numbers: Locale, messages: String = "en") {
        timeLocale = time
        numberLocale = numbers
        messageLanguage = messages
        formatters = LazyFormatters(time: time, numbers: numbers)
    }

    /// A fixed locale for golden files and tests.
    public init(identifier: String) {
        self.init(time: Locale(identifier: identifier), numbers: Locale(identifier: identifier))
    }

    /// The locale the user's environment asks for.
    public init(environment: [String: String]) {
        self.init(time: ReportLocale.locale(for: "LC_TIME", in: environment),
                  numbers: ReportLocale.locale(for: "LC_NUMERIC", in: environment),
                  messages: ReportLocale.messageLanguage(Localization.Environment(environment)))
    }

    /// The process's own locale, for renderings whose caller passes none.
    public static let process = ReportLocale(environment: ProcessInfo.processInfo.environment)

    /// Whether dates are written the neutral way: in the C/POSIX locale
    /// human output keeps the ISO dates it always printed (2026-11-18).
    public var isNeutral: Bool { timeLocale.identifier == "en_US_POSIX" }

    /// The language of the messages: the first language asked for
    /// (`Localization.languages`) whose catalog is installed beside the
    /// program, in `DESKDAYS_LOCALEDIR` or the system's folder; "en" when
    /// none is (the messages are then English whatever the locale says).
    public static func messageLanguage(_ environment: Localization.Environment) -> String {
        let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return Localization.catalog(environment: environment, executable: executable).language.map(bcp47) ?? "en"
    }

    /// "pt_BR" → "pt-BR"; "sr@latin" → "sr".
    static func bcp47(_ folder: String) -> String {
        let base = folder.prefix { $0 != "." && $0 != "@" }
        return base.replacingOccurrences(of: "_", with: "-")
    }

    /// Whether the messages are Chinese, Japanese or Korean (whose terminals draw ambiguous-width marks wide).
    public var eastAsian: Bool { ["zh", "ja", "ko"].contains(String(messageLanguage.prefix(2))) }

    /// `rtl` for the languages written right to left, else `ltr`.
    public var textDirection: String { Localization.isRightToLeft(messageLanguage) ? "rtl" : "ltr" }

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

    /// The Gregorian calendar in UTC, in which a date is its noon.
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    func instant(_ date: LocalDate) -> Date {
        Self.utc.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12))!
    }

    /// "18 Nov 2026", "Nov 18, 2026", "18.11.2026" … as the locale writes it.
    public func date(_ date: LocalDate) -> String {
        var text = formatters.with { [at = instant(date)] in $0.mediumDate.string(from: at) }
        // French writes the first of the month as an ordinal ("1er oct. 2026"); ICU's pattern has no such day field.
        if date.day == 1, timeLocale.language.languageCode?.identifier == "fr", text.hasPrefix("1 ") {
            text = "1er" + text.dropFirst()
        }
        return Localization.figure(text)
    }

    /// A date in a sentence, a report or a chart: ISO 8601 in the neutral
    /// locale (docs/cli.md), else as `date`.
    public func day(_ date: LocalDate) -> String { isNeutral ? Localization.figure(date.description) : self.date(date) }

    /// The number a fiscal year goes by in the user's language: the year it
    /// ends in (`year`: FY2027 runs from October 2026, as in English), or the
    /// year it starts in where that is the custom (Japanese 年度: 2026 年度
    /// starts in 2026). The catalog says which: translators of such a
    /// language translate this message as "fiscal years are named by their start".
    static func fiscalYearNumber(_ year: Int) -> Int {
        tr("fiscal years are named by their end") == "fiscal years are named by their start" ? year - 1 : year
    }

    /// The period's name in the user's language ("Week of 2026-11-16",
    /// "Oktober 2026", "Q4 2026"); JSON keeps `Period.label`, in English.
    public func periodLabel(_ period: Period) -> String {
        switch period.name {
        case .weekOf(let start): return tr("Week of \(day(start))")
        case .month(let date): return monthTitle(date)
        case .quarter(let quarter, let year, let fiscal):
            return fiscal ? Self.fiscalQuarter(quarter, plain(Self.fiscalYearNumber(year))) : Self.quarter(quarter, plain(year))
        case .year(let year, let fiscal): return fiscal ? tr("FY\(plain(Self.fiscalYearNumber(year)))") : plain(year)
        case .rolling(let weeks, let end):
            return trn("\(number(weeks)) week to \(day(end))", "\(number(weeks)) weeks to \(day(end))", weeks)
        case nil: return period.label
        }
    }

    /// "Q4 2026": a message per quarter, so a language names it in words
    /// ("الربع الرابع ٢٠٢٦") or in its own order ("2026年第4四半期").
    static func quarter(_ quarter: Int, _ year: String) -> String {
        switch quarter {
        case 1: return tr("Q1 \(figures: year)")
        case 2: return tr("Q2 \(figures: year)")
        case 3: return tr("Q3 \(figures: year)")
        default: return tr("Q4 \(figures: year)")
        }
    }

    /// "Q4 FY2027", as `quarter`.
    static func fiscalQuarter(_ quarter: Int, _ year: String) -> String {
        switch quarter {
        case 1: return tr("Q1 FY\(figures: year)")
        case 2: return tr("Q2 FY\(figures: year)")
        case 3: return tr("Q3 FY\(figures: year)")
        default: return tr("Q4 FY\(figures: year)")
        }
    }

    /// "November 2026" (in the neutral locale, the month's name from the messages' language).
    public func monthTitle(_ date: LocalDate) -> String {
        isNeutral ? Self.monthName(date.month) + " " + plain(date.year) : Localization.figure(formatters.with { [at = instant(date)] in $0.monthYear.string(from: at) })
    }

    static func monthName(_ month: Int) -> String {
        switch month {
        case 1: return tr("January")
        case 2: return tr("February")
        case 3: return tr("March")
        case 4: return tr("April")
        case 5: return tr("May")
        case 6: return tr("June")
        case 7: return tr("July")
        case 8: return tr("August")
        case 9: return tr("September")
        case 10: return tr("October")
        case 11: return tr("November")
        default: return tr("December")
        }
    }

    /// "Nov".
    public func monthShort(_ date: LocalDate) -> String { formatters.with { [at = instant(date)] in $0.shortMonth.string(from: at) } }

    /// "18 Nov".
    public func dayMonth(_ date: LocalDate) -> String { Localization.figure(formatters.with { [at = instant(date)] in $0.dayMonth.string(from: at) }) }

    /// The weekday's short standalone name ("Mon", "Di"). The neutral
    /// locale has no names of its own: they come from the messages' language.
    public func weekdayName(_ weekday: Weekday) -> String {
        if isNeutral {
            switch weekday {
            case .monday: return tr("Mon")
            case .tuesday: return tr("Tue")
            case .wednesday: return tr("Wed")
            case .thursday: return tr("Thu")
            case .friday: return tr("Fri")
            case .saturday: return tr("Sat")
            case .sunday: return tr("Sun")
            }
        }
        let symbols: [String] = formatters.with { $0.mediumDate.shortStandaloneWeekdaySymbols } ?? []
        // Foundation lists Sunday first.
        let index = weekday.rawValue % 7
        return index < symbols.count ? symbols[index] : weekday.key
    }

    /// A weekday abbreviated for calendar headers: as short as the locale's
    /// names allow while no two weekdays look alike (`weekdayHeaders`).
    public func weekdayHeader(_ weekday: Weekday) -> String {
        if isNeutral {
            switch weekday {
            case .monday: return tr("Mo")
            case .tuesday: return tr("Tu")
            case .wednesday: return tr("We")
            case .thursday: return tr("Th")
            case .friday: return tr("Fr")
            case .saturday: return tr("Sa")
            case .sunday: return tr("Su")
            }
        }
        let index = weekday.rawValue % 7
        return index < weekdayHeaders.count ? weekdayHeaders[index] : weekday.key
    }

    /// The seven headers, Sunday first, told apart: the locale's narrowest
    /// names when no two are alike (日 月 火, ح ن ث), else its short names
    /// cut to the fewest letters, two or more, that keep all seven distinct
    /// (`Mo Di`, but `seg ter qua qui sex` where two letters would make
    /// Monday and Friday both `se`).
    private var weekdayHeaders: [String] {
        let narrow: [String] = formatters.with { $0.mediumDate.veryShortStandaloneWeekdaySymbols } ?? []
        if narrow.count == 7, Set(narrow).count == 7, narrow.allSatisfy({ Localization.displayWidth($0) <= 2 }) { return narrow }
        let short: [String] = formatters.with { $0.mediumDate.shortStandaloneWeekdaySymbols } ?? []
        let names = short.map { $0.filter { $0 != "." } }
        guard names.count == 7 else { return names }
        let longest = names.map(\.count).max() ?? 2
        for letters in 2..<max(longest, 2) {
            let cut = names.map { String($0.prefix(letters)) }
            if Set(cut).count == 7 { return cut }
        }
        return names
    }

    /// A figure of the configuration (a target's value: `3`, `2.5`) as the
    /// locale writes decimals; the neutral locale writes it as configured.
    public func figure(_ value: Double) -> String {
        if isNeutral || value == value.rounded() { return value == value.rounded() ? number(Int(value)) : Localization.figure(Render.formatNumber(value)) }
        let formatter = NumberFormatter()
        formatter.locale = numberLocale
        formatter.numberStyle = .decimal
        formatter.maximumFractionDigits = 2
        return Localization.figure(formatter.string(from: NSNumber(value: value)) ?? Render.formatNumber(value))
    }

    /// An integer with the locale's digits and grouping.
    public func number(_ value: Int) -> String { Localization.figure(formatters.with { $0.integer.string(from: NSNumber(value: value)) } ?? String(value)) }

    /// Whether figures are written in the digits 0–9.
    public var latinDigits: Bool { plain(0) == "0" }

    /// An instant in a sentence, in `zone`: RFC 3339 in the neutral locale
    /// ("2026-11-16T08:30:00+01:00"), else the locale's medium date and
    /// time ("16. Nov. 2026, 08:30:00").
    public func dateTime(_ instant: Date, in zone: TimeZone) -> String {
        if isNeutral { return Localization.figure(instant.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone))) }
        return Localization.figure(formatters.with { formatters in
            formatters.mediumDateTime.timeZone = zone
            return formatters.mediumDateTime.string(from: instant)
        })
    }

    /// Items as the messages' language lists them ("a, b et c", "a、b、c",
    /// "أ و ب"): ICU's list patterns, through Foundation's list format. No
    /// list of things a person reads is joined with an English ", ".
    public func list(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.formatted(.list(type: .and).locale(Locale(identifier: messageLanguage)))
    }

    /// An integer in the locale's digits without grouping (a year, a quarter).
    public func plain(_ value: Int) -> String { Localization.figure(formatters.with { $0.digits.string(from: NSNumber(value: value)) } ?? String(value)) }

    /// A fraction as a percentage with one decimal ("58.8%", "58,8 %").
    public func percentage(_ fraction: Double) -> String {
        Localization.figure(formatters.with { $0.percent.string(from: NSNumber(value: fraction)) } ?? String(format: "%.1f%%", fraction * 100))
    }
}

/// `ReportLocale`'s formatters, made on first use by whichever thread asks
/// first, and used under their lock (ICU's formatters are not `Sendable`).
private final class LazyFormatters: Sendable {
    private let time: Locale
    private let numbers: Locale
    private let kept = Mutex<Formatters?>(nil)

    init(time: Locale, numbers: Locale) {
        self.time = time
        self.numbers = numbers
    }

    func with<T: Sendable>(_ body: (borrowing Formatters) -> T) -> T {
        kept.withLock { value -> T in
            if value == nil { value = Formatters(time: time, numbers: numbers) }
            return body(value!)
        }
    }
}

/// Date and number formatters of one locale.
private final class Formatters {
    let mediumDate: DateFormatter
    /// A date and a time of day (its time zone set by the caller, under the lock).
    let mediumDateTime: DateFormatter
    let monthYear: DateFormatter
    let shortMonth: DateFormatter
    let dayMonth: DateFormatter
    let integer: NumberFormatter
    let digits: NumberFormatter
    let percent: NumberFormatter
    let calendar: Calendar

    init(time: Locale, numbers: Locale) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        self.calendar = calendar
        // One digit system per page: dates are written in the number
        // locale's digits (`ar_EG` numbers give Arabic-Indic day numbers
        // and years, `LC_NUMERIC=C` Latin ones, whatever LC_TIME says).
        let datesLocale = Locale(identifier: time.identifier + "@numbers=" + numbers.numberingSystem.identifier)
        func dateFormatter(template: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = datesLocale
            formatter.calendar = calendar
            formatter.timeZone = calendar.timeZone
            formatter.setLocalizedDateFormatFromTemplate(template)
            return formatter
        }
        mediumDate = dateFormatter(template: "yMMMd")
        mediumDateTime = dateFormatter(template: "yMMMdjmmss")
        monthYear = dateFormatter(template: "yMMMM")
        shortMonth = dateFormatter(template: "MMM")
        dayMonth = dateFormatter(template: "dMMM")
        integer = NumberFormatter()
        integer.locale = numbers
        integer.numberStyle = .decimal
        digits = NumberFormatter()
        digits.locale = numbers
        digits.numberStyle = .none
        digits.usesGroupingSeparator = false
        percent = NumberFormatter()
        percent.locale = numbers
        percent.numberStyle = .percent
        percent.minimumFractionDigits = 1
        percent.maximumFractionDigits = 1
    }
}
