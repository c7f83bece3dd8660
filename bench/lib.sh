# Shared by the bench scripts: medians of repeated runs of one command.
# Source it after setting RUNS.

# The median of numbers on stdin, two decimals.
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }

# Runs a command RUNS times; prints the median wall time in milliseconds.
# The clock is bash's own (EPOCHREALTIME, microseconds): no process is
# started to read it, so a figure is the command's start, run and exit only.
time_ms() {
  for _ in $(seq "$RUNS"); do
    local start end
    start=${EPOCHREALTIME/./}
    "$@" >/dev/null
    end=${EPOCHREALTIME/./}
    echo $(( end - start ))
  done | median | awk '{printf "%.2f", $1/1000}'
}

# Runs a command RUNS times under `perf stat`; prints the mean CPU time
# (task-clock) in milliseconds, or "n/a" where perf is missing. CPU time is
# steadier than wall time on a shared machine.
cpu_ms() {
  command -v perf >/dev/null 2>&1 || { echo "n/a"; return; }
  perf stat -r "$RUNS" -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ {printf "%.2f", $1}'
}
