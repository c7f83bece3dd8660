import Localization
import DeskDaysCore
import Foundation
import GRDB

/// A device that syncs, as this database knows it.
public struct SyncDevice: Sendable, Equatable {
    public var id: String
    public var name: String
    public var isSelf: Bool
    public var forgotten: Bool
    /// Bytes of its journal file merged so far.
    public var mergedBytes: Int64
    /// Lines of its journal held here.
    public var lines: Int
    public var lastSeq: Int64
    /// The clock time of its latest change.
    public var lastChange: Date?
    /// Its own wall clock when it wrote its newest line (the greatest seq).
    public var lastClock: Date?
    /// Where the read of an inbox file stopped, and a digest of the bytes
    /// before that place (`Synchronizer.readInbox`); nil for journals.
    public var readState: String? = nil
    /// Its own wall clock when it wrote its first line held here (the
    /// lowest seq): when it first appeared (nil: no line yet, or lines
    /// from a version that did not stamp its clock).
    public var firstClock: Date? = nil
}
/// What the dates of a merge held before it (`SyncTables.held`).
public struct SyncHeld: Sendable {
    /// A date's latest line: clock time (wall, counter), device id, seq.
    public var latest: [String: (wall: Int64, counter: Int64, device: String, seq: Int64)] = [:]
    /// Dates that hold nothing at all.
    public var empty: Set<String> = []
    /// Every date holds nothing (the usual case of a long merge).
    public var nothing = false

    public func holdsNothing(_ date: String) -> Bool { nothing || empty.contains(date) }
}

