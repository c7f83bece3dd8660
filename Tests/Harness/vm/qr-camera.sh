#!/bin/sh
# Runs inside the test VM (see run-vm.sh). The vivid driver's output device
# loops SHARE/frame.yuyv (640×480 YUYV) back into its capture device, as
# docs/testing.md describes; then, with the host-built deskdays BIN:
#   test:  `deskdays qr scan --camera` while another program holds the camera
#          (must fail with one clear line), `deskdays checkin --qr` (on
#          demand), then `deskdays agent` in watch mode with no code in
#          view: the camera unplugged under it (vivid's disconnect control),
#          a manual check-in over its control socket meanwhile, the camera
#          back at the same node with the code in view, which it must store;
#          the databases are copied to SHARE.
#   bench: CPU time over SECONDS of the agent in watch mode, of the same
#          camera path decoding every frame (`qr scan --camera`, no rule), and
#          of `zbarcam --nodisplay` if it runs; written to SHARE/bench.txt.
# Usage (inside the VM): qr-camera.sh SHARE BIN [test|bench] [SECONDS]
set -u
share=$1 bin=$2 mode=${3:-test} seconds=${4:-60}
say() { echo "qr-camera: $(cut -d" " -f1 /proc/uptime) $*"; }

# vivid, with the frame looped from its output into its capture device.
# One HDMI input and one HDMI output: no VIDIOC_S_INPUT needed, which
# fails with EBUSY whenever another program streams.
modprobe vivid n_devs=1 node_types=0x101 num_inputs=1 input_types=0x3 num_outputs=1 output_types=0x1 \
    || { say "modprobe vivid failed"; exit 10; }
