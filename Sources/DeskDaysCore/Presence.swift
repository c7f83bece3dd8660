import Localization
import Foundation

/// The latest automatic sign (arrival or departure) of a source on a date,
/// as the store keeps it beside the source's first arrival
/// (`AutomaticCheckIn`): all that time on site needs, never a trail.
public struct LatestSign: Sendable, Hashable {
    public var date: LocalDate
    public var source: Source
    public var at: Date
    public var kind: CheckInEvent.Kind

    public init(date: LocalDate, source: Source, at: Date, kind: CheckInEvent.Kind) {
        self.date = date
        self.source = source
        self.at = at
        self.kind = kind
    }
}

extension Source {
    /// NFC and QR taps are instants: a tap is an arrival, never a presence
    /// that lasts until a departure (docs/policy.md "Time on site").
    public var isInstant: Bool { self == .nfc || self == .qr }

    /// Whether an arrival lasts until a departure (the end of the date at
    /// the latest): Wi-Fi, a wired link and GPS, which the agent watches and
    /// whose departures it reports (a stop or a suspend is one). Taps and
    /// `external` signs (a script, a phone's inbox, which nothing asks
    /// whether the user is still there) count up to their latest sign: an
    /// arrival without a leave adds no time after itself.
    public var staysPresent: Bool { self == .wifi || self == .wired || self == .gps }
}

/// A date's time on site (docs/policy.md "Time on site"): from its first
/// arrival to its last sign, the end of the date while a method is still
/// present then, or now for today.
public struct DayPresence: Sendable, Hashable {
    /// One source's part of the day.
    public struct Part: Sendable, Hashable {
        public var source: Source
        /// Its first arrival on the date (nil: it only departed that date).
        public var firstArrival: Date?
        /// Its latest sign, or the end of the date / now while still present.
        public var last: Date
        /// Still present at `last` (the end of the date, or now).
        public var present: Bool
    }

    public var date: LocalDate
    /// Its earliest arrival (nil: the date has only departures, of a
    /// presence that began on an earlier day; it has no time on site).
    public var firstSeen: Date?
    /// Its latest arrival or departure of a source that arrived that date
    /// (docs/policy.md), or the end of the date / now while a method is still present.
    public var lastSeen: Date
    /// A method was still present at `lastSeen` (the end of the date, or now).
    public var present: Bool
    /// Sources by name.
    public var parts: [Part]

    /// `lastSeen − firstSeen`, elapsed time (nil without an arrival).
    public var seconds: TimeInterval? { firstSeen.map { lastSeen.timeIntervalSince($0) } }

    /// Hours to one decimal, rounded half up (docs/policy.md); nil without an arrival.
    public var hours: Double? {
        guard let seconds else { return nil }
        let milliseconds = max(0, Int((seconds * 1000).rounded()))
        return Double((milliseconds + 180_000) / 360_000) / 10
    }

    /// Whether this presence is shorter than `min_hours` (never with 0: off,
    /// nor on a date without an arrival: it is no office day to shorten).
    public func isShort(minHours: Double) -> Bool {
        guard let seconds else { return false }
        return minHours > 0 && seconds < minHours * 3600
    }

    /// The time on site of every date that has an arrival, from each
    /// (date, source)'s first arrival and latest sign; a date with only
    /// departures gets its `lastSeen` and no `firstSeen`. `now` ends today's
    /// presence while a method is still present; a date after today (a sign
    /// stamped ahead of the clock) counts only up to its latest sign.
    public static func days(checkIns: [AutomaticCheckIn], signs: [LatestSign], policy: Policy,
                            now: Date) -> [LocalDate: DayPresence] {
        let today = policy.localDate(of: now)
        let arrivals = Dictionary(grouping: checkIns, by: \.date)
        let latest = Dictionary(grouping: signs, by: \.date)
        var result: [LocalDate: DayPresence] = [:]
        result.reserveCapacity(arrivals.count)
        let calendar = Self.calendar(policy)
        for (date, signs) in latest where arrivals[date] == nil {
            // Only departures (of a presence that began on an earlier day):
            // its last sign, no time on site.
            let parts = Dictionary(grouping: signs, by: \.source).map { source, own in
                Part(source: source, firstArrival: nil, last: own.map(\.at).max()!, present: false)
            }.sorted { $0.source < $1.source }
            result[date] = DayPresence(date: date, firstSeen: nil, lastSeen: signs.map(\.at).max()!,
                                       present: false, parts: parts)
        }
        for (date, firsts) in arrivals {
            let stop = Self.stop(date, today: today, now: now, policy: policy, calendar: calendar)
            var parts: [Source: Part] = [:]
            for arrival in firsts {
                parts[arrival.source] = Part(source: arrival.source, firstArrival: arrival.at, last: arrival.at, present: false)
            }
            for sign in latest[date] ?? [] {
                var part = parts[sign.source] ?? Part(source: sign.source, firstArrival: nil, last: sign.at, present: false)
                part.last = max(part.last, sign.at)
                // Present from an arrival until a departure (watched methods only).
                part.present = sign.kind == .arrival && sign.source.staysPresent && sign.at >= (part.firstArrival ?? sign.at)
                parts[sign.source] = part
            }
            // Still present: until the end of the date, or now for today.
            // (A check-in from before signs were kept has no sign: its arrival alone.)
            for index in parts.keys {
                guard var part = parts[index], part.present else { continue }
                part.last = max(part.last, stop)
                parts[index] = part
            }
            let ordered = parts.values.sorted { $0.source < $1.source }
            let first = firsts.map(\.at).min()!
            // A departure counts only after an arrival of the same source on
            // the date: one alone (another device's, a phone's) is shown, never time on site.
            let last = max(first, ordered.filter { $0.firstArrival != nil }.map(\.last).max() ?? first)
            result[date] = DayPresence(date: date, firstSeen: first, lastSeen: last,
                                       present: ordered.contains(where: \.present), parts: ordered)
        }
        return result
    }