/// Sync's tables (docs/design.md "Sync"): `sync_device`, the devices, and
/// `sync_op`, their journal lines (`SyncOp`). The store keeps and reads
/// them, and applies changes to a date's rows (`DayRows`); what a line
/// means, when lines are written and how a merge is planned is
/// DeskDaysSync's, which composes these statements in one transaction
/// (`syncWrite`, `SyncTables`).
extension AttendanceStore {
    /// This device's id and name; nil until sync is enabled.
    public func syncIdentity() throws -> (id: String, name: String)? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT id, name FROM sync_device WHERE self = 1").map { ($0[0], $0[1]) }
        }
    }
    /// Whether this database must not write its device's journal again:
    /// it is a copy `backUp` made (the original goes on writing it).
    public func identityIsRetired() throws -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT forgotten FROM sync_device WHERE self = 1") ?? false }
    }

    /// This device's lines held here with a seq in `seqs`, by seq.
    public func ownLines(in seqs: ClosedRange<Int64>) throws -> [Int64: SyncOp] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(Self.opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
                WHERE d.self = 1 AND sync_op.seq BETWEEN ? AND ?
                """, arguments: [seqs.lowerBound, seqs.upperBound])
            return Dictionary(rows.map(Self.entry).map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }
    /// The seqs of device `id`'s lines that another of its lines stands for
    /// (`SyncOp.replaces`); none for an unknown device.
    public func replacedSeqs(of id: String) throws -> Set<Int64> {
        try read { db in
            guard let number = try Int64.fetchOne(db, sql: "SELECT number FROM sync_device WHERE id = ?", arguments: [id]) else { return [] }
            return try Self.replacedSeqs(db, device: number)
        }
    }
    /// A step back of this machine's clock smaller than this is no
    /// correction (NTP slews and small steps).
    public static let clockStepTolerance: TimeInterval = 600
    /// Whether this machine's clock is more than `clockStepTolerance`
    /// before the clock of this device's newest line (`correctClock`'s case).
    public func clockWentBack(now: ClockTime) throws -> Bool {
        try read { db in
            guard let text = try String.fetchOne(db, sql: "SELECT lastClock FROM sync_device WHERE self = 1"),
                  let last = UTCTimestamp.date(from: text) else { return false }
            return last.timeIntervalSince(now.date) > Self.clockStepTolerance
        }
    }

    /// Each device's lines that stand for earlier ones (`correctClock`), by
    /// device name: how many, and the newest one's clock (when it was set right).
    public func clockCorrections() throws -> [(name: String, isSelf: Bool, lines: Int, at: Date?)] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.name, d.self, COUNT(*), MAX(o.clock) FROM sync_op o JOIN sync_device d ON d.number = o.device
                WHERE o.replaces IS NOT NULL GROUP BY d.number ORDER BY d.self DESC, d.name
                """).map { row in (row[0], row[1], row[2], (row[3] as String?).flatMap(UTCTimestamp.date(from:))) }
        }
    }
    /// This device's lines with a seq above `seq`, in order.
    public func ownOps(after seq: Int64) throws -> [SyncOp] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
                WHERE sync_op.device = (SELECT number FROM sync_device WHERE self = 1) AND sync_op.seq > ? ORDER BY sync_op.seq
                """, arguments: [seq]).map(Self.entry)
        }
    }

    /// Every line of device `id` held here, by seq (none for an unknown device).
    public func lines(of id: String) throws -> [SyncOp] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
                WHERE d.id = ? ORDER BY sync_op.seq
                """, arguments: [id]).map(Self.entry)
        }
    }
    /// The lines of device `id` held here with a seq in `seqs`, by seq.
    public func lines(of id: String, in seqs: ClosedRange<Int64>) throws -> [Int64: SyncOp] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(Self.opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
                WHERE d.id = ? AND sync_op.seq BETWEEN ? AND ?
                """, arguments: [id, seqs.lowerBound, seqs.upperBound])
            return Dictionary(rows.map(Self.entry).map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The seqs held here of each of the devices `ids`, by id: one look
    /// for many devices (relay files name many).
    public func heldSeqs(of ids: Set<String>) throws -> [String: Set<Int64>] {
        guard !ids.isEmpty else { return [:] }
        return try read { db in
            var held: [String: Set<Int64>] = [:]
            // A few devices by their id; many (an inbox of many files) in one pass over every line.
            let few = ids.count <= 500
            let rows = try Row.fetchCursor(db, sql: "SELECT d.id, o.seq FROM sync_op o JOIN sync_device d ON d.number = o.device"
                                           + (few ? " WHERE d.id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ",")))" : ""),
                                           arguments: few ? StatementArguments(Array(ids)) : StatementArguments())
            while let row = try rows.next() {
                let id: String = row[0]
                if ids.contains(id) { held[id, default: []].insert(row[1]) }
            }
            return held
        }
    }

    /// Keeps `state` as what the read of device `id`'s file knows
    /// beside its place (`SyncDevice.readState`).
    public func setReadState(of id: String, _ state: String) throws {
        try write { db in try db.execute(sql: "UPDATE sync_device SET readState = ? WHERE id = ?", arguments: [state, id]) }
    }

    /// Every device this database knows, this one first, then by name.
    public func syncDevices() throws -> [SyncDevice] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT d.id, d.name, d.self, d.forgotten, d.mergedBytes, d.lines, d.lastSeq, d.lastChange, d.lastClock,
                       d.readState, (SELECT o.clock FROM sync_op o WHERE o.device = d.number ORDER BY o.seq LIMIT 1)
                FROM sync_device d ORDER BY d.self DESC, d.name, d.id
                """).map { row in
                SyncDevice(id: row[0], name: row[1], isSelf: row[2], forgotten: row[3], mergedBytes: row[4], lines: row[5],
                           lastSeq: row[6], lastChange: (row[7] as String?).flatMap(UTCTimestamp.date(from:)),
                           lastClock: (row[8] as String?).flatMap(UTCTimestamp.date(from:)),
                           readState: row[9], firstClock: (row[10] as String?).flatMap(UTCTimestamp.date(from:)))
            }
        }
    }
    /// A date's lines, in clock order (HLC, then device id, then seq).
    public func lines(on date: LocalDate) throws -> [SyncOp] {
        try read { db in try SyncTables(db: db, path: path).lines(on: date.description) }
    }

    /// When each of `records` was written on its own device's clock (its
    /// journal line's `clock`), by record id; a record with no such line
    /// (no sync, a history line) is left out: its `recordedAt` is that
    /// time already. A record's `recordedAt` is its line's clock time (HLC),
    /// which orders records alike on every device but which a device whose
    /// clock ran ahead drags along for everyone: this is the
    /// time shown to people (`explain`, `evidence`).
    public func writtenTimes(of records: [DayRecord]) throws -> [Int64: Date] {
        try read { db in
            var times: [Int64: Date] = [:]
            for record in records {
                guard let id = record.id, let clock = try String.fetchOne(db.cachedStatement(sql: """
                    SELECT clock FROM sync_op WHERE date = ? AND op = 'record' AND wall = ? AND status = ? AND origin = ?
                    ORDER BY counter LIMIT 1
                    """), arguments: [record.date.description, UTCTimestamp.milliseconds(record.recordedAt), record.status.rawValue,
                                      record.origin.rawValue]) else { continue }
                times[id] = UTCTimestamp.date(from: clock)
            }
            return times
        }
    }

    /// Per date in `span`, the names of the devices whose lines touch it, sorted.
    public func deviceNames(in span: DateSpan) throws -> [LocalDate: [String]] {
        try read { db in
            var names: [LocalDate: [String]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT DISTINCT o.date, d.name FROM sync_op o JOIN sync_device d ON d.number = o.device
                WHERE o.date BETWEEN ? AND ? ORDER BY o.date, d.name
                """, arguments: Self.bounds(span)) {
                if let date = LocalDate(row[0] as String) { names[date, default: []].append(row[1]) }
            }
            return names
        }
    }

    /// Runs `body` in one write transaction over sync's tables: all or none.
    public func syncWrite<T>(_ body: (SyncTables) throws -> T) throws -> T {
        try write { db in try body(SyncTables(db: db, path: path)) }
    }

    /// `syncWrite` for a merge: `long` (a device's history) in a page cache
    /// that holds it all, which writes each page once, and the statement
    /// journal (a statement of many rows keeps the pages it changes, to
    /// undo it alone) in memory rather than in a temporary file. Both are
    /// set outside the transaction, where SQLite reads them.
    public func syncMerge<T>(long: Bool, _ body: (SyncTables) throws -> T) throws -> T {
        try writeStatement { db in
            if long { try db.execute(sql: "PRAGMA cache_size = -262144; PRAGMA temp_store = MEMORY") }
            defer { if long { try? db.execute(sql: "PRAGMA cache_size = -2000; PRAGMA temp_store = DEFAULT") } }
            var result: T?
            try db.inTransaction {
                result = try body(SyncTables(db: db, path: path))
                return .commit
            }
            return result!
        }
    }

    /// Applies one change as of clock time `wall` to its date's rows: the
    /// rules of `DayRows.apply`, as every other write.
    static func apply(_ db: Database, _ change: JournalChange, wall: Int64) throws -> JournalOutcome {
        try apply(db, [(change, wall)])[0]
    }
}

/// This device's row of `sync_device`.
public struct SelfDevice: Sendable {
    public var number: Int64
    public var id: String
    public var name: String
    public var lastSeq: Int64
    /// A copy `backUp` made: it must not write this device's journal again.
    public var forgotten: Bool
    public var wall: Int64
    public var counter: Int64
    public var lastChange: String?
    public var lastClock: String?
}

/// Sync's statements inside one transaction (`AttendanceStore.syncWrite`,
/// `syncMerge`): a device is its `number` here, a line a `SyncOp`.
public struct SyncTables {
    let db: Database
    /// The database's path, for errors.
    public let path: String

    /// This device; nil until sync is enabled.
    public func me() throws -> SelfDevice? {
        try Row.fetchOne(db, sql: """
            SELECT number, id, name, lastSeq, forgotten, wall, counter, lastChange, lastClock FROM sync_device WHERE self = 1
            """).map { row in
            SelfDevice(number: row[0], id: row[1], name: row[2], lastSeq: row[3], forgotten: row[4], wall: row[5], counter: row[6],
                       lastChange: row[7], lastClock: row[8])
        }
    }

    public func rename(device number: Int64, to name: String) throws {
        try db.execute(sql: "UPDATE sync_device SET name = ? WHERE number = ?", arguments: [name, number])
    }

    /// Adds this device (`id`, `name`, its clock floor and times); returns its number.
    public func addSelf(id: String, name: String, wall: Int64 = 0, counter: Int64 = 0, lastChange: String? = nil,
                        lastClock: String? = nil) throws -> Int64 {
        try db.execute(sql: """
            INSERT INTO sync_device (id, name, self, wall, counter, lastChange, lastClock) VALUES (?, ?, 1, ?, ?, ?, ?)
            """, arguments: [id, name, wall, counter, lastChange, lastClock])
        return db.lastInsertedRowID
    }

    /// Another device `id` (this one is added by `addSelf`): its number, whether it is forgotten, whether it is this one.
    public func device(_ id: String) throws -> (number: Int64, forgotten: Bool, isSelf: Bool)? {
        try Row.fetchOne(db, sql: "SELECT number, forgotten, self FROM sync_device WHERE id = ?", arguments: [id])
            .map { ($0[0], $0[1], $0[2]) }
    }

    /// Adds device `id` named `name`; returns its number.
    public func addDevice(_ id: String, name: String) throws -> Int64 {
        try db.execute(sql: "INSERT INTO sync_device (id, name) VALUES (?, ?)", arguments: [id, name])
        return db.lastInsertedRowID
    }

    /// Device `number` is no longer this one (nor forgotten), its file read again from its start.
    public func retire(device number: Int64) throws {
        try db.execute(sql: "UPDATE sync_device SET self = 0, forgotten = 0, mergedBytes = 0 WHERE number = ?", arguments: [number])
    }

    /// Device `number` becomes this one, named `name`.
    public func makeSelf(device number: Int64, name: String) throws {
        try db.execute(sql: "UPDATE sync_device SET self = 1, forgotten = 0, name = ? WHERE number = ?", arguments: [name, number])
    }

    /// The records, check-ins, latest signs and removals held, as changes
    /// with their times and kinds (0 to 3, in that order), each kind in the
    /// order it was written: the history `enableSync` journals.
    public func history() throws -> [(at: Date, kind: Int, change: JournalChange)] {
        var history: [(at: Date, kind: Int, change: JournalChange)] = []
        for row in try RecordRow.fetchAll(db, sql: "SELECT id, date, status, origin, note, recordedAt, plan FROM record ORDER BY recordedAt, id") {
            guard let record = row.dayRecord else { continue }
            history.append((record.recordedAt, 0, .record(date: record.date, status: record.status, origin: record.origin,
                                                         note: record.note, ifEmpty: false, plan: record.plan)))
        }
        // A check-in with a latest sign is an arrival; one from before
        // signs were kept (schema v2) is a check-in alone, as it was.
        for row in try Row.fetchAll(db, sql: """
            SELECT c.id, c.date, c.source, c.rule, c.at, EXISTS (SELECT 1 FROM sign s WHERE s.date = c.date AND s.source = c.source)
            FROM checkin c ORDER BY c.at, c.id
            """) {
            guard let checkIn = try CheckInRow(row: row).automaticCheckIn else { continue }
            let hasSign: Bool = row[5]
            history.append((checkIn.at, 1, hasSign
                ? .sign(LatestSign(date: checkIn.date, source: checkIn.source, at: checkIn.at, kind: .arrival), rule: checkIn.rule)
                : .checkIn(checkIn)))
        }
        for row in try Row.fetchAll(db, sql: "SELECT date, source, at, kind FROM sign ORDER BY at, id") {
            guard let date = LocalDate(row[0] as String), let source = Source(rawValue: row[1]),
                  let at = UTCTimestamp.date(from: row[2]), let kind = CheckInEvent.Kind(rawValue: row[3]) else { continue }
            history.append((at, 2, .sign(LatestSign(date: date, source: source, at: at, kind: kind), rule: nil)))
        }
        for row in try Row.fetchAll(db, sql: "SELECT date, origin, entry, removedAt FROM removal ORDER BY removedAt, id") {
            guard let date = LocalDate(row[0] as String), let origin = Origin(rawValue: row[1]),
                  let at = UTCTimestamp.date(from: row[3]) else { continue }
            history.append((at, 3, .removed(date: date, origin: origin, entry: row[2])))
        }
        return history
    }

    /// Keeps `line` as device `number`'s; false when (device, seq) is already held.
    @discardableResult
    public func insert(_ line: SyncOp, device number: Int64) throws -> Bool {
        try AttendanceStore.insertOp(db, line, device: number)
    }

    /// What device `number` had seen of the others (their greatest wall) when it wrote line `seq`.
    public func setKnown(_ known: Int64, device number: Int64, seq: Int64) throws {
        try db.execute(sql: "UPDATE sync_op SET known = ? WHERE device = ? AND seq = ?", arguments: [known, number, seq])
    }

    /// After this device wrote `added` lines up to `lastSeq`: its counts, times and clock floor.
    public func noteWritten(device number: Int64, lastSeq: Int64, added: Int, lastChange: String?, lastClock: String?,
                            wall: Int64, counter: Int64) throws {
        try db.execute(sql: """
            UPDATE sync_device SET lastSeq = ?, lines = lines + ?, lastChange = ?, lastClock = IFNULL(?, lastClock), wall = ?, counter = ?
            WHERE number = ?
            """, arguments: [lastSeq, added, lastChange, lastClock, wall, counter, number])
    }

    /// After this device stamped lines again (`correctClock`).
    public func noteRestamped(device number: Int64, lastSeq: Int64, added: Int, lastClock: String) throws {
        try db.execute(sql: "UPDATE sync_device SET lastSeq = ?, lines = lines + ?, lastClock = ? WHERE number = ?",
                       arguments: [lastSeq, added, lastClock, number])
    }

    /// Device `number`'s lines from seq `first` on, by seq.
    public func lines(device number: Int64, from first: Int64) throws -> [SyncOp] {
        try Row.fetchAll(db, sql: """
            SELECT \(AttendanceStore.opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
            WHERE sync_op.device = ? AND sync_op.seq >= ? ORDER BY sync_op.seq
            """, arguments: [number, first]).map(AttendanceStore.entry)
    }

    /// Device `number`'s lines that stand for none (`replaces` empty), by
    /// seq, each with what its device had seen of the others (`setKnown`).
    public func unreplacingLines(device number: Int64) throws -> [(line: SyncOp, known: Int64?)] {
        try Row.fetchAll(db, sql: """
            SELECT \(AttendanceStore.opColumns), sync_op.known FROM sync_op JOIN sync_device d ON d.number = sync_op.device
            WHERE sync_op.device = ? AND sync_op.replaces IS NULL ORDER BY sync_op.seq
            """, arguments: [number]).map { row in (AttendanceStore.entry(row), row[21]) }
    }

    /// A date's lines, in clock order (HLC, then device id, then seq).
    public func lines(on date: String) throws -> [SyncOp] {
        try Row.fetchAll(db, sql: """
            SELECT \(AttendanceStore.opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
            WHERE sync_op.date = ? ORDER BY sync_op.wall, sync_op.counter, d.id, sync_op.seq
            """, arguments: [date]).map(AttendanceStore.entry)
    }

    /// Line `seq` goes from device `from` to device `to` (dropped when `to` holds it already).
    public func move(seq: Int64, from: Int64, to: Int64) throws {
        try db.execute(sql: "UPDATE OR IGNORE sync_op SET device = ? WHERE device = ? AND seq = ?", arguments: [to, from, seq])
        try db.execute(sql: "DELETE FROM sync_op WHERE device = ? AND seq = ?", arguments: [from, seq])
    }

    /// Device `number`'s line count and last seq, counted again.
    public func recount(device number: Int64) throws {
        try db.execute(sql: """
            UPDATE sync_device SET lines = (SELECT COUNT(*) FROM sync_op WHERE device = ?1),
                lastSeq = IFNULL((SELECT MAX(seq) FROM sync_op WHERE device = ?1), 0) WHERE number = ?1
            """, arguments: [number])
    }

    /// Removes device `id` (not this one)'s lines and marks it forgotten
    /// (its file is ignored from now on); returns the number of lines
    /// removed and the dates they touched, nil for an unknown device.
    public func forget(_ id: String) throws -> (removed: Int, dates: [String])? {
        guard let number = try Int64.fetchOne(db, sql: "SELECT number FROM sync_device WHERE id = ? AND self = 0",
                                              arguments: [id]) else { return nil }
        let dates = try String.fetchAll(db, sql: "SELECT DISTINCT date FROM sync_op WHERE device = ?", arguments: [number])
        try db.execute(sql: "DELETE FROM sync_op WHERE device = ?", arguments: [number])
        let removed = db.changesCount
        try db.execute(sql: "UPDATE sync_device SET forgotten = 1, lines = 0, mergedBytes = 0, readState = NULL WHERE id = ? AND self = 0",
                       arguments: [id])
        return (removed, dates)
    }

    /// The greatest clock time of any line merged or written (each
    /// device's row keeps its own; a forgotten device's stays, a floor).
    public func latestTime() throws -> (wall: Int64, counter: Int64)? {
        try Row.fetchOne(db, sql: "SELECT wall, counter FROM sync_device WHERE wall > 0 ORDER BY wall DESC, counter DESC LIMIT 1")
            .map { ($0[0], $0[1]) }
    }

    /// The greatest wall of the other devices' lines: what this one has seen of them.
    public func othersLatestWall() throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT MAX(wall) FROM sync_device WHERE self = 0")
    }

    /// Whether `date` has no record and no check-in (a fallback's condition).
    public func isEmpty(_ date: LocalDate) throws -> Bool {
        try AttendanceStore.isEmpty(db, date)
    }

    /// Applies `changes` in order to their dates' rows (`DayRows.apply`),
    /// each as of its clock time `wall` (milliseconds).
    @discardableResult
    public func apply(_ changes: [(change: JournalChange, wall: Int64)]) throws -> [JournalOutcome] {
        try AttendanceStore.apply(db, changes)
    }

    /// Rebuilds `date`'s rows from `changes`, applied in order (a date
    /// replayed from its lines).
    public func rebuild(_ date: String, from changes: [(change: JournalChange, wall: Int64)]) throws {
        for table in ["record", "checkin", "sign", "removal"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE date = ?", arguments: [date])
        }
        guard let day = LocalDate(date) else { return }
        var rebuilt = DayRows(day)
        var sequence = 0
        for (change, wall) in changes where change.date == day { _ = rebuilt.apply(change, wall: wall, sequence: &sequence) }
        try rebuilt.save(db)
    }

    /// What the dates of device `device`'s lines among `entries` held before a merge.
    public func held(_ entries: [SyncOp], device: String) throws -> SyncHeld {
        try AttendanceStore.held(db, entries: entries, device: device)
    }

    /// The seqs of device `number`'s lines held here between `low` and `high`.
    public func seqs(device number: Int64, _ low: Int64, _ high: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT seq FROM sync_op WHERE device = ? AND seq BETWEEN ? AND ?", arguments: [number, low, high])
    }

    /// Keeps the new lines `entries[indexes]` of device `number`, many per statement.
    public func keep(_ entries: [SyncOp], _ indexes: [Int], device number: Int64) throws {
        try AttendanceStore.keep(db, entries, indexes, device: number)
    }

    /// The seqs of device `number`'s lines that another of its lines stands for (`replaces`).
    public func replacedSeqs(device number: Int64) throws -> Set<Int64> {
        try AttendanceStore.replacedSeqs(db, device: number)
    }

    /// Sets device `number`'s clock floor to its greatest line that no other line stands for.
    public func resetClock(device number: Int64) throws {
        try AttendanceStore.resetClock(db, device: number)
    }

    /// The merge of a plan (DeskDaysSync's `MergePlan`, in the store's
    /// terms): `applied`, changes applied in order, each date's run loaded
    /// and saved once; then `fresh`, the rows of dates that held nothing,
    /// written at once.
    public func merge(applied: [(change: JournalChange, wall: Int64)], fresh: FreshDays) throws {
        _ = try AttendanceStore.apply(db, applied)
        try fresh.write(db)
    }

    /// After a merge of device `number`'s lines (not this device's): its
    /// name, latest change and clock floor (`latest`), its own clock as of
    /// its newest line (`newest`: seq and clock).
    public func noteMerged(device number: Int64, name: String, latest: (wall: Int64, counter: Int64), lastChange: String,
                           newest: (seq: Int64, clock: String?)) throws {
        try db.execute(sql: """
            UPDATE sync_device SET name = ?,
                lastChange = MAX(IFNULL(lastChange, ''), ?),
                lastClock = CASE WHEN ? IS NULL OR ? < lastSeq THEN lastClock ELSE ? END,
                counter = CASE WHEN (wall, counter) < (?, ?) THEN ? ELSE counter END,
                wall = MAX(wall, ?)
            WHERE number = ?
            """, arguments: [name, lastChange, newest.clock, newest.seq, newest.clock,
                             latest.wall, latest.counter, latest.counter, latest.wall, number])
    }

    /// After a merge: device `number`'s place in its file (nil: unchanged), line count and last seq.
    public func noteRead(device number: Int64, mergedBytes: Int64?, readState: String?, added: Int, lastSeq: Int64) throws {
        try db.execute(sql: """
            UPDATE sync_device SET mergedBytes = IFNULL(?, mergedBytes), readState = IFNULL(?, readState), lines = lines + ?,
                lastSeq = MAX(lastSeq, ?) WHERE number = ?
            """, arguments: [mergedBytes, readState, added, lastSeq, number])
    }
}

extension AttendanceStore {
    /// A line's columns in the order `entry(_:)` reads them, from `sync_op`
    /// joined with its device as `d`.
    static let opColumns = """
        d.id, sync_op.seq, sync_op.wall, sync_op.counter, sync_op.date, sync_op.v, d.name, sync_op.op,
        sync_op.clock, sync_op.source, sync_op.rule, sync_op.at, sync_op.kind, sync_op.status, sync_op.origin, sync_op.note,
        sync_op.ifEmpty, sync_op.origins, sync_op.entry, sync_op.plan, sync_op.replaces
        """

    /// A kept line, back from its columns.
    static func entry(_ row: Row) -> SyncOp {
        var entry = SyncOp(v: row[5], device: row[0], name: row[6], seq: row[1], hlc: row[2], n: row[3], op: row[7], date: row[4])
        entry.clock = row[8]
        entry.source = row[9]
        entry.rule = row[10]
        // UTC milliseconds, or a text that was not in DeskDays' own format.
        switch (row[11] as DatabaseValue).storage {
        case .int64(let milliseconds): entry.at = UTCTimestamp.string(milliseconds: milliseconds)
        case .string(let text): entry.at = text
        default: entry.at = nil
        }
        entry.kind = row[12]
        entry.status = row[13]
        entry.origin = row[14]
        entry.note = row[15]
        entry.ifEmpty = row[16]
        entry.origins = (row[17] as String?).map { $0.isEmpty ? [] : $0.split(separator: ",").map(String.init) }
        entry.entry = row[18]
        entry.plan = row[19]
        entry.replaces = row[20]
        return entry
    }
    /// Keeps a line of device number `device`; false when (device, seq) is already held.
    @discardableResult
    static func insertOp(_ db: Database, _ entry: SyncOp, device: Int64) throws -> Bool {
        let at = entry.at.map { text in UTCTimestamp.milliseconds(from: text)?.databaseValue ?? text.databaseValue } ?? .null
        try db.cachedStatement(sql: """
            INSERT INTO sync_op (device, seq, wall, counter, date, v, op, clock, source, rule, at, kind, status, origin,
                                 note, ifEmpty, origins, entry, plan, replaces)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (device, seq) DO NOTHING
            """).execute(arguments: [device, entry.seq, entry.hlc, entry.n, entry.date, entry.v, entry.op,
                                     entry.clock, entry.source, entry.rule, at, entry.kind, entry.status, entry.origin,
                                     entry.note, entry.ifEmpty, entry.origins?.joined(separator: ","), entry.entry, entry.plan,
                                     entry.replaces])
        return db.changesCount > 0
    }
    /// For the dates of `device`'s lines in `entries`, what each held before
    /// a merge: its latest line (by clock, device, seq), and whether it
    /// holds nothing at all (no line, no row).
    static func held(_ db: Database, entries: [SyncOp], device: String) throws -> SyncHeld {
        var first: String?, last: String?
        for index in entries.indices where entries[index].device == device {
            let date = entries[index].date
            if first.map({ date < $0 }) ?? true { first = date }
            if last.map({ date > $0 }) ?? true { last = date }
        }
        guard let first, let last else { return SyncHeld() }
        // One look for a long merge's usual case: a span held nothing of.
        let holdsAny = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM sync_op WHERE date BETWEEN ?1 AND ?2)
                OR EXISTS (SELECT 1 FROM record WHERE date BETWEEN ?1 AND ?2)
                OR EXISTS (SELECT 1 FROM checkin WHERE date BETWEEN ?1 AND ?2)
                OR EXISTS (SELECT 1 FROM sign WHERE date BETWEEN ?1 AND ?2)
                OR EXISTS (SELECT 1 FROM removal WHERE date BETWEEN ?1 AND ?2)
            """, arguments: [first, last]) ?? true
        guard holdsAny else { return SyncHeld(nothing: true) }
        var held = SyncHeld()
        for date in Set(entries.indices.lazy.filter { entries[$0].device == device }.map { entries[$0].date }) {
            if let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT o.wall, o.counter, d.id, o.seq FROM sync_op o JOIN sync_device d ON d.number = o.device WHERE o.date = ?
                ORDER BY o.wall DESC, o.counter DESC, d.id DESC, o.seq DESC LIMIT 1
                """), arguments: [date]) {
                held.latest[date] = (row[0], row[1], row[2], row[3])
            } else if try !Bool.fetchOne(db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM record WHERE date = ?1) OR EXISTS (SELECT 1 FROM checkin WHERE date = ?1)
                    OR EXISTS (SELECT 1 FROM sign WHERE date = ?1) OR EXISTS (SELECT 1 FROM removal WHERE date = ?1)
                """), arguments: [date])! {
                held.empty.insert(date)
            }
        }
        return held
    }

    /// Keeps the lines `entries[indexes]` of device number `device` (new
    /// ones: `insertOp`'s columns), many per statement.
    static func keep(_ db: Database, _ entries: [SyncOp], _ indexes: [Int], device: Int64) throws {
        try SQLiteStatement.insert(db, """
            INSERT OR FAIL INTO sync_op (device, seq, wall, counter, date, v, op, clock, source, rule, at, kind, status, origin,
                                 note, ifEmpty, origins, entry, plan, replaces)
            """, width: 20, count: indexes.count) { statement, index, first in
            let line = indexes[index]
            statement.bind(first, device)
            statement.bind(first + 1, entries[line].seq)
            statement.bind(first + 2, entries[line].hlc)
            statement.bind(first + 3, entries[line].n)
            statement.bind(first + 4, entries[line].date)
            statement.bind(first + 5, Int64(entries[line].v))
            statement.bind(first + 6, entries[line].op)
            statement.bind(first + 7, entries[line].clock)
            statement.bind(first + 8, entries[line].source)
            statement.bind(first + 9, entries[line].rule)
            if let at = entries[line].at, let milliseconds = UTCTimestamp.milliseconds(from: at) {
                statement.bind(first + 10, milliseconds)
            } else {
                statement.bind(first + 10, entries[line].at)
            }
            statement.bind(first + 11, entries[line].kind)
            statement.bind(first + 12, entries[line].status)
            statement.bind(first + 13, entries[line].origin)
            statement.bind(first + 14, entries[line].note)
            statement.bind(first + 15, entries[line].ifEmpty)
            statement.bind(first + 16, entries[line].origins?.joined(separator: ","))
            statement.bind(first + 17, entries[line].entry)
            statement.bind(first + 18, entries[line].plan)
            statement.bind(first + 19, entries[line].replaces)
        }
    }
    /// Sets device number `device`'s clock floor to its greatest line that
    /// no other line stands for (`replaces`).
    static func resetClock(_ db: Database, device: Int64) throws {
        let latest = try Row.fetchOne(db, sql: """
            SELECT wall, counter FROM sync_op WHERE device = ?1
                AND seq NOT IN (SELECT replaces FROM sync_op WHERE device = ?1 AND replaces IS NOT NULL)
            ORDER BY wall DESC, counter DESC LIMIT 1
            """, arguments: [device])
        try db.execute(sql: "UPDATE sync_device SET wall = ?, counter = ? WHERE number = ?",
                       arguments: [latest?[0] ?? Int64(0), latest?[1] ?? Int64(0), device])
    }
    /// Whether `date` has no record and no check-in (a fallback's condition).
    static func isEmpty(_ db: Database, _ date: LocalDate) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT NOT EXISTS (SELECT 1 FROM record WHERE date = ?1) AND NOT EXISTS (SELECT 1 FROM checkin WHERE date = ?1)
            """, arguments: [date.description]) ?? true
    }

    /// The seqs of device number `device`'s lines that another of its lines
    /// stands for (`replaces`).
    static func replacedSeqs(_ db: Database, device: Int64) throws -> Set<Int64> {
        Set(try Int64.fetchAll(db.cachedStatement(sql: """
            SELECT replaces FROM sync_op WHERE device = ? AND replaces IS NOT NULL
            """), arguments: [device]))
    }

}
