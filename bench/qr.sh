#!/usr/bin/env bash
# QR decoding speed and watch-mode cost, each beside its baseline
# measured in the same run:
#  1. Throughput on the ZXing photo set (Tests/Fixtures/qr), the list repeated
#     REPEAT times (default 5): `deskdays qr scan FILES…` vs `zbarimg -Sdisable
#     -Sqrcode.enable FILES…` (both: read file, decode PNG/JPEG, zbar; one process).
#  2. Throughput on 640×480 and 1280×720 frames holding one code: our camera
#     path in process (YUYV or MJPEG buffer → luma → zbar) from the hidden
#     `deskdays qr bench-frames`, and, on the same frame as PNG files, `deskdays
#     qr scan` vs `zbarimg` (file decoding included on both sides).
#  3. Watch mode on a static scene for SECONDS (default 60): CPU seconds of
#     `deskdays agent` ([qr] mode = "watch", fps = 4) vs the same camera path
#     decoding every frame (`deskdays qr scan --camera`, no rule to stop it)
#     and vs `zbarcam --nodisplay` when it runs, on the same vivid virtual
#     camera in a qemu VM (TCG: absolute CPU figures are emulated, the ratio
#     is what counts). Target: at most a quarter of zbarcam's.
#     Skipped with a reason when the VM packages are missing (NO_VM=1 skips it).
#
# Throughput is per CPU-second (user + system time of the process, not wall
# time: the build machines are shared), the median of ROUNDS (default 3)
# alternating runs.
#
# Usage: bench/qr.sh [DESKDAYS_BINARY]   (default: a release build in .build-qr-release)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
REPEAT=${REPEAT:-5}
ROUNDS=${ROUNDS:-3}
FRAMES=${FRAMES:-200}
SECONDS_WATCH=${SECONDS_WATCH:-60}
OUT=bench/out/qr
rm -rf "$OUT"; mkdir -p "$OUT"

if [ $# -ge 1 ]; then
    BIN=$(realpath "$1")
else
    SCRATCH=${SCRATCH_PATH:-.build-qr-release}
    swift build -c release --scratch-path "$SCRATCH" >/dev/null  # every executable: qr and enroll run in deskdays-hardware
    BIN=$(realpath "$SCRATCH/release/deskdays")
fi
command -v zbarimg >/dev/null || { echo "zbarimg not installed: apt-get install zbar-tools" >&2; exit 1; }

# CPU seconds (user + system) a command takes: unlike wall time, it does not
# swing with whatever else the 2 shared cores are doing.
elapsed() {
    local TIMEFORMAT='%3U %3S' t
    t=$( { time "$@" > /dev/null 2>&1; } 2>&1 ) || true
    awk -v t="$t" 'BEGIN {split(t, a, " "); printf "%.4f\n", a[1] + a[2]}'
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN {printf "%.1f", n / s}'; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Median seconds of ROUNDS alternating runs of `ours_scan FILES` and `zbarimg_scan FILES`: "OURS THEIRS".
compare() {
    local o=() z=()
    for _ in $(seq "$ROUNDS"); do
        o+=("$(elapsed ours_scan "$@")")
        z+=("$(elapsed zbarimg_scan "$@")")
    done
    echo "$(median "${o[@]}") $(median "${z[@]}")"
}
printf '[qr]\n' > "$OUT/config.toml"
ours_scan() { "$BIN" qr scan --config "$OUT/config.toml" "$@"; }
zbarimg_scan() { zbarimg --nodbus -q --raw -Sdisable -Sqrcode.enable "$@"; }

echo "== 1. photo set (ZXing, $(find Tests/Fixtures/qr -name '*.png' -o -name '*.jpg' | wc -l) images × $REPEAT)"
mapfile -t photos < <(find Tests/Fixtures/qr \( -name '*.png' -o -name '*.jpg' \) | sort)
list=()
for _ in $(seq "$REPEAT"); do list+=("${photos[@]}"); done
cat "${photos[@]}" > /dev/null
read -r t_ours t_zbar < <(compare "${list[@]}")
echo "deskdays qr scan: $(rate ${#list[@]} "$t_ours") images per CPU-s   zbarimg: $(rate ${#list[@]} "$t_zbar") images per CPU-s"

echo "== 2. camera-sized frames ($FRAMES each)"
for size in 640x480 1280x720; do
    w=${size%x*} h=${size#*x}
    png="$OUT/frame-$size.png"
    echo "-- $size"
    "$BIN" qr bench-frames --width "$w" --height "$h" --count "$FRAMES" --png "$png" | sed 's/^/our frame path, /'
    files=()
    for _ in $(seq "$FRAMES"); do files+=("$png"); done
    read -r t_ours t_zbar < <(compare "${files[@]}")
    echo "as PNG files: deskdays qr scan $(rate "$FRAMES" "$t_ours") frames per CPU-s   zbarimg $(rate "$FRAMES" "$t_zbar") frames per CPU-s"
done

echo "== 3. watch mode, static scene, ${SECONDS_WATCH} s on the vivid camera (qemu VM)"
if [ "${NO_VM:-0}" = 1 ]; then
    echo "skipped: NO_VM=1"
elif ! command -v qemu-system-x86_64 >/dev/null || ! ls /boot/vmlinuz-* >/dev/null 2>&1 || [ ! -x /bin/busybox ] \
     || ! command -v v4l2-ctl >/dev/null || ! command -v zbarcam >/dev/null; then
    echo "skipped: needs qemu-system-x86 linux-image-amd64 busybox-static v4l-utils zbar-tools"
else
    share=$(mktemp -d /tmp/deskdays-qr-bench.XXXXXX)
    "$BIN" qr bench-frames --width 640 --height 480 --count 1 --png "$share/frame.png" --yuyv "$share/frame.yuyv" > /dev/null
    echo "deskdays:office:hq" > "$share/payload.txt"
    if Tests/Harness/vm/run-vm.sh "$PWD/Tests/Harness/vm/qr-camera.sh" "$share" "$BIN,bench,$SECONDS_WATCH" $((SECONDS_WATCH * 2 + 300)); then
        cat "$share/bench.txt"
        awk '/agent_watch_cpu_s/ {a=$2} /every_frame_cpu_s/ {e=$2} /zbarcam_cpu_s/ {z=$2}
             END {printf "deskdays agent (watch, 4 fps, change detection): %s CPU s   every frame decoded: %s CPU s   ratio %.3f\n", a, e, (e > 0 ? a / e : 0);
                  if (z ~ /^[0-9.]+$/) printf "zbarcam --nodisplay: %s CPU s   ratio %.3f\n", z, (z > 0 ? a / z : 0);
                  else printf "zbarcam --nodisplay: %s (Debian 12 zbar 0.23.92 crashes after probing the device: github.com/mchehab/zbar/issues/239)\n", z}' "$share/bench.txt"
    else
        echo "the VM run failed; see $share/script.log and $share/console.log"
    fi
fi
