# Shared by the bench scripts: medians of repeated runs of one command.
# Source it after setting RUNS.

# The median of numbers on stdin, two decimals.
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }

# Runs a command RUNS times; prints the median wall time in milliseconds,
# from just before its posix_spawn to its exit (Python's monotonic clock).
# A bash loop would fork bash itself for each run: that adds the same
# half millisecond or so to every figure and moves every ratio towards 1.
time_ms() {
  /usr/bin/python3 - "$RUNS" "$@" <<'PY'
import os, statistics, sys, time
runs, argv = int(sys.argv[1]), sys.argv[2:]
null = os.open(os.devnull, os.O_WRONLY)
times = []
for _ in range(runs):
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, null, 1)])
    os.waitpid(pid, 0)
    times.append((time.perf_counter() - start) * 1000)
print(f"{statistics.median(times):.2f}", end="")
PY
}

# Runs a command RUNS times under `perf stat`; prints the mean CPU time
# (task-clock) in milliseconds, or "n/a" where perf is missing. CPU time is
# steadier than wall time on a shared machine.
cpu_ms() {
  command -v perf >/dev/null 2>&1 || { echo "n/a"; return; }
  perf stat -r "$RUNS" -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ {printf "%.2f", $1}'
}
