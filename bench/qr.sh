#!/usr/bin/env bash
# QR decoding speed and watch-mode cost, each beside its baselines
# measured in the same run:
#  1. Throughput on the ZXing photo set (Tests/Fixtures/qr), the list repeated
#     REPEAT times (default 5): `deskdays qr scan FILES…` (ZXing, then zbar
#     when ZXing finds nothing) vs `zbarimg -Sdisable -Sqrcode.enable FILES…`
#     and `ZXingReader -format QRCode FILES…` (each: read file, decode
#     PNG/JPEG, decode QR; one process). Images per CPU-second, and wall
#     seconds (target: qr scan no more wall time than zbarimg).
#  2. Throughput on 640×480 and 1280×720 frames holding one code: our camera
#     path in process (YUYV or MJPEG buffer → luma → decoders) from the hidden
#     `deskdays qr bench-frames`, and, on the same frame as PNG files, `deskdays
#     qr scan` vs `zbarimg` and `ZXingReader` (file decoding included on every
#     side). Target: qr scan at least zbarimg's frames per CPU-second.
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
# alternating runs. ZXingReader is skipped with a reason when
# zxing-cpp-tools is not installed.
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

# CPU seconds (user + system) and wall seconds a command takes: "CPU WALL".
# CPU time, unlike wall time, does not swing with whatever else the 2 shared
# cores are doing; wall time is what a user waits.
elapsed() {
    local TIMEFORMAT='%3U %3S %3R' t
    t=$( { time "$@" > /dev/null 2>&1; } 2>&1 ) || true
    awk -v t="$t" 'BEGIN {split(t, a, " "); printf "%.4f %.4f\n", a[1] + a[2], a[3]}'
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN {printf "%.1f", n / s}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}'; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '[qr]\n' > "$OUT/config.toml"
ours_scan() { "$BIN" qr scan --config "$OUT/config.toml" "$@"; }
zbarimg_scan() { zbarimg --nodbus -q --raw -Sdisable -Sqrcode.enable "$@"; }
zxing_scan() { ZXingReader -format QRCode "$@"; }
TOOLS=(ours_scan zbarimg_scan)
if command -v ZXingReader >/dev/null; then TOOLS+=(zxing_scan); else
    echo "ZXingReader not installed (apt-get install zxing-cpp-tools): its column is left out"; fi
# Median CPU and wall seconds of ROUNDS alternating runs of each tool on FILES:
# "OURS_CPU ZBAR_CPU ZXING_CPU OURS_WALL ZBAR_WALL ZXING_WALL" (ZXing: 0 when absent).
compare() {
    local -A cpu wall
    local tool c w
    for _ in $(seq "$ROUNDS"); do
        for tool in "${TOOLS[@]}"; do
            read -r c w < <(elapsed "$tool" "$@")
            cpu[$tool]+="$c "; wall[$tool]+="$w "
        done
    done
    local out=()
    for tool in ours_scan zbarimg_scan zxing_scan; do
        # shellcheck disable=SC2086
        if [ -n "${cpu[$tool]:-}" ]; then out+=("$(median ${cpu[$tool]})"); else out+=(0); fi
    done
    for tool in ours_scan zbarimg_scan zxing_scan; do
        # shellcheck disable=SC2086
        if [ -n "${wall[$tool]:-}" ]; then out+=("$(median ${wall[$tool]})"); else out+=(0); fi
    done
    echo "${out[@]}"
}
# One line of rates and the ratios to each baseline: UNIT N OURS ZBAR ZXING.
rates() {
    local unit=$1 n=$2 o=$3 z=$4 x=$5
    printf 'deskdays qr scan %s %s per CPU-s   zbarimg %s (deskdays ×%s)' "$(rate "$n" "$o")" "$unit" "$(rate "$n" "$z")" "$(ratio "$z" "$o")"
    if [ "$x" != 0 ]; then printf '   ZXingReader %s (deskdays ×%s)' "$(rate "$n" "$x")" "$(ratio "$x" "$o")"; fi
    printf '\n'
}

echo "== 1. photo set (ZXing, $(find Tests/Fixtures/qr -name '*.png' -o -name '*.jpg' | wc -l) images × $REPEAT)"
mapfile -t photos < <(find Tests/Fixtures/qr \( -name '*.png' -o -name '*.jpg' \) | sort)
list=()
for _ in $(seq "$REPEAT"); do list+=("${photos[@]}"); done
cat "${photos[@]}" > /dev/null
read -r c_ours c_zbar c_zx w_ours w_zbar w_zx < <(compare "${list[@]}")
rates images "${#list[@]}" "$c_ours" "$c_zbar" "$c_zx"
printf 'wall seconds: deskdays qr scan %s   zbarimg %s (deskdays/zbarimg %s)' "$w_ours" "$w_zbar" "$(ratio "$w_ours" "$w_zbar")"
if [ "$w_zx" != 0 ]; then printf '   ZXingReader %s' "$w_zx"; fi
printf '   (target: ratio ≤ 1)\n'

echo "== 2. camera-sized frames ($FRAMES each)"
for size in 640x480 1280x720; do
    w=${size%x*} h=${size#*x}
    png="$OUT/frame-$size.png"
    echo "-- $size"
    "$BIN" qr bench-frames --width "$w" --height "$h" --count "$FRAMES" --png "$png" | sed 's/^/our frame path, /'
    files=()
    for _ in $(seq "$FRAMES"); do files+=("$png"); done
    read -r c_ours c_zbar c_zx _ < <(compare "${files[@]}")
    printf 'as PNG files: '; rates frames "$FRAMES" "$c_ours" "$c_zbar" "$c_zx"
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
