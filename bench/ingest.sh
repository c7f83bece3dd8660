#!/usr/bin/env bash
# Ingest speed: 10,000 automatic check-ins through the real
# pipeline in one process, each committed durably (WAL, synchronous=FULL,
# one transaction per event), beside 10,000 single-row durable INSERTs by the
# sqlite3 tool into the same v1 `checkin` table, same run, same folder.
# Target: ours >= half of sqlite3's events/s.
#
# Every event has a distinct (date, source), so each one is stored; neither
# side is helped by batching. Our figure is timed inside the process (the
# open and migration excluded); the whole process is printed too. Figures
# are medians over ROUNDS (default 5) alternating runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
COUNT=${COUNT:-10000}
ROUNDS=${ROUNDS:-5}
SCRATCH=${SCRATCH_PATH:-.build}
OUT=bench/out
mkdir -p "$OUT"

swift build -c release --scratch-path "$SCRATCH" --product deskdays >/dev/null
swift build -c release --scratch-path "$SCRATCH" --product deskdays-cli >/dev/null
swift build -c release --scratch-path "$SCRATCH" --product deskdays >/dev/null
swift build -c release --scratch-path "$SCRATCH" --product deskdays-cli >/dev/null
BIN="$SCRATCH/release/deskdays"

OURS="$OUT/ingest-deskdays.sqlite"
BASE="$OUT/ingest-sqlite3.sqlite"
SQL="$OUT/ingest-sqlite3.sql"

# The baseline script, written before timing: same table and index as schema
# v1, same values as the bench command (five sources a day from 2020-01-06).
/usr/bin/python3 - "$COUNT" > "$SQL" <<'PY'
import datetime, sys
count = int(sys.argv[1])
sources = ["nfc", "qr", "wifi", "gps", "external"]
print("PRAGMA journal_mode = WAL;")
print("PRAGMA synchronous = FULL;")
print("""CREATE TABLE checkin (
    id INTEGER PRIMARY KEY,
    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),
    source TEXT NOT NULL CHECK (source IN ('nfc', 'qr', 'wifi', 'gps', 'external')),
    rule TEXT,
    at TEXT NOT NULL,
    UNIQUE (date, source)
);""")
first = datetime.date(2020, 1, 6)
for i in range(count):
    day = first + datetime.timedelta(days=i // 5)
    print(f"INSERT INTO checkin (date, source, rule, at) VALUES "
          f"('{day}', '{sources[i % 5]}', 'bench', '{day}T08:{i % 5:02d}:00.000Z') "
          f"ON CONFLICT (date, source) DO NOTHING;")
PY

# fsync latency on a shared disk drifts from second to second, so the two
# sides alternate over ROUNDS rounds (swapping which goes first) and the
# medians are compared.
run_base() {
  rm -f "$BASE" "$BASE"-wal "$BASE"-shm
  local start end
  start=$(date +%s%N)
  sqlite3 "$BASE" < "$SQL" >/dev/null
  end=$(date +%s%N)
  [ "$(sqlite3 "$BASE" "SELECT count(*) FROM checkin")" = "$COUNT" ] || { echo "baseline stored too few rows" >&2; exit 1; }
  echo "($end - $start) / 1000000000" | bc -l >> "$OUT/ingest-base.times"
}
run_ours() {
  rm -f "$OURS" "$OURS"-wal "$OURS"-shm
  local start end line
  start=$(date +%s%N)
  line=$("$BIN" bench-ingest --database "$OURS" --count "$COUNT")
  end=$(date +%s%N)
  [ "$(sqlite3 "$OURS" "SELECT count(*) FROM checkin")" = "$COUNT" ] || { echo "deskdays stored too few rows" >&2; exit 1; }
  echo "$line" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p' >> "$OUT/ingest-ours.times"
  echo "($end - $start) / 1000000000" | bc -l >> "$OUT/ingest-whole.times"
}
median() { sort -g | awk '{a[NR]=$1} END {printf "%.6f", (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

rm -f "$OUT"/ingest-*.times
for round in $(seq "$ROUNDS"); do
  if (( round % 2 )); then run_base; run_ours; else run_ours; run_base; fi
done
base_s=$(median < "$OUT/ingest-base.times")
ours_s=$(median < "$OUT/ingest-ours.times")
whole_s=$(median < "$OUT/ingest-whole.times")

base_rate=$(echo "$COUNT / $base_s" | bc -l)
ours_rate=$(echo "$COUNT / $ours_s" | bc -l)
whole_rate=$(echo "$COUNT / $whole_s" | bc -l)
echo "$COUNT events per run, median of $ROUNDS runs each:"
printf '%-50s %7.0f events/s  (%.2f s)\n' "sqlite3, one durable INSERT per event (baseline)" "$base_rate" "$base_s"
printf '%-50s %7.0f events/s  (%.2f s)  %.2fx baseline, target >= 0.5x\n' \
  "deskdays pipeline, one durable commit per event" "$ours_rate" "$ours_s" "$(echo "$ours_rate / $base_rate" | bc -l)"
printf '%-50s %7.0f events/s  (%.2f s, incl. start-up and creating the file)\n' \
  "deskdays bench-ingest, whole process" "$whole_rate" "$whole_s"
