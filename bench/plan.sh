#!/usr/bin/env bash
# Planning speed: `deskdays plan --json` beside `deskdays status --format
# json` on the ten-year database of bench/make-ten-year-db.sh, in the same
# run, computed by the CLI (no agent). Target: plan within 2x of status.
# Two todays: inside the history (every workday recorded) and a new quarter
# after it (every workday open). Prints medians of repeated runs.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-25}
SCRATCH=${SCRATCH:-.build}
OUT=bench/out
mkdir -p "$OUT"

swift build -c release --product deskdays --static-swift-stdlib --scratch-path "$SCRATCH" >/dev/null
swift build -c release --product deskdays-cli --static-swift-stdlib --scratch-path "$SCRATCH" >/dev/null
BIN="$SCRATCH/release/deskdays"
DB="$OUT/ten-years-plan.sqlite"
bench/make-ten-year-db.sh "$BIN" "$DB"

source bench/lib.sh
printf '[policy.target]\nkind = "days_per_week"\nvalue = 3\n[plan]\nprefer = ["tue", "thu"]\n' > "$OUT/plan.toml"
common=(--database "$DB" --config "$OUT/plan.toml")
for today in 2025-11-18 2026-01-05; do
  export DESKDAYS_TODAY=$today
  status=$(time_ms "$BIN" status --format json "${common[@]}")
  plan=$(time_ms "$BIN" plan --json "${common[@]}")
  printf '%s  %-34s %8s ms\n' "$today" "deskdays status --format json" "$status"
  printf '%s  %-34s %8s ms  (%.2fx status, target <= 2x)\n' "$today" "deskdays plan --json" "$plan" "$(echo "$plan / $status" | bc -l)"
done
