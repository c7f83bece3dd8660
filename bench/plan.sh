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
# The agent is deskdays-hardware's command.
swift build -c release --product deskdays-hardware --static-swift-stdlib --scratch-path "$SCRATCH" >/dev/null
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

# Through a running agent (on the system clock: it answers only for "now").
unset DESKDAYS_TODAY
SOCK="$OUT/plan-agent.sock"
"$BIN" agent "${common[@]}" --socket "$SOCK" >"$OUT/plan-agent.log" 2>&1 &
AGENT=$!
trap 'kill $AGENT 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -S "$SOCK" ] && break; sleep 0.1; done
"$BIN" status --format json "${common[@]}" --socket "$SOCK" >/dev/null
status=$(time_ms "$BIN" status --format json "${common[@]}" --socket "$SOCK")
plan=$(time_ms "$BIN" plan --json "${common[@]}" --socket "$SOCK")
printf 'agent       %-34s %8s ms\n' "deskdays status --format json" "$status"
printf 'agent       %-34s %8s ms  (%.2fx status, target <= 2x)\n' "deskdays plan --json" "$plan" "$(echo "$plan / $status" | bc -l)"
DESKDAYS_LOG=info "$BIN" plan --json "${common[@]}" --socket "$SOCK" 2>&1 >/dev/null | grep -q "answered by the agent" \
  && echo "agent       plan answered by the agent: yes" || echo "agent       plan answered by the agent: NO"
