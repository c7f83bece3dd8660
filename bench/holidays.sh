#!/usr/bin/env bash
# Holidays by region: what `[policy] holidays_region` costs a command. The
# CLI reads the shipped data/holidays/holidays.tsv (every country, 2020–2040)
# and one region's block at every configuration load: `config check` with
# holidays_region = "DE-BY" beside the same command without it, and
# `holidays --region R --year 2026 --json` for a country with no
# subdivisions, a subdivision near the file's start and one near its end.
# Medians of RUNS (default 31) wall times and, where perf exists, CPU time.
# Also the file's size, raw and as the .deb compresses it (xz).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-31}
OUT=bench/out
mkdir -p "$OUT"
if [ $# -ge 1 ]; then
    BIN=$(realpath "$1")
else
    # A statically linked Swift runtime, as a shipped CLI would be (bench/core.sh).
    swift build -c release --product deskdays --static-swift-stdlib >/dev/null
    swift build -c release --product deskdays-cli --static-swift-stdlib >/dev/null
    BIN=$PWD/.build/release/deskdays
fi
source bench/lib.sh
PLAIN="$OUT/holidays-plain.toml" REGION="$OUT/holidays-region.toml"
printf '[policy]\ntimezone = "Europe/Berlin"\n' > "$PLAIN"
printf '[policy]\ntimezone = "Europe/Berlin"\nholidays_region = "DE-BY"\n' > "$REGION"
# Neither command asks the agent or opens a database.
NONE=(--database "$OUT/holidays-none.sqlite")
unset DESKDAYS_TODAY DESKDAYS_NOW

echo "data/holidays/holidays.tsv: $(wc -c <data/holidays/holidays.tsv) bytes, xz -6: $(xz -6 -c data/holidays/holidays.tsv | wc -c) bytes"
printf '%-48s %10s %10s\n' "what" "wall ms" "CPU ms"
row() { printf '%-48s %10s %10s\n' "$1" "$(time_ms "${@:2}")" "$(cpu_ms "${@:2}")"; }
row "config check, no holidays_region" "$BIN" config check --config "$PLAIN" "${NONE[@]}"
row "config check, holidays_region = DE-BY" "$BIN" config check --config "$REGION" "${NONE[@]}"
for r in AD US-CA ZW; do
    row "holidays --region $r --year 2026 --json" "$BIN" holidays --region "$r" --year 2026 --json --config "$PLAIN" "${NONE[@]}"
done
