#!/usr/bin/env bash
# Core speed: `deskdays status --format json` and `report --json` on a
# ten-year database, with the agent running (it serves its current answer,
# target <= 0.5x the baseline for status; 2x for report) and
# without (the CLI computes it, target <= 3x for status; 5x for report),
# beside `sqlite3 DB "select count(*) from checkin"` on the same file in the
# same run; then how fast a check-in reaches `status --follow` and
# status.json (target p99 <= 50 ms over 100 check-ins) and how often an idle
# follower wakes (target 0). Prints medians of repeated runs.
#
# The database is bench/make-ten-year-db.sh's (ten years, 50,000 events).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-25}
OUT=bench/out
mkdir -p "$OUT"

# A statically linked Swift runtime, as a shipped CLI would be: start-up dominates these figures.
# BIN_DIR=DIR measures the three programs in DIR instead (another build, for a before/after in one machine state).
if [ -z "${BIN_DIR:-}" ]; then
  swift build -c release --product deskdays --static-swift-stdlib >/dev/null
  swift build -c release --product deskdays-cli --static-swift-stdlib >/dev/null
  swift build -c release --product deskdays-hardware --static-swift-stdlib >/dev/null
fi
BIN=${BIN_DIR:-$PWD/.build/release}/deskdays
DB="$OUT/ten-years.sqlite"
CONFIG="$OUT/core.toml"
: > "$CONFIG"
bench/make-ten-year-db.sh "$BIN" "$DB"

source bench/lib.sh
RUN="$OUT/run"
rm -rf "$RUN"
ARGS=(--database "$DB" --config "$CONFIG" --socket "$RUN/agent.sock")
unset DESKDAYS_TODAY DESKDAYS_NOW
ratio() { echo "$1 / $2" | bc -l; }

sql=$(time_ms sqlite3 "$DB" "select count(*) from checkin")
status_alone=$(time_ms "$BIN" status --format json "${ARGS[@]}")
report_alone=$(time_ms "$BIN" report --json "${ARGS[@]}")
# With min_hours set, every automatic day of the ten years is weighed by its time on site.
printf '[policy]\nmin_hours = 4\n' > "$OUT/core-minhours.toml"
MIN_ARGS=(--database "$DB" --config "$OUT/core-minhours.toml" --socket "$RUN/agent.sock")
status_minhours=$(time_ms "$BIN" status --format json "${MIN_ARGS[@]}")

"$BIN" agent "${ARGS[@]}" 2>"$OUT/core-agent.log" &
AGENT=$!
FOLLOW=""
trap 'kill $AGENT $FOLLOW 2>/dev/null || true' EXIT
for _ in $(seq 200); do [ -S "$RUN/agent.sock" ] && break; sleep 0.05; done
"$BIN" status --format json "${ARGS[@]}" >/dev/null
# The baseline again, beside the agent's figures (a shared machine's speed drifts).
sql_agent=$(time_ms sqlite3 "$DB" "select count(*) from checkin")
status_agent=$(time_ms "$BIN" status --format json "${ARGS[@]}")
report_agent=$(time_ms "$BIN" report --json "${ARGS[@]}")
swiftc -O -static-executable bench/floor.swift -o "$OUT/floor" 2>/dev/null
floor=$(time_ms "$OUT/floor")
same=$([ "$("$BIN" status --format json "${ARGS[@]}")" = "$(cat "$RUN/status.json")" ] && echo yes || echo NO)

