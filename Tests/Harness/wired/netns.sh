#!/bin/sh
# A docked laptop and its office gateway as two network namespaces joined by
# a veth pair, for the wired method's tests and bench (AgentWiredTests,
# bench/wired.sh). Needs root and iproute2; touches nothing outside the two
# namespaces it makes (names start with PREFIX, unique per test).
#
#   netns.sh up PREFIX [GW_MAC]   PREFIX-gw (gw0, GW_MAC, 10.200.0.1/24, fe80::1)
#                                 and PREFIX-lap (eth0, 10.200.0.2/24), both ends up,
#                                 no default route yet
#   netns.sh route4 PREFIX        laptop: default via 10.200.0.1
#   netns.sh route6 PREFIX        laptop: IPv6 default via fe80::1 dev eth0 (a static route)
#   netns.sh carrier PREFIX up|down   the gateway end up or down: the laptop's eth0 gains
#                                 or loses its carrier (a cable or dock plugged or not)
#   netns.sh mac PREFIX GW_MAC    another router at the same address (carrier flaps)
#   netns.sh resolve PREFIX 4|6   one ping from the laptop to the gateway, so the kernel
#                                 resolves its MAC (ARP or NDP) as any traffic would
#   netns.sh static PREFIX GW_MAC the gateway's neighbour entry written by hand (permanent)
#   netns.sh ra PREFIX            the gateway sends one IPv6 router advertisement (router
#                                 lifetime 30 min, its MAC in a source link-layer address
#                                 option, as routers send them): the laptop's kernel makes
#                                 the default route via fe80::1 and the neighbour entry
#   netns.sh down PREFIX          deletes both namespaces (and the veth pair with them)
set -eu
PATH=/usr/sbin:/sbin:/usr/bin:/bin:$PATH
command=$1
prefix=$2
gw="$prefix-gw"
lap="$prefix-lap"
case "$command" in
up)
    mac=${3:-02:00:00:00:0a:01}
    ip netns add "$gw"
    ip netns add "$lap"
    for ns in "$gw" "$lap"; do
        # No duplicate address detection: link-local addresses usable at once.
        ip netns exec "$ns" sh -c 'echo 0 > /proc/sys/net/ipv6/conf/default/accept_dad; echo 0 > /proc/sys/net/ipv6/conf/all/accept_dad'
        ip -n "$ns" link set lo up
    done
    ip -n "$lap" link add eth0 type veth peer name gw0 netns "$gw"
    ip -n "$gw" link set gw0 address "$mac"
    ip -n "$gw" addr add 10.200.0.1/24 dev gw0
    ip -n "$gw" addr add fe80::1/64 dev gw0 nodad
    ip -n "$lap" addr add 10.200.0.2/24 dev eth0
    ip -n "$lap" addr add fe80::2/64 dev eth0 nodad
    ip -n "$gw" link set gw0 up
    ip -n "$lap" link set eth0 up
    # The kernel reports the carrier a moment later (linkwatch); a router
    # advertisement sent before that is dropped.
    tries=0
    until ip -n "$lap" link show eth0 | grep -q 'state UP'; do
        tries=$((tries + 1)); [ "$tries" -ge 100 ] && { echo "eth0 has no carrier" >&2; exit 1; }
        sleep 0.05
    done
    ;;
route4) ip -n "$lap" route replace default via 10.200.0.1 dev eth0 ;;
route6) ip -n "$lap" -6 route replace default via fe80::1 dev eth0 ;;
carrier) ip -n "$gw" link set gw0 "$3" ;;
mac)
    ip -n "$gw" link set gw0 down
    ip -n "$gw" link set gw0 address "$3"
    ip -n "$gw" link set gw0 up
    ;;
resolve)
    if [ "$3" = 6 ]; then
        ip netns exec "$lap" ping -6 -c 1 -W 5 fe80::1%eth0 > /dev/null
    else
        ip netns exec "$lap" ping -c 1 -W 5 10.200.0.1 > /dev/null
    fi
    ;;
ra)
    # Python in the gateway namespace: the laptop side sends nothing.
    ip netns exec "$gw" /usr/bin/python3 - <<'PY'
import socket, struct
mac = bytes.fromhex(open("/sys/class/net/gw0/address").read().strip().replace(":", ""))
index = socket.if_nametoindex("gw0")
s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_HOPS, 255)  # RFC 4861: hop limit 255
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_MULTICAST_IF, index)
# Type 134, code 0, checksum (the kernel's), hop limit 64, flags 0, router lifetime 1800 s,
# reachable 0, retransmit 0; option 1 (source link-layer address), length 1 (8 bytes).
ra = struct.pack("!BBHBBHII", 134, 0, 0, 64, 0, 1800, 0, 0) + bytes([1, 1]) + mac
s.sendto(ra, ("ff02::1", 0, 0, index))
PY
    ;;
static) ip -n "$lap" neigh replace 10.200.0.1 lladdr "$3" dev eth0 nud permanent ;;
down)
    ip netns del "$gw" 2> /dev/null || true
    ip netns del "$lap" 2> /dev/null || true
    ;;
*) echo "unknown command $command" >&2; exit 2 ;;
esac
