#!/usr/bin/env bash
# Builds the ten-year benchmark database: usage make-ten-year-db.sh BIN DB.
#
# Ten years of history, 2016-01-01 .. 2025-12-31, every workday resolved
# (manual, imported or automatic), plus 50,000 automatic check-in events.
# The pipeline keeps one check-in per (date, source), so the events
# deduplicate to the stored rows printed below. Seeded: the same file every run.
# Shared by bench/core.sh and bench/reports.sh.
set -euo pipefail
BIN=$1
DB=$2
rm -f "$DB" "$DB-wal" "$DB-shm"
EMPTY=$(mktemp); "$BIN" checkin --database "$DB" --config "$EMPTY" --date 2016-01-04 >/dev/null; rm -f "$EMPTY"

/usr/bin/python3 - "$DB" <<'PY'
import datetime, random, sqlite3, sys
random.seed(42)
db = sqlite3.connect(sys.argv[1])
sources = ["nfc", "qr", "wifi", "gps", "external"]
records, checkins, events = [], {}, 0
day = datetime.date(2016, 1, 1)
workdays = []
while day <= datetime.date(2025, 12, 31):
    if day.weekday() < 5:
        workdays.append(day)
    day += datetime.timedelta(days=1)
for d in workdays:
    r = random.random()
    stamp = f"{d}T18:00:00.000Z"
    if r < 0.55:
        pass                               # office by check-ins below
    elif r < 0.85:
        records.append((str(d), "remote", "manual", None, stamp))
    elif r < 0.92:
        records.append((str(d), "vacation", "import", None, stamp))
    elif r < 0.96:
        records.append((str(d), "sick", "manual", "flu", stamp))
    else:
        records.append((str(d), "remote", "fallback", None, stamp))
# 50,000 events over the office days; the first per (date, source) is stored.
office_days = [d for d in workdays if (str(d), "remote") not in {(x[0], x[1]) for x in []}]
while events < 50000:
    d = random.choice(workdays)
    s = random.choice(sources)
    events += 1
    key = (str(d), s)
    if key not in checkins:
        checkins[key] = (str(d), s, "hq", f"{d}T08:{random.randint(0,59):02d}:00.000Z")
db.execute("DELETE FROM record")
db.executemany("INSERT INTO record(date, status, origin, note, recordedAt) VALUES (?,?,?,?,?)", records)
db.executemany("INSERT INTO checkin(date, source, rule, at) VALUES (?,?,?,?)", checkins.values())
# Time on site: each (date, source)'s latest sign, a departure at 17:30 for
# the methods that see the user leave, a later tap for NFC and QR.
db.executemany("INSERT INTO sign(date, source, at, kind) VALUES (?,?,?,?)",
               [(d, s, f"{d}T17:30:00.000Z" if s in ("wifi", "gps", "external") else f"{d}T12:15:00.000Z",
                 "departure" if s in ("wifi", "gps", "external") else "arrival") for d, s, _, _ in checkins.values()])
db.commit()
print(f"database: {len(workdays)} workdays, {len(records)} records, 50000 events -> {len(checkins)} stored check-ins")
PY
