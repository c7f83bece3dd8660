#!/usr/bin/env bash
# Fuzz journal-line decoding and the sync folder's door with
# libFuzzer + AddressSanitizer for a fixed number of runs, seeded with good
# lines of every kind and the lines that once bricked a device (a clock in
# the year 10000, counters at Int64.max, dates 2150-06-01 and 0000-02-29,
# a departure seven months after its date, a 5,000-character rule, a clear
# clocked in 2099). Exits non-zero on a crash. RUNS overrides the count
# (default 200000).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-200000}
WORK=${TMPDIR:-/tmp}/deskdays-fuzz-journal
rm -rf "$WORK"
mkdir -p "$WORK/corpus" "$WORK/src"

# Localization and DeskDaysCore as modules (fuzz/modules.bash); the
# journal's own files (DeskDaysSync's, and the store's row and times they
# read) compiled into the fuzz program, without the store's GRDB.
source fuzz/modules.bash
swift_core_modules
for file in Sources/DeskDaysStore/{SyncOp,UTCTimestamp}.swift Sources/DeskDaysSync/{JournalEntry,HLC}.swift; do
    grep -v '^import DeskDaysStore$' "$file" > "$WORK/src/$(basename "$file")"
done
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name JournalFuzz -I "$WORK/modules" -I Sources/CIntl "${MODULE_FLAGS[@]}" \
    "$WORK"/src/*.swift fuzz/journal_fuzz.swift "${MODULE_OBJECTS[@]}" \
    -o "$WORK/journal-fuzz"

/usr/bin/python3 - "$WORK/corpus" <<'PY'
import json, os, sys
out = sys.argv[1]
me = "fedcba9876543210fedcba9876543210"
def line(**fields):
    base = {"v": 1, "device": me, "name": "desk", "seq": 1, "hlc": 1795190000000, "n": 0, "date": "2026-11-16"}
    base.update(fields)
    return json.dumps({k: v for k, v in base.items() if v is not None}, sort_keys=True, separators=(",", ":"))
record = dict(op="record", status="office", origin="manual")
sign = dict(op="sign", source="wifi", kind="arrival", at="2026-11-16T08:00:00.000Z", rule="hq")
seeds = [
    line(**record), line(**record, note='say "hi"\nback\\slash', ifEmpty=True, clock="2026-11-20T15:53:20.000Z"),
    line(**sign), line(op="checkin", source="nfc", at="2026-11-16T08:00:00.000Z"),
    line(op="clear", origins=["automatic", "manual"]), line(op="removed", origin="manual", entry="office record"),
    line(**record, hlc=253402300800000), line(**record, n=9223372036854775807), line(**record, seq=9223372036854775807),
    line(**record, n=-1), line(**record, seq=0), line(**record, date="2150-06-01"), line(**record, date="0000-02-29"),
    line(**dict(sign, kind="departure", at="2026-11-16T17:00:00.000Z"), date="2026-04-16"),
    line(**dict(sign, rule="r" * 5000)), line(op="clear", origins=["automatic", "manual"], hlc=4084732800000),
    line(**record, name="x\nProblems: none\u001b[2J"), line(**dict(record, status="holiday")),
    line(**record, hlc=1.5e12), '{"v":2,"device":"%s","op":"teleport"}' % me,
]
for i, seed in enumerate(seeds):
    with open(os.path.join(out, f"seed-{i:02d}"), "w", encoding="utf-8") as f:
        f.write(seed)
PY

"$WORK/journal-fuzz" -runs="$RUNS" -max_len=8192 -print_final_stats=1 "$WORK/corpus" 2>&1 | tail -n 12
