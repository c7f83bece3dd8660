import Localization
import DeskDaysCore
import Foundation
import GRDB
import GRDBSQLite

extension AttendanceStore {
    // MARK: - Writing

    /// Stores `records` (manual, imported or fallback) in one transaction: all or none.
    public func addRecords(_ records: [DayRecord]) throws {
        try write { db in
            for record in records {
                var row = RecordRow(record)
                try row.insert(db)
            }
        }
    }

    /// Stores a fallback `record` only when its date has no record and no
    /// check-in at all; returns whether it did.
    ///
    /// One immediate transaction, so the test and the insert cannot be split
    /// by another writer (the agent and a CLI command may both be running);
    /// the rule is `DayRows.apply`'s, as for a journal line.
    public func addRecordIfDateIsEmpty(_ record: DayRecord) throws -> Bool {
        try write { db in
            let change = JournalChange.record(date: record.date, status: record.status, origin: record.origin,
                                              note: record.note, ifEmpty: true)
            return try Self.apply(db, change, wall: UTCTimestamp.milliseconds(record.recordedAt)) == .record(written: true)
        }
    }

    /// Stores an automatic check-in; false (and nothing written) when its
    /// (date, source) is already stored — the UNIQUE index decides, so this
    /// holds across restarts and processes.
    @discardableResult
    public func insertCheckIn(_ checkIn: AutomaticCheckIn) throws -> Bool {
        let row = CheckInRow(checkIn)
        return try writeStatement { db in
            // ON CONFLICT names the one constraint that may be skipped;
            // INSERT OR IGNORE would also swallow CHECK failures.
            try db.cachedStatement(sql: """
                INSERT INTO checkin (date, source, rule, at) VALUES (?, ?, ?, ?)
                ON CONFLICT (date, source) DO NOTHING
                """).execute(arguments: [row.date, row.source, row.rule, row.at])
            return db.changesCount > 0
        }
    }

    /// Stores an automatic sign (docs/policy.md "Time on site") in one
    /// transaction: an arrival becomes the (date, source)'s check-in when it
    /// is the first, or replaces a later one (so `first_seen` is the
    /// earliest); any sign becomes the (date, source)'s latest sign when no
    /// later one is stored. Returns whether a new check-in row was added
    /// (false for a departure, or a source already seen that date).
    @discardableResult
    public func insertSign(_ sign: LatestSign, rule: String?) throws -> Bool {
        try write { db in try Self.apply(db, .sign(sign, rule: rule), wall: UTCTimestamp.milliseconds(sign.at)) }
            == .sign(addedCheckIn: true)
    }

    /// Stores `changes` in one transaction, all or none, in a database that
    /// does not journal (a syncing one journals them: `journal`). A sign is
    /// stamped with its own time, anything else with `now`; the rules are
    /// `DayRows.apply`'s, as for a journal line.
    @discardableResult
    public func apply(_ changes: [JournalChange], now: Date) throws -> [JournalOutcome] {
        try write { db in
            try Self.apply(db, changes.map { change in
                let time: Date = if case .sign(let sign, _) = change { sign.at } else { now }
                return (change, UTCTimestamp.milliseconds(time))
            })
        }
    }

    /// Applies `changes` in order, each as of its clock time (milliseconds),
    /// each date's run of changes loaded and saved once.
    static func apply(_ db: Database, _ changes: [(change: JournalChange, wall: Int64)]) throws -> [JournalOutcome] {
        var day: DayRows?
        var sequence = 0
        var outcomes: [JournalOutcome] = []
        outcomes.reserveCapacity(changes.count)
        for (change, wall) in changes {
            if day?.date != change.date {
                try day?.save(db)
                day = try DayRows.load(db, change.date)
            }
            outcomes.append(day!.apply(change, wall: wall, sequence: &sequence))
        }
        try day?.save(db)
        return outcomes
    }

