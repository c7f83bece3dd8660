#!/usr/bin/python3
"""Records real nl80211 replies in the test VM (inside-vm.sh capture mode),
for the golden parser tests: the ctrl family reply for nl80211, and the
GET_INTERFACE, GET_SCAN and GET_STATION dumps of a station, each datagram's
messages written as raw bytes. Speaks netlink directly (no libnl) so the
capture does not share code with what it tests.

Usage: capture.py OUTDIR IFINDEX          (dumps)
       capture.py OUTDIR --mlme SECONDS   (every mlme event for SECONDS)
"""
import os, select, socket, struct, sys, time

NETLINK_GENERIC = 16
NLM_F_REQUEST, NLM_F_DUMP = 0x1, 0x300
NLMSG_ERROR, NLMSG_DONE = 2, 3
GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME, CTRL_ATTR_MCAST_GROUPS = 0x10, 3, 1, 2, 7
SOL_NETLINK, NETLINK_ADD_MEMBERSHIP = 270, 1

def attr(kind, payload):
    length = 4 + len(payload)
    return struct.pack("=HH", length, kind) + payload + b"\0" * ((4 - length % 4) % 4)

def attrs(data):
    out, offset = {}, 0
    while offset + 4 <= len(data):
        length, kind = struct.unpack_from("=HH", data, offset)
        if length < 4:
            break
        out.setdefault(kind & 0x3FFF, data[offset + 4: offset + length])
        offset += (length + 3) & ~3
    return out

def request(sock, family, command, flags, payload=b"", seq=[1]):
    seq[0] += 1
    body = struct.pack("=BBH", command, 1, 0) + payload
    sock.send(struct.pack("=IHHII", 16 + len(body), family, NLM_F_REQUEST | flags, seq[0], 0) + body)
    replies = []
    while True:
        data = sock.recv(1 << 16)
        replies.append(data)
        offset, done = 0, False
        while offset + 16 <= len(data):
            length, kind = struct.unpack_from("=IH", data, offset)
            if kind in (NLMSG_DONE, NLMSG_ERROR):
                done = True
            offset += (length + 3) & ~3
        if done or not flags & NLM_F_DUMP:
            return replies

def family(sock):
    data = request(sock, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, attr(CTRL_ATTR_FAMILY_NAME, b"nl80211\0"))[0]
    found = attrs(data[20:])
    return data, struct.unpack("=H", found[CTRL_ATTR_FAMILY_ID][:2])[0], found[CTRL_ATTR_MCAST_GROUPS]

def main():
    out = sys.argv[1]
    sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
    sock.bind((0, 0))
    ctrl_reply, nl80211, groups = family(sock)
    if sys.argv[2] == "--mlme":
        for group in attrs(groups).values():
            fields = attrs(group)
            if fields.get(1, b"").rstrip(b"\0") == b"mlme":
                sock.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, struct.unpack("=I", fields[2])[0])
        print("subscribed", flush=True)
        end, n = time.time() + float(sys.argv[3]), 0
        while time.time() < end:
            if select.select([sock], [], [], max(0, end - time.time()))[0]:
                data = sock.recv(1 << 16)
                n += 1
                with open(os.path.join(out, f"mlme-{n:02d}-cmd{data[16]}.bin"), "wb") as f:
                    f.write(data)
        return
    index = int(sys.argv[2])
    with open(os.path.join(out, "ctrl-getfamily-nl80211.bin"), "wb") as f:
        f.write(ctrl_reply)
    ifindex = attr(3, struct.pack("=I", index))
    for name, command, payload in (("get-interface", 5, b""), ("get-scan", 32, ifindex), ("get-station", 17, ifindex)):
        with open(os.path.join(out, f"{name}.bin"), "wb") as f:
            f.write(b"".join(request(sock, nl80211, command, NLM_F_DUMP, payload)))

main()