cap= out=
for node in /sys/class/video4linux/video*; do
    case "$(cat "$node/name")" in
        *vid-cap) cap=/dev/${node##*/} ;;
        *vid-out) out=/dev/${node##*/} ;;
    esac
done
[ -n "$cap" ] && [ -n "$out" ] || { say "vivid made no capture/output pair"; exit 11; }
# Streams the code frame into the output device, in a loop (the feed).
feed_code() {
    v4l2-ctl -d "$out" --stream-out-mmap --stream-from="$share/frame.yuyv" --stream-loop > /dev/null 2>&1 &
    feed=$!
    sleep 1
}
# With loop_video the HDMI output's frames come back on the HDMI capture
# side when both have the same size and format (also what DeskDays asks for).
v4l2-ctl -d "$cap" -c loop_video=1 -c osd_text_mode=2 || exit 12
v4l2-ctl -d "$cap" -v width=640,height=480,pixelformat=YUYV || exit 12
v4l2-ctl -d "$out" -x width=640,height=480,pixelformat=YUYV || exit 12
feed_code
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
    say "busy camera"
    # Another program streaming from the camera: one clear line, exit 1.
    v4l2-ctl -d "$cap" --stream-mmap --stream-count=100000 > /dev/null 2>&1 &
    holder=$!
    sleep 1
    timeout 60 "$bin" qr scan --camera --timeout 3 --config "$work/on-demand.toml" > "$share/busy.out" 2>&1
    echo $? > "$share/busy.status"
    kill $holder
    wait $holder
    say "checkin --qr"
    timeout 120 "$bin" checkin --qr --config "$work/on-demand.toml" --database "$work/checkin.sqlite" \
        > "$share/checkin.out" 2>&1
    echo $? > "$share/checkin.status"
    # The agent starts on vivid's own test pattern (the feed stopped: no
    # code in view), loses the camera, keeps serving its control socket,
    # gets the camera back and only then sees the code: its one qr check-in
    # is made after the return, so the pipeline's one-a-day rule cannot hide it.
    kill $feed; wait $feed 2>/dev/null
    say "agent, watch mode"
    DESKDAYS_LOG=info "$bin" agent --config "$work/watch.toml" --database "$work/agent.sqlite" \
        --socket /run/qr-agent.sock > "$share/agent.log" 2>&1 &
    agent=$!
    waited=0
    until grep -q "camera opened" "$share/agent.log" || [ $waited -ge 120 ]; do sleep 1; waited=$((waited + 1)); done
    say "unplug"
    # vivid's Disconnect button simulates a USB unplug: every open handle
    # fails and new opens get ENODEV until the last handle is closed, when
    # vivid plugs the device back in at the same node. A holder keeps it
    # unplugged for as long as the test needs.
    sleep 600 < "$cap" &
    holder=$!
    v4l2-ctl -d "$cap" -c disconnect=1
    waited=0
    until grep -q "went away" "$share/agent.log" || [ $waited -ge 20 ]; do sleep 1; waited=$((waited + 1)); done
    kill -0 $agent && say "agent still running after the unplug"
    v4l2-ctl -d "$cap" -D > /dev/null 2>&1 || say "camera gone: it cannot be opened"
    # A manual check-in over the control socket while the camera is gone.
    printf '{"cmd":"checkin","date":"2026-01-05","status":"office","note":"camera gone"}\n' \
        | timeout 30 socat -t 20 - UNIX-CONNECT:/run/qr-agent.sock > "$share/manual.out" 2>&1
    say "manual check-in answered: $(cat "$share/manual.out")"
    # Plugged back in (the last handle closed), now with the code in view.
    kill $holder; wait $holder 2>/dev/null
    feed_code
    v4l2-ctl -d "$cap" -D > /dev/null 2>&1 && say "camera back as $cap"
    waited=0
    until grep -q "check-in stored" "$share/agent.log" || [ $waited -ge 120 ]; do sleep 1; waited=$((waited + 1)); done
    # A second look: the code is still in view, which must not be a second sighting.
    sleep 3
    kill -0 $agent && say "agent still running after the return"
    kill -TERM $agent
    wait $agent
    echo $? > "$share/agent.status"
    say "done"
    for f in "$work"/*.sqlite*; do cp "$f" "$share/"; done
    ;;
bench)
    # CPU seconds over SECONDS after a 5 s warm-up (start-up is not the steady cost).
    measure() {
        sleep 5
        c0=$(cpu "$1")
        sleep "$seconds"
        c1=$(cpu "$1")
        awk -v a="$c0" -v b="$c1" 'BEGIN {printf "%.2f", b - a}'
    }
    DESKDAYS_LOG=info "$bin" agent --config "$work/watch.toml" --database "$work/agent.sqlite" > "$share/agent.log" 2>&1 &
    pid=$!
    watch=$(measure $pid)
    kill -TERM $pid; wait $pid
    # The same camera path decoding every frame at the camera's rate: an
    # on-demand scan with no rule to stop it (what zbarcam does).
    printf '[qr]\nenabled = true\ndevice = "%s"\n' "$cap" > "$work/none.toml"
    "$bin" qr scan --camera --timeout $((seconds + 20)) --config "$work/none.toml" > /dev/null 2>&1 &
    pid=$!
    every=$(measure $pid)
    kill -TERM $pid; wait $pid
    # zbarcam itself (Debian 12's 0.23.92 may crash on probing: zbar issue #239).
    zbarcam --nodisplay --nodbus --quiet --prescale=640x480 -Sdisable -Sqrcode.enable "$cap" > "$share/zbarcam.out" 2>&1 &
    pid=$!
    sleep 3
    if kill -0 $pid 2>/dev/null; then
        zbarcam=$(measure $pid)
        kill -TERM $pid; wait $pid
    else
        wait $pid
        zbarcam="crashed-exit-$?"
    fi
    printf 'seconds %s\nagent_watch_cpu_s %s\nevery_frame_cpu_s %s\nzbarcam_cpu_s %s\n' \
        "$seconds" "$watch" "$every" "$zbarcam" > "$share/bench.txt"
    ;;
*) say "unknown mode $mode"; status=2 ;;
esac
kill $feed 2>/dev/null
exit $status
