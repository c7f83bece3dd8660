#!/bin/sh
# Runs inside the test VM (Tests/Harness/vm/run-vm.sh) as root in a chroot of
# the host: simulated radios (mac80211_hwsim, 4 radios), three open access
# points by hostapd (wlan0 "Office-5G", wlan2 "Other-Net", wlan3 "Lab-Net",
# all channel 6; radio N's address is 02:00:00:00:0N:00) and wpa_supplicant
# on wlan1, then the agent against them.
#   $1  the writable share (results, logs)
#   $2  test | bench
#   $3  the deskdays binary (host-built; runs unchanged here)
# Test mode writes "<scenario> <wifi check-ins stored> <arrivals logged>"
# lines to $1/results.txt (and "vanish-gone <wlan1 gone> <agent alive>
# <socket said ok> <manual records>", each 1 or a count); bench mode writes
# $1/bench.txt.
set -u
share=$1 mode=$2 bin=$3
work=/tmp/wifi
mkdir -p "$work" /run/hostapd /run/wpa_supplicant
say() { echo "wifi-vm: $(date +%T.%N | cut -c1-12) $*"; }

# Waits up to $2 tenths of a second for the shell condition $1.
wait_for() {
    n=0
    while ! eval "$1" >/dev/null 2>&1; do
        n=$((n + 1)); [ "$n" -ge "$2" ] && { say "timed out waiting for: $1"; return 1; }
        sleep 0.1
    done
}

# An open access point named $2 on interface $1 (channel 6).
ap() {
    cat > "$work/$1.conf" <<CONF
interface=$1
driver=nl80211
ssid=$2
hw_mode=g
channel=6
ctrl_interface=/run/hostapd
CONF
    hostapd -B -P "$work/$1.pid" "$work/$1.conf" > "$work/$1.log" 2>&1
}

# The simulated radios, access points and supplicant. Loading
# mac80211_hwsim loads cfg80211, which is when nl80211 appears.
radios_up() {
    modprobe mac80211_hwsim radios=4 || { echo "SKIP: mac80211_hwsim does not load in this kernel" > "$share/skip"; exit 0; }
    wait_for '[ -e /sys/class/net/wlan3 ]' 100 || exit 1
    for i in 0 1 2 3; do ip link set "wlan$i" up 2>/dev/null; done
    ap wlan0 Office-5G || { say "hostapd failed"; cat "$work/wlan0.log"; exit 1; }
    ap wlan2 Other-Net || { say "hostapd failed"; cat "$work/wlan2.log"; exit 1; }
    ap wlan3 Lab-Net || { say "hostapd failed"; cat "$work/wlan3.log"; exit 1; }
    cat > "$work/sta.conf" <<CONF
ctrl_interface=/run/wpa_supplicant
network={
    ssid="Office-5G"
    key_mgmt=NONE
    scan_freq=2437
    disabled=1
}
network={
    ssid="Other-Net"
    key_mgmt=NONE
    scan_freq=2437
    disabled=1
}
network={
    ssid="Lab-Net"
    key_mgmt=NONE
    scan_freq=2437
    disabled=1
}
CONF
    say "access points up"
    wpa_supplicant -B -D nl80211 -i wlan1 -c "$work/sta.conf" -P "$work/wpa.pid" > "$work/wpa.log" 2>&1 || { say "wpa_supplicant failed"; exit 1; }
}

cli() { wpa_cli -i wlan1 "$@" > /dev/null; }
state() { wpa_cli -i wlan1 status | sed -n 's/^wpa_state=//p'; }
connect_to() { cli select_network "$1"; wait_for '[ "$(state)" = COMPLETED ]' 300; }
disconnect() { cli disconnect; wait_for '[ "$(state)" = DISCONNECTED ]' 100; }
reconnect() { cli reconnect; wait_for '[ "$(state)" = COMPLETED ]' 300; }