printf '%-56s %8s ms\n' "sqlite3 select count(*) (baseline, beside the agent)" "$sql_agent"
printf '%-56s %8s ms  (%.2fx baseline, target <= 0.5x)\n' "status --format json, agent running" "$status_agent" "$(ratio "$status_agent" "$sql_agent")"
printf '%-56s %8s ms  (%.2fx baseline)\n' "an empty static Swift program (bench/floor.swift)" "$floor" "$(ratio "$floor" "$sql_agent")"
printf '%-56s %8s ms  (%.2fx baseline, target <= 2x)\n' "report --json, agent running" "$report_agent" "$(ratio "$report_agent" "$sql_agent")"
printf '%-56s %8s ms\n' "sqlite3 select count(*) (baseline, no agent)" "$sql"
printf '%-56s %8s ms  (%.2fx baseline, target <= 3x)\n' "status --format json, no agent (computed)" "$status_alone" "$(ratio "$status_alone" "$sql")"
printf '%-56s %8s ms  (%.2fx baseline, target <= 5x)\n' "report --json, no agent (computed)" "$report_alone" "$(ratio "$report_alone" "$sql")"
printf '%-56s %8s ms  (%.2fx baseline, %.2fx without min_hours)\n' "status --format json, no agent, min_hours = 4" "$status_minhours" "$(ratio "$status_minhours" "$sql")" "$(ratio "$status_minhours" "$status_alone")"
printf '%-56s %8s\n' "status --format json == status.json (same bytes)" "$same"
# The same by CPU time, steadier than wall time on a shared machine.
printf '%-56s %8s ms CPU\n' "sqlite3 select count(*) (baseline)" "$(cpu_ms sqlite3 "$DB" "select count(*) from checkin")"
printf '%-56s %8s ms CPU\n' "status --format json, agent running" "$(cpu_ms "$BIN" status --format json "${ARGS[@]}")"

# A follower and the status file, 100 check-ins through the agent's socket.
"$BIN" status --follow --format json "${ARGS[@]}" > "$OUT/follow.out" &
FOLLOW=$!
sleep 1
# Idle: the follower's system calls over 5 s while nothing changes.
# strace -c's total line: % time, seconds, usecs/call, calls[, errors], "total".
idle=$( (timeout 5 strace -c -f -p "$FOLLOW" 2>&1 >/dev/null || true) | awk '$NF == "total" {print $4}')
printf '%-56s %8s\n' "idle follower: system calls in 5 s (target 0)" "${idle:-0}"
kill "$FOLLOW"; wait "$FOLLOW" 2>/dev/null || true
/usr/bin/python3 - "$BIN" "$RUN" "$DB" "$CONFIG" <<'PY'
import json, os, socket, subprocess, sys, time, select
binary, run, db, config = sys.argv[1:5]
follow = subprocess.Popen([binary, "status", "--follow", "--format", "json", "--database", db, "--config", config,
                           "--socket", run + "/agent.sock"], stdout=subprocess.PIPE)
first = json.loads(follow.stdout.readline())  # the line on subscribing
# A workday of the current period (the latest up to today, else the first
# after it): a check-in on a weekend changes no figure, and nothing is pushed.
import datetime
start, end = (datetime.date.fromisoformat(first["period"][k]) for k in ("start", "end"))
today = datetime.date.fromisoformat(first["today"])
days = [start + datetime.timedelta(n) for n in range((end - start).days + 1)]
weekdays = [d for d in days if d.weekday() < 5]
day = max((d for d in weekdays if d <= today), default=min(weekdays)).isoformat()
client = socket.socket(socket.AF_UNIX); client.connect(run + "/agent.sock")
reader = client.makefile("rb")
to_follow, to_file = [], []
# Replaced means a new file (a new inode): two replacements within one tick
# of the file system's coarse clock leave the same mtime.
statinfo = lambda: (lambda s: (s.st_ino, s.st_mtime_ns))(os.stat(run + "/status.json"))
for i in range(100):
    # That workday, office and remote in turn: each check-in changes the current answer.
    status = "office" if i % 2 == 0 else "remote"
    before = statinfo()
    start = time.perf_counter()
    client.sendall((json.dumps({"cmd": "checkin", "date": day, "status": status}) + "\n").encode())
    reader.readline()
    follow.stdout.readline()
    to_follow.append((time.perf_counter() - start) * 1000)
    while statinfo() == before and (time.perf_counter() - start) < 2:
        time.sleep(0.0005)
    to_file.append((time.perf_counter() - start) * 1000)
follow.kill()
def pct(xs, p):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]
print(f"{'check-in -> status --follow line, p50 / p99':56s} {pct(to_follow, 50):6.2f} / {pct(to_follow, 99):.2f} ms (target p99 <= 50)")
print(f"{'check-in -> status.json replaced, p50 / p99':56s} {pct(to_file, 50):6.2f} / {pct(to_file, 99):.2f} ms (target p99 <= 50)")
PY
# The bench wrote today's record into the scratch database only.
