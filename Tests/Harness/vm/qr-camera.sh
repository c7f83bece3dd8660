#!/bin/sh
# Runs inside the test VM (see run-vm.sh). The vivid driver's output device
# loops SHARE/frame.yuyv (640×480 YUYV) back into its capture device, as
# HWBENCH.md describes; then, with the host-built deskdays BIN:
#   test:  `deskdays checkin --qr` (on demand), then `deskdays agent` in watch
#          mode until it stores a check-in; the databases are copied to SHARE.
#   bench: CPU time of 60 s of the agent in watch mode, then of
#          `zbarcam --nodisplay`, on the same camera; written to SHARE/bench.txt.
# Usage (inside the VM): qr-camera.sh SHARE BIN [test|bench] [SECONDS]
set -u
share=$1 bin=$2 mode=${3:-test} seconds=${4:-60}
say() { echo "qr-camera: $(cut -d" " -f1 /proc/uptime) $*"; }

modprobe vivid n_devs=1 node_types=0x101 || { say "modprobe vivid failed"; exit 10; }
cap= out=
for node in /sys/class/video4linux/video*; do
    case "$(cat "$node/name")" in
        *vid-cap) cap=/dev/${node##*/} ;;
        *vid-out) out=/dev/${node##*/} ;;
    esac
done
[ -n "$cap" ] && [ -n "$out" ] || { say "vivid made no capture/output pair"; exit 11; }
# Input 3 is HDMI, output 1 HDMI: with loop_video the output's frames come back on the capture side.
v4l2-ctl -d "$cap" -i 3 -c loop_video=1 -c osd_text_mode=2 -v width=640,height=480,pixelformat=YUYV || exit 12
v4l2-ctl -d "$out" -o 1 -x width=640,height=480,pixelformat=YUYV || exit 12
v4l2-ctl -d "$out" --stream-out-mmap --stream-from="$share/frame.yuyv" --stream-loop > /dev/null 2>&1 &
feed=$!
sleep 1
say "camera $cap fed from $out"

work=/tmp/qr
mkdir -p "$work"
payload=$(cat "$share/payload.txt")
printf '[qr]\nenabled = true\ndevice = "%s"\npayloads = ["%s"]\n' "$cap" "$payload" > "$work/on-demand.toml"
printf '[qr]\nenabled = true\ndevice = "%s"\npayloads = ["%s"]\nmode = "watch"\nfps = 4\n' "$cap" "$payload" > "$work/watch.toml"

# CPU seconds (user + system) a process has used so far.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"; }

status=0
case "$mode" in
test)
    say "checkin --qr"
    timeout 120 "$bin" checkin --qr --config "$work/on-demand.toml" --database "$work/checkin.sqlite" \
        > "$share/checkin.out" 2>&1
    echo $? > "$share/checkin.status"
    say "agent, watch mode"
    DESKDAYS_LOG=info "$bin" agent --config "$work/watch.toml" --database "$work/agent.sqlite" > "$share/agent.log" 2>&1 &
    agent=$!
    waited=0
    until grep -q "check-in stored" "$share/agent.log" || [ $waited -ge 120 ]; do sleep 1; waited=$((waited + 1)); done
    # A second look: the code is still in view, which must not be a second sighting.
    sleep 3
    kill -TERM $agent
    wait $agent
    echo $? > "$share/agent.status"
    say "done"
    for f in "$work"/*.sqlite*; do cp "$f" "$share/"; done
    ;;
bench)
    DESKDAYS_LOG=info "$bin" agent --config "$work/watch.toml" --database "$work/agent.sqlite" > "$share/agent.log" 2>&1 &
    agent=$!
    sleep "$seconds"
    ours=$(cpu $agent)
    kill -TERM $agent; wait $agent
    zbarcam --nodisplay --nodbus --quiet -Sdisable -Sqrcode.enable "$cap" > "$share/zbarcam.out" 2>&1 &
    zbarcam=$!
    sleep "$seconds"
    theirs=$(cpu $zbarcam)
    kill -TERM $zbarcam; wait $zbarcam
    printf 'seconds %s\nagent_watch_cpu_s %s\nzbarcam_cpu_s %s\n' "$seconds" "$ours" "$theirs" > "$share/bench.txt"
    ;;
*) say "unknown mode $mode"; status=2 ;;
esac
kill $feed 2>/dev/null
exit $status
