#!/usr/bin/env bash
# Builds the test VM's initramfs from the host's Debian packages, at test time:
# busybox (busybox-static), the virtio + 9p modules of Debian's kernel
# (linux-image-amd64, resolved with kmod's modprobe) and ./init.
# Nothing it makes is committed. Usage: build-initramfs.sh OUT.cpio [KERNEL_VERSION]
set -euo pipefail
out=${1:?usage: build-initramfs.sh OUT.cpio [KERNEL_VERSION]}
here=$(cd "$(dirname "$0")" && pwd)
kver=${2:-$(ls /lib/modules | sort -V | tail -n 1)}
[ -x /bin/busybox ] || { echo "busybox-static is not installed: apt-get install busybox-static" >&2; exit 3; }
[ -d "/lib/modules/$kver" ] || { echo "no modules for kernel $kver: apt-get install linux-image-amd64" >&2; exit 3; }
command -v cpio >/dev/null || { echo "cpio is not installed: apt-get install cpio" >&2; exit 3; }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,dev,proc,sys,newroot,lib/firmware}
cp /bin/busybox "$root/bin/busybox"
# Only what mounting the host over 9p (and /tmp as an overlay) needs; everything else (vivid,
# mac80211_hwsim, …) is loaded later with modprobe from the host's /lib/modules.
: > "$root/modules.list"
for module in virtio_pci 9pnet_virtio 9p overlay; do
    modprobe -S "$kver" --show-depends "$module" | while read -r verb path _; do
        [ "$verb" = insmod ] || continue
        grep -qxF "$path" "$root/modules.list" && continue
        mkdir -p "$root$(dirname "$path")"
        cp "$path" "$root$path"
        echo "$path" >> "$root/modules.list"
    done
done
# cfg80211 reads regulatory.db from the initramfs root, before the host is mounted.
for f in /lib/firmware/regulatory.db /lib/firmware/regulatory.db.p7s; do
    [ -e "$f" ] && cp -L "$f" "$root/lib/firmware/"
done
cp "$here/init" "$root/init"
chmod 755 "$root/init"
# A private temporary name, then an atomic rename: two VM tests may build at once.
(cd "$root" && find . | cpio -o -H newc --quiet) > "$out.$$.tmp"
mv "$out.$$.tmp" "$out"
