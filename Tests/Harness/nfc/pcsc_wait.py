#!/usr/bin/python3
"""Waits, through the real libpcsclite, until pcscd reports a reader's slot
empty or holding a card: the event a test waits for between a card's
removal and its next insertion (pcscd polls vpcd about every 400 ms, so a
card put back sooner would look as if it never left).

  pcsc_wait.py READER empty|present [SECONDS]   prints the state reached, or
                                                 "timeout" (exit 1)
Uses PCSCLITE_CSOCK_NAME like every client.
"""
import ctypes
import sys
import time

SCARD_STATE_CHANGED = 0x0002
SCARD_STATE_EMPTY = 0x0010
SCARD_STATE_PRESENT = 0x0020
SCARD_E_TIMEOUT = 0x8010000A


class ReaderState(ctypes.Structure):
    # pcsc-lite on Linux: DWORD is unsigned long.
    _fields_ = [("szReader", ctypes.c_char_p), ("pvUserData", ctypes.c_void_p),
                ("dwCurrentState", ctypes.c_ulong), ("dwEventState", ctypes.c_ulong),
                ("cbAtr", ctypes.c_ulong), ("rgbAtr", ctypes.c_ubyte * 33)]


def main():
    reader, wanted = sys.argv[1].encode(), sys.argv[2]
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 20.0
    mask = SCARD_STATE_EMPTY if wanted == "empty" else SCARD_STATE_PRESENT
    lib = ctypes.CDLL("libpcsclite.so.1")
    context = ctypes.c_long(0)
    if lib.SCardEstablishContext(2, None, None, ctypes.byref(context)) & 0xFFFFFFFF:
        sys.exit("pcscd does not answer")
    state = ReaderState(reader, None, 0, 0, 0)
    deadline = time.monotonic() + seconds
    while True:
        left = int((deadline - time.monotonic()) * 1000)
        if left <= 0:
            print("timeout", flush=True)
            sys.exit(1)
        code = lib.SCardGetStatusChange(context, ctypes.c_ulong(left), ctypes.byref(state), 1) & 0xFFFFFFFF
        if code not in (0, SCARD_E_TIMEOUT):
            sys.exit(f"SCardGetStatusChange: 0x{code:08X}")
        if state.dwEventState & mask:
            print(wanted, flush=True)
            return
        state.dwCurrentState = state.dwEventState & ~SCARD_STATE_CHANGED


if __name__ == "__main__":
    main()
