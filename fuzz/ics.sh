#!/usr/bin/env bash
# Fuzz the iCalendar reader (Sources/ICal on libical: holiday feeds, `.ics` imports, the vdir)
# with libFuzzer + AddressSanitizer for a fixed number of runs, seeded with
# small calendars: yearly rules with huge COUNT/INTERVAL/UNTIL, a missing
# END:VEVENT, folded lines, timed events. Exits non-zero on a crash. RUNS
# overrides the count (default 200000).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# libFuzzer reports a crash itself; Swift's backtracer, attached as well, was seen to hang.
export SWIFT_BACKTRACE=enable=no
RUNS=${RUNS:-200000}
WORK=${TMPDIR:-/tmp}/deskdays-fuzz-ics
rm -rf "$WORK"
mkdir -p "$WORK/corpus"

source fuzz/modules.bash
swift_core_modules
# The reader is libical's (Sources/ICal through Sources/CICal): linked, not instrumented.
swift_module ICal "${MODULE_FLAGS[@]}" -I Sources/CICal Sources/ICal/*.swift
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name ICSFuzz -I "$WORK/modules" -I Sources/CIntl -I Sources/CICal "${MODULE_FLAGS[@]}" \
    fuzz/ics_fuzz.swift "${MODULE_OBJECTS[@]}" -lical -o "$WORK/ics-fuzz"

/usr/bin/python3 - "$WORK/corpus" <<'PY'
import os, sys
out = sys.argv[1]
def calendar(*events):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//seed//EN"]
    for event in events:
        lines += ["BEGIN:VEVENT"] + list(event) + ["END:VEVENT"]
    return "\r\n".join(lines + ["END:VCALENDAR"]) + "\r\n"
seeds = {
    "plain": calendar(["DTSTART;VALUE=DATE:20261225", "DTEND;VALUE=DATE:20261226", "SUMMARY:Christmas Day"]),
    "yearly": calendar(["DTSTART;VALUE=DATE:20260101", "RRULE:FREQ=YEARLY;COUNT=3", "SUMMARY:New Year"],
                       ["DTSTART;VALUE=DATE:20240229", "RRULE:FREQ=YEARLY;INTERVAL=2;UNTIL=20301231", "SUMMARY:Leap"]),
    "huge-interval": calendar(["DTSTART;VALUE=DATE:20261118", "RRULE:FREQ=YEARLY;INTERVAL=9223372036854775807", "SUMMARY:Vacation"]),
    "huge-count": calendar(["DTSTART;VALUE=DATE:00010101", "RRULE:FREQ=YEARLY;COUNT=9223372036854775807;UNTIL=99991231", "SUMMARY:Y"]),
    "bad-values": calendar(["DTSTART;VALUE=DATE:20260101", "RRULE:FREQ=YEARLY;INTERVAL=-1;COUNT=0", "SUMMARY:H"],
                           ["DTSTART;VALUE=DATE:20260101", "RRULE:FREQ=WEEKLY", "SUMMARY:W"]),
    "endless": calendar(["DTSTART;VALUE=DATE:20261003", "RRULE:FREQ=SECONDLY", "SUMMARY:S"],
                        ["DTSTART;VALUE=DATE:19900101", "RRULE:FREQ=DAILY;INTERVAL=40000", "SUMMARY:D"],
                        ["DTSTART;VALUE=DATE:20261102", "RRULE:FREQ=WEEKLY;COUNT=3", "EXDATE;VALUE=DATE:20261109",
                         "RDATE;VALUE=DATE:20261104", "SUMMARY:R"]),
    "long-event": calendar(["DTSTART;VALUE=DATE:20260101", "DTEND;VALUE=DATE:20261231", "RRULE:FREQ=YEARLY;COUNT=5", "SUMMARY:Y"]),
    "missing-end": "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261116\r\nSUMMARY:Vacation\r\n"
                   "BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261117\r\nSUMMARY:Out of Office: Vacation\r\nEND:VEVENT\r\n",
    "folded-timed": "BEGIN:VCALENDAR\nBEGIN:VTIMEZONE\nTZID:Europe/Berlin\nBEGIN:STANDARD\nDTSTART:19701025T030000\nEND:STANDARD\n"
                    "END:VTIMEZONE\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:2026\n 1003\nSUMMARY:Tag der\n  Einheit\\, \\n\nEND:VEVENT\n"
                    "BEGIN:VEVENT\nDTSTART;TZID=Europe/Berlin:20261226T090000\nSUMMARY:Brunch\nEND:VEVENT\nEND:VEVENT\nEND:VCALENDAR\n",
}
for name, text in seeds.items():
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        f.write(text)
PY

# Real exports (Outlook's Windows zones, Google's moved occurrences, …) as seeds too.
cp Tests/Fixtures/calendar/vdir/*.ics Tests/Fixtures/calendar/holidays/*.ics "$WORK/corpus/"

"$WORK/ics-fuzz" -runs="$RUNS" -max_len=4096 -print_final_stats=1 "$WORK/corpus" 2>&1 | tail -n 12
