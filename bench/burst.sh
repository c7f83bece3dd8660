#!/usr/bin/env bash
# Bounded work under load: while 10,000 check-ins arrive over the control
# socket (8 clients at once, each a durable commit), how long `status`
# through the agent takes, p50 and p99 (target p99 <= 100 ms), beside the
# same request to the idle agent and `sqlite3 DB "select count(*) from
# checkin"` on the same database, in the same run. Then `status` while 100
# followers (`subscribe`, pushed a line at each change) and 60 slow clients
# (a request sent, its reply never read; the agent serves 64 askers at once)
# stay connected and one client keeps checking in (target p99 <= 10 ms).
# Also the agent's threads while 1,000 silent connections are open.
#
# The database is bench/make-ten-year-db.sh's (ten years, 50,000 events).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-25}
OUT=bench/out
mkdir -p "$OUT"
# BIN=path/to/deskdays measures that build instead (e.g. a debug build, to try the script).
if [ -z "${BIN:-}" ]; then
  swift build -c release --product deskdays --static-swift-stdlib >/dev/null
  swift build -c release --product deskdays-cli --static-swift-stdlib >/dev/null
  swift build -c release --product deskdays-hardware --static-swift-stdlib >/dev/null
  BIN=$PWD/.build/release/deskdays
fi
DB="$OUT/burst.sqlite"
CONFIG="$OUT/burst.toml"
: > "$CONFIG"
rm -f "$DB" "$DB-wal" "$DB-shm"
bench/make-ten-year-db.sh "$BIN" "$DB"
source bench/lib.sh
RUN="$OUT/burst-run"
rm -rf "$RUN"
unset DESKDAYS_TODAY DESKDAYS_NOW
sql=$(time_ms sqlite3 "$DB" "select count(*) from checkin")
"$BIN" agent --database "$DB" --config "$CONFIG" --socket "$RUN/agent.sock" 2>"$OUT/burst-agent.log" &
AGENT=$!
trap 'kill $AGENT 2>/dev/null || true' EXIT
for _ in $(seq 400); do [ -S "$RUN/agent.sock" ] && break; sleep 0.05; done
python3 - "$RUN/agent.sock" "$AGENT" "$sql" <<'PY'
import datetime, json, os, socket, statistics, sys, threading, time
path, pid, sql = sys.argv[1], sys.argv[2], float(sys.argv[3])

def connect():
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    return s, s.makefile("rb")

def ask(conn, line):
    s, f = conn
    s.sendall(line)
    return f.readline()

STATUS = b'{"cmd":"status","format":"json"}\n'

def latencies(conn, stop=None, count=None):
    out = []
    while (stop is None or not stop.is_set()) and (count is None or len(out) < count):
        start = time.perf_counter()
        reply = ask(conn, STATUS)
        out.append((time.perf_counter() - start) * 1000)
        assert b'"ok":true' in reply, reply
        if stop is not None:
            time.sleep(0.005)
    return out

def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]

idle = latencies(connect(), count=200)

TOTAL, CLIENTS = 10_000, 8
first = datetime.date(2000, 1, 1)
def burst(k):
    conn = connect()
    for i in range(k, TOTAL, CLIENTS):
        day = first + datetime.timedelta(days=i)
        reply = ask(conn, json.dumps({"cmd": "checkin", "date": day.isoformat(), "status": "office"}).encode() + b"\n")
        assert b'"ok":true' in reply, reply

stop = threading.Event()
during = []
measurer = threading.Thread(target=lambda: during.extend(latencies(connect(), stop=stop)))
measurer.start()
start = time.perf_counter()
writers = [threading.Thread(target=burst, args=(k,)) for k in range(CLIENTS)]
for w in writers: w.start()
for w in writers: w.join()
elapsed = time.perf_counter() - start
stop.set(); measurer.join()

# 100 followers that read their first line and then nothing; 60 slow clients.
followers, slow = [], []
for _ in range(100):
    s = socket.socket(socket.AF_UNIX); s.connect(path)
    s.sendall(b'{"cmd":"subscribe","format":"json"}\n')
    s.makefile("rb").readline()
    followers.append(s)
for _ in range(60):
    s = socket.socket(socket.AF_UNIX); s.connect(path)
    s.sendall(STATUS)
    slow.append(s)
stop = threading.Event()
def writer():
    conn, i = connect(), 0
    while not stop.is_set():
        day = first + datetime.timedelta(days=TOTAL + i)
        ask(conn, json.dumps({"cmd": "checkin", "date": day.isoformat(), "status": "remote"}).encode() + b"\n")
        i += 1
        time.sleep(0.01)
w = threading.Thread(target=writer); w.start()
crowded = latencies(connect(), count=300)
stop.set(); w.join()
for s in followers + slow: s.close()

silent = []
for _ in range(1000):
    silent.append(socket.socket(socket.AF_UNIX)); silent[-1].connect(path)
time.sleep(0.5)
threads = len(os.listdir(f"/proc/{pid}/task"))
for s in silent: s.close()

print(f"{'sqlite3 select count(*) (baseline)':58} {sql:8.2f} ms")
print(f"{'status through the idle agent, p50 / p99 of 200':58} {pct(idle,50):8.2f} / {pct(idle,99):.2f} ms")
print(f"{f'status during the burst, p50 / p99 of {len(during)}':58} {pct(during,50):8.2f} / {pct(during,99):.2f} ms  (target p99 <= 100 ms; {pct(during,99)/sql:.1f}x baseline)")
print(f"{'status with 100 followers + 60 slow clients, p50 / p99 of 300':58} {pct(crowded,50):8.2f} / {pct(crowded,99):.2f} ms  (target p99 <= 10 ms)")
print(f"{'10,000 check-ins over the socket (8 clients)':58} {elapsed:8.2f} s  ({TOTAL/elapsed:.0f}/s, each committed)")
print(f"{'agent threads with 1,000 silent connections':58} {threads:8d}")
PY
