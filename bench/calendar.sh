#!/usr/bin/env bash
# Calendar speed: `deskdays status --format json` without the agent (the
# CLI reads the [calendar] folder at every command) on the ten-year
# database, with a vdir of EVENTS (default 5,000) one-event files, RECURRING
# (default 300) of them repeating weekly over ten years, beside the same
# command with the same database and no [calendar], in the same run.
# Target: ratio <= 3. The folder's files are parsed once and kept in a
# cache (XDG_CACHE_HOME, trusted per file by inode, size and mtime): the
# target figure is with the cache, as every command after the first runs;
# beside it, the same command with no cache at all (every file parsed,
# every rule expanded, at every command), the figure that decided the cache;
# then one file touched (one file parsed again); the cold read beside
# bench/ical_floor.c, libical alone parsing the same files and walking their
# rules. Medians of RUNS (default 15).
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
# Repeating: the weekly home or office day, or a meeting that names nothing;
# once: mostly days off and plans, a few holidays and sick days.
weekly = ["WFH", "Office", "Remote", "Team lunch"]
words = ["Office"] * 4 + ["WFH"] * 3 + ["PTO", "Vacation", "Sick", "Holiday", "Dentist", "Team lunch"]
def write(n, lines):
    body = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Google Inc//Google Calendar 70.9054//EN", "BEGIN:VEVENT",
            f"UID:bench-{n}@example.org", "DTSTAMP:20260101T000000Z"] + lines + ["END:VEVENT", "END:VCALENDAR"]
    with open(f"{folder}/bench-{n:05d}.ics", "w", newline="") as f:
        f.write("\r\n".join(body) + "\r\n")
for n in range(events):
    day = start + datetime.timedelta(days=random.randrange(3650))
    word = random.choice(weekly if n < recurring else words)
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

export XDG_CACHE_HOME="$PWD/$OUT/calendar-cache"
rm -rf "$XDG_CACHE_HOME"
"$BIN" status --format json --database "$DB" --config "$WITH" "${NONE[@]}" >/dev/null   # fills the cache
plain=$(time_ms "$BIN" status --format json --database "$DB" --config "$PLAIN" "${NONE[@]}")
with=$(time_ms "$BIN" status --format json --database "$DB" --config "$WITH" "${NONE[@]}")
touched=$(time_ms bash -c 'touch "$0"; exec "$@"' "$VDIR/bench-04999.ics" "$BIN" status --format json --database "$DB" --config "$WITH" "${NONE[@]}")
touch_only=$(time_ms touch "$VDIR/bench-04999.ics")
cold=$(XDG_CACHE_HOME=/dev/null RUNS=$(( RUNS < 5 ? RUNS : 5 )) time_ms "$BIN" status --format json --database "$DB" --config "$WITH" "${NONE[@]}")
cc -O2 -o "$OUT/ical_floor" bench/ical_floor.c $(pkg-config --cflags --libs libical)
ical_floor=$(RUNS=$(( RUNS < 5 ? RUNS : 5 )) time_ms "$OUT/ical_floor" "$VDIR")
plain_cpu=$(cpu_ms "$BIN" status --format json --database "$DB" --config "$PLAIN" "${NONE[@]}")
with_cpu=$(cpu_ms "$BIN" status --format json --database "$DB" --config "$WITH" "${NONE[@]}")
files=$(find "$VDIR" -name '*.ics' | wc -l)
printf 'calendar bench: %s files (%s recurring weekly over ten years), median wall ms\n' "$files" "$RECURRING"
printf '  status --format json, no agent, no [calendar]:            %8.2f\n' "$plain"
printf '  status --format json, no agent, with [calendar] (cached): %8.2f  (ratio %.2f, target <= 3)\n' "$with" "$(ratio "$with" "$plain")"
printf '  CPU (perf task-clock, mean): no [calendar] %.2f, with (cached) %.2f  (ratio %.2f)\n' "$plain_cpu" "$with_cpu" "$(ratio "$with_cpu" "$plain_cpu")"
printf '  the same after touching one file (touch %.2f ms itself):   %8.2f  (ratio %.2f)\n' "$touch_only" "$touched" "$(ratio "$touched" "$plain")"
printf '  the same with no cache (every file parsed, 5 runs):       %8.2f  (ratio %.2f; target <= 100 ms with EVENTS=20000)\n' "$cold" "$(ratio "$cold" "$plain")"
printf '  baseline: libical alone on the same files (ical_floor.c):  %8.2f  (the cold read: %.2fx)\n' "$ical_floor" "$(ratio "$cold" "$ical_floor")"
awk -v r="$(ratio "$with" "$plain")" 'BEGIN { exit !(r <= 3) }' || { echo "calendar bench: over the 3x target" >&2; exit 1; }

