@testable import DeskDaysStore
@testable import DeskDaysSync
import DeskDaysCore
import Foundation
import GRDB
import PropertyBased
import Testing

/// docs/design.md "Sync": the hybrid logical clock, history journaled once
/// and replayed into the same rows, and convergence: any order of merging
/// the same journal lines gives the rows that applying them in clock order
/// on one device gives.
@Suite struct SyncTests {
    // MARK: - The clock

    @Test func clockTakesTheWallClockWhenItIsAhead() {
        #expect(HLC.next(after: nil, physical: 1_000) == HLC(wall: 1_000, counter: 0))
        #expect(HLC.next(after: HLC(wall: 900, counter: 7), physical: 1_000) == HLC(wall: 1_000, counter: 0))
    }

    @Test func clockCountsWhenTheWallClockLags() {
        // A merged line from a device a day ahead: later changes here still come after it.
        let ahead = HLC(wall: 1_000 + 86_400_000, counter: 2)
        let next = HLC.next(after: ahead, physical: 1_000)
        #expect(next == HLC(wall: ahead.wall, counter: 3))
        #expect(next > ahead)
        #expect(HLC.next(after: next, physical: 1_000) > next)
    }

    @Test func clockIsMonotonicWhateverTheWallClockDoes() async {
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SplitMix(seed: UInt64(seed))
            var latest: HLC?
            for _ in 0..<50 {
                let physical = Int64.random(in: 0...10_000, using: &rng)
                let next = HLC.next(after: latest, physical: physical)
                if let latest { #expect(next > latest) }
                #expect(next.wall >= physical)
                latest = next
            }
        }
    }

    // MARK: - Lines

