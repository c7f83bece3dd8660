import Foundation

/// One change to a date's entries: what the store applies (`DayRows.apply`),
/// and what a syncing device journals (docs/cli.md "Journal format").
public enum JournalChange: Sendable, Equatable {
    /// An automatic sign (arrival or departure) of a source on a date.
    case sign(LatestSign, rule: String?)
    /// A manual, imported or fallback record; `ifEmpty`: a fallback, written
    /// only when the date has no record and no check-in when it is replayed.
    /// `plan`: a manual record that is a plan (docs/policy.md "Plans need you").
    case record(date: LocalDate, status: AttendanceStatus, origin: Origin, note: String?, ifEmpty: Bool,
                plan: DayRecord.Plan? = nil)
    /// `deskdays clear`: the date's entries of these origins go, each leaving a removal.
    case clear(date: LocalDate, origins: Set<Origin>)
    /// A check-in from before time on site kept signs (history): the
    /// (date, source)'s first arrival, with no latest sign.
    case checkIn(AutomaticCheckIn)
    /// A removal from before sync was enabled (history), as explain lists it.
    case removed(date: LocalDate, origin: Origin, entry: String)

    public var date: LocalDate {
        switch self {
        case .sign(let sign, _): sign.date
        case .checkIn(let checkIn): checkIn.date
        case .record(let date, _, _, _, _, _), .clear(let date, _), .removed(let date, _, _): date
        }
    }
}

/// What one journaled change did here.
public enum JournalOutcome: Sendable, Equatable {
    /// A sign or a check-in: whether it added a check-in (the first arrival of its source that date).
    case sign(addedCheckIn: Bool)
    /// A record: whether it was written (a fallback is not, on a date with entries).
    case record(written: Bool)
    case clear([Removal])
    case removed
}

/// An entry the user removed with `deskdays clear`: what it was (in words,
/// no identifiers: a status or a source and rule name) and when it went.
/// Kept so that nothing leaves the history silently (docs/design.md, "Storage").
public struct Removal: Sendable, Equatable {
    public var date: LocalDate
    public var origin: Origin
    /// "office record", "gps check-in, rule \"hq\"".
    public var entry: String
    public var removedAt: Date

    public init(date: LocalDate, origin: Origin, entry: String, removedAt: Date) {
        self.date = date
        self.origin = origin
        self.entry = entry
        self.removedAt = removedAt
    }
}

/// Where a syncing device's changes are written (docs/design.md "Sync"):
/// journaled as its next lines, each applied in the transaction of its line
/// (all or none), then published to its file in the folder. The pipeline
/// writes through it; DeskDaysSync's `Synchronizer` (the folder) and a
/// database that synced once (its lines kept for when `[sync]` is on again) are one.
public protocol Journal: Sendable {
    func journal(_ changes: [JournalChange], now: ClockTime) throws -> [JournalOutcome]
    /// Writes the lines journaled to the folder (nothing without one).
    func publish() throws
}

extension Journal {
    public func publish() throws {}
}
