import GRDB

extension AttendanceStore {
    /// `PRAGMA application_id` of a DeskDays database: "DSKD" in ASCII.
    ///
    /// It lets the opener tell our file from another program's SQLite file
    /// before touching it.
    static let applicationID: Int32 = 0x4453_4B44

    /// The schema, one GRDB migration per released version.
    ///
    /// Rules (docs/design.md "Storage", docs/design.md, habit 9): migrations are named `v1`,
    /// `v2`, … and registered in order; each is plain SQL with string table
    /// names, so it means the same thing forever; a released migration is
    /// never edited — a change is a new migration. Migration `vN` ends by
    /// setting `PRAGMA user_version = N`, which older builds use to refuse the
    /// file. Each released version has a fixture database under
    /// Tests/DeskDaysStoreTests/Fixtures made from the same SQL.
    ///
    /// Privacy (docs/design.md): only dates, statuses, sources, rule *names* and
    /// the user's own notes are stored — never coordinates, SSIDs, BSSIDs,
    /// tag UIDs or QR payloads. Instants are UTC text (`UTCTimestamp`).
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE record (
                    id INTEGER PRIMARY KEY,
                    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                    status TEXT NOT NULL CHECK (status IN ('office', 'travel', 'remote', 'sick', 'vacation', 'leave')),
                    origin TEXT NOT NULL CHECK (origin IN ('manual', 'import', 'fallback')),
                    note TEXT,
                    recordedAt TEXT NOT NULL
                );
                CREATE INDEX record_date ON record (date);
                CREATE TABLE checkin (
                    id INTEGER PRIMARY KEY,
                    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                    source TEXT NOT NULL CHECK (source IN ('nfc', 'qr', 'wifi', 'gps', 'external')),
                    rule TEXT,
                    at TEXT NOT NULL,
                    UNIQUE (date, source)
                );
                PRAGMA application_id = 1146309444;
                PRAGMA user_version = 1;
                """)
        }
        // v2: a row for every entry the user removed (`deskdays clear`), so
        // nothing leaves the history silently; `explain` lists them.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                CREATE TABLE removal (
                    id INTEGER PRIMARY KEY,
                    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                    origin TEXT NOT NULL CHECK (origin IN ('manual', 'automatic', 'import', 'fallback')),
                    entry TEXT NOT NULL,
                    removedAt TEXT NOT NULL
                );
                CREATE INDEX removal_date ON removal (date);
                PRAGMA user_version = 2;
                """)
        }
        // v3: time on site (docs/policy.md). Per (date, source) the latest
        // sign, arrival or departure, beside the first arrival in `checkin`:
        // what first_seen and last_seen need, never a trail of positions.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: """
                CREATE TABLE sign (
                    id INTEGER PRIMARY KEY,
                    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                    source TEXT NOT NULL CHECK (source IN ('nfc', 'qr', 'wifi', 'gps', 'wired', 'external')),
                    at TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('arrival', 'departure')),
                    UNIQUE (date, source)
                );
                PRAGMA user_version = 3;
                """)
        }
        // v4: the `wired` source (the default gateway's MAC, docs/cli.md).
        // SQLite cannot change a CHECK constraint in place: the table is
        // rebuilt with the same columns, rows and ids.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: """
                CREATE TABLE checkin_v4 (
                    id INTEGER PRIMARY KEY,
                    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                    source TEXT NOT NULL CHECK (source IN ('nfc', 'qr', 'wifi', 'gps', 'wired', 'external')),
                    rule TEXT,
                    at TEXT NOT NULL,
                    UNIQUE (date, source)
                );
                INSERT INTO checkin_v4 (id, date, source, rule, at) SELECT id, date, source, rule, at FROM checkin;
                DROP TABLE checkin;
                ALTER TABLE checkin_v4 RENAME TO checkin;
                PRAGMA user_version = 4;
                """)
        }
        // v5: several devices, one record (docs/design.md "Sync"). Every
        // change of a device that syncs is a journal line: `sync_op` keeps
        // each line seen, this device's and every other's, keyed by
        // (device, seq), with its hybrid logical clock (wall milliseconds,
        // counter) and its fields as columns (a third of the bytes of the
        // JSON text; `origins` comma-separated); `record`, `checkin`, `sign` and `removal` are then what
        // replaying a date's lines in clock order gives. `sync_device` names
        // this device (self = 1) and every other seen, with how far its
        // journal file has been merged. Only new tables: the v1–v4 tables
        // are untouched.
        migrator.registerMigration("v5") { db in
            try db.execute(sql: """
                CREATE TABLE sync_device (
                    id TEXT PRIMARY KEY NOT NULL CHECK (length(id) = 32),
                    name TEXT NOT NULL,
                    self INTEGER NOT NULL DEFAULT 0,
                    forgotten INTEGER NOT NULL DEFAULT 0,
                    mergedBytes INTEGER NOT NULL DEFAULT 0,
                    lines INTEGER NOT NULL DEFAULT 0,
                    lastSeq INTEGER NOT NULL DEFAULT 0,
                    lastChange TEXT,
                    lastClock TEXT
                );
                CREATE UNIQUE INDEX sync_device_self ON sync_device (self) WHERE self = 1;
                CREATE TABLE sync_op (
                    device TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    wall INTEGER NOT NULL,
                    counter INTEGER NOT NULL,
                    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                    v INTEGER NOT NULL,
                    name TEXT NOT NULL,
                    op TEXT NOT NULL,
                    clock TEXT,
                    source TEXT,
                    rule TEXT,
                    at TEXT,
                    kind TEXT,
                    status TEXT,
                    origin TEXT,
                    note TEXT,
                    ifEmpty INTEGER,
                    origins TEXT,
                    entry TEXT,
                    PRIMARY KEY (device, seq)
                ) WITHOUT ROWID;
                CREATE INDEX sync_op_date ON sync_op (date, wall, counter, device, seq);
                CREATE INDEX sync_op_clock ON sync_op (wall, counter);
                PRAGMA user_version = 5;
                """)
        }
        // v6: the same lines in a third of the space (a ten-year journal of
        // another device held 13 MB of lines and indexes; now 4). A device is
        // a small number (`sync_device.number`) in each line instead of its
        // 32-letter id; a line's device name is its device's (the latest
        // line names it); `at` is UTC milliseconds (a text that is not the
        // fixed-width UTC DeskDays writes stays text); one index by date and
        // the (device, seq) key replace the two wide indexes; and each
        // device's greatest clock time is kept on its row, the next time's
        // floor, instead of an index by clock. Ties in clock time still
        // order by device id (a join). A line's date is not checked: a line
        // whose date is not one is kept (so it is not merged again) and never
        // applied, like one naming a status this build does not know, rather
        // than failing the merge of its whole file.
        migrator.registerMigration("v6") { db in
            try db.execute(sql: """
                CREATE TABLE sync_device_v6 (
                    number INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE CHECK (length(id) = 32),
                    name TEXT NOT NULL,
                    self INTEGER NOT NULL DEFAULT 0,
                    forgotten INTEGER NOT NULL DEFAULT 0,
                    mergedBytes INTEGER NOT NULL DEFAULT 0,
                    lines INTEGER NOT NULL DEFAULT 0,
                    lastSeq INTEGER NOT NULL DEFAULT 0,
                    lastChange TEXT,
                    lastClock TEXT,
                    wall INTEGER NOT NULL DEFAULT 0,
                    counter INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO sync_device_v6 (id, name, self, forgotten, mergedBytes, lines, lastSeq, lastChange, lastClock, wall, counter)
                SELECT d.id, d.name, d.self, d.forgotten, d.mergedBytes, d.lines, d.lastSeq, d.lastChange, d.lastClock,
                       IFNULL((SELECT o.wall FROM sync_op o WHERE o.device = d.id ORDER BY o.wall DESC, o.counter DESC LIMIT 1), 0),
                       IFNULL((SELECT o.counter FROM sync_op o WHERE o.device = d.id ORDER BY o.wall DESC, o.counter DESC LIMIT 1), 0)
                FROM sync_device d ORDER BY d.self DESC, d.id;
                CREATE TABLE sync_op_v6 (
                    id INTEGER PRIMARY KEY,
                    device INTEGER NOT NULL,
                    seq INTEGER NOT NULL,
                    wall INTEGER NOT NULL,
                    counter INTEGER NOT NULL,
                    date TEXT NOT NULL,
                    v INTEGER NOT NULL,
                    op TEXT NOT NULL,
                    clock TEXT,
                    source TEXT,
                    rule TEXT,
                    at,
                    kind TEXT,
                    status TEXT,
                    origin TEXT,
                    note TEXT,
                    ifEmpty INTEGER,
                    origins TEXT,
                    entry TEXT,
                    UNIQUE (device, seq)
                );
                INSERT INTO sync_op_v6 (device, seq, wall, counter, date, v, op, clock, source, rule, at, kind, status, origin,
                                        note, ifEmpty, origins, entry)
                SELECT d.number, o.seq, o.wall, o.counter, o.date, o.v, o.op, o.clock, o.source, o.rule,
                       CASE WHEN o.at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9]Z'
                            THEN unixepoch(substr(o.at, 1, 19)) * 1000 + CAST(substr(o.at, 21, 3) AS INTEGER) ELSE o.at END,
                       o.kind, o.status, o.origin, o.note, o.ifEmpty, o.origins, o.entry
                FROM sync_op o JOIN sync_device_v6 d ON d.id = o.device
                ORDER BY o.wall, o.counter, o.device, o.seq;
                DROP TABLE sync_op;
                DROP TABLE sync_device;
                ALTER TABLE sync_device_v6 RENAME TO sync_device;
                ALTER TABLE sync_op_v6 RENAME TO sync_op;
                CREATE UNIQUE INDEX sync_device_self ON sync_device (self) WHERE self = 1;
                CREATE INDEX sync_op_date ON sync_op (date);
                PRAGMA user_version = 6;
                """)
        }
        // v7: every other device's journal file is read again from its start
        // once. Earlier versions skipped for good a line whose clock was more
        // than a day ahead of this machine's (a laptop that booted before
        // NTP, a device whose clock ran ahead); now such a line is held until
        // the clock reaches it, and the lines skipped before come back.
        // Merging is idempotent: lines already held are not taken twice.
        // And the ids of write requests carried out (`WriteRequest`): a
        // request the agent and its client both try is carried out once.
        migrator.registerMigration("v7") { db in
            try db.execute(sql: """
                UPDATE sync_device SET mergedBytes = 0 WHERE self = 0;
                CREATE TABLE request (id TEXT PRIMARY KEY, at REAL NOT NULL) WITHOUT ROWID;
                PRAGMA user_version = 7;
                """)
        }
        // v8: inbox files are read on from where the last read stopped, when
        // the bytes before that place are unchanged: beside the place, the
        // read's state and a digest of those bytes (no line of the file).
        migrator.registerMigration("v8") { db in
            try db.execute(sql: """
                ALTER TABLE sync_device ADD COLUMN readState TEXT;
                PRAGMA user_version = 8;
                """)
        }
        // v9: time clocks (docs/cli.md `import --in-column`): an imported
        // arrival or departure is a check-in of source `import`. The two
        // tables are rebuilt as in v4, same columns, rows and ids.
        migrator.registerMigration("v9") { db in
            try db.execute(sql: """
                CREATE TABLE checkin_v9 (
                    id INTEGER PRIMARY KEY,
                    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                    source TEXT NOT NULL CHECK (source IN ('nfc', 'qr', 'wifi', 'gps', 'wired', 'external', 'import')),
                    rule TEXT,
                    at TEXT NOT NULL,
                    UNIQUE (date, source)
                );
                INSERT INTO checkin_v9 (id, date, source, rule, at) SELECT id, date, source, rule, at FROM checkin;
                DROP TABLE checkin;
                ALTER TABLE checkin_v9 RENAME TO checkin;
                CREATE TABLE sign_v9 (
                    id INTEGER PRIMARY KEY,
                    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
                    source TEXT NOT NULL CHECK (source IN ('nfc', 'qr', 'wifi', 'gps', 'wired', 'external', 'import')),
                    at TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('arrival', 'departure')),
                    UNIQUE (date, source)
                );
                INSERT INTO sign_v9 (id, date, source, at, kind) SELECT id, date, source, at, kind FROM sign;
                DROP TABLE sign;
                ALTER TABLE sign_v9 RENAME TO sign;
                PRAGMA user_version = 9;
                """)
        }
        // v10: plans (docs/policy.md "Plans need you"): a manual record
        // written ahead, or by `deskdays plan --write`, is marked so, and the
        // mark travels with its journal line. Rows from before are not plans.
        migrator.registerMigration("v10") { db in
            try db.execute(sql: """
                ALTER TABLE record ADD COLUMN plan TEXT CHECK (plan IN ('ahead', 'planner'));
                ALTER TABLE sync_op ADD COLUMN plan TEXT;
                PRAGMA user_version = 10;
                """)
        }
        // v11: a device whose clock ran ahead stamps its lines again once it
        // is right (docs/design.md "Sync"): a line may stand for an earlier
        // one of its device, which is then kept and never applied; each of
        // this device's lines keeps the latest clock time it had seen of
        // the others when it was written (`known`, never journaled).
        migrator.registerMigration("v11") { db in
            try db.execute(sql: """
                ALTER TABLE sync_op ADD COLUMN replaces INTEGER;
                ALTER TABLE sync_op ADD COLUMN known INTEGER;
                CREATE INDEX sync_op_replaces ON sync_op (device, replaces) WHERE replaces IS NOT NULL;
                PRAGMA user_version = 11;
                """)
        }
        return migrator
    }()
}