    /// Of `signs`, those that would change what is stored: an arrival
    /// earlier than its (date, source)'s check-in, or a sign later than its
    /// latest sign (or as late, of another kind). Importing a time clock's
    /// file again writes nothing (not even journal lines).
    public func changingSigns(_ signs: [LatestSign]) throws -> [LatestSign] {
        guard let first = signs.map(\.date).min(), let last = signs.map(\.date).max() else { return [] }
        struct Key: Hashable { var date: String, source: String }
        let (arrivals, latest) = try read { db -> ([Key: String], [Key: (at: String, kind: String)]) in
            var arrivals: [Key: String] = [:], latest: [Key: (at: String, kind: String)] = [:]
            let bounds = Self.bounds(DateSpan(first, last))
            for row in try Row.fetchAll(db, sql: "SELECT date, source, at FROM checkin WHERE date BETWEEN ? AND ?", arguments: bounds) {
                arrivals[Key(date: row[0], source: row[1])] = row[2]
            }
            for row in try Row.fetchAll(db, sql: "SELECT date, source, at, kind FROM sign WHERE date BETWEEN ? AND ?", arguments: bounds) {
                latest[Key(date: row[0], source: row[1])] = (row[2], row[3])
            }
            return (arrivals, latest)
        }
        return signs.filter { sign in
            let key = Key(date: sign.date.description, source: sign.source.rawValue), at = UTCTimestamp.string(from: sign.at)
            guard let known = latest[key], known.at > at || (known.at == at && known.kind == sign.kind.rawValue) else { return true }
            return sign.kind == .arrival && (arrivals[key].map { $0 > at } ?? true)
        }
    }

    // MARK: - Reading

    /// The sources whose arrival lasts until a departure (`Source.staysPresent`), as an SQL list.
    static let staying = Source.allCases.filter(\.staysPresent).map { "'\($0.rawValue)'" }.joined(separator: ", ")

