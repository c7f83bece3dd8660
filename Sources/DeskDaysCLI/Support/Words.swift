import Localization
import DeskDaysCore
import DeskDaysReports
import Foundation

/// The data model's words as human text shows them, in the user's language.
/// JSON, the configuration and what the user types keep the English names
/// (`rawValue`); only sentences and tables read by a person go through here.
enum Words {
    /// A status as a word of a sentence or a table ("office", "Büro").
    static func status(_ status: AttendanceStatus) -> String { status.word }

    /// An origin (a precedence level) as a word.
    static func origin(_ origin: Origin) -> String { origin.word }

    /// A source as a word (`Source.word`).
    static func source(_ source: Source) -> String { source.word }

    /// A removal as the database keeps it, in the user's language (`RemovedEntry.words`).
    static func removedEntry(_ entry: String) -> String { RemovedEntry.words(entry) }

    /// `text` followed by spaces up to `width` characters; never cut (a
    /// translated word may be longer than the English column).
    static func padded(_ text: String, _ width: Int) -> String {
        let columns = Localization.displayWidth(text)
        return columns >= width ? text : text + String(repeating: " ", count: width - columns)
    }

    /// A weekday's short name in the LC_TIME locale; the configuration's
    /// spelling (`mon`) in the neutral C/POSIX locale, as before.
    static func weekdayShort(_ weekday: Weekday, locale: ReportLocale) -> String {
        isNeutral(locale) ? weekday.key : locale.weekdayName(weekday)
    }

    /// A weekday's full name in the LC_TIME locale ("Wednesday", "Mittwoch").
    static func weekdayFull(_ weekday: Weekday, locale: ReportLocale) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale.timeLocale
        let names = calendar.standaloneWeekdaySymbols
        // Foundation lists Sunday first.
        let index = weekday.rawValue % 7
        return index < names.count && !isNeutral(locale) ? names[index] : weekday.fullName.capitalized
    }

    /// A decimal number (hours) with the LC_NUMERIC locale's decimal mark.
    static func decimal(_ value: Double, locale: ReportLocale) -> String {
        let plain = String(describing: value)
        guard let mark = locale.numberLocale.decimalSeparator, mark != "." else { return Localization.figures(plain) }
        return Localization.figures(plain.replacingOccurrences(of: ".", with: mark))
    }

    /// Whether `locale` is the neutral English of `C`/`POSIX` (unset variables).
    static func isNeutral(_ locale: ReportLocale) -> Bool {
        locale.timeLocale.identifier == "en_US_POSIX"
    }
}
