import Foundation

/// What a `[calendar]` folder says about dates (docs/cli.md "Calendar"):
/// an input of the policy engine beside the store, never copied into it.
/// Loaded by DeskDaysCalendar; pure from here on.
public struct CalendarDays: Sendable, Equatable {
    /// What an event means, by its SUMMARY or a CATEGORIES value; where
    /// events disagree on a date the greater wins (holiday > sick >
    /// vacation > office > remote).
    public enum Meaning: Int, Sendable, Comparable, CaseIterable {
        case remote, office, vacation, sick, holiday

        public static func < (lhs: Meaning, rhs: Meaning) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The configuration key naming its words.
        public var key: String {
            switch self {
            case .remote: "remote"
            case .office: "office"
            case .vacation: "vacation"
            case .sick: "sick"
            case .holiday: "holiday"
            }
        }

        /// The status it gives; a holiday gives none (it makes the date a non-workday).
        public var status: AttendanceStatus? {
            switch self {
            case .remote: .remote
            case .office: .office
            case .vacation: .vacation
            case .sick: .sick
            case .holiday: nil
            }
        }
    }

    /// One event on one date.
    public struct Event: Sendable, Hashable {
        public var date: LocalDate
        public var meaning: Meaning
        /// The event's SUMMARY.
        public var summary: String
        /// The file it came from, as named in the folder.
        public var file: String

        public init(date: LocalDate, meaning: Meaning, summary: String, file: String) {
            self.date = date
            self.meaning = meaning
            self.summary = summary
            self.file = file
        }
    }

    /// Every date's events.
    public private(set) var events: [LocalDate: [Event]] = [:]

    public init(_ events: [Event] = []) {
        for event in events { self.events[event.date, default: []].append(event) }
    }

    public var isEmpty: Bool { events.isEmpty }

    /// The first date the calendar gives a status to, as seen on `today`
    /// (where a history of it starts, as a stored one starts at its first record).
    public func firstStatusDate(today: LocalDate) -> LocalDate? {
        events.keys.filter { decidingEvent(on: $0, today: today)?.meaning.status != nil }.min()
    }

    /// The event that decides `date` as seen on `today`: an office event is
    /// a plan, so on a date before today it decides nothing (and hides
    /// nothing); otherwise the greatest meaning, then the first file name.
    public func decidingEvent(on date: LocalDate, today: LocalDate) -> Event? {
        guard let candidates = events[date] else { return nil }
        return candidates.filter { !($0.meaning == .office && date < today) }
            .max { ($0.meaning, $1.file) < ($1.meaning, $0.file) }
    }

    /// The dates holiday events make non-workdays, with the event's SUMMARY.
    public var holidays: [LocalDate: String] {
        var result: [LocalDate: String] = [:]
        for (date, list) in events {
            if let holiday = list.filter({ $0.meaning == .holiday }).min(by: { $0.file < $1.file }) {
                result[date] = holiday.summary
            }
        }
        return result
    }

    /// `policy` with the calendar's holidays added (a configured holiday keeps its name).
    public func applying(to policy: Policy) -> Policy {
        var policy = policy
        for (date, name) in holidays where policy.holidays[date] == nil { policy.holidays[date] = name }
        return policy
    }

    /// The calendar's statuses in `span` as records of origin `calendar`
    /// (the SUMMARY as the note), as seen on `today`.
    public func records(in span: DateSpan, today: LocalDate) -> [DayRecord] {
        var result: [DayRecord] = []
        let dates = events.count < span.count ? Array(events.keys.filter(span.contains)) : span.filter { events[$0] != nil }
        for date in dates {
            guard let event = decidingEvent(on: date, today: today), let status = event.meaning.status else { continue }
            result.append(DayRecord(date: date, status: status, origin: .calendar, note: event.summary,
                                    recordedAt: .distantPast))
        }
        return result.sorted { $0.date < $1.date }
    }

    /// The same, as a long history's entries.
    public func entries(in span: DateSpan, today: LocalDate) -> [DayStatuses.Entry] {
        records(in: span, today: today).map { DayStatuses.Entry(date: $0.date, status: $0.status, origin: .calendar) }
    }
}
