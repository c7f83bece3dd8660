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
swift build -c release --product deskdays-cli --static-swift-stdlib >/dev/null
BIN=.build/release/deskdays
DB="$OUT/ten-years.sqlite"
bench/make-ten-year-db.sh "$BIN" "$DB"

source bench/lib.sh
export DESKDAYS_TODAY=2025-11-18
# `status` and `report` remember their answer until the database, the
# configuration or the day changes (OutputMemo): a status bar polling an
# unchanged database gets the remembered answer, the first run after each
# check-in recomputes it. Both are measured; DESKDAYS_NO_CACHE=1 forces the
# full computation on every run. The memo lives in a scratch cache folder.
export XDG_CACHE_HOME="$OUT/cache"
rm -rf "$XDG_CACHE_HOME"
ARGS=(--database "$DB" --config /dev/null/none)
# Files changed a moment ago are too fresh for an answer to be remembered
# (50 ms, or two seconds on a file system with whole-second time stamps).
sleep 3
"$BIN" status --format json "${ARGS[@]}" >/dev/null
"$BIN" report --json "${ARGS[@]}" >/dev/null
sql=$(time_ms sqlite3 "$DB" "select count(*) from checkin")
status=$(time_ms "$BIN" status --format json "${ARGS[@]}")
report=$(time_ms "$BIN" report --json "${ARGS[@]}")
status_cold=$(DESKDAYS_NO_CACHE=1 time_ms "$BIN" status --format json "${ARGS[@]}")
report_cold=$(DESKDAYS_NO_CACHE=1 time_ms "$BIN" report --json "${ARGS[@]}")
ratio() { echo "$1 / $2" | bc -l; }
printf '%-52s %8s ms\n' "sqlite3 select count(*) (baseline)" "$sql"
printf '%-52s %8s ms  (%.2fx baseline, target <= 2x)\n' "deskdays status --format json" "$status" "$(ratio "$status" "$sql")"
printf '%-52s %8s ms  (%.2fx baseline, target <= 3x)\n' "deskdays report --json" "$report" "$(ratio "$report" "$sql")"
printf '%-52s %8s ms  (%.2fx baseline)\n' "status --format json, recomputed (after a change)" "$status_cold" "$(ratio "$status_cold" "$sql")"
printf '%-52s %8s ms  (%.2fx baseline)\n' "report --json, recomputed (after a change)" "$report_cold" "$(ratio "$report_cold" "$sql")"
# The same by CPU time, steadier than wall time on a shared machine.
printf '%-52s %8s ms CPU\n' "sqlite3 select count(*) (baseline)" "$(cpu_ms sqlite3 "$DB" "select count(*) from checkin")"
printf '%-52s %8s ms CPU\n' "deskdays --help (process start-up alone)" "$(cpu_ms "$BIN" --help)"
printf '%-52s %8s ms CPU\n' "deskdays status --format json" "$(cpu_ms "$BIN" status --format json "${ARGS[@]}")"
printf '%-52s %8s ms CPU\n' "deskdays report --json" "$(cpu_ms "$BIN" report --json "${ARGS[@]}")"
printf '%-52s %8s ms CPU\n' "status --format json, recomputed" "$(DESKDAYS_NO_CACHE=1 cpu_ms "$BIN" status --format json "${ARGS[@]}")"
printf '%-52s %8s ms CPU\n' "report --json, recomputed" "$(DESKDAYS_NO_CACHE=1 cpu_ms "$BIN" report --json "${ARGS[@]}")"
