#!/usr/bin/python3
"""A virtual NFC Forum Type 2 tag for vsmartcard's vpcd, speaking vpcd's
socket protocol directly (Debian's python3-virtualsmartcard is broken).

Connect = tag presented, close = tag removed. Framing: 2-byte big-endian
length, then payload; a 1-byte payload is a control message (0 off, 1 on,
2 reset, 4 get ATR → answer the ATR), anything longer an APDU.

Driven by lines on stdin, answering one line each on stdout:
  tag UIDHEX MEMHEX   set the tag (memory from page 0)   → ok
  insert              present it (connect)              → inserted <unix time>
  remove              take it away (close)              → removed <unix time>
  waitread [SECONDS]  wait until a reader asked for the UID (FF CA) since
                      the last insert                    → read N | timeout
  reads               UID reads since the card started   → reads N
  polls               presence checks (ATR requests: vpcd asks for the
                      ATR each time pcscd polls) since the last insert
                                                         → polls N
  others N [SECONDS]  wait until N APDUs other than the tag's reads (a
                      reader's own commands, such as an ACR122U's light and
                      buzzer) came since the card started → others HEX…
                                                           | timeout HEX…
  quit
After each insert, the first ATR request is reported as `atr <unix time>`
on stderr (pcscd noticed the tag: the detection floor for bench/nfc.sh).
"""
import argparse
import ctypes
import os
import signal
import socket
import struct
import sys
import threading
import time

# PC/SC part 3 contactless storage card, MIFARE Ultralight / NFC Type 2.
ATR = bytes.fromhex("3B8F8001804F0CA0000003060300030000000068")



def unblock_signals():
    """A parent may have spawned us with signals blocked (swift-corelibs-
    Foundation's Process passes the caller's mask on): SIGTERM must work,
    for us and for what we exec."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())


def die_with_parent():
    """PR_SET_PDEATHSIG: a crashed test run must not leave us behind."""
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)

class Card:
    def __init__(self, port):
        self.port = port
        self.uid = bytes.fromhex("04A2246A2F6E80")
        self.memory = bytes(64)
        self.sock = None
        self.thread = None
        self.atr_reported = False
        self.reads = 0
        self.polls = 0
        self.read_since_insert = threading.Event()
        self.others = []
        self.others_changed = threading.Condition()

    def answer(self, apdu):
        if apdu[:5] == b"\xFF\xCA\x00\x00\x00":
            self.reads += 1
            self.read_since_insert.set()
            return self.uid + b"\x90\x00"
        if len(apdu) == 5 and apdu[:3] == b"\xFF\xB0\x00" and apdu[4] == 0x10:
            start = apdu[3] * 4
            if start >= len(self.memory):
                return b"\x6A\x82"
            chunk = self.memory[start:start + 16]
            return chunk + bytes(16 - len(chunk)) + b"\x90\x00"
        with self.others_changed:
            self.others.append(apdu.hex().upper())
            self.others_changed.notify_all()
        # An ACR122U answers its LED and buzzer command with 90 and the LED state.
        if apdu[:3] == b"\xFF\x00\x40":
            return b"\x90\x00"
        return b"\x6D\x00"

    def serve(self, sock):
        def receive(n):
            data = b""
            while len(data) < n:
                part = sock.recv(n - len(data))
                if not part:
                    raise EOFError
                data += part
            return data
        try:
            while True:
                (length,) = struct.unpack(">H", receive(2))
                message = receive(length)
                if length == 1:
                    if message[0] == 4:
                        self.polls += 1
                        if not self.atr_reported:
                            self.atr_reported = True
                            print(f"atr {time.time():.6f}", file=sys.stderr, flush=True)
                        reply = ATR
                    else:
                        continue
                else:
                    reply = self.answer(message)
                sock.sendall(struct.pack(">H", len(reply)) + reply)
        except (EOFError, OSError):
            pass

    def insert(self):
        self.remove()
        self.atr_reported = False
        self.polls = 0
        self.read_since_insert.clear()
        deadline = time.monotonic() + 10
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", self.port))
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        inserted = time.time()
        self.sock = sock
        self.thread = threading.Thread(target=self.serve, args=(sock,), daemon=True)
        self.thread.start()
        return inserted

    def remove(self):
        if self.sock is not None:
            try:
                self.sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self.sock.close()
            self.thread.join(timeout=2)
            self.sock = None


def join_netns(path):
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_RDONLY)
    if libc.setns(fd, 0x40000000) != 0:  # CLONE_NEWNET
        sys.exit(f"setns {path}: {os.strerror(ctypes.get_errno())}")
    os.close(fd)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0x8C7B)
    parser.add_argument("--netns", help="/proc/PID/ns/net of the pcscd to join")
    args = parser.parse_args()
    unblock_signals()
    die_with_parent()
    if args.netns:
        join_netns(args.netns)
    card = Card(args.port)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "tag":
            card.uid = bytes.fromhex(words[1])
            card.memory = bytes.fromhex(words[2]) if len(words) > 2 else bytes(64)
            print("ok", flush=True)
        elif words[0] == "insert":
            print(f"inserted {card.insert():.6f}", flush=True)
        elif words[0] == "remove":
            card.remove()
            print(f"removed {time.time():.6f}", flush=True)
        elif words[0] == "waitread":
            seconds = float(words[1]) if len(words) > 1 else 20.0
            seen = card.read_since_insert.wait(seconds)
            print(f"read {card.reads}" if seen else "timeout", flush=True)
        elif words[0] == "reads":
            print(f"reads {card.reads}", flush=True)
        elif words[0] == "polls":
            print(f"polls {card.polls}", flush=True)
        elif words[0] == "others":
            count = int(words[1])
            seconds = float(words[2]) if len(words) > 2 else 20.0
            with card.others_changed:
                seen = card.others_changed.wait_for(lambda: len(card.others) >= count, seconds)
                print(("others " if seen else "timeout ") + " ".join(card.others), flush=True)
        elif words[0] == "quit":
            break
    card.remove()


if __name__ == "__main__":
    main()
