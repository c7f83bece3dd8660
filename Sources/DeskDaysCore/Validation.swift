import Localization
import Foundation

/// What DeskDays accepts from outside, at every door: flags, the control
/// socket, D-Bus, import files, `DESKDAYS_NOW`, events, and the journal
/// lines other devices leave in the sync folder. One place per rule, so no
/// door is checked less than another (a line from the folder once stored
/// a date in 2150 and dragged clocks to the year 10000). Pure: "now" is an
/// argument.
public enum Validation {
    /// The latest a time from outside may be: a day after now (clocks
    /// disagree a little; a time further ahead is a mistake, or a line that
    /// would drag this device's clock along).
    public static let furthestAhead: TimeInterval = 86_400

    /// The greatest sequence number or clock counter taken from outside:
    /// far beyond any real journal (a change a second for 30,000 years),
    /// and far below where adding one to it could overflow.
    public static let greatestCount: Int64 = 1 << 40

    /// Why `time` is not a time DeskDays keeps, or nil: on a supported
    /// date (UTC) and not more than a day after `now`, this machine's clock
    /// (a time further ahead can become valid: `acceptedFrom`).
    public static func timeProblem(_ time: Date, now: ClockTime) -> String? {
        let seconds = time.timeIntervalSince1970
        let first = Double(LocalDate.supported.lowerBound.dayNumber) * 86_400
        let end = Double(LocalDate.supported.upperBound.dayNumber + 1) * 86_400
        guard seconds >= first, seconds < end else {
            return tr("it is \(LocalDate.unsupportedPhrase)")
        }
        guard time.timeIntervalSince(now.date) <= furthestAhead else {
            return tr("it is more than a day after this device's clock")
        }
        return nil
    }

    /// Whether `text` can be a write request's id (the control socket's
    /// `"request"`): 8 to 64 of `0-9`, `a-f` and `-`, as a lowercase UUID is.
    public static func isRequestID(_ text: String) -> Bool {
        (8...64).contains(text.utf8.count) && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) || $0 == 45 }
    }

    /// `timeProblem` of a time in milliseconds since 1970 (a clock time as
    /// journal lines carry it).
    public static func timeProblem(milliseconds: Int64, now: ClockTime) -> String? {
        timeProblem(Date(timeIntervalSince1970: Double(milliseconds) / 1000), now: now)
    }

    /// Why `value` is not a count (a sequence number from `lowest`, a
    /// clock counter from 0), or nil.
    public static func countProblem(_ value: Int64, from lowest: Int64) -> String? {
        (lowest...greatestCount).contains(value) ? nil : tr("it is not a number from \(lowest) to \(greatestCount)")
    }

    /// Why an arrival or departure at `time` cannot be one of `date`, or
    /// nil: `date` is the local date of `time` in some time zone (UTC−12
    /// to UTC+14) with `day_starts_at` up to 11:59, so `time` lies within
    /// the day before `date` (UTC) to the day after it.
    public static func signProblem(_ time: Date, date: LocalDate) -> String? {
        let seconds = time.timeIntervalSince1970
        let first = Double(date.dayNumber - 1) * 86_400, end = Double(date.dayNumber + 2) * 86_400
        return seconds >= first && seconds < end ? nil : tr("it is not within its date \(date)")
    }
}

extension LocalDate {
    /// The dates DeskDays accepts at every door (flags, the control socket,
    /// import files, `DESKDAYS_NOW`/`DESKDAYS_TODAY`, events, journal
    /// lines): an attendance record outside them is a typo, and one stored
    /// would break exports and reports for good (docs/cli.md, "Dates").
    public static let supported = LocalDate(year: 1990, month: 1, day: 1)!...LocalDate(year: 2099, month: 12, day: 31)!

    /// Whether `supported` contains this date.
    public var isSupported: Bool { Self.supported.contains(self) }

    /// "outside the dates DeskDays keeps (1990-01-01 to 2099-12-31)", for messages.
    public static var unsupportedPhrase: String {
        tr("outside the dates DeskDays keeps (\(supported.lowerBound) to \(supported.upperBound))")
    }
}

/// The name of a check-in rule ("hq", "desk"): the only thing about *where*
/// that is stored and logged (docs/design.md, "The privacy claim"), so it
/// must be a short name, never an SSID, a MAC, a tag UID or a payload.
public enum RuleName {
    /// At most this many characters.
    public static let maximumLength = 32

    /// Why `name` is not a rule name, or nil when it is one: 1–32 of
    /// A–Z, a–z, 0–9, `_`, `.`, `-`, not looking like a MAC address.
    public static func problem(_ name: String) -> String? {
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_.-".unicodeScalars.contains($0)
        }
        guard !name.isEmpty, name.count <= maximumLength, allowed else {
            return tr("a rule name is 1 to \(maximumLength) letters, digits, '_', '.' or '-' (such as hq or desk)")
        }
        return nil
    }
}

/// Text from outside (a device name, a note, a file name in the sync
/// folder) as a terminal line shows it: control characters escaped, so
/// that it cannot forge lines of output or send terminal escapes. `\n`,
/// `\r` and `\t` as such, every other control character, and the line and
/// paragraph separators, as `\u{1B}` (Swift's notation).
public enum Printable {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsEscape(scalar): out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
