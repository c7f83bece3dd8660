#!/usr/bin/env bash
# NFC tap latency: over TAPS (default 100) taps of a virtual Type 2
# tag on vpcd, the time from the virtual card's connect to the check-in being
# durably stored (NFC adapter → CheckInPipeline → SQLite, synchronous=FULL),
# p50 and p99, beside the detection floor of pcscd itself: bench/nfc_floor.c,
# which only waits with SCardGetStatusChange and reads the UID. Both run
# against the same private pcscd in the same run (floor first, then ours).
# Also printed: the same figures from pcscd's ATR request (the moment pcscd
# noticed the card), which removes pcscd's ~400 ms vpcd polling phase.
# Target: ours − floor ≤ 5 ms at p99.
#
# Needs pcscd, vsmartcard-vpcd, libpcsclite-dev, a C compiler. Ours runs from
# the debug test bundle (SCRATCH_PATH, default .build-bench-nfc).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
TAPS=${TAPS:-100}
SCRATCH=${SCRATCH_PATH:-.build-bench-nfc}
WORK=${TMPDIR:-/tmp}/deskdays-bench-nfc-$$
HARNESS=Tests/Harness/nfc
mkdir -p "$WORK"
trap '/usr/bin/python3 $HARNESS/pcscd_ctl.py stop "$WORK/pcscd"; rm -rf "$WORK"' EXIT

for tool in pcscd cc; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "$tool missing: apt-get install pcscd vsmartcard-vpcd build-essential" >&2; exit 1; }
done
cc -O2 -o "$WORK/nfc_floor" bench/nfc_floor.c $(pkg-config --cflags --libs libpcsclite)
swift build --build-tests --scratch-path "$SCRATCH" >/dev/null
XCTEST=$(find "$SCRATCH/debug/" -maxdepth 1 -name '*PackageTests.xctest' | head -n 1)

PID=$(/usr/bin/python3 $HARNESS/pcscd_ctl.py start "$WORK/pcscd")
export PCSCLITE_CSOCK_NAME="$WORK/pcscd/run/pcscd.comm"

/usr/bin/python3 - "$WORK" "$PID" "$TAPS" "$XCTEST" "$HARNESS" <<'PY'
import os, select, subprocess, sys, time
work, pid, taps, xctest, harness = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
HOLD, GAP = 1.0, 0.6   # pcscd polls vpcd about every 400 ms: hold ≥ 1 s
memory = "04A2248A6A2F6E8000480000E1101200" + "0300FE" + "00" * 141

def tap_series(done_lines):
    """Taps `taps` times; returns [(connect, atr, done)] per tap."""
    card = subprocess.Popen(["/usr/bin/python3", f"{harness}/vcard.py", "--netns", f"/proc/{pid}/ns/net"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    def ask(line):
        card.stdin.write(line + "\n"); card.stdin.flush()
        return card.stdout.readline().split()
    ask("tag 04A2246A2F6E80 " + memory)
    results, missed = [], []
    for _ in range(taps):
        connect = float(ask("insert")[1])
        atr = float(card.stderr.readline().split()[1])
        time.sleep(HOLD)
        ask("remove")
        done = done_lines(connect + HOLD + 3)
        if done is None:
            missed.append(connect)
        else:
            results.append((connect, atr, done))
        time.sleep(GAP)
    card.stdin.write("quit\n"); card.stdin.flush(); card.wait()
    return results, len(missed)

def next_time(stream, word, deadline):
    """The time on the next `word` line, or None when none came by `deadline` (a missed tap)."""
    while True:
        if not select.select([stream], [], [], max(0, deadline - time.time()))[0]:
            return None
        line = stream.readline()
        if not line:
            sys.exit(f"no '{word}' line: the program under test stopped")
        parts = line.decode().split()
        if parts and parts[0] == word:
            return float(parts[1])

# Floor: the C program on the same reader.
floor = subprocess.Popen([f"{work}/nfc_floor", "Virtual PCD 00 00", str(taps)], stdout=subprocess.PIPE, bufsize=0)
assert floor.stdout.readline().strip() == b"ready"
floor_results, floor_missed = tap_series(lambda deadline: next_time(floor.stdout, "done", deadline))
floor.kill()

# Ours: adapter → pipeline → store, from the test bundle; times come through a FIFO.
out = f"{work}/ours.fifo"
os.mkfifo(out)
env = dict(os.environ, DESKDAYS_NFC_BENCH_OUT=out, DESKDAYS_NFC_BENCH_COUNT=str(taps))
ours = subprocess.Popen([xctest, "--testing-library", "swift-testing", "--filter", "NFCThroughputBench"],
                        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
stream = open(out, "rb", buffering=0)  # unbuffered, so select() sees every line
assert stream.readline().strip() == b"ready"
time.sleep(1.0)  # the adapter's first SCardGetStatusChange
ours_results, ours_missed = tap_series(lambda deadline: next_time(stream, "stored", deadline))
ours.kill()

def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]

def figures(results, start):
    ms = [(done - (connect if start == "connect" else atr)) * 1000 for connect, atr, done in results]
    return percentile(ms, 50), percentile(ms, 99)

print(f"NFC tap → stored, {taps} taps on vpcd (ms)      p50      p99"
      f"   (missed taps: floor {floor_missed}, ours {ours_missed})")
for start in ("connect", "atr"):
    f50, f99 = figures(floor_results, start)
    o50, o99 = figures(ours_results, start)
    print(f"  from card {start:8s} floor (nfc_floor.c) {f50:8.1f} {f99:8.1f}")
    print(f"  from card {start:8s} ours (stored)      {o50:8.1f} {o99:8.1f}")
    print(f"  from card {start:8s} ours − floor       {o50 - f50:8.1f} {o99 - f99:8.1f}")
PY
