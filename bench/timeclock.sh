#!/usr/bin/env bash
# A time clock's export imported whole: ROWS rows (default 1,000,000) of
# `Datum;Kommen;Gehen`, one shift a row (a day shift, a night shift across
# midnight), into an empty database with `deskdays import --in-column
# Kommen --out-column Gehen` (one transaction), then the same file again
# (`Nothing changed`). Printed: wall time and peak resident memory
# (/usr/bin/time's %M) of each run.
# Target (issue 53): 1,000,000 rows in < 20 s and < 100 MB.
#
# Usage: bench/timeclock.sh [DESKDAYS_BINARY]   (default: a release build)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
ROWS=${ROWS:-1000000}
OUT=bench/out
mkdir -p "$OUT"
[ -x /usr/bin/time ] || { echo "timeclock: /usr/bin/time missing: apt-get install time" >&2; exit 1; }
if [ $# -ge 1 ]; then
    BIN=$1
else
    SCRATCH=${SCRATCH_PATH:-.build}
    swift build -c release --scratch-path "$SCRATCH" --product deskdays-cli >/dev/null
    swift build -c release --scratch-path "$SCRATCH" --product deskdays >/dev/null
    BIN="$SCRATCH/release/deskdays"
fi
CSV="$OUT/timeclock.csv" DB="$OUT/timeclock.sqlite" CONFIG="$OUT/timeclock.toml"
rm -f "$DB" "$DB-wal" "$DB-shm"
printf '[policy]\ntimezone = "UTC"\nmin_hours = 4\n' > "$CONFIG"
# Dates from 1990-01-01 on, several rows a date (a badge system's swipes per shift).
/usr/bin/python3 - "$ROWS" > "$CSV" <<'PY'
import datetime, sys
rows = int(sys.argv[1])
start = datetime.date(1990, 1, 1)
days = (datetime.date(2026, 11, 1) - start).days
print("Datum;Kommen;Gehen")
for i in range(rows):
    d = start + datetime.timedelta(days=i % days)
    shift = ("22:00", "06:00") if (i // days) % 2 else ("08:%02d" % (i % 60), "17:00")
    print(f"{d:%d.%m.%Y};{shift[0]};{shift[1]}")
PY
run() {
    /usr/bin/time -f "%e s, %M KB peak" env DESKDAYS_TODAY=2026-11-20 LC_ALL=C "$BIN" import "$CSV" \
        --in-column Kommen --out-column Gehen --config "$CONFIG" --database "$DB" 2>&1 >/dev/null | tail -1
}
echo "timeclock: $ROWS rows, first import: $(run)"
echo "timeclock: $ROWS rows, the same file again: $(run)"
