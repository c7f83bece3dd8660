#!/usr/bin/env bash
# Runs the Wi-Fi scenarios (inside-vm.sh) in one boot of the test VM of
# Tests/Harness/vm. Usage: run.sh test|bench|capture DESKDAYS_BIN SHARE_DIR [TIMEOUT]
#                    or: run.sh check   (only the package checks)
# Exit status: the VM script's; 3 when a package is missing (message on stderr).
set -euo pipefail
mode=${1:?usage: run.sh test|bench DESKDAYS_BIN SHARE [TIMEOUT]}
here=$(cd "$(dirname "$0")" && pwd)
for tool in qemu-system-x86_64 busybox cpio modprobe; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install qemu-system-x86 busybox-static cpio kmod" >&2; exit 3; }
done
for tool in hostapd wpa_supplicant wpa_cli iw sqlite3 strace socat; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install hostapd wpasupplicant iw sqlite3 strace socat" >&2; exit 3; }
done
[ -e /lib/firmware/regulatory.db ] || { echo "wireless-regdb is missing: apt-get install wireless-regdb" >&2; exit 3; }
kver=$(ls /lib/modules 2>/dev/null | sort -V | tail -n 1)
[ -n "$(find "/lib/modules/$kver" -name 'mac80211_hwsim.ko*' 2>/dev/null)" ] || { echo "no mac80211_hwsim module for $kver: apt-get install linux-image-amd64" >&2; exit 3; }
[ "$mode" = check ] && exit 0
bin=${2:?usage: run.sh test|bench DESKDAYS_BIN SHARE [TIMEOUT]}
share=${3:?usage: run.sh test|bench DESKDAYS_BIN SHARE [TIMEOUT]}
limit=${4:-400}
mkdir -p "$share"
# Its own initramfs cache: another VM test running at the same moment would
# otherwise build the shared one concurrently into the same temporary file.
export DESKDAYS_VM_CACHE=${DESKDAYS_VM_CACHE:-${TMPDIR:-/tmp}/deskdays-vm-wifi}
# A parent may hand us SIGTERM/SIGINT blocked (Foundation's Process does);
# timeout(1) must be able to stop qemu, so start with an empty signal mask.
exec /usr/bin/python3 -c 'import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])' \
    "$here/../vm/run-vm.sh" "$here/inside-vm.sh" "$(cd "$share" && pwd)" "$mode,$bin" "$limit"
