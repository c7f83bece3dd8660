import Localization
import DeskDaysCore
import DeskDaysStore
import Foundation
import Logging

/// The single write path: every check-in and record goes through here.
///
/// docs/design.md "Data flow": adapters own debounce of their own signal; the
/// pipeline owns per-day deduplication. An automatic sign is placed on its
/// date (`policy.localDate(of:)`: the zone and `day_starts_at`); an arrival
/// is a check-in only if it is the first of its source that date (the
/// store's UNIQUE index makes this hold across restarts), and every sign,
/// arrival or departure, may be its source's latest of the date (time on site). Precedence between manual, automatic, imported and fallback is
/// not decided here: everything is kept and `Resolver` reads it.
///
/// Every method returns only after its write is committed with
/// `synchronous = FULL`: that is what "acknowledged" means. Logs carry
/// sources, dates and rule names, never identifiers.
public actor CheckInPipeline {
    private let store: AttendanceStore
    private let policy: Policy
    /// This machine's clock: what lines and records are stamped with, and
    /// what an event's time is checked against; never the date a command
    /// answers for (`AskedTime`).
    private let now: @Sendable () -> ClockTime
    private let logger: Logger
    /// Sync (docs/design.md "Sync"): when set, every change is journaled
    /// and a method returns only after its line is in this device's file in
    /// the folder (when there is one: a database that synced once journals
    /// even while `[sync]` is off, so that turning it on again sends every
    /// change made meanwhile).
    private let journal: (any Journal)?

    public init(store: AttendanceStore, policy: Policy, now: @escaping @Sendable () -> ClockTime = ClockTime.now,
                logger: Logger = Logger(label: "deskdays.pipeline"), journal: (any Journal)? = nil) {
        self.store = store
        self.policy = policy
        self.now = now
        self.logger = logger
        self.journal = journal
    }

    /// Whether changes are journaled.
    private var journaled: Bool { journal != nil }

    /// Journals `changes` and writes their lines to the folder.
    private func journal(_ changes: [JournalChange]) throws -> [JournalOutcome] {
        guard let journal else { return [] }
        let outcomes = try journal.journal(changes, now: now())
        do {
            try journal.publish()
        } catch {
            // Committed in the database: the next publish writes the line.
            // (A command has already warned about the folder.)
            logger.notice("\(error)")
        }
        return outcomes
    }

    /// A check-in the pipeline refuses to store, as one sentence.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Stores an automatic sign: an arrival is a check-in if it is the first
    /// of its source on its date (after `day_starts_at`); every sign may be
    /// its source's latest of the date (time on site).
    /// Every door leads here, so the range of dates is enforced here too.
    /// `asked`: the time the submitting command answers for (`deskdays event
    /// --today`), which the event may not be more than a day after; else this clock.
    public func submit(_ event: CheckInEvent, asked: AskedTime? = nil) throws -> SubmitOutcome {
        let date = policy.localDate(of: event.time)
        guard date.isSupported else {
            throw Refusal(description: tr("a check-in on \(date) is \(LocalDate.unsupportedPhrase)"))
        }
        guard event.time.timeIntervalSince(asked?.date ?? now().date) <= Validation.furthestAhead else {
            throw Refusal(description: tr("a check-in stamped \(date) is more than a day after now; check the time (and the clock)"))
        }
        // Departures feed time on site (docs/policy.md): the store keeps the
        // first arrival and the latest sign of each (date, source), no more.
        let sign = LatestSign(date: date, source: event.source, at: event.time, kind: event.kind)
        let stored: Bool
        if journaled {
            stored = try journal([.sign(sign, rule: event.rule)]) == [.sign(addedCheckIn: true)]
        } else {
            stored = try store.insertSign(sign, rule: event.rule)
        }
        logger.debug(event.kind == .departure ? "departure noted"
                     : stored ? "check-in stored" : "check-in already recorded for the day",
                     metadata: ["source": "\(event.source.rawValue)", "date": "\(date)",
                                "rule": "\(event.rule ?? "-")"])
        return stored ? .stored(date) : .duplicate(date)
    }

    /// Records a manual status for each date, in one transaction.
    ///
    /// Earlier manual records of those dates are kept: the latest wins (docs/policy.md).
    /// `today`: the writing command's today (nil: this clock's), which
    /// decides which records are plans (docs/policy.md "Plans need you");
    /// `planner`: every date is an office plan of `deskdays plan --write`.
    public func recordManual(dates: [LocalDate], status: AttendanceStatus, note: String?,
                             today: LocalDate? = nil, planner: Bool = false) throws {
        if let wrong = dates.first(where: { !$0.isSupported }) {
            throw Refusal(description: tr("\(wrong) is \(LocalDate.unsupportedPhrase)"))
        }
        // One reading of the clock: the record's time, and today when not given.
        let reading = today == nil || !journaled ? now() : nil
        let today = today ?? policy.localDate(of: reading!.date)
        let plan = { (date: LocalDate) -> DayRecord.Plan? in
            planner ? .planner : DayRecord.plan(for: status, on: date, today: today)
        }
        if journaled {
            _ = try journal(dates.map { .record(date: $0, status: status, origin: .manual, note: note, ifEmpty: false, plan: plan($0)) })
        } else {
            let recordedAt = reading!.date
            try store.addRecords(dates.map {
                DayRecord(date: $0, status: status, origin: .manual, note: note, recordedAt: recordedAt, plan: plan($0))
            })
        }
        logger.info("manual record", metadata: ["status": "\(status.rawValue)", "dates": "\(dates.count)"])
    }

    /// Records `dates` as office plans of `deskdays plan --write` (docs/policy.md
    /// "Planning"): manual office records marked `DayRecord.Plan.planner`.
    public func recordPlans(dates: [LocalDate], today: LocalDate) throws {
        try recordManual(dates: dates, status: .office, note: nil, today: today, planner: true)
    }

    /// Removes the entries of `date` with one of `origins` (automatic
    /// check-ins, manual, imported or fallback records), recording each
    /// removal (`explain` lists them); returns what was removed.
    public func clear(date: LocalDate, origins: Set<Origin>) throws -> [Removal] {
        let removed: [Removal]
        if journaled {
            guard case .clear(let list)? = try journal([.clear(date: date, origins: origins)]).first else { return [] }
            removed = list
        } else {
            removed = try store.remove(on: date, origins: origins, at: now().date)
        }
        logger.info("entries cleared", metadata: ["date": "\(date)", "removed": "\(removed.count)"])
        return removed
    }

    /// Stores imported records in one transaction; returns how many were added.
    ///
    /// Only the last row of each date counts (a date's latest imported
    /// record is the one that resolves it, docs/policy.md), and it is skipped when
    /// it equals (status, note) that date's latest imported record already
    /// stored: importing the same file twice changes nothing, while a file
    /// that says otherwise than the last import wins, even when an older
    /// import said the same.
    public func importRecords(_ records: [(LocalDate, AttendanceStatus, String?)]) throws -> Int {
        try importRows(signs: [], records: records).records
    }

    /// A time clock's file in one transaction, all or none: its signs
    /// (source `import`, each row's departure on its arrival's date: one
    /// shift, docs/policy.md "Time on site: time-clock rows") and its
    /// records (as `importRecords`). Only what changes the database is
    /// written, so a second import of the same file writes nothing; returns
    /// how many signs and records were written.
    public func importRows(signs: [LatestSign], records: [(LocalDate, AttendanceStatus, String?)]) throws -> (signs: Int, records: Int) {
        let changing = try store.changingSigns(signs)
        let added = try newImports(records)
        // By date (stable), so that each date is loaded and saved once.
        let changes = (changing.map { JournalChange.sign($0, rule: nil) }
            + added.map { .record(date: $0.date, status: $0.status, origin: .import, note: $0.note, ifEmpty: false) })
            .enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
        if changes.isEmpty { return (0, 0) }
        if journaled {
            _ = try journal(changes)
        } else {
            try store.apply(changes, now: now().date)
        }
        logger.info("records imported", metadata: ["added": "\(added.count)", "skipped": "\(records.count - added.count)",
                                                   "signs": "\(changing.count)"])
        return (changing.count, added.count)
    }

    /// The imported records that change something (see `importRecords`).
    private func newImports(_ records: [(LocalDate, AttendanceStatus, String?)]) throws -> [DayRecord] {
        guard let first = records.map(\.0).min(), let last = records.map(\.0).max() else { return [] }
        struct Row: Equatable {
            var status: AttendanceStatus
            var note: String?
        }
        var stored: [LocalDate: Row] = [:]
        // In the order written, so the latest of each date stays.
        for record in try store.records(in: DateSpan(first, last)) where record.origin == .import {
            stored[record.date] = Row(status: record.status, note: record.note)
        }
        var wanted: [LocalDate: Row] = [:]
        var dates: [LocalDate] = []
        for (date, status, note) in records {
            if wanted.updateValue(Row(status: status, note: note), forKey: date) == nil { dates.append(date) }
        }
        let recordedAt = now().date
        return dates.compactMap { date -> DayRecord? in
            guard let row = wanted[date], row != stored[date] else { return nil }
            return DayRecord(date: date, status: row.status, origin: .import, note: row.note, recordedAt: recordedAt)
        }
    }

    /// Writes the end-of-day fallback for `date`, only when the date has no
    /// record and no check-in at all; returns whether it did.
    public func writeFallback(date: LocalDate, status: AttendanceStatus) throws -> Bool {
        let written: Bool
        if journaled {
            written = try journal([.record(date: date, status: status, origin: .fallback, note: nil, ifEmpty: true)])
                == [.record(written: true)]
        } else {
            written = try store.addRecordIfDateIsEmpty(
                DayRecord(date: date, status: status, origin: .fallback, recordedAt: now().date))
        }
        logger.info(written ? "fallback recorded" : "fallback not needed",
                    metadata: ["date": "\(date)", "status": "\(status.rawValue)"])
        return written
    }
}
