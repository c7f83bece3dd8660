import Foundation

/// All-day events read from iCalendar text (RFC 5545): holiday calendars
/// and `deskdays import` of `.ics` files.
///
/// Only what those need: VEVENTs with a `DTSTART;VALUE=DATE` (or a bare
/// 8-digit date), an optional exclusive `DTEND`, `SUMMARY`, and the yearly
/// repetition holiday feeds use (`RRULE:FREQ=YEARLY`, with `COUNT`,
/// `INTERVAL` or `UNTIL`). Timed events are not days and are skipped.
///
/// The text may come from anyone (a downloaded holiday feed): no value in
/// it reaches trapping arithmetic, and what it expands to is bounded, so a
/// bad file is an error naming its line, never a crash or a hang.
public enum ICalendar {
    /// Most dates one repetition rule gives (a yearly holiday from 1900 to
    /// the horizon is about two hundred).
    public static let maxOccurrences = 1000
    /// Most dates a whole document gives (a holiday feed of a century, a
    /// decade of daily imports: a few thousand).
    public static let maxDays = 100_000

    public struct Event: Sendable, Equatable {
        public var date: LocalDate
        public var summary: String
        public var line: Int
        /// Its DESCRIPTION (what `export --format ics` writes the note as), if any.
        public var description: String?

        public init(date: LocalDate, summary: String, line: Int, description: String? = nil) {
            self.date = date
            self.summary = summary
            self.line = line
            self.description = description
        }
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { tr("line \(line): \(message)") }
    }

    /// Every date covered by an all-day event, expanding multi-day events and
    /// yearly rules up to `horizon` (inclusive).
    public static func allDayEvents(in text: String, horizon: LocalDate) throws -> [Event] {
        try scan(text, horizon: horizon).events
    }

    /// What a document holds: its all-day events (expanded as above) and
    /// how many timed events it has, which are not days and are skipped
    /// (an import says so, rather than dropping them silently).
    public static func scan(_ text: String, horizon: LocalDate) throws -> (events: [Event], timedEvents: Int) {
        var events: [Event] = []
        var timedEvents = 0
        var inEvent = false
        var start: LocalDate?, end: LocalDate?, summary = "", rule: [String: String] = [:], description: String?
        var startLine = 0, isTimed = false, isCalendar = false
        for (number, line) in unfold(text) {
            let (name, parameters, value) = split(line)
            switch name {
            case "BEGIN" where value.uppercased() == "VCALENDAR":
                isCalendar = true
            case "BEGIN" where value.uppercased() == "VEVENT":
                if inEvent { throw unclosed(startLine) }
                inEvent = true
                start = nil; end = nil; summary = ""; rule = [:]; isTimed = false; description = nil
                startLine = number
            case "END" where value.uppercased() == "VCALENDAR" && inEvent:
                throw unclosed(startLine)
            case "END" where value.uppercased() == "VEVENT":
                guard inEvent else { continue }
                inEvent = false
                if isTimed { timedEvents += 1 }
                guard let first = start, !isTimed else { continue }
                let last = (end.map { $0.adding(days: -1) }).map { Swift.max($0, first) } ?? first
                let length = first.days(to: last)
                guard length < 366 else {
                    throw ParseError(line: startLine, message: tr("an all-day event longer than a year"))
                }
                let dates = try occurrences(of: first, rule: rule, horizon: horizon, line: startLine)
                guard events.count + dates.count * (length + 1) <= maxDays else {
                    throw ParseError(line: startLine, message: tr("the calendar covers more than \(maxDays) days; split it or keep the years you need"))
                }
                for occurrence in dates {
                    for offset in 0...length {
                        events.append(Event(date: occurrence.adding(days: offset), summary: summary, line: startLine,
                                            description: description))
                    }
                }
            case "DTSTART" where inEvent:
                if let date = parseDate(value), parameters.contains("VALUE=DATE") || value.count == 8 {
                    start = date
                } else if parseDate(String(value.prefix(8))) != nil {
                    isTimed = true
                } else {
                    throw ParseError(line: number, message: tr("DTSTART \(value) is not a date"))
                }
            case "DTEND" where inEvent:
                end = parseDate(String(value.prefix(8)))
            case "SUMMARY" where inEvent:
                summary = unescape(value)
            case "DESCRIPTION" where inEvent:
                let text = unescape(value).trimmingCharacters(in: .whitespacesAndNewlines)
                description = text.isEmpty ? nil : text
            case "RRULE" where inEvent:
                for part in value.split(separator: ";") {
                    let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                    if pair.count == 2 { rule[pair[0].uppercased()] = pair[1] }
                }
            default:
                break
            }
        }
        if inEvent { throw unclosed(startLine) }
        // A file with no calendar in it is a mistake, not a year without holidays.
        guard isCalendar else { throw ParseError(line: 1, message: tr("this is not an iCalendar file (no BEGIN:VCALENDAR)")) }
        return (events, timedEvents)
    }

    /// The event opened on `line` is never closed (the rest of the file would be part of it).
    static func unclosed(_ line: Int) -> ParseError {
        ParseError(line: line, message: tr("BEGIN:VEVENT has no END:VEVENT; end each event before the next one and before END:VCALENDAR"))
    }

