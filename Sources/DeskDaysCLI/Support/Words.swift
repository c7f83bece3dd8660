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
    static func origin(_ origin: Origin) -> String {
        switch origin {
        case .manual: tr("manual")
        case .automatic: tr("automatic")
        case .import: tr("import")
        case .fallback: tr("fallback")
        case .calendar: tr("calendar")
        }
    }

    /// A source as a word: the kinds of hardware keep their names (nfc,
    /// qr, wifi, gps, wired); the others are words of the language.
    static func source(_ source: Source) -> String {
        switch source {
        case .manual: tr("manual")
        case .import: tr("import")
        case .fallback: tr("fallback")
        case .calendar: tr("calendar")
        case .external: tr("external")
        case .nfc, .qr, .wifi, .gps, .wired: source.rawValue
        }
    }

    /// A removal as the database keeps it ("office record", "gps check-in,
    /// rule \"hq\"": the words of the sync journal and the socket's `removed`
    /// list, the same on every device) in the user's language; any other
    /// text as it was stored.
    static func removedEntry(_ entry: String) -> String {
        if entry.hasSuffix(" record"), let kept = AttendanceStatus(rawValue: String(entry.dropLast(7))) {
            return tr("\(status(kept)) record")
        }
        guard let range = entry.range(of: " check-in"), let kind = Source(rawValue: String(entry[..<range.lowerBound])) else {
            return entry
        }
        let rest = entry[range.upperBound...]
        if rest.isEmpty { return tr("\(source(kind)) check-in") }
        let prefix = ", rule \""
        guard rest.hasPrefix(prefix), rest.hasSuffix("\""), rest.count > prefix.count else { return entry }
        return tr("\(source(kind)) check-in, rule \"\(rest.dropFirst(prefix.count).dropLast())\"")
    }

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
        guard let mark = locale.numberLocale.decimalSeparator, mark != "." else { return plain }
        return plain.replacingOccurrences(of: ".", with: mark)
    }

    /// Whether `locale` is the neutral English of `C`/`POSIX` (unset variables).
    static func isNeutral(_ locale: ReportLocale) -> Bool {
        locale.timeLocale.identifier == "en_US_POSIX"
    }
}
