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

source bench/lib.sh
export DESKDAYS_TODAY=2025-11-18
sql=$(time_ms sqlite3 "$DB" "select count(*) from checkin")
status=$(time_ms "$BIN" status --format json --database "$DB" --config /dev/null/none)
report=$(time_ms "$BIN" report --json --database "$DB" --config /dev/null/none)
printf '%-44s %8s ms\n' "sqlite3 select count(*) (baseline)" "$sql"
printf '%-44s %8s ms  (%.2fx baseline, target <= 2x)\n' "deskdays status --format json" "$status" "$(echo "$status / $sql" | bc -l)"
printf '%-44s %8s ms  (%.2fx baseline, target <= 3x)\n' "deskdays report --json" "$report" "$(echo "$report / $sql" | bc -l)"
# The same three by CPU time, steadier than wall time on a shared machine.
printf '%-44s %8s ms CPU\n' "sqlite3 select count(*) (baseline)" "$(cpu_ms sqlite3 "$DB" "select count(*) from checkin")"
printf '%-44s %8s ms CPU\n' "deskdays --help (process start-up alone)" "$(cpu_ms "$BIN" --help)"
printf '%-44s %8s ms CPU\n' "deskdays status --format json" "$(cpu_ms "$BIN" status --format json --database "$DB" --config /dev/null/none)"
printf '%-44s %8s ms CPU\n' "deskdays report --json" "$(cpu_ms "$BIN" report --json --database "$DB" --config /dev/null/none)"
