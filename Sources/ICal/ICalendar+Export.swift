import CICal
import DeskDaysCore
import Foundation

extension ICalendar {
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

    /// All-day events as an iCalendar document written by libical (CRLF,
    /// escapes, lines folded at 75 octets), stamped `stamp` (DTSTAMP: when
    /// the document was made).
    public static func document(_ events: [ExportedEvent], productID: String, stamp: Date) -> String {
        withLibrary {
            let calendar = icalcomponent_new(ICAL_VCALENDAR_COMPONENT)
            defer { icalcomponent_free(calendar) }
            icalcomponent_add_property(calendar, icalproperty_new_version("2.0"))
            icalcomponent_add_property(calendar, icalproperty_new_prodid(productID))
            icalcomponent_add_property(calendar, icalproperty_new_calscale("GREGORIAN"))
            // A stamp from outside is a validated date; one that is not a time_t is 1970, never a trap.
            let seconds = time_t(exactly: stamp.timeIntervalSince1970.rounded(.down)) ?? 0
            let dtstamp = icaltime_from_timet_with_zone(seconds, 0, icaltimezone_get_utc_timezone())
            for event in events {
                let vevent = icalcomponent_new(ICAL_VEVENT_COMPONENT)
                icalcomponent_add_property(vevent, icalproperty_new_uid(event.uid))
                icalcomponent_add_property(vevent, icalproperty_new_dtstamp(dtstamp))
                icalcomponent_add_property(vevent, icalproperty_new_dtstart(day(event.date)))
                icalcomponent_add_property(vevent, icalproperty_new_dtend(day(event.date.adding(days: 1))))
                icalcomponent_add_property(vevent, icalproperty_new_summary(event.summary))
                if let description = event.description {
                    icalcomponent_add_property(vevent, icalproperty_new_description(description))
                }
                icalcomponent_add_property(vevent, icalproperty_new_transp(ICAL_TRANSP_TRANSPARENT))
                // The calendar owns the event from here (freed with it).
                icalcomponent_add_component(calendar, vevent)
            }
            return string(icalcomponent_as_ical_string(calendar))
        }
    }

    /// A DATE value.
    static func day(_ date: LocalDate) -> icaltimetype {
        var time = icaltimetype()
        time.year = Int32(date.year)
        time.month = Int32(date.month)
        time.day = Int32(date.day)
        time.is_date = 1
        return time
    }
}