    /// Each date of `span` with a check-in, its signs summed up (`DaySigns`):
    /// one grouped scan of the check-ins, one row per date, for ten years of
    /// streaks. Each check-in meets the sign of its own date and source (both
    /// are unique per date and source), so a departure counts only after an
    /// arrival of its own source that date, and a sign with no check-in is
    /// never read (a correlated EXISTS per sign cost a third more).
    public func daySigns(in span: DateSpan) throws -> [DaySigns] {
        try read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT k.date, MIN(k.at), MAX(k.at), MAX(s.at),
                       IFNULL(MAX(s.kind = 'arrival' AND s.source IN (\(Self.staying))), 0)
                FROM checkin k LEFT JOIN sign s ON s.date = k.date AND s.source = k.source
                WHERE k.date BETWEEN ?1 AND ?2 GROUP BY k.date ORDER BY k.date
                """, arguments: Self.bounds(span))
            var result: [DaySigns] = []
            while let row = try rows.next() {
                let lastSign: String? = row[3]
                guard let date = LocalDate(row[0] as String), let first = UTCTimestamp.date(from: row[1]),
                      let last = UTCTimestamp.date(from: row[2]) else {
                    throw StoreError.corrupt(path: path, detail: tr("a check-in holds a value this build cannot read"))
                }
                result.append(DaySigns(date: date, firstArrival: first, lastArrival: last,
                                       lastSign: lastSign.flatMap(UTCTimestamp.date(from:)), present: (row[4] as Int) != 0))
            }
            return result
        }
    }

    /// The latest sign of each (date, source) whose date is in `span` (all when nil).
    public func latestSigns(in span: DateSpan?) throws -> [LatestSign] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT date, source, at, kind FROM sign WHERE date BETWEEN ? AND ? ORDER BY date, at, id
                """, arguments: Self.bounds(span))
            return try rows.compactMap { row -> LatestSign? in
                guard let date = LocalDate(row[0] as String), let source = Source(rawValue: row[1]),
                      let at = UTCTimestamp.date(from: row[2]), let kind = CheckInEvent.Kind(rawValue: row[3]) else {
                    // A source this build does not know (a newer adapter's) is skipped, not damage.
                    if Source(rawValue: row[1] as String) == nil, LocalDate(row[0] as String) != nil { return nil }
                    throw StoreError.corrupt(path: path, detail: tr("a sign row holds a value this build cannot read"))
                }
                return LatestSign(date: date, source: source, at: at, kind: kind)
            }
        }
    }

    /// Records whose date is in `span` (all when nil), by date, then in the order written.
    public func records(in span: DateSpan?) throws -> [DayRecord] {
        try read { db in
            // Plain SQL rather than the query builder: reports call this on
            // every run, and the builder's generic set-up costs more than the query.
            let rows = try RecordRow.fetchAll(db, sql: """
                SELECT id, date, status, origin, note, recordedAt, plan FROM record
                WHERE date BETWEEN ? AND ? ORDER BY date, id
                """, arguments: Self.bounds(span))
            return try rows.map { row in
                guard let record = row.dayRecord else {
                    throw StoreError.corrupt(path: path, detail: tr("record \(row.id ?? 0) holds a value this build cannot read"))
                }
                return record
            }
        }
    }

    /// Every record's date, status and origin in `span`, oldest written
    /// first (by date, then id: the order written, whatever the clock said): what `DayStatuses` needs of ten
    /// years of records, without their notes and timestamps.
    public func statusHistory(in span: DateSpan) throws -> [DayStatuses.Entry] {
        try read { db in try statusEntries(db, where: "date BETWEEN ? AND ?", Self.bounds(span)) }
    }

    /// `statusHistory` and `checkInDates` of some dates only, in one read:
    /// what a kept history (`HistoryCache`) reads again after writes touched them.
    public func statusInputs(on dates: Set<LocalDate>) throws -> (records: [DayStatuses.Entry], checkInDates: [LocalDate]) {
        let list = dates.sorted().map(\.description)
        let filter = "date IN (" + Array(repeating: "?", count: list.count).joined(separator: ",") + ")"
        return try read { db in
            (try statusEntries(db, where: filter, StatementArguments(list)),
             try checkInDateList(db, where: filter, StatementArguments(list)))
        }
    }

    private func statusEntries(_ db: Database, where filter: String, _ arguments: StatementArguments) throws -> [DayStatuses.Entry] {
        var entries: [DayStatuses.Entry] = []
        // An office plan is no attendance in a history: confirmed, its
        // check-in says office; never confirmed, the date is as if it were
        // absent (docs/policy.md "Plans need you"; the dates a report shows
        // are resolved in full by `Resolver`).
        try SQLiteStatement.forEachRow(db, """
            SELECT date, status, origin FROM record
            WHERE (\(filter)) AND NOT (plan IS NOT NULL AND status = 'office') ORDER BY date, id
            """, arguments: arguments) { text in
            // A date that is not a real one (2026-02-30) is damage, as is an unknown status.
            guard let date = LocalDate(utf8: text(0)),
                  let status = AttendanceStatus(rawValue: String(decoding: text(1), as: UTF8.self)),
                  let origin = Origin(rawValue: String(decoding: text(2), as: UTF8.self)), origin != .automatic else {
                throw StoreError.corrupt(path: path, detail: tr("a record holds a value this build cannot read"))
            }
            entries.append(DayStatuses.Entry(date: date, status: status, origin: origin))
        }
        return entries
    }

    /// The distinct dates with at least one automatic check-in: all that
    /// resolution needs of them beyond a report's own period (streaks read
    /// the whole history), without decoding every row.
    public func checkInDates(in span: DateSpan?) throws -> [LocalDate] {
        try read { db in try checkInDateList(db, where: "date BETWEEN ? AND ?", Self.bounds(span)) }
    }

    private func checkInDateList(_ db: Database, where filter: String, _ arguments: StatementArguments) throws -> [LocalDate] {
        // The distinct dates, in order (the index gives them so), parsed here.
        var dates: [LocalDate] = []
        try SQLiteStatement.forEachRow(db, """
            SELECT DISTINCT date FROM checkin WHERE \(filter) ORDER BY date
            """, arguments: arguments) { text in
            guard let date = LocalDate(utf8: text(0)) else {
                throw StoreError.corrupt(path: path, detail: tr("a check-in has a date this build cannot read"))
            }
            dates.append(date)
        }
        return dates
    }

    /// Automatic check-ins whose date is in `span` (all when nil), by date and time.
    public func checkIns(in span: DateSpan?) throws -> [AutomaticCheckIn] {
        try read { db in
            let rows = try CheckInRow.fetchAll(db, sql: """
                SELECT id, date, source, rule, at FROM checkin
                WHERE date BETWEEN ? AND ? ORDER BY date, at, id
                """, arguments: Self.bounds(span))
            return try rows.map { row in
                guard let checkIn = row.automaticCheckIn else {
                    throw StoreError.corrupt(path: path, detail: tr("check-in \(row.id ?? 0) holds a value this build cannot read"))
                }
                return checkIn
            }
        }
    }

    /// The earliest and latest date with any record or check-in; nil for an empty database.
    public func dateRange() throws -> DateSpan? {
        try read { db in
            // Each MIN or MAX alone in its own SELECT is one index look-up;
            // MIN and MAX in one SELECT (or over a UNION) scan the whole
            // index (SQLite's min/max optimization takes one aggregate only):
            // 1.2 ms of a ten-year database against 0.04 ms.
            guard let row = try Row.fetchOne(db, sql: """
                SELECT (SELECT MIN(date) FROM record), (SELECT MIN(date) FROM checkin),
                       (SELECT MAX(date) FROM record), (SELECT MAX(date) FROM checkin)
                """) else { return nil }
            let texts: [String] = (0..<4).compactMap { row[$0] }
            let dates = texts.compactMap { LocalDate($0) }
            guard dates.count == texts.count else {
                throw StoreError.corrupt(path: path, detail: tr("a stored date is not YYYY-MM-DD"))
            }
            guard let start = dates.min(), let end = dates.max() else { return nil }
            return DateSpan(start, end)
        }
    }

    /// Whether `PRAGMA integrity_check` (the thorough one) reports `ok`.
    public func integrityCheck() throws -> Bool {
        try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"] }
    }

    // MARK: - Access with errors as StoreError

    /// Runs `body` in a transaction; any failure becomes a `StoreError`.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try dbQueue.write { db in
                try refuseIfReplaced(db)
                try WriteRequest.current?.claim(db, path: path)
                return try body(db)
            }
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    /// Runs a single statement in autocommit mode (its own implicit
    /// transaction, one sync): the cheapest durable write.
    func writeStatement<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try dbQueue.writeWithoutTransaction { db in
                try refuseIfReplaced(db)
                return try body(db)
            }
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    /// The database is the file at its path: one replaced, renamed or
    /// deleted under this process (a restore by `mv`, `rm`) is never written
    /// into (SQLite compares the path's inode with the open file's). The
    /// `whenReplaced` action runs first (the agent restarts).
    private func refuseIfReplaced(_ db: Database) throws {
        var moved: Int32 = 0
        guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK, moved != 0 else { return }
        replacedAction.withLock { $0 }?()
        throw StoreError.replaced(path: path)
    }

    /// What to do when a write finds the database replaced (`refuseIfReplaced`).
    public func whenReplaced(_ action: @escaping @Sendable () -> Void) {
        replacedAction.withLock { $0 = action }
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try dbQueue.read(body)
        } catch {
            throw StoreError.from(error, path: path)
        }
    }

    /// The `BETWEEN ? AND ?` arguments for `span`; nil means every date
    /// (stored dates are `YYYY-MM-DD`, which sorts between these two).
    static func bounds(_ span: DateSpan?) -> StatementArguments {
        guard let span else { return ["0000-00-00", "9999-99-99"] }
        return [span.start.description, span.end.description]
    }
}

