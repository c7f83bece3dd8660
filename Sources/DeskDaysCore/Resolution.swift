import Foundation

/// A stored record: a manual entry, an imported one, or the end-of-day fallback.
public struct DayRecord: Sendable, Hashable {
    public var id: Int64?
    public var date: LocalDate
    public var status: AttendanceStatus
    /// `.manual`, `.import`, `.calendar` or `.fallback` (automatic check-ins are `AutomaticCheckIn`).
    public var origin: Origin
    public var note: String?
    /// When it was written (UTC); "latest" in docs/policy.md means the greatest of these, then of `id`.
    public var recordedAt: Date
    /// A manual office or remote record written ahead is a plan (docs/policy.md
    /// "Plans need you"): decided when written, stored and synced with it.
    public var plan: Plan?

    /// Why a manual record is a plan.
    public enum Plan: String, Sendable, Hashable, CaseIterable {
        /// Written for a date after the writing command's today (`checkin --date`).
        case ahead
        /// Written by `deskdays plan --write` (explain: "planned with `deskdays plan`").
        case planner
    }

    public init(id: Int64? = nil, date: LocalDate, status: AttendanceStatus, origin: Origin,
                note: String? = nil, recordedAt: Date, plan: Plan? = nil) {
        precondition(origin != .automatic, "automatic check-ins are AutomaticCheckIn values")
        self.id = id
        self.date = date
        self.status = status
        self.origin = origin
        self.note = note
        self.recordedAt = recordedAt
        self.plan = plan
    }

    /// The plan mark a manual record of `status` for `date` gets when written
    /// on `today`: office and remote ahead of today are plans; travel and
    /// the excused statuses stand (docs/policy.md "Plans need you").
    public static func plan(for status: AttendanceStatus, on date: LocalDate, today: LocalDate) -> Plan? {
        (status == .office || status == .remote) && date > today ? .ahead : nil
    }
}

/// A stored automatic check-in: at most one per (local date, source).
public struct AutomaticCheckIn: Sendable, Hashable {
    public var date: LocalDate
    public var source: Source
    public var rule: String?
    public var at: Date

    public init(date: LocalDate, source: Source, rule: String?, at: Date) {
        self.date = date
        self.source = source
        self.rule = rule
        self.at = at
    }
}

/// A date's resolved status and where it came from (docs/policy.md precedence).
public struct ResolvedDay: Sendable, Hashable {
    public var date: LocalDate
    public var status: AttendanceStatus?
    public var origin: Origin?
    /// Sources that support the date: automatic sources, plus manual /
    /// import / fallback for the records present, sorted.
    public var sources: [Source]
    /// The status is a plan not (yet) confirmed by an arrival.
    public var plan: DayRecord.Plan?

    public init(date: LocalDate, status: AttendanceStatus?, origin: Origin?, sources: [Source]) {
        self.date = date
        self.status = status
        self.origin = origin
        self.sources = sources
    }
}

/// Precedence per date: manual > automatic > imported > calendar > fallback
/// (a calendar event ranks as an import, below one actually stored).
public enum Resolver {
    /// The last written record of `origin`: a stored record's id only grows
    /// (a clock set back cannot make an older record win); one not stored
    /// (a calendar event) by its time.
    static func latest(_ origin: Origin, in records: [DayRecord]) -> DayRecord? {
        records.filter { $0.origin == origin }.max { a, b in
            (a.id ?? .max, a.recordedAt) < (b.id ?? .max, b.recordedAt)
        }
    }

    /// The record that decided `day` (`resolve`'s own choice), whose note is
    /// the date's; nil when check-ins or nothing decided it. Every other
    /// record of the date was overruled: its note is never the date's.
    public static func decidingRecord(_ day: ResolvedDay, records: [DayRecord]) -> DayRecord? {
        guard let origin = day.origin, origin != .automatic else { return nil }
        return latest(origin, in: records.filter { $0.date == day.date })
    }

