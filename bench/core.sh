#!/usr/bin/env bash
# Core speed (issue 2): `deskdays status --format json` and `report --json`
# on a ten-year database, beside `sqlite3 DB "select count(*) from checkin"`
# on the same file, in the same run. Prints medians of repeated runs.
#
# The database is bench/make-ten-year-db.sh's (ten years, 50,000 events).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-25}
OUT=bench/out
mkdir -p "$OUT"

# A statically linked Swift runtime, as a shipped CLI would be: start-up dominates these figures.
swift build -c release --product deskdays --static-swift-stdlib >/dev/null
BIN=.build/release/deskdays
DB="$OUT/ten-years.sqlite"
bench/make-ten-year-db.sh "$BIN" "$DB"

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }
# Times one command RUNS times; prints the median in milliseconds.
time_ms() {
  for _ in $(seq "$RUNS"); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    echo $(( (end - start) / 1000 ))
  done | median | awk '{printf "%.2f", $1/1000}'
}
export DESKDAYS_TODAY=2025-11-18
sql=$(time_ms sqlite3 "$DB" "select count(*) from checkin")
status=$(time_ms "$BIN" status --format json --database "$DB" --config /dev/null/none)
report=$(time_ms "$BIN" report --json --database "$DB" --config /dev/null/none)
printf '%-44s %8s ms\n' "sqlite3 select count(*) (baseline)" "$sql"
printf '%-44s %8s ms  (%.2fx baseline, target <= 2x)\n' "deskdays status --format json" "$status" "$(echo "$status / $sql" | bc -l)"
printf '%-44s %8s ms  (%.2fx baseline, target <= 3x)\n' "deskdays report --json" "$report" "$(echo "$report / $sql" | bc -l)"
