#!/usr/bin/env bash
# Wi-Fi arrival speed and idle cost, in one boot of the test VM
# (Tests/Harness/wifi, mac80211_hwsim + hostapd + wpa_supplicant, TCG):
#  - CONNECT → stored: from the nl80211 CONNECT event (timestamped by
#    `iw event -t` as it arrives) to the check-in row being readable in the
#    database, p50 over 20 reconnects (flap window 0, row deleted before each);
#    beside it the baseline measured in the same run: `wpa_cli reconnect` →
#    CONNECT, what the radio and wpa_supplicant themselves take.
#  - idle: 30 s of a connected, quiet link under `strace -f`: the agent's
#    syscalls (`strace -c -f`) and those of the Wi-Fi thread (target: 0).
#
# Usage: bench/wifi.sh [DESKDAYS_BINARY]   (default: a release build in
# .build-wifi-release, or $SCRATCH_PATH)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
OUT=bench/out
mkdir -p "$OUT"
if [ $# -ge 1 ]; then
    BIN=$(realpath "$1")
else
    SCRATCH=${SCRATCH_PATH:-.build-wifi-release}
    swift build -c release --scratch-path "$SCRATCH" >/dev/null  # every executable: qr and enroll run in deskdays-hardware
    BIN=$(realpath "$SCRATCH/release/deskdays")
fi
SHARE=$(mktemp -d "${TMPDIR:-/tmp}/deskdays-wifi-bench.XXXXXX")
trap 'rm -rf "$SHARE"' EXIT
Tests/Harness/wifi/run.sh bench "$BIN" "$SHARE" 600 || {
    status=$?; echo "the VM bench failed (status $status); see $SHARE/script.log" >&2
    cat "$SHARE/script.log" >&2; exit "$status"; }
cp "$SHARE"/bench-* "$OUT/" 2>/dev/null || true

/usr/bin/python3 - "$SHARE" <<'PY'
import statistics, sys
share = sys.argv[1]
rows = [line.split() for line in open(f"{share}/bench-raw.txt") if line.strip()]
connects = sorted(float(t) for t in open(f"{share}/bench-connect-times.txt") if t.strip())
ours, baseline = [], []
for _, asked, stored in rows:
    asked, stored = float(asked), float(stored)
    after = [c for c in connects if asked <= c <= stored]
    if not after:
        continue
    connect = after[0]
    ours.append((stored - connect) * 1000)
    baseline.append((connect - asked) * 1000)
def p(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]
print(f"Wi-Fi CONNECT -> stored (ours):              p50 {statistics.median(ours):7.1f} ms  p90 {p(ours, 0.9):7.1f} ms  max {max(ours):7.1f} ms  (n={len(ours)})")
print(f"baseline: wpa_cli reconnect -> CONNECT event: p50 {statistics.median(baseline):7.1f} ms  p90 {p(baseline, 0.9):7.1f} ms  (same run)")
idle = dict(line.split() for line in open(f"{share}/bench-idle.txt") if line.strip())
summary = open(f"{share}/bench-strace-c.txt").read().strip().splitlines()
total = next((l.split() for l in reversed(summary) if l.strip().endswith("total")), None)
# "% time, seconds, usecs/call, calls, [errors,] total"
calls = (total[3] if len(total) >= 5 else total[-2]) if total else "0"
print(f"idle 30 s, connected: agent syscalls (strace -c -f): {calls}; Wi-Fi thread (tid {idle.get('wifi_tid')}): {idle.get('wifi_thread_lines')} trace lines (strace -f, 30 s)")
print("(in a TCG VM: absolute times are several times a real machine's; attaching strace interrupts and restarts the")
print(" thread's blocking poll, which strace shows as one or two lines; the full traces are in bench/out/bench-idle-trace.txt)")
PY
