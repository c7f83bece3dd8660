#!/usr/bin/env bash
# Languages speed: `deskdays status` (the text a person reads) in
# German beside the same command in English (LC_ALL=C), on the ten-year
# database of bench/make-ten-year-db.sh, in the same run. Target: German
# within 1.1x of English. Prints medians of repeated runs (wall) and the mean
# CPU time under perf where it is available.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-41}
SCRATCH=${SCRATCH:-.build}
OUT=bench/out
mkdir -p "$OUT"

swift build -c release --product deskdays --static-swift-stdlib --scratch-path "$SCRATCH" >/dev/null
swift build -c release --product deskdays-cli --static-swift-stdlib --scratch-path "$SCRATCH" >/dev/null
BIN="$SCRATCH/release/deskdays"
DB="$OUT/ten-years-languages.sqlite"
bench/make-ten-year-db.sh "$BIN" "$DB"
# The catalogs, as `make build` compiles them (found beside .build/release).
make --no-print-directory catalogs >/dev/null

source bench/lib.sh
export DESKDAYS_TODAY=2025-11-18
: > "$OUT/languages.toml"
common=(--database "$DB" --config "$OUT/languages.toml")
LC_ALL=C "$BIN" status "${common[@]}" >/dev/null
if ! env -u LC_ALL LANG=de_DE.UTF-8 LANGUAGE= "$BIN" status "${common[@]}" | grep -q '[äöüß]\|Büro'; then
  echo "note: the German catalog did not load (is po/de.po there, and .build/share/locale built?)" >&2
fi
english=$(LC_ALL=C time_ms "$BIN" status "${common[@]}")
german=$(env -u LC_ALL LANG=de_DE.UTF-8 LANGUAGE= bash -c 'source bench/lib.sh; RUNS='"$RUNS"' time_ms "$@"' _ "$BIN" status "${common[@]}")
english_cpu=$(LC_ALL=C cpu_ms "$BIN" status "${common[@]}")
german_cpu=$(env -u LC_ALL LANG=de_DE.UTF-8 LANGUAGE= bash -c 'source bench/lib.sh; RUNS='"$RUNS"' cpu_ms "$@"' _ "$BIN" status "${common[@]}")
printf '%-40s %8s ms wall  %8s ms CPU\n' "deskdays status, LC_ALL=C (baseline)" "$english" "$english_cpu"
printf '%-40s %8s ms wall  %8s ms CPU\n' "deskdays status, LANG=de_DE.UTF-8" "$german" "$german_cpu"
printf 'ratio German/English: %.3f wall' "$(echo "$german / $english" | bc -l)"
[ "$english_cpu" = n/a ] || printf ', %.3f CPU' "$(echo "$german_cpu / $english_cpu" | bc -l)"
printf ' (target <= 1.1)\n'
