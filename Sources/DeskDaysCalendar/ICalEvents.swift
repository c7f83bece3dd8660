import CICal
import DeskDaysCore
import Foundation

/// The all-day events of one iCalendar document, through libical 3: its
/// parser (CRLF or LF, folded lines, escapes, VTIMEZONE) and its recurrence
/// iterator (RRULE), with RDATE and EXDATE applied here on dates.
///
/// All-day means `DTSTART;VALUE=DATE`, or a midnight DTSTART with
/// `X-MICROSOFT-CDO-ALLDAYEVENT:TRUE` (Outlook writes its all-day events in
/// the event's time zone, Windows zone names included: the wall-clock date
/// in that zone is the date). Timed events are skipped.
enum ICalEvents {
    /// Most occurrences one event expands to (ten years of daily events is 3,653).
    static let maxOccurrences = 10_000
    /// Most steps of the recurrence iterator for one event (a rule that
    /// gives nothing, FREQ=SECONDLY on a date, stops here, not at the horizon).
    static let maxSteps = 100_000

    /// One all-day event: the days its occurrences start on (ascending
    /// `LocalDate.dayNumber`s), how many more days each covers, SUMMARY,
    /// CATEGORIES and UID.
    struct Event: Equatable {
        var starts: [Int32]
        var extraDays: Int
        var summary: String
        var categories: [String]
        var uid: String
    }

    struct Unreadable: Error, Equatable {
        var reason: String
    }

    /// Turns libical's errors into return values once per process.
    static let setUp: Void = {
        icalerror_set_errors_are_fatal(0)
    }()

    /// libical keeps process-wide state (its error number, the built-in
    /// time zones it loads on first use): one document at a time.
    private static let library = NSLock()

    /// The document's all-day events, expanded from `from` to `horizon` (inclusive).
    static func events(in text: String, from: LocalDate, horizon: LocalDate) throws(Unreadable) -> [Event] {
        library.lock()
        defer { library.unlock() }
        return try unlockedEvents(in: text, from: from, horizon: horizon)
    }

