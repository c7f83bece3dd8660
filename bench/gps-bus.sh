#!/usr/bin/env bash
# GPS from gpsd over the system bus: Debian's gpsd reads a socat
# pty and broadcasts each fix as its org.gpsd `fix` signal on a private
# dbus-daemon; the agent follows it with `[gps] source = "gpsd"`.
#  - window 1: FIXES (default 600) cycles written at 10 Hz (RMC+GGA+GSA,
#    receiver time 0.1 s apart, at the geofence: one arrival after its 30 s dwell). The agent's CPU time per
#    fix (schedstat ns of every thread, and utime+stime) beside, from the
#    same window, gpsd's own CPU per fix (it parses the NMEA and sends the
#    signal: the baseline) and the bus daemon's.
#    Target: < 1 ms of the agent's CPU per fix.
#  - window 2: IDLE_SECONDS (default 30) with no fix: the agent's context
#    switches per thread (its wake-ups), gpsd's beside them.
#    Target: 0 wake-ups of the GPS bus thread.
#
# Usage: bench/gps-bus.sh [DESKDAYS_BINARY]   (default: a release build of
# deskdays-hardware, which runs the agent, in $SCRATCH_PATH or .build-agent-release)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
FIXES=${FIXES:-600}
IDLE_SECONDS=${IDLE_SECONDS:-30}
for tool in socat dbus-daemon /usr/sbin/gpsd /usr/bin/python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "gps-bus: $tool missing: apt-get install socat dbus-daemon gpsd python3" >&2; exit 1; }
done
if [ $# -ge 1 ]; then
    BIN=$(realpath "$1")
else
    SCRATCH=${SCRATCH_PATH:-.build-agent-release}
    swift build -c release --scratch-path "$SCRATCH" --static-swift-stdlib --product deskdays-hardware >/dev/null
    BIN=$(realpath "$SCRATCH/release/deskdays-hardware")
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/deskdays-gps-bus.XXXXXX")
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

cat > "$WORK/bus.conf" <<BUSCONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>unix:path=$WORK/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/> <allow own="*"/>
    <allow send_type="method_call"/> <allow send_type="signal"/> <allow send_type="method_return"/> <allow send_type="error"/>
    <allow receive_type="method_call"/> <allow receive_type="signal"/> <allow receive_type="method_return"/> <allow receive_type="error"/>
  </policy>
</busconfig>
BUSCONF
dbus-daemon --config-file="$WORK/bus.conf" --nofork 2>/dev/null &
BUS_PID=$!; PIDS+=("$BUS_PID"); disown "$BUS_PID"  # stopped by PID in cleanup; no job notice
socat pty,raw,echo=0,link="$WORK/gps" pty,raw,echo=0,link="$WORK/feed" &
PIDS+=("$!"); disown "$!"
for _ in $(seq 100); do [ -S "$WORK/bus" ] && [ -e "$WORK/gps" ] && break; sleep 0.05; done
export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$WORK/bus"
# gpsd always listens on TCP as well: a free port of its own (gpsd's socket, not the agent's).
PORT=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/sbin/gpsd -N -n -b -S "$PORT" -F "$WORK/gpsd.sock" "$WORK/gps" 2>/dev/null &
GPSD_PID=$!; PIDS+=("$GPSD_PID"); disown "$GPSD_PID"
for _ in $(seq 100); do [ -S "$WORK/gpsd.sock" ] && break; sleep 0.05; done

mkdir -p "$WORK/config" "$WORK/data"
cat > "$WORK/config/config.toml" <<CONFIG
[policy]
timezone = "UTC"

[gps]
enabled = true
source = "gpsd"

[[gps.geofences]]
name = "hq"
latitude = 48.8584
longitude = 2.2945
radius_m = 150
dwell_s = 30
CONFIG
DESKDAYS_LOG=info HOME="$WORK" DBUS_SESSION_BUS_ADDRESS="" XDG_RUNTIME_DIR="$WORK" \
    "$BIN" agent --config "$WORK/config/config.toml" --database "$WORK/data/deskdays.sqlite" \
    --socket "$WORK/agent.sock" >"$WORK/agent.log" 2>&1 &
AGENT_PID=$!; PIDS+=("$AGENT_PID"); disown "$AGENT_PID"
for _ in $(seq 200); do grep -q "following gpsd's fix signal" "$WORK/agent.log" && break; sleep 0.1; done
grep -q "following gpsd's fix signal" "$WORK/agent.log" || { echo "gps-bus: the agent did not follow gpsd:" >&2; cat "$WORK/agent.log" >&2; exit 1; }
RUNNING=$AGENT_PID
while :; do
    next=""
    for child in $(cat /proc/"$RUNNING"/task/*/children 2>/dev/null); do
        case "$(cat /proc/"$child"/comm 2>/dev/null)" in deskdays*) next=$child ;; esac
    done
    [ -z "$next" ] && break
    RUNNING=$next
done

# NMEA cycles at RATE Hz, receiver time a tenth of a second apart: feed FIRST COUNT RATE
feed() {
    /usr/bin/python3 - "$WORK/feed" "$1" "$2" "$3" <<'FEED'
import sys, time
path, first, count, rate = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
def checksummed(body):
    c = 0
    for ch in body: c ^= ord(ch)
    return "$%s*%02X" % (body, c)
out = open(path, "w")
start = time.monotonic()
for i in range(first, first + count):
    tenths = 8 * 36000 + i
    t = "%02d%02d%02d.%d0" % (tenths // 36000, tenths // 600 % 60, tenths // 10 % 60, tenths % 10)
    pos = "4851.5040,N,00217.6700,E"
    lines = ["GPRMC,%s,A,%s,0.0,0.0,100326,,,A" % (t, pos), "GPGGA,%s,%s,1,09,0.9,35.0,M,47.0,M,," % (t, pos),
             "GPGSA,A,3,01,02,03,04,05,06,07,08,09,,,,1.6,0.9,1.3"]
    out.write("\r\n".join(checksummed(l) for l in lines) + "\r\n"); out.flush()
    delay = start + (i - first + 1) / rate - time.monotonic()
    if delay > 0: time.sleep(delay)
FEED
}
# Prime: a fresh gpsd hunts for the speed and drops what arrives meanwhile.
for round in $(seq 50); do
    feed $((round * 10)) 10 10
    grep -q "gpsd is sending fixes" "$WORK/agent.log" && break
done
grep -q "gpsd is sending fixes" "$WORK/agent.log" || { echo "gps-bus: no fix reached the agent" >&2; cat "$WORK/agent.log" >&2; exit 1; }
sleep 1

schedstat_ns() { local sum=0; for t in /proc/"$1"/task/*; do sum=$((sum + $(cut -d' ' -f1 "$t/schedstat"))); done; echo "$sum"; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
switches() {  # per thread: name, voluntary + involuntary context switches
    for t in /proc/"$1"/task/*; do
        echo "$(tr ' ' '_' < "$t/comm") $(awk '$1 ~ /ctxt_switches:/ {s += $2} END {print s + 0}' "$t/status")"
    done
}

a0=$(schedstat_ns "$RUNNING"); at0=$(ticks "$RUNNING"); g0=$(schedstat_ns "$GPSD_PID"); b0=$(schedstat_ns "$BUS_PID")
start=$(date +%s.%N)
feed 1000 "$FIXES" 10
sleep 0.5  # the last signals drain
end=$(date +%s.%N)
a1=$(schedstat_ns "$RUNNING"); at1=$(ticks "$RUNNING"); g1=$(schedstat_ns "$GPSD_PID"); b1=$(schedstat_ns "$BUS_PID")
arrived=$(grep -c "arrived at geofence" "$WORK/agent.log" || true)

switches "$RUNNING" > "$WORK/idle-before.txt"; gs0=$(switches "$GPSD_PID" | awk '{s += $2} END {print s}')
sleep "$IDLE_SECONDS"
switches "$RUNNING" > "$WORK/idle-after.txt"; gs1=$(switches "$GPSD_PID" | awk '{s += $2} END {print s}')
TICK=$(getconf CLK_TCK)

/usr/bin/python3 - "$FIXES" "$start" "$end" "$a0" "$a1" "$at0" "$at1" "$TICK" "$g0" "$g1" "$b0" "$b1" "$WORK" "$IDLE_SECONDS" "$gs0" "$gs1" "$arrived" <<'REPORT'
import sys
fixes = int(sys.argv[1]); start, end = float(sys.argv[2]), float(sys.argv[3])
a0, a1, at0, at1, tick, g0, g1, b0, b1 = map(int, sys.argv[4:13])
work, idle, gs0, gs1, arrived = sys.argv[13], float(sys.argv[14]), int(sys.argv[15]), int(sys.argv[16]), int(sys.argv[17])
def table(name):
    rows = {}
    for line in open(f"{work}/{name}"):
        comm, count = line.rsplit(" ", 1)
        rows[comm] = rows.get(comm, 0) + int(count)
    return rows
before, after = table("idle-before.txt"), table("idle-after.txt")
wakes = {k: after[k] - before.get(k, 0) for k in after if after[k] - before.get(k, 0) > 0}
bus_thread = wakes.get("deskdays-gps-bu", 0)
per_fix = lambda ns: ns / 1e6 / fixes
agent = per_fix(a1 - a0)
print(f"gpsd over the system bus: {fixes} fixes at 10 Hz in {end - start:.1f} s (arrivals logged: {arrived}), then {idle:.0f} s without a fix")
print(f"{'agent CPU per fix (schedstat)':40}{agent:8.3f} ms   target < 1 ms: {'meets' if agent < 1 else 'MISSES'}")
print(f"{'  same, utime+stime':40}{(at1 - at0) * 1000 / tick / fixes:8.3f} ms   (10 ms ticks)")
print(f"{'baseline: gpsd CPU per fix':40}{per_fix(g1 - g0):8.3f} ms   (parses the NMEA, sends the signal)")
print(f"{'          dbus-daemon CPU per fix':40}{per_fix(b1 - b0):8.3f} ms   (routes it)")
print(f"{'GPS bus thread wake-ups while idle':40}{bus_thread:8d}      target 0: {'meets' if bus_thread == 0 else 'MISSES'}")
print(f"{'agent wake-ups while idle, all threads':40}{sum(wakes.values()):8d}      "
      + (", ".join(f"{k} {v}" for k, v in sorted(wakes.items())) or "none") + f"; baseline gpsd: {gs1 - gs0}")
REPORT
