#!/usr/bin/env bash
# Boots Debian's kernel under qemu (TCG) with the initramfs of
# build-initramfs.sh and runs SCRIPT inside a chroot of this machine's /
# (read-only), with SHARE mounted writable at the same path. Inside, SCRIPT
# gets SHARE as $1 (then ARGS, comma-separated on the way in); its output is
# in SHARE/script.log, the VM console in SHARE/console.log.
# Exit status: the script's; 124 on timeout; 3 when a package is missing.
# Usage: run-vm.sh SCRIPT SHARE [ARGS] [TIMEOUT_SECONDS]
set -euo pipefail
script=${1:?usage: run-vm.sh SCRIPT SHARE [ARGS] [TIMEOUT]}
share=${2:?usage: run-vm.sh SCRIPT SHARE [ARGS] [TIMEOUT]}
args=${3:-}
limit=${4:-300}
here=$(cd "$(dirname "$0")" && pwd)
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing: apt-get install qemu-system-x86" >&2; exit 3; }
kver=$(ls /lib/modules 2>/dev/null | sort -V | tail -n 1)
kernel=/boot/vmlinuz-$kver
[ -n "$kver" ] && [ -r "$kernel" ] || { echo "no Debian kernel in /boot: apt-get install linux-image-amd64" >&2; exit 3; }

# One initramfs per kernel and harness version, rebuilt when either changes.
cache=${DESKDAYS_VM_CACHE:-${TMPDIR:-/tmp}/deskdays-vm}
mkdir -p "$cache"
stamp=$(cat "$here/init" "$here/build-initramfs.sh" | md5sum | cut -c1-12)
initrd=$cache/initramfs-$kver-$stamp.cpio
[ -s "$initrd" ] || "$here/build-initramfs.sh" "$initrd" "$kver"

rm -f "$share/exit-status"
status=0
# -k: a parent may have started us with SIGTERM blocked (Foundation's
# Process does), which qemu inherits; SIGKILL cannot be blocked.
timeout -k 10 "$limit" qemu-system-x86_64 -accel tcg -cpu max -m 1024 -smp 2 \
    -nographic -no-reboot -nic none -serial mon:stdio \
    -kernel "$kernel" -initrd "$initrd" \
    -append "console=ttyS0 quiet panic=-1 deskdays.script=$script deskdays.share=$share deskdays.args=$args" \
    -virtfs local,path=/,mount_tag=root,security_model=none,readonly=on,multidevs=remap \
    -virtfs local,path="$share",mount_tag=results,security_model=none,multidevs=remap \
    < /dev/null > "$share/console.log" 2>&1 || status=$?
[ "$status" = 124 ] || [ "$status" = 137 ] && { echo "the VM did not finish in $limit s (see $share/console.log)" >&2; exit 124; }
[ -f "$share/exit-status" ] || { echo "the VM ended without running the script (see $share/console.log)" >&2; tail -n 20 "$share/console.log" >&2; exit 1; }
exit "$(cat "$share/exit-status")"
