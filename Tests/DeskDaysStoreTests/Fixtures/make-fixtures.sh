#!/bin/sh
# Regenerates the fixture database of every released schema version with the
# sqlite3 tool, from the exact SQL of the migrations in
# Sources/DeskDaysStore/AttendanceStore+Migrations.swift (the test
# `fixtureSchemaMatchesMigration` compares them). A released version's SQL is
# frozen: never edit a block below, add one for the next version.
#
# Rows are chosen to cover every column, NULLs, every origin, several sources
# and a late-evening check-in whose local date is the next day in Berlin.
set -eu
cd "$(dirname "$0")"

rm -f v1.sqlite v1.sqlite-wal v1.sqlite-shm
sqlite3 v1.sqlite <<'SQL'
PRAGMA journal_mode = WAL;
BEGIN;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
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
INSERT INTO grdb_migrations (identifier) VALUES ('v1');
INSERT INTO record (date, status, origin, note, recordedAt) VALUES
    ('2026-03-02', 'office', 'manual', 'client visit', '2026-03-02T08:15:00.000Z'),
    ('2026-03-03', 'remote', 'import', NULL, '2026-03-10T12:00:00.250Z'),
    ('2026-03-04', 'remote', 'fallback', NULL, '2026-03-04T19:00:00.000Z'),
    ('2026-03-04', 'sick', 'manual', NULL, '2026-03-05T07:30:00.000Z');
INSERT INTO checkin (date, source, rule, at) VALUES
    ('2026-03-02', 'nfc', 'desk', '2026-03-02T08:01:02.345Z'),
    ('2026-03-02', 'wifi', NULL, '2026-03-02T07:58:00.000Z'),
    ('2026-03-30', 'gps', 'hq', '2026-03-29T23:30:00.000Z'),
    ('2026-03-31', 'external', 'script', '2026-03-31T09:00:00.000Z');
COMMIT;
SQL
chmod 0600 v1.sqlite
echo "wrote $(pwd)/v1.sqlite"

# v2: v1's rows, then the removal table and one removal of each kind.
rm -f v2.sqlite v2.sqlite-wal v2.sqlite-shm
cp v1.sqlite v2.sqlite
sqlite3 v2.sqlite <<'SQL'
BEGIN;
CREATE TABLE removal (
    id INTEGER PRIMARY KEY,
    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
    origin TEXT NOT NULL CHECK (origin IN ('manual', 'automatic', 'import', 'fallback')),
    entry TEXT NOT NULL,
    removedAt TEXT NOT NULL
);
CREATE INDEX removal_date ON removal (date);
PRAGMA user_version = 2;
INSERT INTO grdb_migrations (identifier) VALUES ('v2');
INSERT INTO removal (date, origin, entry, removedAt) VALUES
    ('2026-03-05', 'manual', 'office record', '2026-03-05T18:00:00.000Z'),
    ('2026-03-06', 'automatic', 'wifi check-in, rule "hq"', '2026-03-06T18:00:00.000Z');
COMMIT;
SQL
chmod 0600 v2.sqlite
echo "wrote $(pwd)/v2.sqlite"

# v3: v2's rows, then the sign table with a latest sign of each kind.
rm -f v3.sqlite v3.sqlite-wal v3.sqlite-shm
cp v2.sqlite v3.sqlite
sqlite3 v3.sqlite <<'SQL'
BEGIN;
CREATE TABLE sign (
    id INTEGER PRIMARY KEY,
    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
    source TEXT NOT NULL CHECK (source IN ('nfc', 'qr', 'wifi', 'gps', 'wired', 'external')),
    at TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('arrival', 'departure')),
    UNIQUE (date, source)
);
PRAGMA user_version = 3;
INSERT INTO grdb_migrations (identifier) VALUES ('v3');
INSERT INTO sign (date, source, at, kind) VALUES
    ('2026-03-02', 'nfc', '2026-03-02T16:40:00.000Z', 'arrival'),
    ('2026-03-02', 'wifi', '2026-03-02T17:10:00.000Z', 'departure');
COMMIT;
SQL
chmod 0600 v3.sqlite
echo "wrote $(pwd)/v3.sqlite"

# v4: v3's rows, the checkin table rebuilt to allow the `wired` source, and one wired check-in.
rm -f v4.sqlite v4.sqlite-wal v4.sqlite-shm
cp v3.sqlite v4.sqlite
sqlite3 v4.sqlite <<'SQL'
BEGIN;
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
INSERT INTO grdb_migrations (identifier) VALUES ('v4');
INSERT INTO checkin (date, source, rule, at) VALUES
    ('2026-03-03', 'wired', 'hq', '2026-03-03T08:40:00.000Z');
COMMIT;
SQL
chmod 0600 v4.sqlite
echo "wrote $(pwd)/v4.sqlite"

# v5: v4's rows, then the sync tables with this device, one other device and
# one line of each (docs/design.md "Sync").
rm -f v5.sqlite v5.sqlite-wal v5.sqlite-shm
cp v4.sqlite v5.sqlite
sqlite3 v5.sqlite <<'SQL'
BEGIN;
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
INSERT INTO grdb_migrations (identifier) VALUES ('v5');
INSERT INTO sync_device (id, name, self, lines, lastSeq, lastChange) VALUES
    ('0123456789abcdef0123456789abcdef', 'laptop', 1, 1, 1, '2026-03-02T08:15:00.000Z'),
    ('fedcba9876543210fedcba9876543210', 'desk', 0, 0, 0, NULL);
