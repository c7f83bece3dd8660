#!/usr/bin/env bash
# Calendar speed: `deskdays status --format json` without the agent (the
# CLI reads the [calendar] folder at every command) on the ten-year
# database, with a vdir of EVENTS (default 5,000) one-event files, RECURRING
# (default 300) of them repeating weekly over ten years, beside the same
# command with the same database and no [calendar], in the same run.
# Target: ratio <= 3. Also the folder alone: how long reading it takes
# (`deskdays days` of one date, with and without the calendar).
# Medians of RUNS (default 15) runs each.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-15}
EVENTS=${EVENTS:-5000}
RECURRING=${RECURRING:-300}
OUT=bench/out
mkdir -p "$OUT"

# A statically linked Swift runtime, as a shipped CLI would be (bench/core.sh).
swift build -c release --product deskdays --static-swift-stdlib >/dev/null
swift build -c release --product deskdays-cli --static-swift-stdlib >/dev/null
BIN=$PWD/.build/release/deskdays
DB="$OUT/ten-years.sqlite"
[ -f "$DB" ] || bench/make-ten-year-db.sh "$BIN" "$DB"
VDIR="$OUT/calendar-vdir"
rm -rf "$VDIR"
mkdir -p "$VDIR"

# The vdir, seeded: the same files every run. Shaped as Google, Thunderbird
# and Outlook write them; a tenth are timed meetings, a tenth words that
# name nothing ("Dentist"), the rest office, WFH, PTO, Sick or Holiday.
/usr/bin/python3 - "$VDIR" "$EVENTS" "$RECURRING" <<'PY'
import datetime, random, sys
random.seed(7)
folder, events, recurring = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
start = datetime.date(2017, 1, 2)
words = ["Office", "WFH", "Remote", "PTO", "Vacation", "Sick", "Holiday", "Dentist", "Team lunch"]
def write(n, lines):
    body = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "BEGIN:VEVENT",
            f"UID:bench-{n}@example.org", "DTSTAMP:20260101T000000Z"] + lines + ["END:VEVENT", "END:VCALENDAR"]
    with open(f"{folder}/bench-{n:05d}.ics", "w", newline="") as f:
        f.write("\r\n".join(body) + "\r\n")
for n in range(events):
    day = start + datetime.timedelta(days=random.randrange(3650))
    word = random.choice(words)
    if n < recurring:
        # Weekly over ten years from the start, some with exceptions.
        first = start + datetime.timedelta(days=n % 7)
        until = first + datetime.timedelta(days=3650)
        lines = [f"DTSTART;VALUE=DATE:{first:%Y%m%d}", f"DTEND;VALUE=DATE:{first + datetime.timedelta(days=1):%Y%m%d}",
                 f"RRULE:FREQ=WEEKLY;UNTIL={until:%Y%m%d}", f"EXDATE;VALUE=DATE:{first + datetime.timedelta(days=70):%Y%m%d}",
                 f"SUMMARY:{word}"]
    elif n % 10 == 0:
        lines = [f"DTSTART;TZID=Europe/Berlin:{day:%Y%m%d}T093000", f"DTEND;TZID=Europe/Berlin:{day:%Y%m%d}T100000",
                 f"SUMMARY:{word}"]
    else:
        length = random.choice([1, 1, 1, 2, 5])
        lines = [f"DTSTART;VALUE=DATE:{day:%Y%m%d}", f"DTEND;VALUE=DATE:{day + datetime.timedelta(days=length):%Y%m%d}",
                 f"SUMMARY:{word}", "TRANSP:TRANSPARENT"]
    write(n, lines)
PY

source bench/lib.sh
PLAIN="$OUT/calendar-plain.toml" WITH="$OUT/calendar-with.toml"
: > "$PLAIN"
printf '[calendar]\nfolder = "%s"\n' "$(realpath "$VDIR")" > "$WITH"
# No agent: a socket path where none listens, so the CLI computes each answer.
NONE=(--socket "$OUT/no-agent.sock")
unset DESKDAYS_TODAY DESKDAYS_NOW
ratio() { echo "$1 / $2" | bc -l; }

plain=$(time_ms "$BIN" status --format json --database "$DB" --config "$PLAIN" "${NONE[@]}")
with=$(time_ms "$BIN" status --format json --database "$DB" --config "$WITH" "${NONE[@]}")
days_plain=$(time_ms "$BIN" days --database "$DB" --config "$PLAIN" "${NONE[@]}")
days_with=$(time_ms "$BIN" days --database "$DB" --config "$WITH" "${NONE[@]}")
files=$(find "$VDIR" -name '*.ics' | wc -l)
printf 'calendar bench: %s files (%s recurring weekly over ten years), %s runs each, median wall ms\n' "$files" "$RECURRING" "$RUNS"
printf '  status --format json, no agent, no [calendar]:   %8.2f\n' "$plain"
printf '  status --format json, no agent, with [calendar]: %8.2f  (ratio %.2f, target <= 3)\n' "$with" "$(ratio "$with" "$plain")"
printf '  days (this week), no [calendar]:                 %8.2f\n' "$days_plain"
printf '  days (this week), with [calendar]:               %8.2f  (ratio %.2f)\n' "$days_with" "$(ratio "$days_with" "$days_plain")"
awk -v r="$(ratio "$with" "$plain")" 'BEGIN { exit !(r <= 3) }' || { echo "calendar bench: over the 3x target" >&2; exit 1; }
