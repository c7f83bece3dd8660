#!/usr/bin/python3
"""A PN532 on a pseudo-terminal, for libnfc's pn532_uart driver.

  pn532_emulator.py LINK TAGFILE

Creates a pty, links LINK to its slave side (libnfc opens
`pn532_uart:LINK`), prints `ready` and answers host frames until killed.
A tag is in the field while TAGFILE exists; it holds `UIDHEX MEMHEX`
(Type 2 memory from page 0). Tests present a tag by writing the file
(atomically, by rename) and remove it by deleting it. Each READ of page 0
(libnfc's presence check of a Type 2 tag) while a tag is in the field
counts in the file `checks` beside TAGFILE, so a test can wait for the
host to have checked a resting tag several times.

Frames: host `00 00 FF LEN LCS D4 CMD … DCS 00` (the `55 55 00 …` wake-up
preamble and host ACKs are skipped); we answer the ACK `00 00 FF 00 FF 00`
then `00 00 FF LEN LCS D5 CMD+1 … DCS 00`. A host ACK while a command
waits for a tag aborts it (libnfc's nfc_abort_command).
"""
import ctypes
import os
import signal
import select
import sys
import time
import tty

ACK = bytes.fromhex("0000ff00ff00")
SENS_RES = b"\x00\x44"  # ATQA of an NTAG / Ultralight
SEL_RES = b"\x00"       # SAK: Type 2



