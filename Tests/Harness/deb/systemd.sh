#!/bin/bash
# `make test-deb`, second part: the package under a real systemd. Boots a
# Debian 12 (debootstrap minbase + systemd, dbus-user-session) with
# `systemd-nspawn -b`, installs the .deb, and for a user with lingering
# enabled runs `systemctl --user enable --now deskdays`, then checks: the
# agent is active in its own user and mount namespaces; a check-in goes
# through it; the [sync] folder under ~/Sync receives the journal line; the
# sandbox lets it write the home but not ~/.bashrc, user units or /usr;
# busctl reads its D-Bus properties; `systemctl --user reload` keeps a
# `status --follow` alive; `apt-get purge` leaves none of its files.
#   Tests/Harness/deb/systemd.sh deskdays_VERSION_ARCH.deb   (or --prepare: the tarball only)
# Needs root, systemd-nspawn (systemd-container) and the Debian mirror.
set -euo pipefail

deb=${1:?usage: $0 deskdays_VERSION_ARCH.deb, or --prepare to build the Debian tree only}
work=${DESKDAYS_DEB_TEST_DIR:-$PWD/.build/deb-test}
mirror=${DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)}
mirror=${mirror:-http://deb.debian.org/debian}
base=$work/bookworm-systemd.tar
root=$work/sd-root

say() { printf '== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; echo "$*" >>"$work/sd-failures"; }

[ "$(id -u)" = 0 ] || { echo "$0: needs root" >&2; exit 1; }
command -v systemd-nspawn >/dev/null || { echo "$0: needs systemd-nspawn (apt-get install systemd-container)" >&2; exit 1; }
mkdir -p "$work"; : >"$work/sd-failures"
if [ ! -f "$base" ]; then
    say "debootstrap minbase + systemd (once; kept as $base)"
    rm -rf "$work/sd-base"
    debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,dbus-user-session,libpam-systemd,procps \
        bookworm "$work/sd-base" "$mirror" >"$work/sd-debootstrap.log" 2>&1 || { tail -20 "$work/sd-debootstrap.log" >&2; exit 1; }
    tar -C "$work/sd-base" -cf "$base.tmp" . && mv "$base.tmp" "$base" && rm -rf "$work/sd-base"
fi
# (--prepare: DebianPackageTests builds the tarball while the package builds.)
[ "$deb" != --prepare ] || exit 0
deb=$(realpath "$deb")
name=$(basename "$deb")

nspawn=
cleanup() {
    if [ -n "$nspawn" ] && kill -0 "$nspawn" 2>/dev/null; then
        kill -TERM "$nspawn" 2>/dev/null || true   # nspawn powers the container off
        for _ in $(seq 40); do kill -0 "$nspawn" 2>/dev/null || break; sleep 0.5; done
        kill -KILL "$nspawn" 2>/dev/null || true
        wait "$nspawn" 2>/dev/null || true
    fi
    mountpoint -q "$root/proc" && umount "$root/proc"
    rm -rf "$root"
}
trap cleanup EXIT
cleanup
mkdir -p "$root" && tar -C "$root" -xf "$base"

say "apt-get install ./$name; alice, lingering, [sync] folder = ~/Sync/deskdays"
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf"; cp "$deb" "$root/tmp/"
chroot "$root" apt-get update -qq
DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -qq --no-install-recommends "/tmp/$name" >"$work/sd-install.log" 2>&1 \
    || { cat "$work/sd-install.log" >&2; exit 1; }
umount "$root/proc"
own=$(chroot "$root" dpkg -L deskdays | while read -r f; do [ -f "$root$f" ] && [ ! -L "$root$f" ] && echo "$f"; done || true)
chroot "$root" useradd -m -s /bin/bash alice
mkdir -p "$root/var/lib/systemd/linger" && touch "$root/var/lib/systemd/linger/alice"
chroot "$root" runuser -u alice -- sh -c 'mkdir -p ~/.config/deskdays ~/Sync/deskdays &&
    printf "[policy]\nworkdays = [\"mon\", \"tue\", \"wed\", \"thu\", \"fri\", \"sat\", \"sun\"]\n\n[sync]\nfolder = \"~/Sync/deskdays\"\ndevice_name = \"box\"\n" > ~/.config/deskdays/config.toml && echo "# bashrc" > ~/.bashrc'
# systemd-nspawn hides /proc/kmsg, which ProtectKernelLogs= needs to mask: a
# container-only drop-in (a real machine has /proc/kmsg).
mkdir -p "$root/etc/systemd/user/deskdays.service.d"
printf '[Service]\nProtectKernelLogs=no\n' >"$root/etc/systemd/user/deskdays.service.d/nspawn.conf"
echo ddtest >"$root/etc/hostname"

say "systemd-nspawn -b"
systemd-nspawn -q -b -D "$root" --register=no --private-network --console=read-only --keep-unit >"$work/sd-boot.log" 2>&1 &
nspawn=$!
leader=
for _ in $(seq 120); do
    leader=$(ps -o pid= --ppid "$nspawn" | tr -d ' ' | head -1 || true)
    # (/run is the container's own tmpfs: looked at from inside)
    [ -n "$leader" ] && nsenter -t "$leader" -a test -S /run/user/1000/bus 2>/dev/null && break
    sleep 0.5
done
[ -n "$leader" ] && nsenter -t "$leader" -a test -S /run/user/1000/bus || { tail -20 "$work/sd-boot.log" >&2; echo "no user session bus for alice after 60 s" >&2; exit 1; }
in_box() { nsenter -t "$leader" -a "$@"; }
as_alice() { in_box runuser -u alice -- env HOME=/home/alice USER=alice PATH=/usr/bin:/bin LANG=C.UTF-8 \
    XDG_RUNTIME_DIR=/run/user/1000 DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus "$@"; }

say "systemctl --user enable --now deskdays"
as_alice systemctl --user enable --now deskdays 2>&1 | sed 's/^/  /'
state=$(as_alice systemctl --user show -p ActiveState -p SubState -p MainPID -p PrivateUsers -p ProtectSystem deskdays)
sed 's/^/  /' <<<"$state"
grep -qx 'SubState=running' <<<"$state" || fail "the agent is not running"
grep -qx 'ProtectSystem=strict' <<<"$state" || fail "ProtectSystem"
pid=$(sed -n 's/^MainPID=//p' <<<"$state")
# (Other deskdays agents on the host, a test's, never match; a non-matching
# last one must not end the script under set -e and pipefail.)
agent=$(for p in $(pgrep -x deskdays-hardwa || true); do if grep -qs "^NSpid:.*\s$pid$" /proc/$p/status; then echo "$p"; fi; done | head -1)
[ -n "$agent" ] || { fail "the agent's process not found"; exit 1; }
[ "$(readlink /proc/$agent/ns/mnt)" != "$(readlink /proc/$leader/ns/mnt)" ] || fail "the agent has no mount namespace of its own: the file-system sandbox is not applied"

say "a check-in through the agent; the sync folder receives it"
before=$(cat "$root"/home/alice/Sync/deskdays/*.jsonl 2>/dev/null | wc -l)
as_alice env DESKDAYS_TODAY=2026-11-25 deskdays checkin | sed 's/^/  | /'
as_alice journalctl --user -u deskdays --no-pager -n 20 | grep -q 'manual office recorded for .* through the control socket' || fail "the check-in did not go through the agent"
after=$(cat "$root"/home/alice/Sync/deskdays/*.jsonl 2>/dev/null | wc -l)
[ "$after" -gt "$before" ] || fail "no journal line in ~/Sync/deskdays ($before, then $after)"
as_alice deskdays sync status | sed 's/^/  | /'
as_alice deskdays sync status | grep -q '^Problems: none' || fail "sync status reports a problem"

say "the sandbox, seen from the agent's namespaces as alice"
probe() {  # probe PATH yes|no
    local got=no
    nsenter -t "$agent" -m -U -S 1000 -G 1000 sh -c "echo x >> '$1'" 2>/dev/null && got=yes
    printf '  %-44s writable: %s\n' "$1" "$got"
    [ "$got" = "$2" ] || fail "$1 writable: $got, expected $2"
}
probe /home/alice/Sync/deskdays/probe yes
probe /home/alice/.local/share/deskdays/probe yes
probe /home/alice/.bashrc no
probe /home/alice/.config/systemd/user/probe no
probe /usr/probe no
probe /etc/probe no
rm -f "$root/home/alice/Sync/deskdays/probe" "$root/home/alice/.local/share/deskdays/probe"

say "D-Bus: busctl --user get-property"
office=$(as_alice busctl --user get-property io.github.deskdays.DeskDays1 /io/github/deskdays/DeskDays1 io.github.deskdays.DeskDays1 Office 2>&1 || true)
echo "  Office: $office"
[ "$office" = "u 1" ] || fail "busctl get-property Office: $office"

say "systemctl --user reload keeps status --follow alive"
# Waits until a command succeeds: a bound against a hang, never a measure.
wait_for() {  # wait_for SECONDS COMMAND…
    local end=$((SECONDS + $1)); shift
    until "$@"; do [ "$SECONDS" -lt "$end" ] || return 1; sleep 0.2; done
}
lines() { wc -l <"$work/sd-follow.log"; }
# The agent's answer for the real today (every day a workday in alice's
# configuration, so today counts whatever the date): one JSON line per change.
as_alice deskdays status --follow --format json >"$work/sd-follow.log" 2>&1 &
follow=$!
wait_for 60 test -s "$work/sd-follow.log" || fail "status --follow printed nothing"
as_alice systemctl --user reload deskdays
reloaded() { as_alice journalctl --user -u deskdays --no-pager -q | grep -q 'configuration reloaded'; }
wait_for 60 reloaded || fail "the agent logged no reload"
before=$(lines)
# After the reload, today checked in as office (a change of the figures
# whatever the time: before 20:00 today has no record, after it the
# end-of-day fallback's remote): the follower prints a new line only if it
# is still following.
as_alice deskdays checkin --status office >/dev/null
grown() { [ "$(lines)" -gt "$before" ] || ! kill -0 "$follow" 2>/dev/null; }
wait_for 60 grown || true
[ "$(lines)" -gt "$before" ] || fail "status --follow printed no line for the check-in after the reload"
kill -0 "$follow" 2>/dev/null || fail "status --follow ended at the reload"
[ "$(as_alice systemctl --user show -p MainPID --value deskdays)" = "$pid" ] || fail "the reload restarted the agent"
# A reload is not a stop: systemd must not be waiting for the agent to exit
# (STOPPING=1 at a reload once had it killed TimeoutStopSec later).
state=$(as_alice systemctl --user show -p ActiveState -p SubState --value deskdays | paste -sd/)
[ "$state" = "active/running" ] || fail "after the reload the unit is $state, not active/running"
echo "  status --follow printed $(lines) lines"

say "systemctl --user restart: status --follow waits, and sees an import by another process"
as_alice systemctl --user restart deskdays
restarted() { p=$(as_alice systemctl --user show -p MainPID --value deskdays); [ -n "$p" ] && [ "$p" != 0 ] && [ "$p" != "$pid" ]; }
wait_for 60 restarted || fail "the agent did not come back after the restart"
kill -0 "$follow" 2>/dev/null || fail "status --follow ended at the restart"
grep -q 'waiting for it to start again' "$work/sd-follow.log" || fail "status --follow did not say it waits for the agent"
before=$(lines)
# Yesterday and tomorrow as vacation: at least one is in the current
# quarter, so the figures change (an import, not through the agent).
as_alice sh -c "printf 'date,status\n%s,vacation\n%s,vacation\n' $(date -d yesterday +%F) $(date -d tomorrow +%F) >/home/alice/import.csv"
as_alice deskdays import /home/alice/import.csv | sed 's/^/  | /'
wait_for 60 grown || true
[ "$(lines)" -gt "$before" ] || fail "status --follow printed no line for the import after the restart"
kill "$follow" 2>/dev/null || true

say "apt-get purge deskdays"
DEBIAN_FRONTEND=noninteractive in_box apt-get purge -y -qq deskdays >"$work/sd-purge.log" 2>&1 || { cat "$work/sd-purge.log" >&2; fail "purge"; }
while read -r f; do [ ! -e "$root$f" ] || fail "left after purge: $f"; done <<<"$own"
[ -d "$root/home/alice/.local/share/deskdays" ] || fail "purge removed alice's data"

if [ ! -s "$work/sd-failures" ]; then say "PASS: $name under systemd"; else say "$(wc -l <"$work/sd-failures") failure(s)"; exit 1; fi
