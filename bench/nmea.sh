#!/usr/bin/env bash
# NMEA decoding speed: `deskdays nmea decode FILE > /dev/null`
# beside gpsd's `gpsdecode < FILE > /dev/null` (Debian gpsd-clients) on the
# same file in the same run. The file is every gpsd capture of the test
# fixtures concatenated and repeated to about SIZE_MB (default 30) MB.
# Target: ours >= gpsdecode's MB/s. Figures are the median of ROUNDS
# (default 3) alternating runs.
#
# Usage: bench/nmea.sh [DESKDAYS_BINARY]   (default: a release build in
# .build-gps-release, or $SCRATCH_PATH)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
SIZE_MB=${SIZE_MB:-30}
ROUNDS=${ROUNDS:-3}
OUT=bench/out
mkdir -p "$OUT"

if [ $# -ge 1 ]; then
    BIN=$1
else
    SCRATCH=${SCRATCH_PATH:-.build-gps-release}
    swift build -c release --scratch-path "$SCRATCH" --product deskdays >/dev/null
    swift build -c release --scratch-path "$SCRATCH" --product deskdays-cli >/dev/null
    swift build -c release --scratch-path "$SCRATCH" --product deskdays >/dev/null
    swift build -c release --scratch-path "$SCRATCH" --product deskdays-cli >/dev/null
    BIN="$SCRATCH/release/deskdays"
fi
command -v gpsdecode >/dev/null || { echo "gpsdecode not installed: apt-get install gpsd-clients" >&2; exit 1; }

FILE="$OUT/nmea-bench.nmea"
: > "$FILE"
while [ "$(stat -c %s "$FILE")" -lt $((SIZE_MB * 1000000)) ]; do
    cat Tests/Fixtures/nmea/gpsd/*.log >> "$FILE"
done
BYTES=$(stat -c %s "$FILE")

# Seconds taken by a command (wall clock, high resolution).
elapsed() {
    local start end
    start=$(date +%s.%N)
    "$@"
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN {printf "%.6f\n", b - a}'
}
run_ours() { "$BIN" nmea decode "$FILE" > /dev/null; }
run_gpsd() { gpsdecode < "$FILE" > /dev/null; }

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

cat "$FILE" > /dev/null   # warm the page cache for both
ours=(); gpsd=()
for _ in $(seq "$ROUNDS"); do
    ours+=("$(elapsed run_ours)")
    gpsd+=("$(elapsed run_gpsd)")
done
ours_s=$(printf '%s\n' "${ours[@]}" | median)
gpsd_s=$(printf '%s\n' "${gpsd[@]}" | median)
mb=$(awk -v b="$BYTES" 'BEGIN {print b / 1000000}')
ours_rate=$(awk -v m="$mb" -v s="$ours_s" 'BEGIN {print m / s}')
gpsd_rate=$(awk -v m="$mb" -v s="$gpsd_s" 'BEGIN {print m / s}')
lines=$("$BIN" nmea decode "$FILE" | wc -l)

printf 'input: %.1f MB of NMEA (%s fixes decoded)\n' "$mb" "$lines"
printf 'deskdays nmea decode: %6.1f MB/s  (%.3f s, median of %s)\n' "$ours_rate" "$ours_s" "$ROUNDS"
printf 'gpsdecode:            %6.1f MB/s  (%.3f s, median of %s)\n' "$gpsd_rate" "$gpsd_s" "$ROUNDS"
if awk -v a="$ours_rate" -v b="$gpsd_rate" 'BEGIN {exit !(a >= b)}'; then
    echo "target met: deskdays >= gpsdecode"
else
    echo "target MISSED: deskdays < gpsdecode"
    exit 1
fi