# 2. An edited event reaches `status --follow` through the agent (inotify on
# the folder): FOLLOW_EDITS (default 50) edits of one event file in a copy of
# the same vdir, each adding (renamed into place, as vdirsyncer does) or
# removing a "Vacation" event on a workday of this period; the time from the
# edit to the follow line with the changed excused count. Target p99 <= 2 s.
swift build -c release --product deskdays-hardware --static-swift-stdlib >/dev/null
WORK="$OUT/calendar-follow"
rm -rf "$WORK"
mkdir -p "$WORK"
cp -r "$VDIR" "$WORK/vdir"
sqlite3 "$DB" ".backup '$WORK/db.sqlite'"
printf '[calendar]\nfolder = "%s"\n' "$(realpath "$WORK/vdir")" > "$WORK/config.toml"
HOME="$WORK" XDG_RUNTIME_DIR="$WORK" "$BIN" agent --config "$WORK/config.toml" --database "$WORK/db.sqlite" \
    --socket "$WORK/agent.sock" >"$WORK/agent.log" 2>&1 &
AGENT_PID=$!
trap 'kill $AGENT_PID 2>/dev/null || true' EXIT
for _ in $(seq 400); do [ -S "$WORK/agent.sock" ] && break; sleep 0.05; done
/usr/bin/python3 - "$BIN" "$WORK" "${FOLLOW_EDITS:-50}" <<'PY'
import datetime, json, os, select, subprocess, sys, time
binary, work, edits = sys.argv[1], sys.argv[2], int(sys.argv[3])
env = dict(os.environ, HOME=work, XDG_RUNTIME_DIR=work)
follow = subprocess.Popen([binary, "status", "--follow", "--format", "json", "--socket", f"{work}/agent.sock",
                           "--config", f"{work}/config.toml", "--database", f"{work}/db.sqlite"],
                          stdout=subprocess.PIPE, env=env)
def next_line(timeout=5.0):
    ready, _, _ = select.select([follow.stdout], [], [], timeout)
    return json.loads(follow.stdout.readline()) if ready else None
first = next_line(30)
if first is None:
    sys.exit("calendar bench: no first status --follow line")
path = f"{work}/vdir/bench-follow.ics"
def add(day):
    text = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//DeskDays bench//EN\r\nBEGIN:VEVENT\r\n"
            "UID:bench-follow@example.org\r\nDTSTAMP:20261101T000000Z\r\n"
            f"DTSTART;VALUE=DATE:{day:%Y%m%d}\r\nDTEND;VALUE=DATE:{day + datetime.timedelta(days=1):%Y%m%d}\r\n"
            "SUMMARY:Vacation\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.rename(path + ".tmp", path)
def wait(excused):
    while True:
        got = next_line()
        if got is None or got["excused"] == excused:
            return got
# A workday of this period whose status a vacation event changes (the vdir may decide some already).
day, excused, end = datetime.date.today(), first["excused"], datetime.date.fromisoformat(first["period"]["end"])
while True:
    day += datetime.timedelta(days=1)
    if day > end:
        sys.exit("calendar bench: no workday left in this period that a vacation event changes")
    if day.weekday() >= 5:
        continue
    add(day)
    if wait(excused + 1) is not None:
        os.remove(path)
        if wait(excused) is None:
            sys.exit("calendar bench: removing the event did not reach status --follow")
        break
    os.remove(path)
    wait(excused)
delays = []
for i in range(edits):
    start = time.monotonic()
    if i % 2 == 0:
        add(day)
        got = wait(excused + 1)
    else:
        os.remove(path)
        got = wait(excused)
    if got is None:
        sys.exit(f"calendar bench: edit {i + 1} did not reach status --follow within 5 s")
    delays.append((time.monotonic() - start) * 1000)
follow.kill()
delays.sort()
p = lambda q: delays[min(len(delays) - 1, int(round(q * (len(delays) - 1))))]
print(f"an edited event -> status --follow, {edits} edits (5,000-file vdir, {day}):")
print(f"  p50 {p(0.50):.1f} ms   p99 {p(0.99):.1f} ms   max {delays[-1]:.1f} ms (target p99 <= 2000 ms)")
PY