    @Test func aLineHoldsOnlyTheDatabasesKindsOfValue() throws {
        let store = try AttendanceStore.inMemory()
        try store.enableSync(name: "laptop")
        _ = try store.journal([
            .sign(LatestSign(date: day("2026-05-04"), source: .wifi, at: instant("2026-05-04T08:00:00Z"), kind: .arrival), rule: "hq"),
            .record(date: day("2026-05-05"), status: .remote, origin: .manual, note: "dentist", ifEmpty: false, plan: .ahead),
            .clear(date: day("2026-05-04"), origins: [.automatic]),
        ], now: ClockTime(reading: instant("2026-05-04T09:00:00Z")))
        let lines = try store.ownLines(after: 0)
        #expect(lines.count == 3)
        let allowed: Set<String> = ["v", "device", "name", "seq", "hlc", "n", "clock", "op", "date", "source", "rule", "at",
                                    "kind", "status", "origin", "note", "ifEmpty", "origins", "entry", "plan"]
        for line in lines {
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys).isSubset(of: allowed), "\(line)")
            #expect(object["v"] as? Int == 1)
            #expect(!line.contains("\n"))
        }
        #expect(lines[0].contains("\"rule\":\"hq\"") && lines[0].contains("\"source\":\"wifi\""))
        #expect(lines.map { JournalEntry.decode(Data($0.utf8))?.seq } == [1, 2, 3])
    }

    /// The fast line reader agrees with Foundation's decoder on every line
    /// DeskDays writes (notes with quotes, backslashes, newlines, emoji) and
    /// hands anything else to it.
    @Test func theFastReaderAgreesWithJSONDecoder() async throws {
        let notes = ["plain", "say \"hi\"", "back\\slash", "two\nlines", "tab\there", "caf\u{e9} \u{1F3E2}", "", "\u{7}bell"]
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SplitMix(seed: UInt64(seed))
            let store = try? AttendanceStore.inMemory()
            _ = try? store?.enableSync(name: notes.randomElement(using: &rng)!.isEmpty ? "x" : "dev \"\(seed % 7)\"")
            let change: JournalChange = switch Int.random(in: 0..<4, using: &rng) {
            case 0: .record(date: day("2026-05-04"), status: .sick, origin: .manual, note: notes.randomElement(using: &rng), ifEmpty: Bool.random(using: &rng))
            case 1: .sign(LatestSign(date: day("2026-05-04"), source: .gps, at: instant("2026-05-04T08:00:00Z"), kind: .departure), rule: "hq")
            case 2: .clear(date: day("2026-05-04"), origins: [.manual, .automatic])
            default: .removed(date: day("2026-05-04"), origin: .automatic, entry: "gps check-in, rule \"hq\"")
            }
            guard let store, let _ = try? store.journal([change], now: ClockTime(reading: Date(timeIntervalSince1970: Double(seed % 1_000_000)))),
                  let line = try? store.ownLines(after: 0).last else {
                Issue.record("could not journal")
                return
            }
            let fast = JournalEntry.fastDecode(ArraySlice(Array(line.utf8)))
            let slow = try? JSONDecoder().decode(JournalEntry.self, from: Data(line.utf8))
            #expect(fast != nil && fast == slow, "\(line)")
            #expect(fast?.change == change)
        }
        // Not ours: a nested object, a fraction, a missing field: Foundation decides.
        #expect(JournalEntry.fastDecode(ArraySlice(Array(#"{"v":1,"x":{"a":1}}"#.utf8))) == nil)
        #expect(JournalEntry.fastDecode(ArraySlice(Array(#"{"v":1.5,"device":"d","name":"n","seq":1,"hlc":1,"n":0,"op":"clear","date":"2026-05-04"}"#.utf8))) == nil)
        #expect(JournalEntry.decode(Data(#"{"v":1,"device":"d","name":"n","seq":1}"#.utf8)) == nil)
    }

    // MARK: - History

    /// Enabling sync journals the history once; replaying every date from
    /// those lines gives back the very rows (v4 fixture: records of every
    /// origin, check-ins of every source, wired included, latest signs, removals).
    @Test func historyReplaysIntoTheSameRows() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: 4, to: path)
        let store = try AttendanceStore(path: path)
        let before = try Snapshot(store)
        let id = try store.enableSync(name: "desk")
        #expect(try store.enableSync(name: "desk") == id)
        let lines = try store.ownLines(after: 0)
        #expect(lines.count == 4 + 5 + 2 + 2)
        try store.dbQueue.write { db in
            for date in try String.fetchAll(db, sql: "SELECT DISTINCT date FROM sync_op") {
                try AttendanceStore.replay(SyncTables(db: db, path: path), date: date)
            }
        }
        let after = try Snapshot(store)
        #expect(after == before, "\(after)\n---\n\(before)")
        // A second device merging them holds the same rows.
        let other = try AttendanceStore.inMemory()
        try other.enableSync(name: "laptop")
        try other.merge(device: id, entries: lines.compactMap { JournalEntry.decode(Data($0.utf8)) }, mergedBytes: 0)
        #expect(try Snapshot(other) == before)
    }

    @Test func fixtureV5KeepsItsDevicesAndLines() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: 5, to: path)
        let store = try AttendanceStore(path: path)
        #expect(try store.syncIdentity()?.name == "laptop")
        #expect(try store.syncDevices().map(\.name) == ["laptop", "desk"])
        #expect(try store.journalLines(on: day("2026-03-02")).map { "\($0.device) \($0.entry.op) \($0.entry.note ?? "")" }
            == ["laptop record client visit"])
    }

    /// v6 keeps the lines in fewer bytes: every line of a v5 file comes
    /// back the same, its device and name included, an `at` in DeskDays'
    /// own format and one that is not; the next time stays above them.
    @Test func fixtureV6KeepsItsLinesAndV5LinesComeBackUnchanged() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        try Fixtures.copy(version: 6, to: path)
        let store = try AttendanceStore(path: path)
        #expect(try store.journalLines(on: day("2026-03-03")).map { "\($0.device) \($0.entry.op) \($0.entry.at ?? "")" }
            == ["desk sign 2026-03-03T07:45:00.000Z"])
        #expect(try store.syncDevices().map(\.lines) == [1, 1])

        // A v5 database with lines of two devices, migrated.
        let queue = try DatabaseQueue()
        try AttendanceStore.migrator.migrate(queue, upTo: "v5")
        let other = "fedcba9876543210fedcba9876543210", me = "0123456789abcdef0123456789abcdef"
        let lines = [
            #"{"at":"2026-03-02T07:58:00.250Z","date":"2026-03-02","device":"\#(other)","hlc":1772438280250,"kind":"arrival","n":0,"name":"desk","op":"sign","rule":"hq","seq":1,"source":"wifi","v":1}"#,
            #"{"at":"2026-03-02T08:00:00Z","date":"2026-03-02","device":"\#(other)","hlc":1772438400000,"kind":"departure","n":0,"name":"desk","op":"sign","seq":2,"source":"wifi","v":1}"#,
            #"{"date":"2026-03-02","device":"\#(other)","hlc":1772438400000,"n":1,"name":"desk","op":"clear","origins":["import","manual"],"seq":3,"v":1}"#,
            #"{"clock":"2026-03-02T08:15:00.000Z","date":"2026-03-02","device":"\#(me)","hlc":1772439300000,"n":0,"name":"laptop","note":"client visit","op":"record","origin":"manual","seq":1,"status":"office","v":1}"#,
        ]
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO sync_device (id, name, self, lines, lastSeq) VALUES (?, 'laptop', 1, 1, 1), (?, 'desk', 0, 3, 3)
                """, arguments: [me, other])
            for line in lines {
                let entry = try #require(JournalEntry.decode(Data(line.utf8)))
                try db.execute(sql: """
                    INSERT INTO sync_op (device, seq, wall, counter, date, v, name, op, clock, source, rule, at, kind, status, origin,
                                         note, ifEmpty, origins, entry)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [entry.device, entry.seq, entry.hlc, entry.n, entry.date, entry.v, entry.name, entry.op,
                                     entry.clock, entry.source, entry.rule, entry.at, entry.kind, entry.status, entry.origin,
                                     entry.note, entry.ifEmpty, entry.origins?.joined(separator: ","), entry.entry])
            }
        }
        try AttendanceStore.migrator.migrate(queue)
        let migrated = try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT \(AttendanceStore.opColumns) FROM sync_op JOIN sync_device d ON d.number = sync_op.device
                ORDER BY sync_op.wall, sync_op.counter, d.id, sync_op.seq
                """).map { AttendanceStore.entry($0).encoded() }
        }
        #expect(migrated == lines)
        let stored = try queue.read { try DatabaseValue.fetchAll($0, sql: "SELECT at FROM sync_op WHERE op = 'sign' ORDER BY seq") }
        #expect(stored == [1_772_438_280_250.databaseValue, "2026-03-02T08:00:00Z".databaseValue])
        #expect(try queue.read { try SyncTables(db: $0, path: "").latestTime().map { HLC(wall: $0.wall, counter: $0.counter) } }
                == HLC(wall: 1_772_439_300_000, counter: 0))
    }

    // MARK: - Merging

    @Test func mergingTwiceChangesNothingAndForgetTakesADeviceOut() throws {
        let (a, b) = (try AttendanceStore.inMemory(), try AttendanceStore.inMemory())
        let idA = try a.enableSync(name: "a")
        let idB = try b.enableSync(name: "b")
        _ = try a.journal([.record(date: day("2026-05-04"), status: .office, origin: .manual, note: nil, ifEmpty: false)],
                          now: ClockTime(reading: instant("2026-05-04T08:00:00Z")))
        _ = try b.journal([.record(date: day("2026-05-04"), status: .remote, origin: .manual, note: nil, ifEmpty: false)],
                          now: ClockTime(reading: instant("2026-05-04T09:00:00Z")))
        let linesB = try b.ownLines(after: 0).compactMap { JournalEntry.decode(Data($0.utf8)) }
        #expect(try a.merge(device: idB, entries: linesB, mergedBytes: 10) == 1)
        let once = try Snapshot(a)
        #expect(try a.merge(device: idB, entries: linesB + linesB, mergedBytes: 20) == 0)
        #expect(try Snapshot(a) == once)
        // b's record is the later: it wins.
        #expect(try a.records(in: nil).last?.status == .remote)
        #expect(try a.forget(device: idB) == 1)
        #expect(try a.records(in: nil).map(\.status) == [.office])
        // A forgotten device's lines are not taken again.
        #expect(try a.merge(device: idB, entries: linesB, mergedBytes: 20) == 0)
        #expect(try a.syncDevices().first { $0.id == idB }?.forgotten == true)
        _ = idA
    }

    /// A line whose date is not a real date (a damaged or foreign journal)
    /// is kept, so it is not taken again, and never applied: the rest of
    /// its file merges.
    @Test func aLineWithoutARealDateIsKeptAndNeverApplied() throws {
        let store = try AttendanceStore.inMemory()
        try store.enableSync(name: "laptop")
        let other = "fedcba9876543210fedcba9876543210"
        let lines = [
            #"{"date":"2026-02-30","device":"\#(other)","hlc":1772438400000,"n":0,"name":"desk","op":"record","origin":"manual","seq":1,"status":"sick","v":1}"#,
            #"{"date":"2026-03-02","device":"\#(other)","hlc":1772438400001,"n":0,"name":"desk","op":"record","origin":"manual","seq":2,"status":"office","v":1}"#,
        ]
        let entries = lines.compactMap { JournalEntry.decode(Data($0.utf8)) }
        #expect(entries.count == 2)
        #expect(try store.merge(device: other, entries: entries, mergedBytes: 0) == 2)
        #expect(try store.merge(device: other, entries: entries, mergedBytes: 0) == 0)
        #expect(try store.records(in: nil).map { "\($0.date) \($0.status)" } == ["2026-03-02 office"])
        #expect(try store.syncDevices().first { $0.id == other }?.lines == 2)
    }

    /// A device's long journal merged at once (its dates held nothing here,
    /// so `DayRows.Batch` writes them at once, but for those with a clear)
    /// leaves the very rows, in the same order within each date, of the
    /// same lines merged one at a time (a date's first line in memory, the
    /// next ones by `apply`), and of the device itself.
    @Test func aLongFirstMergeGivesTheRowsOfOneLineAtATime() throws {
        let source = try AttendanceStore.inMemory()
        let id = try source.enableSync(name: "desk")
        var rng = SplitMix(seed: 15)
        var now = instant("2026-03-02T07:00:00Z")
        for step in 0..<1_200 {
            let date = day("2026-03-02").adding(days: step / 12)
            // The clock goes back now and then: the HLC still orders the lines.
            now = now.addingTimeInterval(Double(Int.random(in: -60...120, using: &rng)))
            let change: JournalChange
            switch Int.random(in: 0..<10, using: &rng) {
            case 0:
                change = .record(date: date, status: [.office, .remote, .sick].randomElement(using: &rng)!, origin: .manual,
                                 note: Bool.random(using: &rng) ? "n\(step)" : nil, ifEmpty: false)
            case 1:
                change = .record(date: date, status: .remote, origin: .fallback, note: nil, ifEmpty: true)
            case 2 where step % 5 == 0:
                change = .clear(date: date, origins: [.automatic])
            default:
                let at = LocalDate.midnight(date).addingTimeInterval(Double(Int.random(in: 6 * 3600...8 * 3600, using: &rng)))
                change = .sign(LatestSign(date: date, source: [.wifi, .gps, .nfc].randomElement(using: &rng)!, at: at,
                                          kind: Bool.random(using: &rng) ? .arrival : .departure),
                               rule: ["hq", nil].randomElement(using: &rng)!)
            }
            _ = try source.journal([change], now: ClockTime(reading: now))
        }
        let lines = try source.ownLines(after: 0).compactMap { JournalEntry.decode(Data($0.utf8)) }
        let atOnce = try AttendanceStore.inMemory(), oneByOne = try AttendanceStore.inMemory()
        try atOnce.enableSync(name: "at once")
        try oneByOne.enableSync(name: "one by one")
        #expect(try atOnce.merge(device: id, entries: lines + lines.prefix(50), mergedBytes: 0) == lines.count)
        for line in lines { try oneByOne.merge(device: id, entries: [line], mergedBytes: 0) }
        let rows = try TableDump(atOnce)
        #expect(rows.rows.count > 600)
        let other = try TableDump(oneByOne), own = try TableDump(source)
        #expect(other == rows, "\(zip(other.rows, rows.rows).filter { $0 != $1 }.prefix(3))")
        #expect(own == rows, "\(zip(own.rows, rows.rows).filter { $0 != $1 }.prefix(3))")
    }

    /// Texts of every length come through a long merge as written, in the
    /// lines kept and in the rows: empty, non-ASCII, with escapes, many to
    /// a run of an insert (past one chunk of its text arena) and longer
    /// than a chunk takes (bound as SQLite's own copy).
    @Test func textsOfEveryLengthComeThroughALongMerge() throws {
        let source = try AttendanceStore.inMemory()
        let id = try source.enableSync(name: "desk")
        let letters: [Character] = ["a", "é", "✓", "\"", "\\", " "]
        var notes: [String] = []
        for step in 0..<1_200 {
            let length = [0, 1, 15, 16, 300, 2_000, 8_191, 8_192, 9_000, 70_000][step % 10]
            let note = String((0..<length).map { letters[($0 * 7 + step) % letters.count] })
            notes.append(note)
            _ = try source.journal([.record(date: day("2026-01-01").adding(days: step), status: .office, origin: .manual,
                                            note: note, ifEmpty: false)],
                                   now: ClockTime(reading: instant("2026-01-01T08:00:00Z").addingTimeInterval(Double(step))))
        }
        let lines = try source.ownLines(after: 0).compactMap { JournalEntry.decode(Data($0.utf8)) }
        #expect(lines.count == notes.count)
        let merged = try AttendanceStore.inMemory()
        try merged.enableSync(name: "laptop")
        #expect(try merged.merge(device: id, entries: lines, mergedBytes: 0) == notes.count)
        #expect(try merged.records(in: nil).map { $0.note ?? "" } == notes)
        #expect(try TableDump(merged) == TableDump(source))
        for step in [0, 7, 8, 9, 1_199] {
            #expect(try merged.journalLines(on: day("2026-01-01").adding(days: step)).map(\.entry.note) == [notes[step]])
        }
    }

    /// Property: devices working apart and merging now and then; every way
    /// of merging all their lines afterwards (random order, chunks,
    /// duplicates, a device's lines out of order) gives the rows of applying
    /// them one by one in clock order; and so do the devices themselves.
    @Test func anyMergeOrderConvergesToClockOrder() async throws {
        var interleavings = 0
        await propertyCheck(count: 100, input: Gen.int(in: 0...Int.max)) { seed in
            do {
                var rng = SplitMix(seed: UInt64(seed))
                let world = try World(devices: 3, steps: Int.random(in: 5...40, using: &rng), rng: &rng)
                let all = try world.allLines()
                let reference = try AttendanceStore.inMemory()
                try reference.enableSync(name: "reference")
                for entry in all.sorted(by: { ($0.time, $0.device, $0.seq) < ($1.time, $1.device, $1.seq) }) {
                    try reference.merge(device: entry.device, entries: [entry], mergedBytes: 0)
                }
                let expected = try Snapshot(reference)
                for _ in 0..<10 {
                    let store = try AttendanceStore.inMemory()
                    try store.enableSync(name: "fresh")
                    var pending = Dictionary(grouping: all, by: \.device).mapValues { lines in
                        Bool.random(using: &rng) ? lines.shuffled(using: &rng) : lines
                    }
                    while let device = pending.keys.sorted().randomElement(using: &rng), let lines = pending[device] {
                        let take = Int.random(in: 1...lines.count, using: &rng)
                        var chunk = Array(lines.prefix(take))
                        if Int.random(in: 0..<4, using: &rng) == 0 { chunk += chunk }
                        try store.merge(device: device, entries: chunk, mergedBytes: 0)
                        pending[device] = take == lines.count ? nil : Array(lines.dropFirst(take))
                    }
                    #expect(try Snapshot(store) == expected, "seed \(seed)")
                    interleavings += 1
                }
                for (index, device) in world.stores.enumerated() {
                    for (other, id) in world.ids.enumerated() where other != index {
                        try device.merge(device: id, entries: try world.lines(of: other), mergedBytes: 0)
                    }
                    #expect(try Snapshot(device) == expected, "device \(index), seed \(seed)")
                }
            } catch {
                Issue.record("seed \(seed): \(error)")
            }
        }
        #expect(interleavings == 1_000)
    }
}

/// Three devices doing random changes on a few dates, with clocks apart
/// (one up to a day ahead) and merges from each other now and then.
struct World {
    var stores: [AttendanceStore] = []
    var ids: [String] = []

    init(devices: Int, steps: Int, rng: inout SplitMix) throws {
        let start = instant("2026-05-04T07:00:00Z")
        let skews = (0..<devices).map { index in index == 2 ? Double(Int.random(in: -86_400...86_400, using: &rng)) : 0 }
        for index in 0..<devices {
            let store = try AttendanceStore.inMemory()
            ids.append(try store.enableSync(name: "device-\(index)"))
            stores.append(store)
        }
        let dates = [day("2026-05-04"), day("2026-05-05"), day("2026-05-06")]
        let statuses: [AttendanceStatus] = [.office, .remote, .sick, .travel]
        for step in 0..<steps {
            let index = Int.random(in: 0..<devices, using: &rng)
            let now = start.addingTimeInterval(Double(step) * 60 + skews[index] + Double(Int.random(in: 0...2, using: &rng)))
            let date = dates.randomElement(using: &rng)!
            let change: JournalChange
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<3:
                change = .record(date: date, status: statuses.randomElement(using: &rng)!, origin: .manual,
                                 note: Bool.random(using: &rng) ? "n\(step)" : nil, ifEmpty: false)
            case 3:
                change = .record(date: date, status: statuses.randomElement(using: &rng)!, origin: .import, note: nil, ifEmpty: false)
            case 4:
                change = .record(date: date, status: .remote, origin: .fallback, note: nil, ifEmpty: true)
            case 5..<8:
                let at = LocalDate.midnight(date).addingTimeInterval(Double(Int.random(in: 6 * 3600...20 * 3600, using: &rng)))
                change = .sign(LatestSign(date: date, source: [.wifi, .gps, .nfc].randomElement(using: &rng)!, at: at,
                                          kind: Bool.random(using: &rng) ? .arrival : .departure),
                               rule: ["hq", "desk", nil].randomElement(using: &rng)!)
            case 8:
                change = .clear(date: date, origins: Set([Origin.manual, .automatic, .import, .fallback].filter { _ in Bool.random(using: &rng) })
                                    .union([[Origin.manual, .automatic].randomElement(using: &rng)!]))
            default:
                // A merge: this device takes what another has written so far.
                let other = Int.random(in: 0..<devices, using: &rng)
                if other != index { try stores[index].merge(device: ids[other], entries: try lines(of: other), mergedBytes: 0) }
                continue
            }
            _ = try stores[index].journal([change], now: ClockTime(reading: now))
        }
    }

    func lines(of index: Int) throws -> [JournalEntry] {
        try stores[index].ownLines(after: 0).compactMap { JournalEntry.decode(Data($0.utf8)) }
    }

    func allLines() throws -> [JournalEntry] {
        try (0..<stores.count).flatMap { try lines(of: $0) }
    }
}

/// Every row resolution and explain read, in the order they read them, without row ids.
struct Snapshot: Equatable, CustomStringConvertible {
    var rows: [String]

    init(_ store: AttendanceStore) throws {
        rows = try store.dbQueue.read { db in
            try String.fetchAll(db, sql: """
                SELECT 'record ' || date || ' ' || status || ' ' || origin || ' ' || IFNULL(note, '-') || ' ' || recordedAt
                    FROM record ORDER BY date, recordedAt, id
                """)
            + String.fetchAll(db, sql: """
                SELECT 'checkin ' || date || ' ' || source || ' ' || IFNULL(rule, '-') || ' ' || at FROM checkin ORDER BY date, source
                """)
            + String.fetchAll(db, sql: "SELECT 'sign ' || date || ' ' || source || ' ' || at || ' ' || kind FROM sign ORDER BY date, source")
            + String.fetchAll(db, sql: """
                SELECT 'removal ' || date || ' ' || origin || ' ' || entry || ' ' || removedAt FROM removal ORDER BY date, removedAt, id
                """)
        }
    }

    var description: String { rows.joined(separator: "\n") }
}

/// Every column but the id of the four tables the lines give, by date and
/// then in the order written (ids order ties; across dates they are not
/// compared: a replay renumbers a date's rows).
struct TableDump: Equatable {
    var rows: [String]

    init(_ store: AttendanceStore) throws {
        rows = try store.dbQueue.read { db in
            try ["record", "checkin", "sign", "removal"].flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY date, id").map { row in
                    "\(table) " + row.columnNames.filter { $0 != "id" }.map { "\(row[$0] as DatabaseValue)" }.joined(separator: " ")
                }
            }
        }
    }
}

/// A small seeded generator (SplitMix64), so a failing seed replays.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension LocalDate {
    /// 00:00 UTC of the date.
    static func midnight(_ date: LocalDate) -> Date {
        Date(timeIntervalSince1970: Double(date.dayNumber) * 86_400)
    }
}
