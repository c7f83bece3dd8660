#!/usr/bin/env bash
# Reports speed: `deskdays report --html` and `chart burndown` on
# the ten-year database of bench/make-ten-year-db.sh, beside
# `deskdays report --json` on the same file, in the same run. Each must stay
# within 3x of report --json. Prints medians of repeated runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-25}
SCRATCH=${SCRATCH:-.build}
OUT=bench/out
mkdir -p "$OUT"

# Statically linked, as bench/core.sh measures it: start-up would otherwise dominate.
swift build -c release --product deskdays --static-swift-stdlib --scratch-path "$SCRATCH" >/dev/null
swift build -c release --product deskdays-cli --static-swift-stdlib --scratch-path "$SCRATCH" >/dev/null
BIN="$SCRATCH/release/deskdays"
DB="$OUT/ten-years-reports.sqlite"
bench/make-ten-year-db.sh "$BIN" "$DB"

source bench/lib.sh
export DESKDAYS_TODAY=2025-11-18
# Like for like: no agent runs, so the baseline computes its answer too.
: > "$OUT/reports.toml"
common=(--database "$DB" --config "$OUT/reports.toml")
json=$(time_ms "$BIN" report --json "${common[@]}")
html=$(time_ms "$BIN" report --html "$OUT/report.html" "${common[@]}")
burndown=$(time_ms "$BIN" chart burndown --out "$OUT/burndown.svg" "${common[@]}")
weeks=$(time_ms "$BIN" chart weeks --out "$OUT/weeks.svg" "${common[@]}")
calendar=$(time_ms "$BIN" calendar --months 12 "${common[@]}")
printf '%-44s %8s ms\n' "deskdays report --json (baseline)" "$json"
for row in "report --html:$html" "chart burndown:$burndown" "chart weeks:$weeks" "calendar --months 12:$calendar"; do
  name=${row%%:*} value=${row##*:}
  printf '%-44s %8s ms  (%.2fx baseline, target <= 3x)\n' "deskdays $name" "$value" "$(echo "$value / $json" | bc -l)"
done
