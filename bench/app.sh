#!/usr/bin/env bash
# The app's window with a ten-year database and a running agent (activated
# and its report computed first), against its floor measured in the same run: a bare AdwApplicationWindow with one
# label (bench/adw_floor.c). Each from its spawn to its first frame painted
# (the app's with the period line; each prints its CLOCK_MONOTONIC then),
# under Xvfb with a private session bus and the agent started by D-Bus
# activation (Tests/Harness/app/session.py); then each one's resident memory
# and its wake-ups over 10 s idle: the system calls its threads make
# (strace attached), and its context switches.
# GSK_RENDERER defaults to cairo: under Xvfb the GL renderer is llvmpipe
# with a cold shader cache each run, whose compiling (over a second for the
# app's rounded cards) would be measured instead of the window.
# Targets (issue 56): within 1.5x the floor's first frame; 0 wake-ups idle.
#
# Usage: bench/app.sh [BIN_DIR]   (default: a release build with the Swift
# runtime linked in, as the package ships it, in SCRATCH_PATH or .build/static)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
for tool in Xvfb dbus-daemon gcc pkg-config strace; do
    command -v "$tool" >/dev/null 2>&1 || { echo "app: $tool missing: apt-get install xvfb dbus-daemon gcc pkg-config strace" >&2; exit 1; }
done
if [ $# -ge 1 ]; then
    BIN_DIR=$(realpath "$1")
else
    SCRATCH=${SCRATCH_PATH:-.build/static}
    for product in deskdays deskdays-cli deskdays-hardware deskdays-app; do
        swift build -c release --static-swift-stdlib --scratch-path "$SCRATCH" --product "$product" >/dev/null
    done
    BIN_DIR=$(realpath "$SCRATCH/release")
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/deskdays-app.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
gcc -O2 -o "$WORK/adw_floor" bench/adw_floor.c $(pkg-config --cflags --libs libadwaita-1)
mkdir -p "$WORK/xdg-config/deskdays" "$WORK/xdg-data/deskdays"
printf '[policy]\ntimezone = "UTC"\nperiod = "quarter"\n\n[policy.target]\nkind = "days_per_week"\nvalue = 3\n' \
    > "$WORK/xdg-config/deskdays/config.toml"
chmod 600 "$WORK/xdg-config/deskdays/config.toml"
bench/make-ten-year-db.sh "$BIN_DIR/deskdays" "$WORK/xdg-data/deskdays/deskdays.sqlite" >/dev/null
/usr/bin/python3 Tests/Harness/app/session.py "$WORK" "$BIN_DIR" data/io.github.deskdays.DeskDays.desktop \
    config/io.github.deskdays.DeskDays1.service "" SCENARIO=bench FLOOR="$WORK/adw_floor" DESKDAYS_NOW=2025-11-18T09:30:00Z \
    DESKDAYS_APP_FIRST_FRAME=1 GSK_RENDERER=${GSK_RENDERER:-cairo} \
    | tail -1 | /usr/bin/python3 -c '
import json, sys
seen = json.loads(sys.stdin.read())
if seen.get("error"): sys.exit("app: " + seen["error"])
app, floor = seen["app_ms"], seen["floor_ms"]
print("app: first frame painted with the period line %d ms; floor (bare window, one label) %d ms; ratio %.2f (target <= 1.5)"
      % (app, floor, app / max(floor, 1)))
print("app: idle 10 s, system calls of any thread (strace) %s (floor %s; target 0); context switches %d (floor %d)"
      % (seen["app_wakeups"], seen["floor_wakeups"], seen["app_switches"], seen["floor_switches"]))
for call in seen["app_calls"]: print("app: idle, a call: " + call[:160])
print("app: resident memory %d MB (floor %d MB)" % (seen["app_rss_kb"] // 1024, seen["floor_rss_kb"] // 1024))' 2>/dev/null