    private static func unlockedEvents(in text: String, from: LocalDate, horizon: LocalDate) throws(Unreadable) -> [Event] {
        _ = setUp
        guard let root = icalparser_parse_string(text) else {
            throw Unreadable(reason: tr("not an iCalendar file"))
        }
        defer { icalcomponent_free(root) }
        var vevents: [OpaquePointer] = []
        if icalcomponent_isa(root) == ICAL_VEVENT_COMPONENT {
            vevents.append(root)
        } else if icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT {
            var next = icalcomponent_get_first_component(root, ICAL_VEVENT_COMPONENT)
            while let event = next {
                vevents.append(event)
                next = icalcomponent_get_next_component(root, ICAL_VEVENT_COMPONENT)
            }
        } else {
            throw Unreadable(reason: tr("not an iCalendar file (no VCALENDAR)"))
        }
        // A changed occurrence is a VEVENT of its own with the master's UID and
        // a RECURRENCE-ID (Google, Outlook): the master no longer gives that date.
        var moved: [String: Set<LocalDate>] = [:]
        for vevent in vevents {
            guard let property = icalcomponent_get_first_property(vevent, ICAL_RECURRENCEID_PROPERTY),
                  let day = date(icalproperty_get_recurrenceid(property)) else { continue }
            moved[icalcomponent_get_uid(vevent).map { String(cString: $0) } ?? "", default: []].insert(day)
        }
        var result: [Event] = []
        for vevent in vevents {
            guard var event = try allDay(vevent, from: from, horizon: horizon) else { continue }
            if icalcomponent_get_first_property(vevent, ICAL_RECURRENCEID_PROPERTY) == nil, let dates = moved[event.uid] {
                let days = Set(dates.map { Int32($0.dayNumber) })
                event.starts.removeAll(where: days.contains)
            }
            result.append(event)
        }
        return result
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

    static func allDay(_ vevent: OpaquePointer, from: LocalDate, horizon: LocalDate) throws(Unreadable) -> Event? {
        guard let startProperty = icalcomponent_get_first_property(vevent, ICAL_DTSTART_PROPERTY) else {
            throw Unreadable(reason: tr("an event has no DTSTART"))
        }
        // The component's getter attaches the TZID's VTIMEZONE of the same calendar.
        var start = icalcomponent_get_dtstart(vevent)
        guard icaltime_is_null_time(start) == 0, icaltime_is_valid_time(start) != 0, let first = date(start) else {
            throw Unreadable(reason: tr("an event's DTSTART is not a date"))
        }
        let outlookAllDay = properties(vevent, ICAL_X_PROPERTY).contains { property in
            guard let name = icalproperty_get_x_name(property), String(cString: name).uppercased() == "X-MICROSOFT-CDO-ALLDAYEVENT",
                  let value = icalproperty_get_value_as_string(property) else { return false }
            return String(cString: value).uppercased() == "TRUE"
        }
        if start.is_date == 0 {
            // A timed event is no day, unless Outlook says it is all day (midnight in its zone).
            guard outlookAllDay, start.hour == 0, start.minute == 0, start.second == 0 else { return nil }
            attachZone(&start, startProperty)
        }
        // The exclusive end: DTEND, else DTSTART + DURATION, else one day.
        var last = first
        if let endProperty = icalcomponent_get_first_property(vevent, ICAL_DTEND_PROPERTY) {
            let end = icalproperty_get_dtend(endProperty)
            if icaltime_is_null_time(end) == 0, let endDate = date(end) {
                // A DATE-TIME end after midnight still covers its date.
                let covers = end.is_date == 0 && (end.hour, end.minute, end.second) != (0, 0, 0)
                last = max(first, covers ? endDate : endDate.adding(days: -1))
            }
        } else if let durationProperty = icalcomponent_get_first_property(vevent, ICAL_DURATION_PROPERTY) {
            let duration = icalproperty_get_duration(durationProperty)
            let days = Int(duration.days) + 7 * Int(duration.weeks)
            if duration.is_neg == 0, days > 0, days < 400 { last = first.adding(days: days - 1) }
        }
        let length = first.days(to: last)
        guard length < 366 else { throw Unreadable(reason: tr("an all-day event longer than a year")) }

        var starts: Set<LocalDate> = []
        let rules = properties(vevent, ICAL_RRULE_PROPERTY)
        if rules.isEmpty {
            starts.insert(first)
        }
        for property in rules {
            let rule = icalproperty_get_rrule(property)
            guard let iterator = icalrecur_iterator_new(rule, start) else {
                throw Unreadable(reason: tr("an event's RRULE is not valid"))
            }
            defer { icalrecur_iterator_free(iterator) }
            var steps = 0
            while steps < maxSteps, starts.count < maxOccurrences {
                steps += 1
                let next = icalrecur_iterator_next(iterator)
                guard icaltime_is_null_time(next) == 0, let day = date(next), day <= horizon else { break }
                starts.insert(day)
            }
        }
        for property in properties(vevent, ICAL_RDATE_PROPERTY) {
            let value = icalproperty_get_rdate(property)
            let time = icaltime_is_null_time(value.time) == 0 ? value.time : value.period.start
            if let day = date(time) { starts.insert(day) }
        }
        for property in properties(vevent, ICAL_EXDATE_PROPERTY) {
            if let day = date(icalproperty_get_exdate(property)) { starts.remove(day) }
        }
        let firstStart = from.adding(days: -length)
        let dates = starts.filter { $0 >= firstStart && $0 <= horizon }.map { Int32($0.dayNumber) }.sorted()
        let summary = icalcomponent_get_summary(vevent).map { String(cString: $0) } ?? ""
        let uid = icalcomponent_get_uid(vevent).map { String(cString: $0) } ?? ""
        var categories: [String] = []
        for property in properties(vevent, ICAL_CATEGORIES_PROPERTY) {
            guard let value = icalproperty_get_categories(property) else { continue }
            categories += String(cString: value).split(separator: ",").map(String.init)
        }
        return Event(starts: dates, extraDays: length, summary: summary, categories: categories, uid: uid)
    }

    /// A DTSTART whose TZID names no VTIMEZONE of the file gets the built-in
    /// zone of that name (an IANA name, as Google and Apple write them), so a
    /// UTC `UNTIL` is compared in the event's own zone. A Windows name
    /// (Outlook) comes with its VTIMEZONE, which libical has already attached.
    static func attachZone(_ time: inout icaltimetype, _ property: OpaquePointer) {
        guard time.zone == nil, let tzid = icalproperty_get_parameter_as_string(property, "TZID"),
              let zone = icaltimezone_get_builtin_timezone(tzid) else { return }
        time.zone = zone
    }
}