# The agent with a config ($2, appended to [wifi]) and a fresh database;
# returns once its log shows $3 (default: the first link read).
agent_pid= tracer=
start_agent() {
    name=$1
    say "starting agent $name"
    db="$work/$name.sqlite" log="$share/agent-$name.log"
    rm -f "$db"*
    printf '[wifi]\nenabled = true\n\n[[wifi.networks]]\nname = "hq"\nssid = "Office-5G"\n%s\n' "$2" > "$work/$name.toml"
    DESKDAYS_LOG=info $clock $tracer "$bin" agent --config "$work/$name.toml" --database "$db" --socket "/run/$name.sock" 2> "$log" &
    agent_pid=$!
    wait_for "grep -q '${3:-Wi-Fi links:}' '$log'" 600
}
# SIGTERM to the agent itself (under strace, to strace's child); a stop
# that takes over 20 s is recorded as a failure.
stop_agent() {
    say "stopping agent $name"
    target=$agent_pid
    [ -n "$tracer" ] && target=$(cat "/proc/$agent_pid/task/$agent_pid/children")
    kill -TERM $target
    if wait_for "! kill -0 $target" 200; then
        grep -q 'agent stopped' "$log" || echo "$name no-clean-stop" >> "$share/results.txt"
    else
        echo "$name stuck-on-sigterm" >> "$share/results.txt"; kill -KILL $target
    fi
    wait "$agent_pid" 2>/dev/null
    say "stopped agent $name"
}
links_seen() { grep -c "Wi-Fi links: $1 connected" "$log"; }
# Waits until the agent has read the link with $1 connected for the $2-th time.
wait_links() { wait_for "[ \$(links_seen $1) -ge $2 ]" 300; }
stored() { sqlite3 "$db" "SELECT count(*) FROM checkin WHERE source = 'wifi'"; }
arrivals() { grep -c 'arrived on network' "$log"; }
record() { echo "$1 $(stored) $(arrivals)" >> "$share/results.txt"; say "$1: stored $(stored), arrivals $(arrivals)"; }
# The test's agents run on a manual clock standing at $now (docs/testing.md
# "Timers"): a flap is within the window however slow the VM, and the
# window passes when the test says so.
now=2026-03-10T08:00:00Z
clock=
# The agent's reply is waited for (however slow the VM): the clock has moved
# before the script goes on. No reply is a failure, said in the results.
advance() {
    reply=$(printf '{"cmd":"advance","seconds":%s}\n' "$1" | timeout 200 socat -t 180 - "UNIX-CONNECT:/run/$name.sock" 2>&1)
    case "$reply" in *'"ok":true'*) return 0 ;; esac
    say "advance $1 got no answer: $reply"
    echo "advance-failed $1" >> "$share/results.txt"
    return 1
}

if [ "$mode" = test ]; then
    clock="env DESKDAYS_CLOCK=manual DESKDAYS_NOW=$now"
    # Agent starts are the slow part under TCG (~25 s each), so one agent
    # sees four scenarios in turn, then a second one starts while connected.
    : > "$share/results.txt"
    rules='
