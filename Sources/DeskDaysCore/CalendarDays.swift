import Foundation

/// What a `[calendar]` folder says about dates (docs/cli.md "Calendar"):
/// an input of the policy engine beside the store, never copied into it.
/// Loaded by DeskDaysCalendar; pure from here on.
///
/// Each date's deciding event is found once, at construction, in flat
/// arrays indexed by day (a vdir of 5,000 events over ten years gives some
/// 160,000 event-days; bench/calendar.sh).
public struct CalendarDays: Sendable {
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

    /// One event of the folder with a meaning, and the dates it covers.
    public struct Source: Sendable, Equatable {
        public var file: String
        public var summary: String
        public var meaning: Meaning
        /// The day numbers (`LocalDate.dayNumber`) each occurrence starts on, ascending.
        public var starts: [Int32]
        /// How many more days each occurrence covers (0: one day).
        public var extraDays: Int32

        public init(file: String, summary: String, meaning: Meaning, starts: [Int32], extraDays: Int32) {
            self.file = file
            self.summary = summary
            self.meaning = meaning
            // Ascending, as the index and `events(on:)` need (sorted already when read).
            self.starts = zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 } ? starts : starts.sorted()
            self.extraDays = max(0, extraDays)
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
    }

    /// The events, in file-name order (the first file decides a tie).
    public let sources: [Source]
    private let first: Int
    /// Per day from `first`: 1 + the index of the deciding source, 0 none;
    /// and the same among the events that are not office plans.
    private let best: [Int32]
    private let bestNotOffice: [Int32]

    public init(_ sources: [Source] = []) {
        let sorted = sources.sorted { $0.file < $1.file }
        self.sources = sorted
        let low = sorted.compactMap { $0.starts.first }.min().map(Int.init) ?? 0
        let high = sorted.compactMap { source in source.starts.last.map { Int($0) + Int(source.extraDays) } }.max() ?? (low - 1)
        first = low
        var best = [Int32](repeating: 0, count: max(0, high - low + 1))
        var bestNotOffice = best
        for (index, source) in sorted.enumerated() {
            let tag = Int32(index + 1), rank = source.meaning.rawValue
            for start in source.starts {
                for offset in 0...Int(source.extraDays) {
                    let slot = Int(start) + offset - low
                    // Strictly greater: among equals the earlier file stays.
                    if best[slot] == 0 || sorted[Int(best[slot]) - 1].meaning.rawValue < rank { best[slot] = tag }
                    if source.meaning != .office,
                       bestNotOffice[slot] == 0 || sorted[Int(bestNotOffice[slot]) - 1].meaning.rawValue < rank {
                        bestNotOffice[slot] = tag
                    }
                }
            }
        }
        self.best = best
        self.bestNotOffice = bestNotOffice
    }

    public var isEmpty: Bool { best.isEmpty }

    private func event(_ tag: Int32, _ date: LocalDate) -> Event? {
        guard tag > 0 else { return nil }
        let source = sources[Int(tag) - 1]
        return Event(date: date, meaning: source.meaning, summary: source.summary, file: source.file)
    }

    /// Every event on `date`, in file-name order (what `explain` lists).
    public func events(on date: LocalDate) -> [Event] {
        let day = Int32(date.dayNumber)
        return sources.filter { source in
            // The last occurrence starting on or before the date, and whether it reaches it.
            var low = 0, high = source.starts.count
            while low < high {
                let middle = (low + high) / 2
                if source.starts[middle] <= day { low = middle + 1 } else { high = middle }
            }
            return low > 0 && source.starts[low - 1] + source.extraDays >= day
        }.map { Event(date: date, meaning: $0.meaning, summary: $0.summary, file: $0.file) }
    }

    /// The event that decides `date` as seen on `today`: an office event is
    /// a plan, so on a date before today it decides nothing (and hides
    /// nothing); otherwise the greatest meaning, then the first file name.
    public func decidingEvent(on date: LocalDate, today: LocalDate) -> Event? {
        let slot = date.dayNumber - first
        guard slot >= 0, slot < best.count else { return nil }
        return event(date < today ? bestNotOffice[slot] : best[slot], date)
    }

    /// The dates holiday events make non-workdays, with the event's SUMMARY.
    public var holidays: [LocalDate: String] {
        var result: [LocalDate: String] = [:]
        for (slot, tag) in best.enumerated() where tag > 0 {
            let source = sources[Int(tag) - 1]
            if source.meaning == .holiday { result[LocalDate(dayNumber: first + slot)] = source.summary }
        }
        return result
    }

    /// `policy` with the calendar's holidays added (a configured holiday keeps its name).
    public func applying(to policy: Policy) -> Policy {
        guard !isEmpty else { return policy }
        var policy = policy
        for (date, name) in holidays where policy.holidays[date] == nil { policy.holidays[date] = name }
        return policy
    }

    /// The dates of `span` the calendar gives a status, with its event, as seen on `today`.
    private func decided(in span: DateSpan, today: LocalDate) -> [(LocalDate, Event)] {
        let low = max(span.start.dayNumber, first), high = min(span.end.dayNumber, first + best.count - 1)
        guard low <= high else { return [] }
        var result: [(LocalDate, Event)] = []
        for day in low...high {
            let date = LocalDate(dayNumber: day)
            if let event = decidingEvent(on: date, today: today), event.meaning.status != nil { result.append((date, event)) }
        }
        return result
    }

    /// The calendar's statuses in `span` as records of origin `calendar`
    /// (the SUMMARY as the note), as seen on `today`.
    public func records(in span: DateSpan, today: LocalDate) -> [DayRecord] {
        decided(in: span, today: today).map { date, event in
            DayRecord(date: date, status: event.meaning.status!, origin: .calendar, note: event.summary, recordedAt: .distantPast)
        }
    }

    /// The same, as a long history's entries.
    public func entries(in span: DateSpan, today: LocalDate) -> [DayStatuses.Entry] {
        decided(in: span, today: today).map { DayStatuses.Entry(date: $0.0, status: $0.1.meaning.status!, origin: .calendar) }
    }

    /// The first date the calendar gives a status to, as seen on `today`
    /// (where a history of it starts, as a stored one starts at its first record).
    public func firstStatusDate(today: LocalDate) -> LocalDate? {
        guard !isEmpty else { return nil }
        for slot in best.indices {
            let date = LocalDate(dayNumber: first + slot)
            if decidingEvent(on: date, today: today)?.meaning.status != nil { return date }
        }
        return nil
    }
}
