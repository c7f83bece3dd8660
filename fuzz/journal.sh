#!/usr/bin/env bash
# Fuzz the sync journal's line decoder (issue 28: JournalEntry.decode, its
# fast reader and Foundation's fallback) with libFuzzer +
# AddressSanitizer for a fixed number of runs, seeded with lines as
# DeskDays writes them and with the hostile ones of the issue (a year-10000
# clock, Int64.max counters and sequence numbers). Exits non-zero on a
# crash. RUNS overrides the count (default 200000).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# libFuzzer reports a crash itself; Swift's backtracer, attached as well, was seen to hang.
export SWIFT_BACKTRACE=enable=no
RUNS=${RUNS:-200000}
WORK=${TMPDIR:-/tmp}/deskdays-fuzz-journal
rm -rf "$WORK"
mkdir -p "$WORK/corpus"

# Journal.swift and what it uses without GRDB (fuzz/journal_fuzz.swift says how Removal is stood in for).
source fuzz/modules.bash
swift_core_modules
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name JournalFuzz -I "$WORK/modules" -I Sources/CIntl \
    Sources/DeskDaysStore/Journal.swift Sources/DeskDaysStore/UTCTimestamp.swift fuzz/journal_fuzz.swift \
    "${MODULE_OBJECTS[@]}" -o "$WORK/journal-fuzz"

/usr/bin/python3 - "$WORK/corpus" <<'PY'
import json, os, sys
out = sys.argv[1]
base = {"v": 1, "device": "3f2a9c1e-0b4d-4e6f-9a8b-7c6d5e4f3a2b", "name": "laptop", "seq": 7,
        "hlc": 1795000000000, "n": 0, "clock": "2026-11-18T09:00:00.000Z", "date": "2026-11-18"}
lines = [
    dict(base, op="sign", source="nfc", rule="desk", at="2026-11-18T08:52:10.000Z", kind="arrival"),
    dict(base, op="record", status="office", origin="manual", note="client \"Paris\"\nday two", ifEmpty=True),
    dict(base, op="clear", origins=["import", "manual"]),
    dict(base, op="checkin", source="wifi", rule="hq", at="2026-11-18T08:55:00.000Z"),
    dict(base, op="removed", origin="automatic", entry="gps check-in, rule \"hq\""),
    dict(base, op="record", status="remote", origin="fallback", hlc=253402300800000),
    dict(base, op="record", status="office", origin="manual", n=9223372036854775807),
    dict(base, op="record", status="office", origin="manual", seq=9223372036854775807, hlc=-9223372036854775808),
    dict(base, op="record", status="office", origin="manual", date="0000-02-29"),
]
for i, line in enumerate(lines):
    with open(os.path.join(out, f"line-{i:02d}"), "w", encoding="utf-8") as f:
        f.write(json.dumps(line, sort_keys=True, separators=(",", ":")))
with open(os.path.join(out, "pretty"), "w") as f:
    f.write(json.dumps(lines[0], indent=1))
with open(os.path.join(out, "fraction"), "w") as f:
    f.write(json.dumps(dict(base, op="record", status="office", origin="manual"), sort_keys=True).replace('"n": 0', '"n": 1e3'))
PY

"$WORK/journal-fuzz" -runs="$RUNS" -max_len=2048 -print_final_stats=1 "$WORK/corpus" 2>&1 | tail -n 12