extension AttendanceStore {
    /// SQLite's `PRAGMA data_version` on this store's connection: it changes
    /// when another connection (another process) commits to the file, so a
    /// long-lived reader can tell that what it computed may be stale.
    /// The agent asks at every request, so the pragma runs alone: no
    /// read-only transaction around it (four statements more), its
    /// statement prepared once.
    public func dataVersion() throws -> Int {
        try dbQueue.inDatabase { db in try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0 }
    }

    /// Folds the write-ahead log into the main file as far as no reader
    /// holds it back (a passive checkpoint: it never waits). Returns the log's
    /// frames and those now in the main file.
    public func checkpoint() throws -> (logFrames: Int, folded: Int) {
        do {
            return try dbQueue.writeWithoutTransaction { db in
                let result = try db.checkpoint(.passive)
                return (Int(result.walFrameCount), Int(result.checkpointedFrameCount))
            }
        } catch {
            throw Self.openingError(error, path: path)
        }
    }

    /// Why a backup could not be written.
    public struct BackupFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes a consistent copy of the database to `destination`, a new file
    /// (mode 0600; an existing file is never overwritten), with SQLite's
    /// backup API, and checks the copy with `quick_check`; on failure no
    /// partial copy is left.
    public func backUp(to destination: String) throws(BackupFailure) {
        let created: Bool
        do {
            created = try FileAccess.createPrivateFile(destination)
        } catch {
            throw BackupFailure(description: "\(error)")
        }
        guard created else { throw BackupFailure(description: tr("the file exists, and a backup never overwrites one")) }
        do {
            let copy = try DatabaseQueue(path: destination, configuration: Self.baseConfiguration(busyTimeout: 0))
            defer { try? copy.close() }
            try dbQueue.backup(to: copy)
            // Restored, the copy must not write this device's journal lines
            // again (the original has gone on numbering them): it goes on
            // as a new device (`continueAsNewDevice`).
            try copy.write { try $0.execute(sql: "UPDATE sync_device SET forgotten = 1 WHERE self = 1") }
            let problems = try copy.read { try String.fetchAll($0, sql: "PRAGMA quick_check") }
            guard problems == ["ok"] else {
                throw BackupFailure(description: tr("the copy fails quick_check: \(problems.prefix(3).joined(separator: "; "))"))
            }
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            if let failure = error as? BackupFailure { throw failure }
            throw BackupFailure(description: (error as? DatabaseError)?.plainMessage ?? "\(error)")
        }
    }
}