    /// Resolves one date from its records and automatic check-ins (others are ignored).
    /// `short`: its automatic presence is shorter than `min_hours`, so rule 2
    /// does not make it office (docs/policy.md "Time on site"); its sources are still listed.
    /// `today`: a plan (docs/policy.md "Plans need you") gives way to an
    /// arrival on its date, and an office plan whose date is before today
    /// and was never confirmed resolves as if absent; nil: every plan stands.
    public static func resolve(_ date: LocalDate, records: [DayRecord], checkIns: [AutomaticCheckIn],
                               short: Bool = false, today: LocalDate? = nil) -> ResolvedDay {
        let mine = records.filter { $0.date == date }
        let automatic = checkIns.filter { $0.date == date }
        var sources = Set(automatic.map(\.source))
        for record in mine { sources.insert(Source(origin: record.origin)) }
        let sorted = sources.sorted()

        func latest(_ origin: Origin) -> DayRecord? { Self.latest(origin, in: mine) }
        let arrived = !automatic.isEmpty && !short
        if let manual = latest(.manual) {
            guard let plan = manual.plan, manual.status == .office || manual.status == .remote else {
                return ResolvedDay(date: date, status: manual.status, origin: .manual, sources: sorted)
            }
            if !arrived, manual.status == .remote || today.map({ date >= $0 }) ?? true {
                var day = ResolvedDay(date: date, status: manual.status, origin: .manual, sources: sorted)
                day.plan = plan
                return day
            }
            // Confirmed or overruled by an arrival (below), or an office plan never confirmed: as if absent.
        }
        if arrived {
            return ResolvedDay(date: date, status: .office, origin: .automatic, sources: sorted)
        }
        if let imported = latest(.import) {
            return ResolvedDay(date: date, status: imported.status, origin: .import, sources: sorted)
        }
        if let event = latest(.calendar) {
            return ResolvedDay(date: date, status: event.status, origin: .calendar, sources: sorted)
        }
        if let fallback = latest(.fallback) {
            return ResolvedDay(date: date, status: fallback.status, origin: .fallback, sources: sorted)
        }
        return ResolvedDay(date: date, status: nil, origin: nil, sources: sorted)
    }

    /// Resolves every date of `span` at once (grouping first, so it is linear);
    /// `short` holds the dates whose automatic presence is too short.
    public static func resolve(_ span: DateSpan, records: [DayRecord], checkIns: [AutomaticCheckIn],
                               short: Set<LocalDate> = [], today: LocalDate? = nil) -> [LocalDate: ResolvedDay] {
        let recordsByDate = Dictionary(grouping: records.filter { span.contains($0.date) }, by: \.date)
        let checkInsByDate = Dictionary(grouping: checkIns.filter { span.contains($0.date) }, by: \.date)
        var result: [LocalDate: ResolvedDay] = [:]
        for date in Set(recordsByDate.keys).union(checkInsByDate.keys) {
            result[date] = resolve(date, records: recordsByDate[date] ?? [], checkIns: checkInsByDate[date] ?? [],
                                   short: short.contains(date), today: today)
        }
        return result
    }
}

extension Source {
    /// The source recorded for a non-automatic origin.
    public init(origin: Origin) {
        switch origin {
        case .manual: self = .manual
        case .import: self = .import
        case .fallback: self = .fallback
        case .calendar: self = .calendar
        case .automatic: self = .external
        }
    }
}

/// The resolved status of every date of a span, without sources: what views
/// over a long history (streaks, weekly charts) need, in one flat array
/// indexed by day so a ten-year lookup costs no hashing.
public struct DayStatuses: Sendable {
    public let span: DateSpan
    private var statuses: [AttendanceStatus?]
    private let first: Int

    /// The status of `date`, or nil when it has no record or lies outside the span.
    public subscript(date: LocalDate) -> AttendanceStatus? {
        let index = date.dayNumber - first
        return statuses.indices.contains(index) ? statuses[index] : nil
    }

    /// One stored record as a long history needs it: no note, no time.
    public struct Entry: Sendable {
        public var date: LocalDate
        public var status: AttendanceStatus
        public var origin: Origin

        public init(date: LocalDate, status: AttendanceStatus, origin: Origin) {
            self.date = date
            self.status = status
            self.origin = origin
        }
    }

    /// Resolves `span` from records given oldest first (by the time they
    /// were written, then id, as the store keeps them): among records of one
    /// origin on one date the last given wins, which is `Resolver`'s "latest".
    /// Precedence as `Resolver`: manual > automatic > imported > fallback.
    public init(_ span: DateSpan, orderedRecords: [Entry], checkInDates: [LocalDate]) {
        self.span = span
        first = span.start.dayNumber
        let count = span.count
        statuses = Array(repeating: nil, count: count)
        var rank = [UInt8](repeating: 0, count: count)
        for record in orderedRecords {
            let index = record.date.dayNumber - first
            guard index >= 0, index < count else { continue }
            let recordRank = Self.rank(record.origin)
            if recordRank >= rank[index], recordRank > 0 {
                rank[index] = recordRank
                statuses[index] = record.status
            }
        }
        // An automatic check-in makes the date office unless a manual record decided it.
        for date in checkInDates {
            let index = date.dayNumber - first
            guard index >= 0, index < count, rank[index] < 4 else { continue }
            rank[index] = 4
            statuses[index] = .office
        }
    }

    /// Replaces one date's status (a date outside the span is ignored): a
    /// kept history with one date read again.
    public mutating func set(_ date: LocalDate, _ status: AttendanceStatus?) {
        let index = date.dayNumber - first
        guard statuses.indices.contains(index) else { return }
        statuses[index] = status
    }

    /// What decided a slot: 0 nothing, then fallback < calendar < import < automatic (4) < manual.
    private static func rank(_ origin: Origin) -> UInt8 {
        switch origin {
        case .manual: 5
        case .import: 3
        case .calendar: 2
        case .fallback: 1
        case .automatic: 0
        }
    }
}
