#!/usr/bin/env bash
# The desktop's latency (PropertiesChanged within 100 ms of a
# check-in): the agent on a private dbus-daemon as the session bus; a client
# makes DESKTOP_CHECKINS (default 40) check-ins for today through the control
# socket, alternating office and remote so each one changes TodayStatus, and
# after each waits for both
#  - io.github.deskdays.DeskDays1's PropertiesChanged with the new TodayStatus
#    (python3-dbus, on its own thread), and
#  - the baseline from the same run: the control socket's push to a
#    subscriber (`{"cmd":"subscribe"}`), which hangs off the same change
#    notification.
# Each figure is from the moment the check-in request is sent (CLOCK_MONOTONIC)
# to the moment the signal or push is read: commit, recomputation and delivery.
# Target: PropertiesChanged p99 < 100 ms.
#
# Usage: bench/desktop.sh [DESKDAYS_BINARY]
#   default: a release build (--static-swift-stdlib) in $SCRATCH_PATH or .build-agent-release.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
COUNT=${DESKTOP_CHECKINS:-40}
for tool in dbus-daemon /usr/bin/python3; do
    command -v "$tool" >/dev/null 2>&1 || { echo "desktop: $tool missing: apt-get install dbus-daemon python3-dbus python3-gi" >&2; exit 1; }
done
/usr/bin/python3 -c "import dbus, dbus.mainloop.glib; from gi.repository import GLib" 2>/dev/null || {
    echo "desktop: python3-dbus or python3-gi missing: apt-get install python3-dbus python3-gi" >&2; exit 1; }

if [ $# -ge 1 ]; then
    BIN=$(realpath "$1")
else
    SCRATCH=${SCRATCH_PATH:-.build-agent-release}
    swift build -c release --scratch-path "$SCRATCH" --static-swift-stdlib >/dev/null
    BIN=$(realpath "$SCRATCH/release/deskdays")
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/deskdays-desktop.XXXXXX")
BUS_PID="" AGENT_PID=""
cleanup() {
    [ -n "$AGENT_PID" ] && kill -TERM "$AGENT_PID" 2>/dev/null && wait "$AGENT_PID" 2>/dev/null || true
    [ -n "$BUS_PID" ] && kill -TERM "$BUS_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

cat > "$WORK/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$WORK/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/> <allow own="*"/>
    <allow send_type="method_call"/> <allow send_type="signal"/> <allow send_type="method_return"/> <allow send_type="error"/>
    <allow receive_type="method_call"/> <allow receive_type="signal"/> <allow receive_type="method_return"/> <allow receive_type="error"/>
  </policy>
</busconfig>
EOF
dbus-daemon --config-file="$WORK/bus.conf" --nofork 2>/dev/null &
BUS_PID=$!
for _ in $(seq 100); do [ -S "$WORK/bus" ] && break; sleep 0.05; done

mkdir -p "$WORK/config" "$WORK/data"
printf '[policy]\ntimezone = "UTC"\n\n[checkin]\nreminder_time = "off"\nfallback_time = "off"\n' > "$WORK/config/config.toml"
DBUS_SESSION_BUS_ADDRESS="unix:path=$WORK/bus" TZ=UTC HOME="$WORK" DESKDAYS_LOG=notice \
    "$BIN" agent --config "$WORK/config/config.toml" --database "$WORK/data/deskdays.sqlite" \
    --socket "$WORK/run/agent.sock" >"$WORK/agent.log" 2>&1 &
AGENT_PID=$!
for _ in $(seq 200); do [ -S "$WORK/run/agent.sock" ] && break; sleep 0.05; done

/usr/bin/python3 - "$WORK/bus" "$WORK/run/agent.sock" "$COUNT" <<'PY'
import json, socket, sys, threading, time
import dbus, dbus.mainloop.glib
from gi.repository import GLib

bus_path, sock_path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
dbus.mainloop.glib.threads_init()
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection("unix:path=" + bus_path)
name, path = "io.github.deskdays.DeskDays1", "/io/github/deskdays/DeskDays1"
for _ in range(200):
    if bus.name_has_owner(name): break
    time.sleep(0.05)
else:
    sys.exit("desktop: the agent did not own " + name)

heard = {}  # status -> monotonic time of the PropertiesChanged announcing it
cond = threading.Condition()
def changed(interface, properties, invalidated):
    status = properties.get("TodayStatus")
    if status is not None:
        with cond:
            heard[str(status)] = time.monotonic()
            cond.notify_all()
bus.add_signal_receiver(changed, "PropertiesChanged", "org.freedesktop.DBus.Properties", path=path)
bus.get_object("org.freedesktop.DBus", "/org/freedesktop/DBus").GetId(dbus_interface="org.freedesktop.DBus")
threading.Thread(target=GLib.MainLoop().run, daemon=True).start()
today = str(bus.get_object(name, path).Get(name, "Today", dbus_interface="org.freedesktop.DBus.Properties"))

def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock_path)
    return s, s.makefile("r")
subscriber, pushes = connect()
subscriber.sendall(b'{"cmd":"subscribe"}\n')
pushes.readline()  # the answer as it is now
requests, replies = connect()

bus_ms, push_ms = [], []
for i in range(count):
    status = "office" if i % 2 == 0 else "remote"
    with cond:
        heard.pop(status, None)
    sent = time.monotonic()
    requests.sendall(json.dumps({"cmd": "checkin", "date": today, "status": status}).encode() + b"\n")
    pushes.readline()
    pushed = time.monotonic()
    reply = json.loads(replies.readline())
    assert reply.get("ok"), reply
    with cond:
        if not cond.wait_for(lambda: status in heard, timeout=10):
            sys.exit(f"desktop: no PropertiesChanged for {status} within 10 s")
        signalled = heard[status]
    bus_ms.append((signalled - sent) * 1000)
    push_ms.append((pushed - sent) * 1000)

def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]
print(f"desktop latency, {count} check-ins through the control socket (ms from the request to the client reading it)")
print(f"{'':40}{'p50':>8}{'p90':>8}{'p99':>8}{'max':>8}")
for label, values in [("PropertiesChanged (D-Bus)", bus_ms), ("baseline: the socket's subscriber push", push_ms)]:
    print(f"{label:40}" + "".join(f"{pct(values, p):8.1f}" for p in (50, 90, 99)) + f"{max(values):8.1f}")
PY
