import Localization
import CICal
import DeskDaysCore
import Foundation

extension ICalendar {
    /// The properties an event's dates come from: one libical refused (it
    /// leaves an X-LIC-ERROR in its place) makes an all-day event unreadable.
    static let dateProperties: Set<String> = ["DTSTART", "DTEND", "DURATION", "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID"]

    /// A property libical refused: its name and value, as its X-LIC-ERROR
    /// gives them ("Can't parse as RECUR value in RRULE property. Removing
    /// entire property: FREQ=…", "No value for DTSTART property. …").
    struct Refusal {
        var name: String
        var value: String

        var sentence: String { tr("\(name) \"\(value)\" is not valid iCalendar (RFC 5545)") }
    }

    static func refusals(_ vevent: OpaquePointer) -> [Refusal] {
        properties(vevent, ICAL_XLICERROR_PROPERTY).compactMap { property in
            let text = string(icalproperty_get_xlicerror(property))
            guard let end = text.range(of: " property. Removing entire property:"),
                  let name = text[..<end.lowerBound].split(separator: " ").last else { return nil }
            return Refusal(name: name.uppercased(), value: text[end.upperBound...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// The event's occurrences whose days meet `from`…`horizon`, or nil for a timed event.
    static func allDay(_ vevent: OpaquePointer, place: ContentLines.Event?, from: LocalDate,
                       through horizon: LocalDate) throws(Unreadable) -> Event? {
        /// An error on the line of the property `name`, else of the event.
        func failure(_ name: String?, _ reason: String) -> Unreadable {
            Unreadable(line: name.flatMap { place?.line(of: $0) } ?? place?.begin, reason: reason)
        }
        let refused = refusals(vevent)
        if let bad = refused.first(where: { $0.name == "DTSTART" }) { throw failure(bad.name, bad.sentence) }
        guard let startProperty = icalcomponent_get_first_property(vevent, ICAL_DTSTART_PROPERTY) else {
            throw failure(nil, tr("an event has no DTSTART"))
        }
        // The component's getter attaches the TZID's VTIMEZONE of the same calendar.
        var start = icalcomponent_get_dtstart(vevent)
        guard icaltime_is_null_time(start) == 0, icaltime_is_valid_time(start) != 0, let first = date(start) else {
            throw failure("DTSTART", tr("an event's DTSTART is not a date"))
        }
        if start.is_date == 0 {
            // A timed event is no day, unless Outlook says it is all day (midnight in its zone).
            guard isOutlookAllDay(vevent), start.hour == 0, start.minute == 0, start.second == 0 else { return nil }
            attachZone(&start, startProperty)
        }
        var rules = properties(vevent, ICAL_RRULE_PROPERTY).map { icalproperty_get_rrule($0) }
        for bad in refused where dateProperties.contains(bad.name) {
            guard bad.name == "RRULE" else { throw failure(bad.name, bad.sentence) }
            rules.append(try recovered(bad.value, line: place?.line(of: "RRULE")))
        }
        let length = first.days(to: lastDay(vevent, first: first))
        guard length < 366 else { throw failure(nil, tr("an all-day event longer than a year")) }

        // Occurrences that end before `from` or start after `horizon` are not read.
        let earliest = from.adding(days: -length)
        var starts: Set<LocalDate> = []
        func add(_ day: LocalDate) throws(Unreadable) {
            guard day >= earliest, day <= horizon else { return }
            starts.insert(day)
            guard starts.count <= maxOccurrences else {
                throw failure("RRULE", tr("the repetition gives more than \(maxOccurrences) dates; give it a COUNT or UNTIL, or a later DTSTART"))
            }
        }
        if rules.isEmpty { try add(first) }
        for rule in rules where first <= horizon {
            guard let iterator = icalrecur_iterator_new(rule, start) else {
                throw failure("RRULE", tr("an event's RRULE is not valid"))
            }
            defer { icalrecur_iterator_free(iterator) }
            var steps = 0
            while true {
                let next = icalrecur_iterator_next(iterator)
                guard icaltime_is_null_time(next) == 0, let day = date(next), day <= horizon else { break }
                steps += 1
                guard steps <= maxSteps else {
                    throw failure("RRULE", tr("the repetition takes more than \(maxSteps) steps to reach \(horizon); give it a COUNT or UNTIL, or a later DTSTART"))
                }
                try add(day)
            }
        }
        for property in properties(vevent, ICAL_RDATE_PROPERTY) {
            let value = icalproperty_get_rdate(property)
            let time = icaltime_is_null_time(value.time) == 0 ? value.time : value.period.start
            if let day = date(time) { try add(day) }
        }
        for property in properties(vevent, ICAL_EXDATE_PROPERTY) {
            if let day = date(icalproperty_get_exdate(property)) { starts.remove(day) }
        }
        var categories: [String] = []
        for property in properties(vevent, ICAL_CATEGORIES_PROPERTY) {
            categories += string(icalproperty_get_categories(property)).split(separator: ",").map(String.init)
        }
        let description = string(icalcomponent_get_description(vevent)).trimmingCharacters(in: .whitespacesAndNewlines)
        return Event(starts: starts.map { Int32($0.dayNumber) }.sorted(), extraDays: length,
                     summary: string(icalcomponent_get_summary(vevent)), categories: categories,
                     uid: string(icalcomponent_get_uid(vevent)), description: description.isEmpty ? nil : description,
                     line: place?.begin ?? 0)
    }

    /// The last day an occurrence covers: DTEND is exclusive, else DTSTART + DURATION, else one day.
    static func lastDay(_ vevent: OpaquePointer, first: LocalDate) -> LocalDate {
        if let endProperty = icalcomponent_get_first_property(vevent, ICAL_DTEND_PROPERTY) {
            let end = icalproperty_get_dtend(endProperty)
            guard icaltime_is_null_time(end) == 0, let endDate = date(end) else { return first }
            // A DATE-TIME end after midnight still covers its date.
            let covers = end.is_date == 0 && (end.hour, end.minute, end.second) != (0, 0, 0)
            return max(first, covers ? endDate : endDate.adding(days: -1))
        }
        if let durationProperty = icalcomponent_get_first_property(vevent, ICAL_DURATION_PROPERTY) {
            let duration = icalproperty_get_duration(durationProperty)
            let days = Int(duration.days) + 7 * Int(duration.weeks)
            if duration.is_neg == 0, days > 0, days < 400 { return first.adding(days: days - 1) }
        }
        return first
    }

    /// Outlook's flag for an all-day event written with midnight times.
    static func isOutlookAllDay(_ vevent: OpaquePointer) -> Bool {
        properties(vevent, ICAL_X_PROPERTY).contains { property in
            string(icalproperty_get_x_name(property)).uppercased() == "X-MICROSOFT-CDO-ALLDAYEVENT"
                && string(icalproperty_get_value_as_string(property)).uppercased() == "TRUE"
        }
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

    /// A RRULE libical refused. COUNT and INTERVAL must be whole numbers of
    /// at least 1. Values RFC 5545 allows but libical cannot hold (INTERVAL
    /// above 32,767, COUNT above 2^31−1: only a hostile file has them) are
    /// brought within its range where that changes no date DeskDays reads
    /// (a COUNT that large never ends before the horizon; 32,767 weeks,
    /// months or years step past 2099); anything else is an error.
    static func recovered(_ value: String, line: Int?) throws(Unreadable) -> icalrecurrencetype {
        var parts = value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let frequency = parts.first { $0.uppercased().hasPrefix("FREQ=") }.map { $0.dropFirst(5).uppercased() } ?? ""
        for (index, part) in parts.enumerated() {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, ["COUNT", "INTERVAL"].contains(pair[0].uppercased()) else { continue }
            let key = pair[0].uppercased(), digits = pair[1], minimum = 1
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), digits.contains(where: { $0 != "0" }) else {
                throw Unreadable(line: line, reason: tr("RRULE \(key)=\(digits) is not a whole number of at least \(minimum)"))
            }
            let significant = digits.drop { $0 == "0" }
            let limit = key == "COUNT" ? Int(Int32.max) : Int(Int16.max)
            guard significant.count > 10 || Int(significant).map({ $0 > limit }) == true else { continue }
            guard key == "COUNT" || ["WEEKLY", "MONTHLY", "YEARLY"].contains(frequency) else {
                throw Unreadable(line: line, reason: tr("RRULE INTERVAL=\(digits) is more than libical can expand with FREQ=\(frequency) (at most \(limit))"))
            }
            parts[index] = "\(key)=\(limit)"
        }
        let rule = icalrecurrencetype_from_string(parts.joined(separator: ";"))
        guard rule.freq != ICAL_NO_RECURRENCE else {
            throw Unreadable(line: line, reason: Refusal(name: "RRULE", value: value).sentence)
        }
        return rule
    }
}
