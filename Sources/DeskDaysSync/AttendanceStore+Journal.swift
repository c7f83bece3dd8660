import Localization
import DeskDaysCore
import DeskDaysStore
import Foundation

/// Sync (docs/design.md "Sync"): once a device syncs, every change is a
/// journal line kept in `sync_op`, and a date's records, check-ins, signs
/// and removals are what its lines give when applied in clock order (HLC,
/// then device id, then seq). A change made here has the greatest time
/// seen, so it is applied at once; a merged line older than the date's
/// latest makes the date be replayed from its lines. Either way every
/// device that holds the same lines holds the same rows. The store keeps
/// the tables and applies changes (`SyncTables`); when lines are written
/// and what they do is decided here.
extension AttendanceStore {
    /// Makes this database a syncing device named `name` (a random id on
    /// first use, kept here), writing its history, once, as journal lines:
    /// records, check-ins, latest signs and removals, in time order.
    /// Later calls only follow a new name. Returns the id.
    @discardableResult
    public func enableSync(name: String) throws -> String {
        try syncWrite { tables in
            if let me = try tables.me() {
                try tables.rename(device: me.number, to: name)
                return me.id
            }
            let id = Self.randomDeviceID()
            let number = try tables.addSelf(id: id, name: name)
            // The history, in the order it was written: times become clock
            // times (a counter keeps equal times apart), so replaying gives
            // back exactly these rows. A fallback is kept unconditionally.
            // Stable: rows of one kind keep their order.
            let ordered = try tables.history().enumerated()
                .sorted { ($0.element.at, $0.element.kind, $0.offset) < ($1.element.at, $1.element.kind, $1.offset) }
            var latest: HLC?
            var seq: Int64 = 0
            for (_, (at, _, change)) in ordered {
                let time = HLC.next(after: latest, physical: HLC.milliseconds(at))
                latest = time
                seq += 1
                try tables.insert(JournalEntry(device: id, name: name, seq: seq, time: time, clock: nil, change: change), device: number)
            }
            try tables.noteWritten(device: number, lastSeq: seq, added: Int(seq), lastChange: latest.map { UTCTimestamp.string(from: $0.date) },
                                   lastClock: nil, wall: latest?.wall ?? 0, counter: latest?.counter ?? 0)
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
        try syncWrite { tables in try Self.continueAsNewDevice(tables, ownFile: ownFile) }
    }

    @discardableResult
    static func continueAsNewDevice(_ tables: SyncTables, ownFile: [JournalEntry]) throws -> (old: String, new: String) {
        guard let me = try tables.me() else {
            throw StoreError.cannotOpen(path: "", detail: tr("sync is not enabled in this database"))
        }
        let old = me.id
        let inFile = Dictionary(ownFile.map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
        let first = inFile.keys.min() ?? .max
        let held = try tables.lines(device: me.number, from: first == .max ? Int64.max : first)
        let heldBySeq = Dictionary(held.map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
        // Where the file and this database part: the first line of the file not held alike.
        let parting = ownFile.filter { line in heldBySeq[line.seq].map { !line.isSameLine(as: $0) } ?? true }.map(\.seq).min()
        let moved = parting.map { parting in
            held.filter { $0.seq >= parting && !(inFile[$0.seq].map($0.isSameLine) ?? false) }
        } ?? []
        let new = moved.first.map { JournalEntry.branchID(of: old, from: $0) } ?? randomDeviceID()
        try tables.retire(device: me.number)
        let newNumber: Int64
        if let known = try tables.device(new) {
            try tables.makeSelf(device: known.number, name: me.name)
            newNumber = known.number
        } else {
            newNumber = try tables.addSelf(id: new, name: me.name, wall: me.wall, counter: me.counter, lastChange: me.lastChange,
                                           lastClock: me.lastClock)
        }
        // Held there already (read from a conflict copy): the copy here goes.
        for line in moved { try tables.move(seq: line.seq, from: me.number, to: newNumber) }
        for number in [me.number, newNumber] { try tables.recount(device: number) }
        // Ties in clock time order by device id: the moved lines' dates again.
        for date in Set(moved.map(\.date)).sorted() { try replay(tables, date: date) }
        return (old, new)
    }

    /// Journals `changes` as this device's next lines and applies each, in
    /// one transaction: all or none. A fallback on a date that has entries
    /// is neither journaled nor written.
    public func journal(_ changes: [JournalChange], now: ClockTime) throws -> [JournalOutcome] {
        try syncWrite { tables in
            // A copy `backUp` made writes as a device of its own.
            if try tables.me()?.forgotten == true {
                try Self.continueAsNewDevice(tables, ownFile: [])
            }
            guard let me = try tables.me() else {
                throw StoreError.cannotOpen(path: tables.path, detail: tr("sync is not enabled in this database"))
            }
            var seq = me.lastSeq
            var latest = try tables.latestTime().map { HLC(wall: $0.wall, counter: $0.counter) }
            // What it had seen of the others: where `correctClock` puts a
            // line written on a clock that ran ahead.
            let known = try tables.othersLatestWall()
            var outcomes: [JournalOutcome] = []
            var written = 0
            for change in changes {
                if case .record(let date, _, _, _, true, _) = change, try !tables.isEmpty(date) {
                    outcomes.append(.record(written: false))
                    continue
                }
                let time = HLC.next(after: latest, clock: now)
                latest = time
                // Lines from the folder are checked at the door (`JournalEntry.problem`);
                // a database that took a huge seq before that is refused, not trapped.
                let (next, overflow) = seq.addingReportingOverflow(1)
                guard !overflow else {
                    throw StoreError.corrupt(path: tables.path, detail: tr("this device's journal has no sequence number left"))
                }
                seq = next
                written += 1
                guard try tables.insert(JournalEntry(device: me.id, name: me.name, seq: seq, time: time, clock: now.date, change: change),
                                        device: me.number) else {
                    throw StoreError.corrupt(path: tables.path, detail: tr("journal line \(seq) of this device is already held"))
                }
                try tables.setKnown(known ?? 0, device: me.number, seq: seq)
                outcomes.append(try tables.apply([(change, time.wall)])[0])
            }
            if written > 0, let latest {
                try tables.noteWritten(device: me.number, lastSeq: seq, added: written, lastChange: UTCTimestamp.string(from: latest.date),
                                       lastClock: UTCTimestamp.string(from: now.date), wall: latest.wall, counter: latest.counter)
            }
            return outcomes
        }
    }

    /// What `correctClock` did.
    public struct ClockCorrection: Sendable, Equatable {
        /// How many of this device's lines were stamped again.
        public var lines: Int
        /// How far this device's clock had run ahead (at least).
        public var ahead: TimeInterval
    }

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
        return try syncWrite { tables in
            guard let me = try tables.me(), let text = me.lastClock, let last = UTCTimestamp.date(from: text),
                  last.timeIntervalSince(now.date) > Self.clockStepTolerance else { return nil }
            var seq = me.lastSeq
            let ahead = last.timeIntervalSince(now.date)
            let shift = Int64((ahead * 1000).rounded())
            let replaced = try tables.replacedSeqs(device: me.number)
            // Its own latest line written on a right clock, as it goes.
            var previous: HLC?, dates = Set<String>()
            for (line, known) in try tables.unreplacingLines(device: me.number) {
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
                    throw StoreError.corrupt(path: tables.path, detail: tr("this device's journal has no sequence number left"))
                }
                seq = next
                try tables.insert(JournalEntry(device: me.id, name: me.name, seq: seq, time: time, clock: now.date, change: change,
                                               replaces: line.seq), device: me.number)
                dates.insert(line.date)
            }
            for date in dates.sorted() { try Self.replay(tables, date: date) }
            try tables.noteRestamped(device: me.number, lastSeq: seq, added: dates.isEmpty ? 0 : Int(seq - me.lastSeq),
                                     lastClock: UTCTimestamp.string(from: now.date))
            try tables.resetClock(device: me.number)
            return ClockCorrection(lines: Int(seq - me.lastSeq), ahead: ahead)
        }
    }

    /// This device's journal lines with a seq above `seq`, in order.
    public func ownLines(after seq: Int64) throws -> [String] {
        try ownOps(after: seq).map { $0.encoded() }
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

    /// Removes every line of `device` (not this one) and replays the dates
    /// they touched; its journal file is ignored from now on. Returns the
    /// number of lines removed.
    public func forget(device: String) throws -> Int {
        try syncWrite { tables in
            guard let (removed, dates) = try tables.forget(device) else { return 0 }
            for date in dates { try Self.replay(tables, date: date) }
            return removed
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
    /// clear nothing, takes them through `FreshDays` (the rules of
    /// `DayRows.apply`, every row written at once, in the order they were
    /// made); any other date takes each run of its lines through
    /// `DayRows.apply` while they come in clock order, and is replayed from
    /// its lines once one comes late (`MergePlan`). Row ids keep each
    /// date's order (what answers read for ties).
    @discardableResult
    public func merge(device: String, entries: [JournalEntry], mergedBytes: Int64?, readState: String? = nil,
                      name: String? = nil) throws -> Int {
        // A long journal (a device's history) in one transaction (`syncMerge`).
        try syncMerge(long: entries.count > 1_000) { tables in
            try Self.merge(tables, device: device, entries: entries, mergedBytes: mergedBytes, readState: readState, name: name)
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
        return try syncMerge(long: false) { tables in
            var merged = 0
            for batch in batches {
                merged += try Self.merge(tables, device: batch.device, entries: batch.entries, mergedBytes: batch.mergedBytes,
                                         readState: batch.readState, name: batch.name)
            }
            return merged
        }
    }

    /// `merge`'s work, inside its transaction.
    private static func merge(_ tables: SyncTables, device: String, entries: [JournalEntry], mergedBytes: Int64?, readState: String?,
                              name: String?) throws -> Int {
        let known = try tables.device(device)
        let number = try known?.number ?? tables.addDevice(device, name: entries.last?.name ?? name ?? String(device.prefix(8)))
        let forgotten = known?.forgotten ?? false, isSelf = known?.isSelf ?? false
        var added: [Int] = []
        var lastSeq: Int64 = 0
        var ignored = Set<Int64>()
        if !forgotten {
            // What each date held before this merge: its latest line,
            // or nothing at all (neither a line nor a row).
            let held = try tables.held(entries, device: device)
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
                var seen = Set(try tables.seqs(device: number, low, high))
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
            var replaced = try tables.replacedSeqs(device: number)
            for entry in entries { if let replaces = entry.replaces { replaced.insert(replaces) } }
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
                try tables.keep(entries, lines, device: number)
                plan = MergePlan(entries: entries, added: lines, held: held)
            } else {
                plan = try overlapping({ try tables.keep(entries, lines, device: number) }) {
                    MergePlan(entries: entries, added: lines, held: held)
                }
            }
            // The other dates' lines, each date's run of lines loaded and saved once.
            try tables.merge(applied: plan.applied.compactMap { index in entries[index].change.map { ($0, entries[index].hlc) } },
                             fresh: plan.rows)
            if !restamped.isEmpty { try tables.keep(entries, restamped, device: number) }
            for date in plan.replay.union(restamped.map { entries[$0].date }).sorted() { try replay(tables, date: date) }
            added += restamped
            // Its clock's floor leaves out every line another stands for.
            if restamped.contains(where: { entries[$0].replaces != nil }) { try tables.resetClock(device: number) }
            ignored = replaced
        }
        // The device's latest line names it and dates its last change; its
        // greatest time is a floor for this device's next one. Its own
        // clock is its newest line's (the greatest seq): the skew `sync
        // status` reports is the device's now, not the worst it ever had.
        if let last = entries.last(where: { $0.device == device }), !isSelf,
           let latest = entries.lazy.filter({ !ignored.contains($0.seq) }).map(\.time).max() {
            let newest = entries.lazy.filter { $0.device == device }.max { $0.seq < $1.seq }!
            try tables.noteMerged(device: number, name: last.name, latest: (latest.wall, latest.counter),
                                  lastChange: UTCTimestamp.string(from: latest.date), newest: (newest.seq, newest.clock))
        }
        if isSelf {
            try tables.noteRead(device: number, mergedBytes: 0, readState: nil, added: added.count, lastSeq: lastSeq)
        } else {
            try tables.noteRead(device: number, mergedBytes: mergedBytes, readState: readState, added: added.count, lastSeq: lastSeq)
        }
        return added.count
    }

    /// Rebuilds a date's rows from its lines, in clock order.
    static func replay(_ tables: SyncTables, date: String) throws {
        try tables.rebuild(date, from: standing(try tables.lines(on: date)).compactMap { entry in entry.change.map { ($0, entry.hlc) } })
    }

    /// Of `lines`, those no other line stands for: a line stamped again
    /// (`correctClock`) stands for the earlier one, which is kept and never applied.
    static func standing(_ lines: [JournalEntry]) -> [JournalEntry] {
        let replaced = Set(lines.compactMap { line in line.replaces.map { "\(line.device) \($0)" } })
        return replaced.isEmpty ? lines : lines.filter { !replaced.contains("\($0.device) \($0.seq)") }
    }

    /// The device names behind a date's entries: for each of its journal
    /// lines in clock order (but those another stands for), the device name and the change.
    public func journalLines(on date: LocalDate) throws -> [(device: String, entry: JournalEntry)] {
        Self.standing(try lines(on: date)).map { ($0.name, $0) }
    }
}

/// A database that synced once journals its changes even while `[sync]` is
/// off, so that turning it on again sends every change made meanwhile.
extension AttendanceStore: Journal {
    /// Where this database's changes are journaled: `sync`'s folder, or the
    /// database alone when it synced once; nil for one that never synced.
    public func journal(publishingTo sync: Synchronizer?) -> (any Journal)? {
        if let sync { return sync }
        return ((try? syncIdentity()) ?? nil) != nil ? self : nil
    }
}

extension Synchronizer: Journal {
    public func journal(_ changes: [JournalChange], now: ClockTime) throws -> [JournalOutcome] {
        try store.journal(changes, now: now)
    }
}
