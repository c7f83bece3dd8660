@testable import DeskDaysStore
import DeskDaysCore
import Foundation
import GRDB
import Testing

/// docs/design.md "The privacy claim": the schema can hold dates, statuses,
/// sources, rule names and the user's notes — nothing else.
@Suite struct PrivacyTests {
    @Test func schemaHoldsOnlyTheAllowedColumns() throws {
        let store = try AttendanceStore.inMemory()
        let (tables, record, checkin, migrations, removal, sign, device, op, request) = try store.dbQueue.read { db in
            (try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name
                """),
             try db.columns(in: "record").map(\.name), try db.columns(in: "checkin").map(\.name),
             try db.columns(in: "grdb_migrations").map(\.name), try db.columns(in: "removal").map(\.name),
             try db.columns(in: "sign").map(\.name), try db.columns(in: "sync_device").map(\.name),
             try db.columns(in: "sync_op").map(\.name), try db.columns(in: "request").map(\.name))
        }
        #expect(tables == ["checkin", "grdb_migrations", "record", "removal", "request", "sign", "sync_device", "sync_op"])
        // A write request carried out: its client's random id and when (once or not at all).
        #expect(request == ["id", "at"])
        // Sync: a device is a random id and the name the user gave it; a
        // journal line holds what the tables above hold (SyncTests checks its keys).
        #expect(device == ["number", "id", "name", "self", "forgotten", "mergedBytes", "lines", "lastSeq", "lastChange", "lastClock",
                           "wall", "counter", "readState"])
        #expect(op == ["id", "device", "seq", "wall", "counter", "date", "v", "op", "clock", "source", "rule", "at", "kind",
                       "status", "origin", "note", "ifEmpty", "origins", "entry", "plan", "replaces", "known"])
        // Time on site keeps a source's latest sign: its kind and instant, no place, no identifier.
        #expect(sign == ["id", "date", "source", "at", "kind"])
        // A removal names what went in words made of a status or a source and a rule name.
        #expect(removal == ["id", "date", "origin", "entry", "removedAt"])
        // A plan's mark says only why it is a plan (ahead, planner).
        #expect(record == ["id", "date", "status", "origin", "note", "recordedAt", "plan"])
        #expect(checkin == ["id", "date", "source", "rule", "at"])
        #expect(migrations == ["identifier"])
    }

    @Test func aFilledFileHoldsNoIdentifier() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("deskdays.sqlite")
        do {
            let store = try AttendanceStore(path: path)
            for (index, source) in Source.automatic.enumerated() {
                try store.insertCheckIn(AutomaticCheckIn(date: day("2026-05-04"), source: source, rule: "rule-\(index)",
                                                         at: instant("2026-05-04T08:00:00Z")))
            }
        }
        // Every free-text value in the file is a rule name we passed.
        var config = Configuration()
        config.readonly = true
        let rules = try DatabaseQueue(path: path, configuration: config).read { db in
            try String.fetchAll(db, sql: "SELECT rule FROM checkin ORDER BY rule")
        }
        #expect(rules == Source.automatic.indices.map { "rule-\($0)" })
    }
}
