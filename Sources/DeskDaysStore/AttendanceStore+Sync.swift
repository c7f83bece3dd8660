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

/// Sync (docs/design.md "Sync"): once a device syncs, every change is a
/// journal line kept in `sync_op`, and a date's records, check-ins, signs
/// and removals are what its lines give when applied in clock order (HLC,
/// then device id, then seq). A change made here has the greatest time
/// seen, so it is applied at once; a merged line older than the date's
/// latest makes the date be replayed from its lines. Either way every
/// device that holds the same lines holds the same rows.
extension AttendanceStore {
    /// This device's id and name; nil until sync is enabled.
    public func syncIdentity() throws -> (id: String, name: String)? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT id, name FROM sync_device WHERE self = 1").map { ($0[0], $0[1]) }
        }
    }

    /// Makes this database a syncing device named `name` (a random id on
    /// first use, kept here), writing its history, once, as journal lines:
    /// records, check-ins, latest signs and removals, in time order.
    /// Later calls only follow a new name. Returns the id.
    @discardableResult
    public func enableSync(name: String) throws -> String {
        try write { db in
            if let id = try String.fetchOne(db, sql: "SELECT id FROM sync_device WHERE self = 1") {
                try db.execute(sql: "UPDATE sync_device SET name = ? WHERE id = ?", arguments: [name, id])
                return id
            }
            let id = Self.randomDeviceID()
            try db.execute(sql: "INSERT INTO sync_device (id, name, self) VALUES (?, ?, 1)", arguments: [id, name])
            let number = db.lastInsertedRowID
            // The history, in the order it was written: times become clock
            // times (a counter keeps equal times apart), so replaying gives
            // back exactly these rows. A fallback is kept unconditionally.
            var history: [(Date, Int, JournalChange)] = []
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
            // Stable: rows of one kind keep their order.
            let ordered = history.enumerated().sorted { ($0.element.0, $0.element.1, $0.offset) < ($1.element.0, $1.element.1, $1.offset) }
            var latest: HLC?
            var seq: Int64 = 0
            for (_, (at, _, change)) in ordered {
                let time = HLC.next(after: latest, physical: HLC.milliseconds(at))
                latest = time
                seq += 1
                let entry = JournalEntry(device: id, name: name, seq: seq, time: time, clock: nil, change: change)
                try Self.insertOp(db, entry, device: number)
            }
            try db.execute(sql: "UPDATE sync_device SET lastSeq = ?, lines = ?, lastChange = ?, wall = ?, counter = ? WHERE id = ?",
                           arguments: [seq, seq, latest.map { UTCTimestamp.string(from: $0.date) },
                                       latest?.wall ?? 0, latest?.counter ?? 0, id])
            return id
        }
    }

    /// 32 random hex digits: a new device's id.
    static func randomDeviceID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let text = String(UInt8.random(in: 0...255, using: &generator), radix: 16)
            return text.count == 1 ? "0" + text : text
        }.joined()
    }

    /// Whether this database must not write its device's journal again:
    /// it is a copy `backUp` made (the original goes on writing it).
    public func identityIsRetired() throws -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT forgotten FROM sync_device WHERE self = 1") ?? false }
    }

    /// This device's lines held here with a seq in `seqs`, by seq.
    public func ownLines(in seqs: ClosedRange<Int64>) throws -> [Int64: JournalEntry] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(Self.opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
                WHERE d.self = 1 AND sync_op.seq BETWEEN ? AND ?
                """, arguments: [seqs.lowerBound, seqs.upperBound])
            return Dictionary(rows.map(Self.entry).map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// This database goes on as a new device (docs/design.md "Sync",
    /// "Identity"): its own journal file holds lines of its id that it did
    /// not write (`ownFile`: those lines and the ones it holds alike; a
    /// restore from a backup, or a copy of the database on another machine
    /// writing the same numbers), or it is a copy `backUp` made. Its lines
    /// up to there become an ordinary device's, whose file is merged like
    /// any other's (the lines it lacked come in as history); its lines from
    /// the first one the file does not hold alike move to the new identity
    /// (same seq, same clock): `JournalEntry.branchID` of them, the id every
    /// device gives them when it reads them from a conflict copy. Returns
    /// the old and the new id.
    @discardableResult
    public func continueAsNewDevice(ownFile: [JournalEntry]) throws -> (old: String, new: String) {
        try write { db in try Self.continueAsNewDevice(db, ownFile: ownFile) }
    }

    static func continueAsNewDevice(_ db: Database, ownFile: [JournalEntry]) throws -> (old: String, new: String) {
        guard let me = try Row.fetchOne(db, sql: """
            SELECT number, id, name, wall, counter, lastChange, lastClock FROM sync_device WHERE self = 1
            """) else { throw StoreError.cannotOpen(path: "", detail: tr("sync is not enabled in this database")) }
        let oldNumber: Int64 = me[0], old: String = me[1], name: String = me[2]
        let inFile = Dictionary(ownFile.map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
        let first = inFile.keys.min() ?? .max
        let held = try Row.fetchAll(db, sql: """
            SELECT \(opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
            WHERE sync_op.device = ? AND sync_op.seq >= ? ORDER BY sync_op.seq
            """, arguments: [oldNumber, first == .max ? Int64.max : first]).map(entry)
        let heldBySeq = Dictionary(held.map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
        // Where the file and this database part: the first line of the file not held alike.
        let parting = ownFile.filter { line in heldBySeq[line.seq].map { !line.isSameLine(as: $0) } ?? true }.map(\.seq).min()
        let moved = parting.map { parting in
            held.filter { $0.seq >= parting && !(inFile[$0.seq].map($0.isSameLine) ?? false) }
        } ?? []
        let new = moved.first.map { JournalEntry.branchID(of: old, from: $0) } ?? randomDeviceID()
        try db.execute(sql: "UPDATE sync_device SET self = 0, forgotten = 0, mergedBytes = 0 WHERE number = ?", arguments: [oldNumber])
        let newNumber: Int64
        if let number = try Int64.fetchOne(db, sql: "SELECT number FROM sync_device WHERE id = ?", arguments: [new]) {
            try db.execute(sql: "UPDATE sync_device SET self = 1, forgotten = 0, name = ? WHERE number = ?", arguments: [name, number])
            newNumber = number
        } else {
            try db.execute(sql: """
                INSERT INTO sync_device (id, name, self, wall, counter, lastChange, lastClock) VALUES (?, ?, 1, ?, ?, ?, ?)
                """, arguments: [new, name, me[3] as Int64, me[4] as Int64, me[5] as String?, me[6] as String?])
            newNumber = db.lastInsertedRowID
        }
        for line in moved {
            // Held there already (read from a conflict copy): the copy here goes.
            try db.execute(sql: "UPDATE OR IGNORE sync_op SET device = ? WHERE device = ? AND seq = ?", arguments: [newNumber, oldNumber, line.seq])
            try db.execute(sql: "DELETE FROM sync_op WHERE device = ? AND seq = ?", arguments: [oldNumber, line.seq])
        }
        for number in [oldNumber, newNumber] {
            try db.execute(sql: """
                UPDATE sync_device SET lines = (SELECT COUNT(*) FROM sync_op WHERE device = ?1),
                    lastSeq = IFNULL((SELECT MAX(seq) FROM sync_op WHERE device = ?1), 0) WHERE number = ?1
                """, arguments: [number])
        }
        // Ties in clock time order by device id: the moved lines' dates again.
        for date in Set(moved.map(\.date)).sorted() { try replay(db, date: date) }
        return (old, new)
    }

    /// Journals `changes` as this device's next lines and applies each, in
    /// one transaction: all or none. A fallback on a date that has entries
    /// is neither journaled nor written.
    public func journal(_ changes: [JournalChange], now: ClockTime) throws -> [JournalOutcome] {
        try write { db in
            // A copy `backUp` made writes as a device of its own.
            if try Bool.fetchOne(db, sql: "SELECT forgotten FROM sync_device WHERE self = 1") == true {
                try Self.continueAsNewDevice(db, ownFile: [])
            }
            guard let me = try Row.fetchOne(db, sql: "SELECT number, id, name, lastSeq FROM sync_device WHERE self = 1") else {
                throw StoreError.cannotOpen(path: path, detail: tr("sync is not enabled in this database"))
            }
            let number: Int64 = me[0], id: String = me[1], name: String = me[2]
            var seq: Int64 = me[3]
            var latest = try Self.latestTime(db)
            // What it had seen of the others: where `correctClock` puts a
            // line written on a clock that ran ahead.
            let known = try Int64.fetchOne(db, sql: "SELECT MAX(wall) FROM sync_device WHERE self = 0")
            var outcomes: [JournalOutcome] = []
            var written = 0
            for change in changes {
                if case .record(let date, _, _, _, true, _) = change, try !Self.isEmpty(db, date) {
                    outcomes.append(.record(written: false))
                    continue
                }
                let time = HLC.next(after: latest, clock: now)
                latest = time
                // Lines from the folder are checked at the door (`JournalEntry.problem`);
                // a database that took a huge seq before that is refused, not trapped.
                let (next, overflow) = seq.addingReportingOverflow(1)
                guard !overflow else {
                    throw StoreError.corrupt(path: path, detail: tr("this device's journal has no sequence number left"))
                }
                seq = next
                written += 1
                guard try Self.insertOp(db, JournalEntry(device: id, name: name, seq: seq, time: time, clock: now.date, change: change),
                                        device: number) else {
                    throw StoreError.corrupt(path: path, detail: tr("journal line \(seq) of this device is already held"))
                }
                try db.execute(sql: "UPDATE sync_op SET known = ? WHERE device = ? AND seq = ?", arguments: [known ?? 0, number, seq])
                outcomes.append(try Self.apply(db, change, time: time))
            }
            if written > 0, let latest {
                try db.execute(sql: """
                    UPDATE sync_device SET lastSeq = ?, lines = lines + ?, lastChange = ?, lastClock = ?, wall = ?, counter = ?
                    WHERE number = ?
                    """, arguments: [seq, written, UTCTimestamp.string(from: latest.date), UTCTimestamp.string(from: now.date),
                                     latest.wall, latest.counter, number])
            }
            return outcomes
        }
    }

    /// The seqs of device `id`'s lines that another of its lines stands for
    /// (`JournalEntry.replaces`); none for an unknown device.
    public func replacedSeqs(of id: String) throws -> Set<Int64> {
        try read { db in
            guard let number = try Int64.fetchOne(db, sql: "SELECT number FROM sync_device WHERE id = ?", arguments: [id]) else { return [] }
            return try Self.replacedSeqs(db, device: number, entries: [])
        }
    }

    /// What `correctClock` did.
    public struct ClockCorrection: Sendable, Equatable {
        /// How many of this device's lines were stamped again.
        public var lines: Int
        /// How far this device's clock had run ahead (at least).
        public var ahead: TimeInterval
    }

    /// A step back of this machine's clock smaller than this is no
    /// correction (NTP slews and small steps).
    public static let clockStepTolerance: TimeInterval = 600

    /// When this machine's clock has gone back past the clock of this
    /// device's newest line (it ran ahead, and was set right since), each of
    /// its lines written on the clock that ran ahead (its `clock` after
    /// `now`) is stamped again, moved back by that much: a new line of
    /// the same change that stands for it (`JournalEntry.replaces`), which
    /// every device applies alike, instead of it. This device's clock floor
    /// goes back with them, so its next changes carry right times and no
    /// device holds them. Nil when the clock did not go back.
    public func correctClock(now: ClockTime) throws -> ClockCorrection? {
        guard try clockWentBack(now: now) else { return nil }
        return try write { db in
            guard let me = try Row.fetchOne(db, sql: "SELECT number, id, name, lastSeq, lastClock FROM sync_device WHERE self = 1"),
                  let text = me[4] as String?, let last = UTCTimestamp.date(from: text),
                  last.timeIntervalSince(now.date) > Self.clockStepTolerance else { return nil }
            let number: Int64 = me[0], id: String = me[1], name: String = me[2]
            var seq: Int64 = me[3]
            let ahead = last.timeIntervalSince(now.date)
            let shift = Int64((ahead * 1000).rounded())
            let replaced = try Self.replacedSeqs(db, device: number, entries: [])
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(Self.opColumns), sync_op.known FROM sync_op JOIN sync_device d ON d.number = sync_op.device
                WHERE sync_op.device = ? AND sync_op.replaces IS NULL ORDER BY sync_op.seq
                """, arguments: [number])
            // Its own latest line written on a right clock, as it goes.
            var previous: HLC?, dates = Set<String>()
            for row in rows {
                let line = Self.entry(row), known: Int64? = row[21]
                guard let clock = line.clock.flatMap(UTCTimestamp.date(from:)), clock > now.date else {
                    if !replaced.contains(line.seq) { previous = max(previous ?? line.time, line.time) }
                    continue
                }
                guard !replaced.contains(line.seq), let change = line.change else { continue }
                // Right after what this device had seen when it wrote the
                // line (its own lines and the others' latest), never later
                // than its clock's error allows: it rules what it knew of,
                // and no decision made after it on a right clock.
                var time = HLC(wall: line.hlc &- shift, counter: line.n)
                let others = known.flatMap { $0 > 0 ? HLC(wall: $0, counter: 0) : nil }
                if known != nil, let seen = [previous, others].compactMap({ $0 }).max() {
                    time = min(time, HLC.next(after: seen, physical: seen.wall))
                }
                if let previous, time <= previous { time = HLC.next(after: previous, physical: time.wall) }
                previous = time
                guard case (let next, false) = seq.addingReportingOverflow(1) else {
                    throw StoreError.corrupt(path: path, detail: tr("this device's journal has no sequence number left"))
                }
                seq = next
                try Self.insertOp(db, JournalEntry(device: id, name: name, seq: seq, time: time, clock: now.date, change: change,
                                              replaces: line.seq), device: number)
                dates.insert(line.date)
            }
            for date in dates.sorted() { try Self.replay(db, date: date) }
            try db.execute(sql: "UPDATE sync_device SET lastSeq = ?, lines = lines + ?, lastClock = ? WHERE number = ?",
                           arguments: [seq, dates.isEmpty ? 0 : Int(seq - (me[3] as Int64)), UTCTimestamp.string(from: now.date), number])
            try Self.resetClock(db, device: number)
            return ClockCorrection(lines: Int(seq - (me[3] as Int64)), ahead: ahead)
        }
    }

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

    /// This device's journal lines with a seq above `seq`, in order.
    public func ownLines(after seq: Int64) throws -> [String] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
                WHERE sync_op.device = (SELECT number FROM sync_device WHERE self = 1) AND sync_op.seq > ? ORDER BY sync_op.seq
                """, arguments: [seq]).map { Self.entry($0).encoded() }
        }
    }

    /// Every line of device `id` held here, by seq (none for an unknown device).
    public func lines(of id: String) throws -> [JournalEntry] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(Self.opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
                WHERE d.id = ? ORDER BY sync_op.seq
                """, arguments: [id]).map(Self.entry)
        }
    }

    /// The index of the first of `entries` of device `id` whose seq is
    /// held here with other content (`JournalEntry.isSameLine`): its
    /// journal went back (a restore) and went on with other lines under
    /// the same numbers. Nil when there is none.
    public func firstOtherLine(of id: String, in entries: [JournalEntry]) throws -> Int? {
        let seqs = entries.lazy.filter { $0.device == id }.map(\.seq)
        guard let low = seqs.min(), let high = seqs.max() else { return nil }
        let bySeq = try lines(of: id, in: low...high)
        guard !bySeq.isEmpty else { return nil }
        return entries.firstIndex { line in line.device == id && bySeq[line.seq].map { !$0.isSameLine(as: line) } == true }
    }

    /// The lines of device `id` held here with a seq in `seqs`, by seq.
    public func lines(of id: String, in seqs: ClosedRange<Int64>) throws -> [Int64: JournalEntry] {
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

    /// Merges lines of device `device`'s journal (already decoded and
    /// checked, `JournalEntry.problem`: the folder's door, `Synchronizer`,
    /// refuses the others; in file order) read up to byte `mergedBytes` of
    /// its file (nil: lines relayed by another device, `Synchronizer.relay`,
    /// which leave the file's place alone): each line not held
    /// yet is kept and applied (or its date replayed). A forgotten device's
    /// lines are not taken. Returns the number of new lines. `name` names
    /// a device seen first without a line (an inbox file of bad lines only).
    ///
    /// Per date (a line changes only its date's rows): a date this
    /// database holds nothing of, whose new lines come in clock order and
    /// clear nothing, takes them through `DayRows.Batch` (the rules of
    /// `DayRows.apply`, every row written at once, in the order they were
    /// made); any other date takes each run of its lines through
    /// `DayRows.apply` while they come in clock order, and is replayed from
    /// its lines once one comes late. Row ids keep each date's order (what
    /// answers read for ties).
    @discardableResult
    public func merge(device: String, entries: [JournalEntry], mergedBytes: Int64?, readState: String? = nil,
                      name: String? = nil) throws -> Int {
        // A long journal (a device's history) in one transaction: a page
        // cache that holds it all writes each page once, and the statement
        // journal (a statement of many rows keeps the pages it changes, to
        // undo it alone) stays in memory rather than in a temporary file.
        // Both are set outside the transaction, where SQLite reads them.
        let long = entries.count > 1_000
        return try writeStatement { db in
            if long { try db.execute(sql: "PRAGMA cache_size = -262144; PRAGMA temp_store = MEMORY") }
            defer { if long { try? db.execute(sql: "PRAGMA cache_size = -2000; PRAGMA temp_store = DEFAULT") } }
            var merged = 0
            try db.inTransaction {
                merged = try Self.merge(db, device: device, entries: entries, mergedBytes: mergedBytes, readState: readState, name: name)
                return .commit
            }
            return merged
        }
    }

    /// Lines of one device for `merge(_:)`: `merge(device:…)`'s arguments.
    public struct MergeBatch: Sendable {
        public var device: String
        public var entries: [JournalEntry]
        public var mergedBytes: Int64?
        public var readState: String?
        public var name: String?

        public init(device: String, entries: [JournalEntry], mergedBytes: Int64?, readState: String?, name: String?) {
            self.device = device
            self.entries = entries
            self.mergedBytes = mergedBytes
            self.readState = readState
            self.name = name
        }
    }

    /// `merge(device:…)` of each batch, in one transaction (many inbox
    /// files read at once: one commit, not one each). Returns the number of new lines.
    @discardableResult
    public func merge(_ batches: [MergeBatch]) throws -> Int {
        guard !batches.isEmpty else { return 0 }
        return try writeStatement { db in
            var merged = 0
            try db.inTransaction {
                for batch in batches {
                    merged += try Self.merge(db, device: batch.device, entries: batch.entries, mergedBytes: batch.mergedBytes,
                                             readState: batch.readState, name: batch.name)
                }
                return .commit
            }
            return merged
        }
    }

    /// `merge`'s statements, inside its transaction.
    private static func merge(_ db: Database, device: String, entries: [JournalEntry], mergedBytes: Int64?, readState: String?,
                              name: String?) throws -> Int {
        let known = try Row.fetchOne(db, sql: "SELECT number, forgotten, self FROM sync_device WHERE id = ?", arguments: [device])
        if known == nil {
            try db.execute(sql: "INSERT INTO sync_device (id, name) VALUES (?, ?)",
                           arguments: [device, entries.last?.name ?? name ?? String(device.prefix(8))])
        }
        let number: Int64 = known?[0] ?? db.lastInsertedRowID
        let forgotten: Bool = known?[1] ?? false, isSelf: Bool = known?[2] ?? false
        var added: [Int] = []
        var lastSeq: Int64 = 0
        var ignored = Set<Int64>()
        if !forgotten {
            // What each date held before this merge: its latest line,
            // or nothing at all (neither a line nor a row).
            let held = try Self.held(db, entries: entries, device: device)
            // Every new line is kept: not one held already (a file read
            // again), nor the second of a line twice in `entries`.
            var low = Int64.max, high = Int64.min, increasing = true
            for index in entries.indices where entries[index].device == device {
                let seq = entries[index].seq
                increasing = increasing && seq > high
                low = min(low, seq)
                high = max(high, seq)
            }
            if low <= high {
                var seen = Set(try Int64.fetchAll(db, sql: "SELECT seq FROM sync_op WHERE device = ? AND seq BETWEEN ? AND ?",
                                                  arguments: [number, low, high]))
                if seen.isEmpty, increasing {
                    // The usual case, a journal read on from where it was: no two alike.
                    added = entries.indices.filter { entries[$0].device == device }
                } else {
                    seen.reserveCapacity(seen.count + entries.count)
                    added = entries.indices.filter { entries[$0].device == device && seen.insert(entries[$0].seq).inserted }
                }
                lastSeq = added.lazy.map { entries[$0].seq }.max() ?? 0
            }
            // A line stamped again and the line it stands for (`correctClock`)
            // are kept; their dates are replayed, which applies the first alone.
            let replaced = try Self.replacedSeqs(db, device: number, entries: entries)
            var restamped: [Int] = []
            if !replaced.isEmpty {
                restamped = added.filter { entries[$0].replaces != nil || replaced.contains(entries[$0].seq) }
                added.removeAll { entries[$0].replaces != nil || replaced.contains(entries[$0].seq) }
            }
            // What the new lines do is worked out in memory, for many lines
            // on another core while SQLite keeps them here (a ten-year
            // journal: each takes about a third of the merge); then it is
            // done, in order.
            let lines = added
            let plan: MergePlan
            if lines.count < 1_000 {
                try keep(db, entries, lines, device: number)
                plan = MergePlan(entries: entries, added: lines, held: held)
            } else {
                plan = try overlapping({ try keep(db, entries, lines, device: number) }) {
                    MergePlan(entries: entries, added: lines, held: held)
                }
            }
            // The other dates' lines, each date's run of lines loaded and saved once.
            var day: DayRows?
            var sequence = 0
            for index in plan.applied {
                guard let change = entries[index].change else { continue }
                if day?.date != change.date {
                    try day?.save(db)
                    day = try DayRows.load(db, change.date)
                }
                _ = day!.apply(change, time: entries[index].time, sequence: &sequence)
            }
            try day?.save(db)
            try plan.rows.write(db)
            if !restamped.isEmpty { try keep(db, entries, restamped, device: number) }
            for date in plan.replay.union(restamped.map { entries[$0].date }).sorted() { try Self.replay(db, date: date) }
            added += restamped
            // Its clock's floor leaves out every line another stands for.
            if restamped.contains(where: { entries[$0].replaces != nil }) { try Self.resetClock(db, device: number) }
            ignored = replaced
        }
        // The device's latest line names it and dates its last change; its
        // greatest time is a floor for this device's next one. Its own
        // clock is its newest line's (the greatest seq): the skew `sync
        // status` reports is the device's now, not the worst it ever had.
        if let last = entries.last(where: { $0.device == device }), !isSelf,
           let latest = entries.lazy.filter({ !ignored.contains($0.seq) }).map(\.time).max() {
            let newest = entries.lazy.filter { $0.device == device }.max { $0.seq < $1.seq }!
            try db.execute(sql: """
                UPDATE sync_device SET name = ?,
                    lastChange = MAX(IFNULL(lastChange, ''), ?),
                    lastClock = CASE WHEN ? IS NULL OR ? < lastSeq THEN lastClock ELSE ? END,
                    counter = CASE WHEN (wall, counter) < (?, ?) THEN ? ELSE counter END,
                    wall = MAX(wall, ?)
                WHERE number = ?
                """, arguments: [last.name, UTCTimestamp.string(from: latest.date), newest.clock, newest.seq, newest.clock,
                                 latest.wall, latest.counter, latest.counter, latest.wall, number])
        }
        try db.execute(sql: """
            UPDATE sync_device SET mergedBytes = IFNULL(?, mergedBytes), readState = IFNULL(?, readState), lines = lines + ?,
                lastSeq = MAX(lastSeq, ?) WHERE number = ?
            """, arguments: isSelf ? [0, nil, added.count, lastSeq, number] : [mergedBytes, readState, added.count, lastSeq, number])
        return added.count
    }

    /// Removes every line of `device` (not this one) and replays the dates
    /// they touched; its journal file is ignored from now on. Returns the
    /// number of lines removed.
    public func forget(device: String) throws -> Int {
        try write { db in
            guard let number = try Int64.fetchOne(db, sql: "SELECT number FROM sync_device WHERE id = ? AND self = 0",
                                                  arguments: [device]) else { return 0 }
            let dates = try String.fetchAll(db, sql: "SELECT DISTINCT date FROM sync_op WHERE device = ?", arguments: [number])
            try db.execute(sql: "DELETE FROM sync_op WHERE device = ?", arguments: [number])
            let removed = db.changesCount
            try db.execute(sql: "UPDATE sync_device SET forgotten = 1, lines = 0, mergedBytes = 0, readState = NULL WHERE id = ? AND self = 0",
                           arguments: [device])
            for date in dates { try Self.replay(db, date: date) }
            return removed
        }
    }

    /// The device names behind a date's entries: for each of its journal
    /// lines in clock order (but those another stands for: `correctClock`),
    /// the device name and the change.
    public func journalLines(on date: LocalDate) throws -> [(device: String, entry: JournalEntry)] {
        try read { db in
            let lines: [(device: String, entry: JournalEntry)] = try Row.fetchAll(db, sql: """
                SELECT \(Self.opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
                WHERE sync_op.date = ? ORDER BY sync_op.wall, sync_op.counter, d.id, sync_op.seq
                """, arguments: [date.description]).map { row in (row[6], Self.entry(row)) }
            let replaced = Set(lines.compactMap { line in line.entry.replaces.map { "\(line.entry.device) \($0)" } })
            return lines.filter { !replaced.contains("\($0.entry.device) \($0.entry.seq)") }
        }
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
                    """), arguments: [record.date.description, HLC.milliseconds(record.recordedAt), record.status.rawValue,
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

    // MARK: - Applying lines

    /// A line's columns in the order `entry(_:)` reads them, from `sync_op`
    /// joined with its device as `d`.
    static let opColumns = """
        d.id, sync_op.seq, sync_op.wall, sync_op.counter, sync_op.date, sync_op.v, d.name, sync_op.op,
        sync_op.clock, sync_op.source, sync_op.rule, sync_op.at, sync_op.kind, sync_op.status, sync_op.origin, sync_op.note,
        sync_op.ifEmpty, sync_op.origins, sync_op.entry, sync_op.plan, sync_op.replaces
        """

    /// A kept line, back from its columns.
    static func entry(_ row: Row) -> JournalEntry {
        var entry = JournalEntry(v: row[5], device: row[0], name: row[6], seq: row[1], hlc: row[2], n: row[3], op: row[7], date: row[4])
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
    static func insertOp(_ db: Database, _ entry: JournalEntry, device: Int64) throws -> Bool {
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
    static func held(_ db: Database, entries: [JournalEntry], device: String) throws -> Held {
        var first: String?, last: String?
        for index in entries.indices where entries[index].device == device {
            let date = entries[index].date
            if first.map({ date < $0 }) ?? true { first = date }
            if last.map({ date > $0 }) ?? true { last = date }
        }
        guard let first, let last else { return Held() }
        // One look for a long merge's usual case: a span held nothing of.
        let holdsAny = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM sync_op WHERE date BETWEEN ?1 AND ?2)
                OR EXISTS (SELECT 1 FROM record WHERE date BETWEEN ?1 AND ?2)
                OR EXISTS (SELECT 1 FROM checkin WHERE date BETWEEN ?1 AND ?2)
                OR EXISTS (SELECT 1 FROM sign WHERE date BETWEEN ?1 AND ?2)
                OR EXISTS (SELECT 1 FROM removal WHERE date BETWEEN ?1 AND ?2)
            """, arguments: [first, last]) ?? true
        guard holdsAny else { return Held(nothing: true) }
        var held = Held()
        for date in Set(entries.indices.lazy.filter { entries[$0].device == device }.map { entries[$0].date }) {
            if let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT o.wall, o.counter, d.id, o.seq FROM sync_op o JOIN sync_device d ON d.number = o.device WHERE o.date = ?
                ORDER BY o.wall DESC, o.counter DESC, d.id DESC, o.seq DESC LIMIT 1
                """), arguments: [date]) {
                held.latest[date] = (HLC(wall: row[0], counter: row[1]), row[2], row[3])
            } else if try !Bool.fetchOne(db.cachedStatement(sql: """
                SELECT EXISTS (SELECT 1 FROM record WHERE date = ?1) OR EXISTS (SELECT 1 FROM checkin WHERE date = ?1)
                    OR EXISTS (SELECT 1 FROM sign WHERE date = ?1) OR EXISTS (SELECT 1 FROM removal WHERE date = ?1)
                """), arguments: [date])! {
                held.empty.insert(date)
            }
        }
        return held
    }

    /// What the dates of a merge held before it (`held`).
    struct Held: Sendable {
        /// A date's latest line: clock time, device id, seq.
        var latest: [String: (HLC, String, Int64)] = [:]
        /// Dates that hold nothing at all.
        var empty: Set<String> = []
        /// Every date holds nothing (the usual case of a long merge).
        var nothing = false

        func holdsNothing(_ date: String) -> Bool { nothing || empty.contains(date) }
    }

    /// Keeps the lines `entries[indexes]` of device number `device` (new
    /// ones: `insertOp`'s columns), many per statement.
    static func keep(_ db: Database, _ entries: [JournalEntry], _ indexes: [Int], device: Int64) throws {
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

    /// The seqs of device number `device`'s lines that another of its lines
    /// stands for (`JournalEntry.replaces`), held here or among `entries`.
    static func replacedSeqs(_ db: Database, device: Int64, entries: [JournalEntry]) throws -> Set<Int64> {
        var seqs = Set(try Int64.fetchAll(db.cachedStatement(sql: """
            SELECT replaces FROM sync_op WHERE device = ? AND replaces IS NOT NULL
            """), arguments: [device]))
        for entry in entries { if let replaces = entry.replaces { seqs.insert(replaces) } }
        return seqs
    }

    /// Sets device number `device`'s clock floor to its greatest line that
    /// no other line stands for (`JournalEntry.replaces`).
    static func resetClock(_ db: Database, device: Int64) throws {
        let latest = try Row.fetchOne(db, sql: """
            SELECT wall, counter FROM sync_op WHERE device = ?1
                AND seq NOT IN (SELECT replaces FROM sync_op WHERE device = ?1 AND replaces IS NOT NULL)
            ORDER BY wall DESC, counter DESC LIMIT 1
            """, arguments: [device])
        try db.execute(sql: "UPDATE sync_device SET wall = ?, counter = ? WHERE number = ?",
                       arguments: [latest?[0] ?? Int64(0), latest?[1] ?? Int64(0), device])
    }

    /// The greatest clock time of any line merged or written (each
    /// device's row keeps its own; a forgotten device's stays, a floor).
    static func latestTime(_ db: Database) throws -> HLC? {
        try Row.fetchOne(db, sql: "SELECT wall, counter FROM sync_device WHERE wall > 0 ORDER BY wall DESC, counter DESC LIMIT 1")
            .map { HLC(wall: $0[0], counter: $0[1]) }
    }

    /// Whether `date` has no record and no check-in (a fallback's condition).
    static func isEmpty(_ db: Database, _ date: LocalDate) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT NOT EXISTS (SELECT 1 FROM record WHERE date = ?1) AND NOT EXISTS (SELECT 1 FROM checkin WHERE date = ?1)
            """, arguments: [date.description]) ?? true
    }

    /// Rebuilds a date's rows from its lines, in clock order.
    static func replay(_ db: Database, date: String) throws {
        for table in ["record", "checkin", "sign", "removal"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE date = ?", arguments: [date])
        }
        let rows = try Row.fetchAll(db, sql: """
            SELECT \(opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
            WHERE sync_op.date = ? ORDER BY sync_op.wall, sync_op.counter, d.id, sync_op.seq
            """, arguments: [date])
        guard let day = LocalDate(date) else { return }
        var rebuilt = DayRows(day)
        var sequence = 0
        let entries = rows.map(entry)
        // A line stamped again (`correctClock`) stands for the earlier one.
        let replaced = Set(entries.compactMap { entry in entry.replaces.map { "\(entry.device) \($0)" } })
        for entry in entries where replaced.isEmpty || !replaced.contains("\(entry.device) \(entry.seq)") {
            guard let change = entry.change, change.date == day else { continue }
            _ = rebuilt.apply(change, time: entry.time, sequence: &sequence)
        }
        try rebuilt.save(db)
    }

    /// Applies one change as of clock time `time` to its date's rows: the
    /// rules of `DayRows.apply`, as every other write.
    static func apply(_ db: Database, _ change: JournalChange, time: HLC) throws -> JournalOutcome {
        var day = try DayRows.load(db, change.date)
        var sequence = 0
        let outcome = day.apply(change, time: time, sequence: &sequence)
        try day.save(db)
        return outcome
    }
}