    /// The dates a rule repeats `first` on, up to `horizon`: at most
    /// `maxOccurrences` (more is an error naming the line). Years are
    /// added with overflow checks: a huge INTERVAL ends the repetition.
    static func occurrences(of first: LocalDate, rule: [String: String], horizon: LocalDate, line: Int) throws -> [LocalDate] {
        guard let frequency = rule["FREQ"] else { return [first] }
        guard frequency.uppercased() == "YEARLY" else {
            throw ParseError(line: line, message: tr("repetition FREQ=\(frequency) is not supported for all-day holidays (only YEARLY)"))
        }
        func number(_ key: String, atLeast minimum: Int) throws -> Int? {
            guard let text = rule[key] else { return nil }
            guard let value = Int(text), value >= minimum else {
                throw ParseError(line: line, message: tr("RRULE \(key)=\(text) is not a whole number of at least \(minimum)"))
            }
            return value
        }
        let count = try number("COUNT", atLeast: 1) ?? Int.max
        let interval = try number("INTERVAL", atLeast: 1) ?? 1
        let until = Swift.min(rule["UNTIL"].flatMap { parseDate(String($0.prefix(8))) } ?? horizon, horizon)
        var dates: [LocalDate] = []
        var year = first.year
        while dates.count < count, year <= until.year {
            // 29 February repeats only in leap years (RFC 5545 skips invalid dates).
            if let date = LocalDate(year: year, month: first.month, day: first.day) {
                if date > until { break }
                guard dates.count < maxOccurrences else {
                    throw ParseError(line: line, message: tr("the repetition gives more than \(maxOccurrences) dates; give it a COUNT or UNTIL, or a later DTSTART"))
                }
                dates.append(date)
            }
            let (next, overflow) = year.addingReportingOverflow(interval)
            if overflow { break }
            year = next
        }
        return dates
    }

    /// Content lines with continuation lines joined, numbered from 1.
    static func unfold(_ text: String) -> [(Int, String)] {
        var lines: [(Int, String)] = []
        var number = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            var line = String(raw)
            if line.hasSuffix("\r") { line.removeLast() }
            if let first = line.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1].1 += line.dropFirst()
            } else if !line.isEmpty {
                lines.append((number, line))
            }
        }
        return lines
    }

    /// `NAME;PARAM=X:VALUE` → ("NAME", ["PARAM=X"], "VALUE").
    static func split(_ line: String) -> (String, [String], String) {
        guard let colon = line.firstIndex(of: ":") else { return (line.uppercased(), [], "") }
        let head = line[..<colon].split(separator: ";").map { String($0).uppercased() }
        return (head.first ?? "", Array(head.dropFirst()), String(line[line.index(after: colon)...]))
    }

    /// `YYYYMMDD` → a date.
    static func parseDate(_ text: String) -> LocalDate? {
        guard text.count == 8, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
        let digits = Array(text)
        return LocalDate(year: Int(String(digits[0..<4]))!, month: Int(String(digits[4..<6]))!,
                         day: Int(String(digits[6..<8]))!)
    }

    static func unescape(_ text: String) -> String {
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                out.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// One all-day event to write.
    public struct ExportedEvent: Sendable {
        public var date: LocalDate
        public var summary: String
        public var uid: String
        /// The DESCRIPTION (the day's note), when there is one.
        public var description: String?

        public init(date: LocalDate, summary: String, uid: String, description: String? = nil) {
            self.date = date
            self.summary = summary
            self.uid = uid
            self.description = description
        }
    }

    /// Writes all-day events as an iCalendar document (export), stamped
    /// `stamp` (DTSTAMP: when the document was made), lines folded at 75
    /// octets as RFC 5545 asks.
    public static func document(_ events: [ExportedEvent], productID: String, stamp: Date) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(productID)", "CALSCALE:GREGORIAN"]
        func compact(_ date: LocalDate) -> String { date.description.replacingOccurrences(of: "-", with: "") }
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: ";", with: "\\;")
                .replacingOccurrences(of: ",", with: "\\,")
                .replacingOccurrences(of: "\r\n", with: "\\n")
                .replacingOccurrences(of: "\n", with: "\\n")
        }
        // 20261124T213000Z
        let dtstamp = stamp.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
            .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        for event in events {
            lines += ["BEGIN:VEVENT", "UID:\(event.uid)", "DTSTAMP:\(dtstamp)",
                      "DTSTART;VALUE=DATE:\(compact(event.date))",
                      "DTEND;VALUE=DATE:\(compact(event.date.adding(days: 1)))",
                      "SUMMARY:\(escaped(event.summary))"]
            if let description = event.description { lines.append("DESCRIPTION:\(escaped(description))") }
            lines += ["TRANSP:TRANSPARENT", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// Splits a content line longer than 75 octets into lines of at most 75
    /// octets, each continuation starting with a space (RFC 5545, 3.1),
    /// never inside a UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var out = ""
        var count = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if count + size > 75 {
                out += "\r\n "
                count = 1
            }
            out.unicodeScalars.append(scalar)
            count += size
        }
        return out
    }
}