    /// One calendar for every date (making one costs more than the lookup).
    static func calendar(_ policy: Policy) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = policy.timeZone
        return calendar
    }

    /// Where a presence still going on ends: the end of the date (the next
    /// date's start), or now for today (and a date after it).
    static func stop(_ date: LocalDate, today: LocalDate, now: Date, policy: Policy, calendar: Calendar) -> Date {
        let next = date.adding(days: 1)
        let end = calendar.date(from: DateComponents(year: next.year, month: next.month, day: next.day,
                                                     hour: policy.dayStartMinutes / 60,
                                                     minute: policy.dayStartMinutes % 60))!
        return date >= today ? min(now, end) : end
    }

    /// The dates shorter than `min_hours` (none when off), from per-date
    /// summaries: what a long history needs (streaks over years), with the
    /// arithmetic of `days(checkIns:signs:policy:now:)`.
    public static func shortDates(_ summaries: [DaySigns], policy: Policy, now: Date) -> Set<LocalDate> {
        guard policy.minHours > 0 else { return [] }
        let today = policy.localDate(of: now)
        let calendar = Self.calendar(policy)
        var short: Set<LocalDate> = []
        for day in summaries {
            var last = max(day.lastArrival, day.lastSign ?? day.lastArrival)
            if day.present { last = max(last, stop(day.date, today: today, now: now, policy: policy, calendar: calendar)) }
            if last.timeIntervalSince(day.firstArrival) < policy.minHours * 3600 { short.insert(day.date) }
        }
        return short
    }
}

/// A date's automatic signs in short, as the store sums them up for a long
/// history: its earliest and latest arrival (`checkin`), its latest sign of
/// any source, and whether some method's latest sign is an arrival of a
/// method that stays present (not a tap).
public struct DaySigns: Sendable, Hashable {
    public var date: LocalDate
    public var firstArrival: Date
    public var lastArrival: Date
    public var lastSign: Date?
    public var present: Bool

    public init(date: LocalDate, firstArrival: Date, lastArrival: Date, lastSign: Date?, present: Bool) {
        self.date = date
        self.firstArrival = firstArrival
        self.lastArrival = lastArrival
        self.lastSign = lastSign
        self.present = present
    }
}

extension Policy {
    /// `HH:MM` of an instant in `timeZone`, seconds dropped; the end of a
    /// date (the next one's start) prints as `day_starts_at`.
    public func clockTime(of instant: Date) -> TimeOfDay { TimeOfDay(minutes: wallClock(of: instant).minutes) }

    /// `day_starts_at` as `HH:MM`.
    public var dayStartText: String { String(format: "%02d:%02d", dayStartMinutes / 60, dayStartMinutes % 60) }
}

/// A local wall-clock time of day, `08:30`: the configuration's times and
/// the times of day of arrivals and departures. JSON and files write it so;
/// a message writes it in the language's digits (`Figure`).
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible, Encodable, Figure {
    public var hour: Int
    public var minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// Minutes after midnight (a wall clock's reading).
    public init(minutes: Int) {
        hour = minutes / 60
        minute = minutes % 60
    }

    /// Parses `HH:MM`.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
              let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(hour: h, minute: m)
    }

    public var minutes: Int { hour * 60 + minute }
    public var description: String { (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)" }
    public var figures: String { description }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.minutes < b.minutes }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