INSERT INTO sync_op (device, seq, wall, counter, date, v, name, op, status, origin, note) VALUES
    ('0123456789abcdef0123456789abcdef', 1, 1772439300000, 0, '2026-03-02', 1, 'laptop', 'record', 'office', 'manual', 'client visit');
COMMIT;
SQL
chmod 0600 v5.sqlite
echo "wrote $(pwd)/v5.sqlite"

# v6: v5's rows moved to the compact sync tables, then a sign line of the
# other device (its `at` in milliseconds) and its check-in and latest sign.
rm -f v6.sqlite v6.sqlite-wal v6.sqlite-shm
cp v5.sqlite v6.sqlite
sqlite3 v6.sqlite <<'SQL'
BEGIN;
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
INSERT INTO grdb_migrations (identifier) VALUES ('v6');
UPDATE sync_device SET lines = 1, lastSeq = 1, lastChange = '2026-03-03T07:45:00.000Z', wall = 1772523900000
    WHERE id = 'fedcba9876543210fedcba9876543210';
INSERT INTO sync_op (device, seq, wall, counter, date, v, op, source, rule, at, kind) VALUES
    ((SELECT number FROM sync_device WHERE id = 'fedcba9876543210fedcba9876543210'), 1, 1772523900000, 0, '2026-03-03', 1,
     'sign', 'nfc', 'desk', 1772523900000, 'arrival');
INSERT INTO checkin (date, source, rule, at) VALUES ('2026-03-03', 'nfc', 'desk', '2026-03-03T07:45:00.000Z');
INSERT INTO sign (date, source, at, kind) VALUES ('2026-03-03', 'nfc', '2026-03-03T07:45:00.000Z', 'arrival');
COMMIT;
SQL
chmod 0600 v6.sqlite
echo "wrote $(pwd)/v6.sqlite"

# v7: v6's rows, every other device's journal to be read again from its start
# (lines an earlier version skipped as ahead of this clock are held now),
# and the table of write requests carried out.
rm -f v7.sqlite v7.sqlite-wal v7.sqlite-shm
cp v6.sqlite v7.sqlite
sqlite3 v7.sqlite <<'SQL'
BEGIN;
UPDATE sync_device SET mergedBytes = 0 WHERE self = 0;
CREATE TABLE request (id TEXT PRIMARY KEY, at REAL NOT NULL) WITHOUT ROWID;
PRAGMA user_version = 7;
INSERT INTO grdb_migrations (identifier) VALUES ('v7');
COMMIT;
SQL
chmod 0600 v7.sqlite
echo "wrote $(pwd)/v7.sqlite"

# v8: v7's rows; beside an inbox file's place, where its read stopped and a
# digest of the bytes before it.
rm -f v8.sqlite v8.sqlite-wal v8.sqlite-shm
cp v7.sqlite v8.sqlite
sqlite3 v8.sqlite <<'SQL'
BEGIN;
ALTER TABLE sync_device ADD COLUMN readState TEXT;
PRAGMA user_version = 8;
INSERT INTO grdb_migrations (identifier) VALUES ('v8');
COMMIT;
SQL
chmod 0600 v8.sqlite
echo "wrote $(pwd)/v8.sqlite"

# v9: v8's rows; check-ins and signs may have the source `import` (time clocks).
rm -f v9.sqlite v9.sqlite-wal v9.sqlite-shm
cp v8.sqlite v9.sqlite
sqlite3 v9.sqlite <<'SQL'
BEGIN;
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
INSERT INTO grdb_migrations (identifier) VALUES ('v9');
COMMIT;
SQL
chmod 0600 v9.sqlite
echo "wrote $(pwd)/v9.sqlite"

# v10: v9's rows; a record may be a plan (docs/policy.md "Plans need you"),
# and a kept journal line carries its mark.
rm -f v10.sqlite v10.sqlite-wal v10.sqlite-shm
cp v9.sqlite v10.sqlite
sqlite3 v10.sqlite <<'SQL'
BEGIN;
ALTER TABLE record ADD COLUMN plan TEXT CHECK (plan IN ('ahead', 'planner'));
ALTER TABLE sync_op ADD COLUMN plan TEXT;
PRAGMA user_version = 10;
INSERT INTO grdb_migrations (identifier) VALUES ('v10');
COMMIT;
SQL
chmod 0600 v10.sqlite
echo "wrote $(pwd)/v10.sqlite"

# v11: v10's rows; a line may stand for an earlier one of its device
# stamped on a clock that ran ahead, and this device's lines keep what it
# had seen of the others (docs/design.md "Sync").
rm -f v11.sqlite v11.sqlite-wal v11.sqlite-shm
cp v10.sqlite v11.sqlite
sqlite3 v11.sqlite <<'SQL'
BEGIN;
ALTER TABLE sync_op ADD COLUMN replaces INTEGER;
ALTER TABLE sync_op ADD COLUMN known INTEGER;
CREATE INDEX sync_op_replaces ON sync_op (device, replaces) WHERE replaces IS NOT NULL;
PRAGMA user_version = 11;
INSERT INTO grdb_migrations (identifier) VALUES ('v11');
COMMIT;
SQL
chmod 0600 v11.sqlite
echo "wrote $(pwd)/v11.sqlite"
