#!/bin/bash
# `make test-deb`: the package as a stranger gets it. Installs the .deb with
# apt into a bare Debian 12 (debootstrap --variant=minbase bookworm, no Swift
# toolchain, nothing from this machine), then, as a new user: deskdays
# --version, status, checkin, report, doctor; ldd finds every library and none under
# a toolchain; apt-get purge leaves none of its files.
#   Tests/Harness/deb/check.sh deskdays_VERSION_ARCH.deb   (or --prepare: the tarball only)
# Needs root (debootstrap, chroot, mount) and the Debian mirror apt already
# uses (DEBIAN_MIRROR overrides it). The minbase tree is built once and kept
# as a tarball in .build/deb-test (DESKDAYS_DEB_TEST_DIR); each run unpacks a
# fresh copy, so ~20 s plus the downloads of the package's dependencies.
set -euo pipefail

deb=${1:?usage: $0 deskdays_VERSION_ARCH.deb, or --prepare to build the Debian tree only}
work=${DESKDAYS_DEB_TEST_DIR:-$PWD/.build/deb-test}
mirror=${DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)}
mirror=${mirror:-http://deb.debian.org/debian}
base=$work/bookworm-minbase.tar
root=$work/root

say() { printf '== %s\n' "$*"; }
# Failures are counted in a file: some checks run in command substitutions.
fail() { printf 'FAIL: %s\n' "$*" >&2; echo "$*" >>"$work/failures"; }
in_root() { chroot "$root" "$@"; }
# As the new user, with a login's environment (no systemd session: no agent runs).
as_user() { chroot "$root" runuser -u alice -- env -i HOME=/home/alice USER=alice PATH=/usr/bin:/bin LANG=C.UTF-8 XDG_RUNTIME_DIR=/run/user/1000 "$@"; }

[ "$(id -u)" = 0 ] || { echo "$0: needs root (debootstrap, chroot, mount)" >&2; exit 1; }
mkdir -p "$work"
: >"$work/failures"
if [ ! -f "$base" ]; then
    say "debootstrap --variant=minbase bookworm ($mirror), once; kept as $base"
    rm -rf "$work/base"
    debootstrap --variant=minbase bookworm "$work/base" "$mirror" >"$work/debootstrap.log" 2>&1 \
        || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
    tar -C "$work/base" -cf "$base.tmp" . && mv "$base.tmp" "$base" && rm -rf "$work/base"
fi
# (--prepare: DebianPackageTests builds the tarball while the package builds.)
[ "$deb" != --prepare ] || exit 0
deb=$(realpath "$deb")

cleanup() {
    mountpoint -q "$root/proc" && umount "$root/proc"
    rm -rf "$root"
}
trap cleanup EXIT
cleanup
mkdir -p "$root" && tar -C "$root" -xf "$base"
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
name=$(basename "$deb")

say "apt-get install ./$name (without Recommends: Depends alone must do)"
in_root apt-get update -qq
DEBIAN_FRONTEND=noninteractive in_root apt-get install -y -qq --no-install-recommends "/tmp/$name" >"$work/install.log" 2>&1 \
    || { cat "$work/install.log" >&2; exit 1; }
grep -E '^(Setting up|Unpacking) ' "$work/install.log" | sed -n 's/^Setting up \([^ :]*\).*/\1/p' | paste -sd' ' | fold -s -w 96 | sed 's/^/  /' || true
files=$(in_root dpkg -L deskdays)
# Its own files (not the folders and the /lib symlink of the base system it lists too).
own=$(while read -r f; do [ -f "$root$f" ] && [ ! -L "$root$f" ] && echo "$f"; done <<<"$files" || true)
echo "  $(wc -l <<<"$own") files"

say "files"
for f in /usr/bin/deskdays /usr/libexec/deskdays/deskdays-cli /usr/libexec/deskdays/deskdays-hardware \
         /usr/lib/systemd/user/deskdays.service /usr/share/dbus-1/services/io.github.deskdays.DeskDays1.service \
         /lib/udev/rules.d/70-deskdays-gps.rules /lib/udev/rules.d/70-deskdays-nfc.rules /lib/udev/rules.d/70-deskdays-camera.rules \
         /usr/share/man/man1/deskdays.1.gz /usr/share/bash-completion/completions/deskdays \
         /usr/share/zsh/vendor-completions/_deskdays /usr/share/fish/vendor_completions.d/deskdays.fish \
         /usr/share/locale/de/LC_MESSAGES/deskdays.mo /usr/share/doc/deskdays/config.toml.sample /usr/share/doc/deskdays/copyright \
         /usr/share/deskdays/holidays.tsv \
         /usr/bin/deskdays-app /usr/share/applications/io.github.deskdays.DeskDays.desktop \
         /usr/share/metainfo/io.github.deskdays.DeskDays.metainfo.xml /usr/share/icons/hicolor/scalable/apps/io.github.deskdays.DeskDays.svg \
         /usr/share/icons/hicolor/symbolic/apps/io.github.deskdays.DeskDays-symbolic.svg \
         /usr/share/dbus-1/interfaces/io.github.deskdays.DeskDays1.xml; do
    grep -qx "$f" <<<"$files" && [ -e "$root$f" ] || fail "$f is not installed"
done
grep -q '^ExecStart=/usr/libexec/deskdays/deskdays-hardware agent$' "$root/usr/lib/systemd/user/deskdays.service" || fail "the unit's ExecStart"
! grep -q '@[A-Z]*DIR@' "$root/usr/lib/systemd/user/deskdays.service" "$root/usr/share/dbus-1/services/"*.service || fail "a @…DIR@ placeholder left"
[ ! -e "$root/etc/systemd/user/default.target.wants/deskdays.service" ] || fail "the package enabled the unit"

say "ldd: every library found, none from a Swift toolchain"
for b in /usr/bin/deskdays /usr/libexec/deskdays/deskdays-cli /usr/libexec/deskdays/deskdays-hardware /usr/bin/deskdays-app; do
    out=$(in_root ldd "$b" 2>&1 || true)
    if grep -q 'not a dynamic executable\|statically linked' <<<"$out"; then echo "  $b: static"; continue; fi
    ! grep -q 'not found' <<<"$out" || fail "$b: $(grep 'not found' <<<"$out" | paste -sd,)"
    ! grep -qi 'swift\|/opt/' <<<"$out" || fail "$b loads from a toolchain: $(grep -i 'swift\|/opt/' <<<"$out" | paste -sd,)"
    echo "  $b: $(wc -l <<<"$out") libraries, $(awk '{print $1}' <<<"$out" | grep -v '^/\|linux-vdso' | paste -sd' ')"
done

say "as a new user (alice)"
in_root useradd -m -s /bin/bash alice
in_root install -d -o alice -g alice -m 700 /run/user/1000
run() {  # run EXPECTED_STATUS COMMAND…: prints the output, checks the status
    local want=$1; shift
    local status=0 out
    out=$(as_user "$@" 2>&1) || status=$?
    sed 's/^/  | /' <<<"$out" | head -25 >&2
    [ "$status" = "$want" ] || fail "$* exited $status (expected $want)"
    printf '%s' "$out"
}
v=$(run 0 deskdays --version); grep -q "$(dpkg-deb -f "$deb" Version)" <<<"$v" || fail "deskdays --version: '$v'"
run 0 deskdays status >/dev/null
# On a fixed Wednesday (today may be a weekend, which does not count).
run 0 env DESKDAYS_TODAY=2026-11-25 deskdays checkin >/dev/null
s=$(run 0 env DESKDAYS_TODAY=2026-11-25 deskdays status); grep -q ' 1 of ' <<<"$s" || fail "status after a check-in does not count it"
r=$(run 0 env DESKDAYS_TODAY=2026-11-25 deskdays report --json); grep -Eq '"office" *: *1([^0-9]|$)' <<<"$r" || fail "report --json after a check-in does not count it"
run 0 env DESKDAYS_TODAY=2026-11-25 deskdays report >/dev/null
run 0 deskdays doctor >/dev/null
# The shipped holiday data, found beside the installed programs.
h=$(run 0 deskdays holidays --region DE-BY --year 2026); grep -q 'Heilige Drei Könige' <<<"$h" || fail "holidays --region DE-BY does not list Epiphany"
run 0 /usr/libexec/deskdays/deskdays-hardware doctor >/dev/null
c=$(run 0 env LANG=de_DE.UTF-8 LANGUAGE=de deskdays --help); grep -q 'Anwesenheit\|Büro' <<<"$c" || fail "no German help: the catalogs are not found"
[ -d "$root/home/alice/.local/share/deskdays" ] || fail "no database folder for alice"

say "apt-get purge deskdays: none of its files left (alice's data stays)"
DEBIAN_FRONTEND=noninteractive in_root apt-get purge -y -qq deskdays >"$work/purge.log" 2>&1 || { cat "$work/purge.log" >&2; fail "purge"; }
! in_root dpkg -L deskdays >/dev/null 2>&1 || fail "dpkg -L deskdays still answers"
while read -r f; do
    [ ! -e "$root$f" ] || fail "left after purge: $f"
done <<<"$own"
for d in /usr/libexec/deskdays /usr/share/doc/deskdays /usr/share/deskdays; do [ ! -e "$root$d" ] || fail "left after purge: $d"; done
[ -d "$root/home/alice/.local/share/deskdays" ] || fail "purge removed the user's data"

if [ ! -s "$work/failures" ]; then say "PASS: $name installs, runs for a new user, purges clean"; else say "$(wc -l <"$work/failures") failure(s)"; exit 1; fi
