import Localization
import CICal
import DeskDaysCore
import Foundation
import Synchronization

/// The one iCalendar reader and writer of DeskDays, on libical 3 (Debian's
/// libical-dev): the `[calendar]` vdir, `holidays_ics`, `deskdays import`
/// of `.ics` files, `export --format ics` and the event files of
/// `[calendar] write = true` (docs/design.md, "The calendar").
///
/// Reading gives the all-day events of a document. libical parses (CRLF or
/// LF, folded lines, escapes, VTIMEZONE, Windows zone names) and expands
/// RRULE; RDATE and EXDATE are applied here on dates. All-day means
/// `DTSTART;VALUE=DATE`, or a midnight DTSTART with
/// `X-MICROSOFT-CDO-ALLDAYEVENT:TRUE` (Outlook writes its all-day events in
/// the event's time zone: the wall-clock date in that zone is the date).
/// Timed events are counted and skipped.
///
/// The text may come from anyone (a downloaded holiday feed): what it
/// expands to is bounded (dates from 1990 to the horizon, `maxOccurrences`
/// per event, `maxSteps` of the iterator, `maxDays` per document), so a bad
/// file is an error naming its line, never a crash or a hang.
public enum ICalendar {
    /// Most dates one event gives within the dates read (ten years of daily events is 3,653).
    public static let maxOccurrences = 10_000
    /// Most steps of the recurrence iterator for one event (a rule that
    /// gives nothing new, FREQ=SECONDLY on a date, stops here, not at the horizon).
    public static let maxSteps = 100_000
    /// Most days a whole document covers (a holiday feed of a century, a
    /// decade of daily imports: a few thousand).
    public static let maxDays = 100_000

    /// One all-day event.
    public struct Event: Sendable, Equatable {
        /// The days its occurrences start on (ascending `LocalDate.dayNumber`s).
        public var starts: [Int32]
        /// How many more days each occurrence covers (0: one day).
        public var extraDays: Int
        public var summary: String
        public var categories: [String]
        public var uid: String
        /// Its DESCRIPTION (what `export --format ics` writes a note as), if any.
        public var description: String?
        /// The line of its BEGIN:VEVENT (0 when the text's lines could not be matched to libical's events).
        public var line: Int

        public init(starts: [Int32], extraDays: Int, summary: String, categories: [String] = [], uid: String = "",
                    description: String? = nil, line: Int = 0) {
            self.starts = starts
            self.extraDays = extraDays
            self.summary = summary
            self.categories = categories
            self.uid = uid
            self.description = description
            self.line = line
        }

        /// Every date it covers, occurrence by occurrence, of those DeskDays
        /// keeps (an occurrence from 31 December 1989 gives its days from 1990).
        public var dates: [LocalDate] {
            starts.flatMap { start in
                (0...max(0, extraDays)).map { LocalDate(dayNumber: Int(start) + $0) }.filter(\.isSupported)
            }
        }
    }

    /// What a document holds: its all-day events, and how many timed events
    /// it has, which are not days and are skipped (an import says so).
    public struct Document: Sendable, Equatable {
        public var events: [Event] = []
        public var timedEvents = 0
    }

    /// Why a document cannot be used, naming the line when it can.
    public struct Unreadable: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int?
        public var reason: String

        public init(line: Int? = nil, reason: String) {
            self.line = line
            self.reason = reason
        }

