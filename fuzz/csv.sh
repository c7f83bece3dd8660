#!/usr/bin/env bash
# Fuzz the CSV import (`deskdays import` of a CSV, and the
# employer's CSV `reconcile` reads) with libFuzzer + AddressSanitizer for a
# fixed number of runs, seeded with exports and with broken files: an
# unterminated quote, text after a closing quote, quoted newlines, status
# phrases that are no status. Exits non-zero on a crash. RUNS overrides the
# count (default 200000).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# libFuzzer reports a crash itself; Swift's backtracer, attached as well, was seen to hang.
export SWIFT_BACKTRACE=enable=no
RUNS=${RUNS:-200000}
WORK=${TMPDIR:-/tmp}/deskdays-fuzz-csv
rm -rf "$WORK"
mkdir -p "$WORK/corpus"

# DeskDaysExchange writes CSV with CSV.swift: its sources, as SwiftPM fetched them.
swift package resolve >/dev/null
source fuzz/modules.bash
swift_core_modules
swift_module CSV .build/checkouts/CSV.swift/Sources/CSV/*.swift
# DeskDaysExchange reads and writes iCalendar through ICal (libical).
swift_module ICal "${MODULE_FLAGS[@]}" -I Sources/CICal Sources/ICal/*.swift
swift_module DeskDaysExchange "${MODULE_FLAGS[@]}" -I Sources/CICal Sources/DeskDaysExchange/*.swift
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name CSVFuzz -I "$WORK/modules" -I Sources/CIntl \
    -I Sources/CICal "${MODULE_FLAGS[@]}" fuzz/csv_fuzz.swift "${MODULE_OBJECTS[@]}" -lical -o "$WORK/csv-fuzz"

/usr/bin/python3 - "$WORK/corpus" <<'PY'
import os, sys
out = sys.argv[1]
seeds = {
    "export": 'date,workday,status,origin,sources,note\n2026-11-16,true,travel,manual,manual,"Client, ""Paris""\nday two"\n'
              "2026-11-17,true,office,automatic,nfc wifi,\n2026-11-18,true,,,,\n",
    "phrases": "date,status\n2026-11-16,Out of office\n2026-11-17,Office closed\n2026-11-18,Not in office\n"
               "2026-11-19,Out of Office: Vacation\n2026-11-20,  Home   Office \n",
    "unterminated": 'date,status,note\n2026-11-16,office,"client\n2026-11-17,office,\n2026-11-18,office,\n',
    "after-quote": 'date,status,note\n2026-11-16,office,"a"b\n',
    "crlf-bom": "\ufeffdate,status\r\n\r\n2026-11-16,WFH\r\n2026-11-17,Urlaub\r\n",
    "employer": "Swipe time,Door\n2026-11-16 08:52:10,Main\n2026-11-16T17:40:00+01:00,\"Main, East\"\n2026-11-17 09:00,\"Main\n",
    "employer-offsets": "Date,Badge\n2026-11-16T23:59:59.123Z,1\n2026-11-17 00:00 -0530,2\n2026-11-18,3\n",
}
for name, text in seeds.items():
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        f.write(text)
PY

"$WORK/csv-fuzz" -runs="$RUNS" -max_len=4096 -print_final_stats=1 "$WORK/corpus" 2>&1 | tail -n 12