def unblock_signals():
    """A parent may have spawned us with signals blocked (swift-corelibs-
    Foundation's Process passes the caller's mask on): SIGTERM must work,
    for us and for what we exec."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())


def die_with_parent():
    """PR_SET_PDEATHSIG: a crashed test run must not leave us behind."""
    ctypes.CDLL(None).prctl(1, signal.SIGTERM)

class Emulator:
    def __init__(self, tag_file):
        self.tag_file = tag_file
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.buffer = b""
        self.registers = {}
        self.checks = 0

    def tag(self):
        """(uid, memory) when a tag is in the field, else None."""
        try:
            words = open(self.tag_file).read().split()
        except OSError:
            return None
        if not words:
            return None
        memory = bytes.fromhex(words[1]) if len(words) > 1 else bytes(64)
        return bytes.fromhex(words[0]), memory

    # MARK: - Framing

    def read_more(self, timeout=None):
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.master, 4096)
        except OSError:
            data = b""
        if not data:
            time.sleep(0.01)  # nobody has the slave open yet
            return False
        self.buffer += data
        return True

    def next_frame(self, timeout=None):
        """The next command frame's payload (TFI onward), or "ack", or None on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            start = self.buffer.find(b"\x00\xff")
            if start >= 0 and len(self.buffer) >= start + 4:
                length, checksum = self.buffer[start + 2], self.buffer[start + 3]
                if length == 0 and checksum == 0xFF:
                    self.buffer = self.buffer[start + 4:]
                    return "ack"
                if (length + checksum) & 0xFF != 0:
                    self.buffer = self.buffer[start + 2:]
                    continue
                end = start + 4 + length + 1
                if len(self.buffer) >= end:
                    payload = self.buffer[start + 4:start + 4 + length]
                    self.buffer = self.buffer[end:]
                    if (sum(payload) + self.buffer_dcs(payload)) & 0xFF == 0:
                        return payload
                    continue
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            if remaining == 0.0:
                return None
            self.read_more(remaining)

    @staticmethod
    def buffer_dcs(payload):
        return (-sum(payload)) & 0xFF

    def send(self, command, data=b""):
        payload = bytes([0xD5, command + 1]) + data
        frame = (b"\x00\x00\xff" + bytes([len(payload), (-len(payload)) & 0xFF]) + payload
                 + bytes([(-sum(payload)) & 0xFF, 0x00]))
        os.write(self.master, ACK + frame)

    # MARK: - Commands

    def target_data(self, uid):
        return bytes([0x01]) + SENS_RES + SEL_RES + bytes([len(uid)]) + uid

    def wait_for_tag(self, seconds):
        """A real PN532 keeps polling; so do we, until a tag, a host ACK (abort) or the time."""
        deadline = time.monotonic() + seconds
        while True:
            tag = self.tag()
            if tag or time.monotonic() >= deadline:
                return tag
            if b"\x00\x00\xff\x00\xff\x00" in self.buffer or self.read_more(0.02):
                if ACK in self.buffer:
                    self.buffer = self.buffer.replace(ACK, b"", 1)
                    return "aborted"

    def handle(self, command, data):
        if command == 0x00:  # Diagnose: echo the communication line test
            self.send(command, data)
        elif command == 0x02:  # GetFirmwareVersion: PN532 v1.6, all protocols
            self.send(command, b"\x32\x01\x06\x07")
        elif command == 0x06:  # ReadRegister: 2 address bytes each
            values = bytes(self.registers.get(data[i:i + 2], 0) for i in range(0, len(data), 2))
            self.send(command, values)
        elif command == 0x08:  # WriteRegister: 2 address bytes + value each
            for i in range(0, len(data) - 2, 3):
                self.registers[data[i:i + 2]] = data[i + 2]
            self.send(command)
        elif command in (0x12, 0x14, 0x32):  # SetParameters, SAMConfiguration, RFConfiguration
            self.send(command)
        elif command == 0x16:  # PowerDown
            self.send(command, b"\x00")
        elif command == 0x4A:  # InListPassiveTarget(MaxTg, BrTy=0 for 106 kbps type A)
            self.mark_polling()
            tag = self.tag() if len(data) >= 2 and data[1] == 0x00 else None
            self.send(command, b"\x01" + self.target_data(tag[0]) if tag else b"\x00")
        elif command == 0x60:  # InAutoPoll(PollNr, Period, Type…)
            self.mark_polling()
            poll_nr, period = data[0], data[1]
            seconds = 3.0 if poll_nr == 0xFF else min(3.0, poll_nr * period * 0.15)
            tag = self.wait_for_tag(seconds)
            if tag == "aborted":
                return
            if tag:
                target = self.target_data(tag[0])
                kind = data[2] if len(data) > 2 else 0x10
                self.send(command, bytes([1, kind, len(target)]) + target)
            else:
                self.send(command, b"\x00")
        elif command in (0x40, 0x42):  # InDataExchange(Tg, …) / InCommunicateThru(…)
            body = data[1:] if command == 0x40 else data
            tag = self.tag()
            if tag and len(body) == 2 and body[0] == 0x30:  # Type 2 READ: 4 pages
                if body[1] == 0:
                    self.count_check()
                memory, start = tag[1], body[1] * 4
                chunk = (memory[start:start + 16] if start < len(memory) else b"")
                self.send(command, b"\x00" + chunk + bytes(16 - len(chunk)))
            else:
                self.send(command, b"\x01")  # status: timeout, no answer from a tag
        elif command in (0x44, 0x52):  # InDeselect, InRelease
            self.send(command, b"\x00")
        else:  # syntax error frame
            os.write(self.master, ACK + bytes.fromhex("0000ff01ff7f8100"))

    def count_check(self):
        """One more presence check of a tag in the field, in the file `checks` (by rename)."""
        self.checks += 1
        path = os.path.join(os.path.dirname(self.tag_file), "checks")
        with open(path + ".tmp", "w") as file:
            file.write(str(self.checks))
        os.rename(path + ".tmp", path)

    def mark_polling(self):
        """Tells the test the host is polling for targets: a tap presented
        before that (while libnfc still opens the device) could be missed."""
        marker = os.path.join(os.path.dirname(self.tag_file), "polling")
        if not os.path.exists(marker):
            open(marker, "w").close()

    def run(self):
        while True:
            frame = self.next_frame()
            if frame == "ack" or frame is None or len(frame) < 2 or frame[0] != 0xD4:
                continue
            self.handle(frame[1], frame[2:])


def main():
    link, tag_file = sys.argv[1], sys.argv[2]
    unblock_signals()
    die_with_parent()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # run the finally: remove the link
    emulator = Emulator(tag_file)
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.ttyname(emulator.slave), link)
    print("ready", flush=True)
    try:
        emulator.run()
    finally:
        if os.path.islink(link):
            os.unlink(link)


if __name__ == "__main__":
    main()