[[wifi.networks]]
name = "lab"
ssid = "Lab-Net"
bssids = ["02:00:00:00:09:09"]'
    # Under strace: the socket families the agent opens.
    tracer="strace -f -e trace=socket -o $share/strace-socket.txt"
    # late: started before any Wi-Fi exists (no cfg80211): unavailable once,
    # then nl80211 appears with the driver and the agent starts reading.
    start_agent first "$rules" 'Wi-Fi unavailable'
    radios_up || exit 1
    wait_for "grep -q 'Wi-Fi links:' '$log'" 300 || { say "the agent never read the links once nl80211 appeared"; exit 1; }
    echo "late $(grep -c 'Wi-Fi unavailable' "$log") $(grep -c 'Wi-Fi links:' "$log")" >> "$share/results.txt"
    # other: a network no rule names.
    connect_to 1 && wait_for "[ \$(grep -c 'links: 1 connected, 0 matching' '$log') -ge 1 ]" 300
    record other
    # pin: the right name, but the BSSID pin does not match this access point.
    connect_to 2 && wait_for "[ \$(grep -c 'links: 1 connected, 0 matching' '$log') -ge 2 ]" 300
    record pin
    # connect: the office network.
    connect_to 0 && wait_for '[ "$(stored)" -ge 1 ]' 300
    record connect
    # flap: drop and rejoin within the window (the clock stands still): still one stored, one arrival.
    # The agent must have read the disconnect before the reconnect, or the flap is no flap.
    seen=$(links_seen 0)
    disconnect && wait_links 0 $((seen + 1)) && reconnect && wait_for "[ \$(grep -c 'links: 1 connected, 1 matching' '$log') -ge 2 ]" 300
    record flap
    # leave: the flap was no departure (the return is logged "back on
    # network"); a disconnect is a departure once the flap window has
    # passed without a return (docs/policy.md "Time on site").
    signs() { sqlite3 "$db" "SELECT count(*) FROM sign WHERE source = 'wifi' AND kind = '$1'"; }
    wait_for '[ "$(signs arrival)" -ge 1 ]' 300
    back=$(signs arrival)
    # An hour at the desk, then the disconnect: the departure is stamped 09:00.
    advance 3600
    seen=$(links_seen 0)
    disconnect && wait_links 0 $((seen + 1)) && [ "$(signs departure)" = 0 ] && advance 301 \
        && wait_for '[ "$(signs departure)" -ge 1 ]' 300
    echo "leave $back $(signs departure) $(grep -c 'back on network' "$log")" >> "$share/results.txt"
    # What the user sees: explain's presence line says wifi left; days --json has both times.
    today=${now%%T*}
    "$bin" explain "$today" --config "$work/$name.toml" --database "$db" > "$share/leave-explain.txt" 2>&1
    "$bin" days --json --from "$today" --to "$today" --config "$work/$name.toml" --database "$db" > "$share/leave-days.json" 2>&1
    echo "leave-seen $(grep -c 'presence  wifi .*left ' "$share/leave-explain.txt") $(grep -c '"first_seen" : "[0-9][0-9]:[0-9][0-9]"' "$share/leave-days.json") $(grep -c '"last_seen" : "[0-9][0-9]:[0-9][0-9]"' "$share/leave-days.json")" >> "$share/results.txt"
    reconnect && wait_for '[ "$(signs arrival)" -ge 1 ]' 300
    stop_agent
    # The agent stopped while connected: that moment is the day's last sign, a departure.
    echo "stop-leaves $(signs departure) $(grep -c 'the agent stopped: departure recorded for wifi' "$log")" >> "$share/results.txt"
    tracer=
    # already: an agent started while connected.
    start_agent already ''
    wait_for '[ "$(stored)" -ge 1 ]' 300
    record already
    stop_agent
    # enroll: `deskdays enroll wifi --pin` writes the current network and access point.
    "$bin" enroll wifi --pin --name desk --config "$work/enroll.toml" > "$share/enroll.out" 2>&1
    echo "enroll-status $?" >> "$share/results.txt"
    cp "$work/enroll.toml" "$share/enroll.toml" 2>/dev/null
    # vanish: an agent started while the station is not connected loses
    # every radio (the driver unloaded: the interfaces are gone), answers a
    # manual check-in on its control socket meanwhile, and stores the office
    # arrival once the radios are back. Its first wifi check-in comes after
    # the return, so the pipeline's one-a-day rule cannot hide it.
    disconnect
    start_agent vanish ''
    for pidfile in "$work"/wlan*.pid "$work/wpa.pid"; do kill "$(cat "$pidfile")" 2>/dev/null; done
    wait_for '! pidof hostapd wpa_supplicant' 100
    tries=0
    until rmmod mac80211_hwsim 2>/dev/null || [ $tries -ge 50 ]; do sleep 0.2; tries=$((tries + 1)); done
    wait_for '[ ! -e /sys/class/net/wlan1 ]' 100 || say "wlan1 is still there after rmmod"
    printf '{"cmd":"checkin","date":"2026-01-05","status":"office","note":"radios gone"}\n' \
        | timeout 30 socat -t 20 - UNIX-CONNECT:/run/vanish.sock > "$share/vanish-manual.out" 2>&1
    say "manual check-in answered: $(cat "$share/vanish-manual.out")"
    manual=$(sqlite3 "$db" "SELECT count(*) FROM record WHERE date = '2026-01-05' AND origin = 'manual'" 2>/dev/null || echo -1)
    alive=0; kill -0 "$agent_pid" && alive=1
    gone=0; [ -e /sys/class/net/wlan1 ] || gone=1
    echo "vanish-gone $gone $alive $(grep -c '"ok":true' "$share/vanish-manual.out") $manual" >> "$share/results.txt"
    record vanish
    radios_up || exit 1
    connect_to 0 && wait_for '[ "$(stored)" -ge 1 ]' 300
    record return
    stop_agent
    exit 0