        public var description: String { line.map { tr("line \($0): \(reason)") } ?? reason }
    }

    /// libical keeps process-wide state (its error number, the built-in
    /// time zones it loads on first use): one call at a time, reading or writing.
    private static let library = Mutex(())

    /// Turns libical's errors into return values once per process.
    private static let setUp: Void = {
        icalerror_set_errors_are_fatal(0)
    }()

    /// Runs `body` alone among libical's callers.
    static func withLibrary<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try library.withLock { _ throws(E) in
            _ = setUp
            return try body()
        }
    }

    /// The document's all-day events whose dates meet `from`…`horizon`
    /// (within 1990-01-01…2099-12-31 whatever is asked: Validation's dates).
    public static func read(_ text: String, from: LocalDate = LocalDate.supported.lowerBound,
                            through horizon: LocalDate) throws(Unreadable) -> Document {
        let lines = ContentLines(text)
        if let open = lines.unclosedEvent {
            throw Unreadable(line: open, reason: tr("BEGIN:VEVENT has no END:VEVENT; end each event before the next one and before END:VCALENDAR"))
        }
        let first = max(from, LocalDate.supported.lowerBound), last = min(horizon, LocalDate.supported.upperBound)
        return try withLibrary { () throws(Unreadable) -> Document in
            guard let root = icalparser_parse_string(text) else {
                // libical gives nothing for a component never closed: say which, where.
                guard let (name, line) = lines.unclosed else { throw notCalendar }
                throw Unreadable(line: line, reason: tr("BEGIN:\(name) has no END:\(name); the file ends before it does (cut short?), or an END of another component comes first"))
            }
            defer { icalcomponent_free(root) }
            let vevents = try events(of: root)
            // libical keeps the text's order: the k-th VEVENT is the k-th BEGIN:VEVENT, when the counts agree.
            let located = vevents.count == lines.events.count ? lines.events : nil
            return try document(vevents, lines: located, from: first, through: last)
        }
    }

    static var notCalendar: Unreadable {
        Unreadable(reason: tr("this is not an iCalendar file (no BEGIN:VCALENDAR)"))
    }

    /// The VEVENTs of a parsed text: one event, a VCALENDAR's, or those of several VCALENDARs.
    private static func events(of root: OpaquePointer) throws(Unreadable) -> [OpaquePointer] {
        switch icalcomponent_isa(root) {
        case ICAL_VEVENT_COMPONENT: return [root]
        case ICAL_VCALENDAR_COMPONENT: return children(root, ICAL_VEVENT_COMPONENT)
        case ICAL_XROOT_COMPONENT: return children(root, ICAL_VCALENDAR_COMPONENT).flatMap { children($0, ICAL_VEVENT_COMPONENT) }
        default: throw notCalendar
        }
    }

    private static func document(_ vevents: [OpaquePointer], lines: [ContentLines.Event]?,
                                 from: LocalDate, through horizon: LocalDate) throws(Unreadable) -> Document {
        // A changed occurrence is a VEVENT of its own with the master's UID and
        // a RECURRENCE-ID (Google, Outlook): the master no longer gives that date.
        var moved: [String: Set<Int32>] = [:]
        for vevent in vevents {
            guard let property = icalcomponent_get_first_property(vevent, ICAL_RECURRENCEID_PROPERTY),
                  let day = date(icalproperty_get_recurrenceid(property)) else { continue }
            moved[string(icalcomponent_get_uid(vevent)), default: []].insert(Int32(day.dayNumber))
        }
        var result = Document()
        var days = 0
        for (index, vevent) in vevents.enumerated() {
            let place = lines?[index]
            guard var event = try allDay(vevent, place: place, from: from, through: horizon) else {
                result.timedEvents += 1
                continue
            }
            if icalcomponent_get_first_property(vevent, ICAL_RECURRENCEID_PROPERTY) == nil, let dates = moved[event.uid] {
                event.starts.removeAll(where: dates.contains)
            }
            days += event.starts.count * (event.extraDays + 1)
            guard days <= maxDays else {
                throw Unreadable(line: place?.begin, reason: tr("the calendar covers more than \(maxDays) days; split it or keep the years you need"))
            }
            result.events.append(event)
        }
        return result
    }

    // MARK: - libical's values

    /// The subcomponents of `component` of one kind.
    static func children(_ component: OpaquePointer, _ kind: icalcomponent_kind) -> [OpaquePointer] {
        var list: [OpaquePointer] = []
        var next = icalcomponent_get_first_component(component, kind)
        while let child = next {
            list.append(child)
            next = icalcomponent_get_next_component(component, kind)
        }
        return list
    }

    /// The properties named `kind` of `component`.
    static func properties(_ component: OpaquePointer, _ kind: icalproperty_kind) -> [OpaquePointer] {
        var list: [OpaquePointer] = []
        var next = icalcomponent_get_first_property(component, kind)
        while let property = next {
            list.append(property)
            next = icalcomponent_get_next_property(component, kind)
        }
        return list
    }

    static func date(_ time: icaltimetype) -> LocalDate? {
        LocalDate(year: Int(time.year), month: Int(time.month), day: Int(time.day))
    }

    static func string(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0) } ?? ""
    }
}