fi

if [ "$mode" = bench ]; then
    radios_up || exit 1
    # CONNECT → stored, 20 reconnects: every reconnect is a fresh arrival
    # (flap window 0) and the stored row is deleted before each.
    export DESKDAYS_WIFI_FLAP_SECONDS=0
    start_agent bench ''
    unset DESKDAYS_WIFI_FLAP_SECONDS
    connect_to 0 && wait_for '[ "$(stored)" -ge 1 ]' 100
    iw event -t > "$work/events.txt" 2>&1 &
    iw_pid=$!
    : > "$share/bench-raw.txt"
    for i in $(seq 1 20); do
        disconnect
        sqlite3 "$db" "DELETE FROM checkin WHERE source = 'wifi'"
        /usr/bin/python3 - "$db" > "$work/stored.txt" <<'PY' &
import os, sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], timeout=5)
print("ready", flush=True)
while db.execute("SELECT count(*) FROM checkin WHERE source = 'wifi'").fetchone()[0] == 0:
    time.sleep(0.001)
print("%.6f" % time.time(), flush=True)
PY
        poller=$!
        wait_for "grep -q ready '$work/stored.txt'" 100
        asked=$(date +%s.%N)
        reconnect
        wait "$poller"
        echo "$i $asked $(tail -n 1 "$work/stored.txt")" >> "$share/bench-raw.txt"
    done
    sleep 0.5
    kill "$iw_pid"
    grep 'wlan1.*connected to' "$work/events.txt" | sed 's/:.*//' > "$share/bench-connect-times.txt"
    # 30 s of an idle connected link: every syscall of the agent, and those of the Wi-Fi thread.
    pid=$agent_pid
    wifi_tid=$(for t in /proc/$pid/task/*; do [ "$(cat "$t/comm")" = deskdays-wifi ] && basename "$t"; done)
    echo "wifi_tid ${wifi_tid:-none}" > "$share/bench-idle.txt"
    for t in /proc/$pid/task/*; do echo "$(basename "$t") $(cat "$t/comm")"; done > "$share/bench-threads.txt"
    timeout -s INT 30 strace -f -tt -p "$pid" -o "$work/idle-trace.txt" 2> /dev/null
    timeout -s INT 30 strace -c -f -p "$pid" -o "$share/bench-strace-c.txt" 2> /dev/null
    echo "agent_lines $(wc -l < "$work/idle-trace.txt")" >> "$share/bench-idle.txt"
    echo "wifi_thread_lines $( [ -n "$wifi_tid" ] && grep -c "^$wifi_tid " "$work/idle-trace.txt" || echo 0)" >> "$share/bench-idle.txt"
    cp "$work/idle-trace.txt" "$share/bench-idle-trace.txt"
    stop_agent
    exit 0
fi
if [ "$mode" = capture ]; then
    radios_up || exit 1
    # Real nl80211 bytes for the golden parser tests (Tests/Fixtures/netlink/hwsim).
    here=$(dirname "$0")
    mkdir -p "$share/capture"
    /usr/bin/python3 "$here/capture.py" "$share/capture" --mlme 40 > "$work/mlme.out" 2>&1 &
    capture=$!
    wait_for "grep -q subscribed '$work/mlme.out'" 300
    connect_to 0
    /usr/bin/python3 "$here/capture.py" "$share/capture" "$(cat /sys/class/net/wlan1/ifindex)"
    disconnect && reconnect
    sleep 2
    kill "$capture" 2>/dev/null
    iw dev wlan1 link > "$share/capture/iw-link.txt" 2>&1
    exit 0
fi
say "unknown mode $mode"; exit 2
