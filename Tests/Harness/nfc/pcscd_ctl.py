#!/usr/bin/python3
"""Start and stop a private `pcscd -f` with vsmartcard's vpcd reader, by PID.

No systemd on build machines, and a system pcscd may be running: each
instance gets its own mount namespace (its /run/pcscd is DIR/run, so clients
use PCSCLITE_CSOCK_NAME=DIR/run/pcscd.comm) and its own network namespace
(vpcd listens on 0.0.0.0:35963/35964 in Debian's build; inside the namespace
that is unreachable from anywhere else and never collides with another
instance). The virtual card joins that namespace (vcard.py --netns).

  pcscd_ctl.py start DIR   prints the PID once pcscd's socket exists
  pcscd_ctl.py stop DIR    SIGTERM by PID, SIGKILL after 5 s
  pcscd_ctl.py kill DIR    SIGKILL by PID (a crash, for restart tests)
"""
import fcntl
import os
import signal
import socket
import struct
import subprocess
import sys
import time

VPCD_DRIVER = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"
VPCD_PORT = 0x8C7B  # 35963: reader "Virtual PCD 00 00"; 35964 is "00 01"
# vpcd is one reader with two slots ("Virtual PCD 00 00" on 35963, "00 01"
# on 35964). A second vpcd entry in reader.conf does not make a second
# reader: the driver keeps one set of slots for the process, so both entries
# would show the card of whichever port was opened last.



def unblock_signals():
    """A parent may have spawned us with signals blocked (swift-corelibs-
    Foundation's Process passes the caller's mask on): SIGTERM must work,
    for us and for what we exec."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())


def loopback_up():
    """`ip link set lo up` without iproute2: SIOCSIFFLAGS on "lo"."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    ifreq = struct.pack("16sH14s", b"lo", 0, b"")
    flags = struct.unpack("16sH14s", fcntl.ioctl(sock, 0x8913, ifreq))[1]  # SIOCGIFFLAGS
    fcntl.ioctl(sock, 0x8914, struct.pack("16sH14s", b"lo", flags | 0x1, b""))  # SIOCSIFFLAGS, IFF_UP


def inner(directory):
    """Runs inside `unshare -m -n`: private /run/pcscd, loopback up, exec pcscd."""
    loopback_up()
    os.makedirs("/run/pcscd", exist_ok=True)
    subprocess.run(["mount", "--bind", os.path.join(directory, "run"), "/run/pcscd"], check=True)
    os.execv("/usr/sbin/pcscd", ["pcscd", "-f", "-c", os.path.join(directory, "conf")])


def start(directory, name="Virtual PCD"):
    """`name`: the reader's friendly name (pcscd adds the slot numbers), so
    vpcd can stand for a reader DeskDays knows by name (an ACS ACR122U)."""
    for sub in ("run", "conf"):
        os.makedirs(os.path.join(directory, sub), exist_ok=True)
    with open(os.path.join(directory, "conf", "vpcd"), "w") as conf:
        conf.write(f'FRIENDLYNAME "{name}"\n'
                   f"DEVICENAME   /dev/null:0x{VPCD_PORT:04X}\n"
                   f"LIBPATH      {VPCD_DRIVER}\n"
                   f"CHANNELID    0x{VPCD_PORT:04X}\n")
    comm = os.path.join(directory, "run", "pcscd.comm")
    if os.path.exists(comm):
        os.unlink(comm)
    log = open(os.path.join(directory, "pcscd.log"), "ab")
    process = subprocess.Popen(
        ["unshare", "--mount", "--net", "--propagation", "private",
         sys.executable, os.path.abspath(__file__), "inner", directory],
        stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
    with open(os.path.join(directory, "pcscd.pid"), "w") as pid_file:
        pid_file.write(f"{process.pid}\n")
    deadline = time.monotonic() + 10
    while not os.path.exists(comm):
        if process.poll() is not None or time.monotonic() > deadline:
            sys.exit(f"pcscd did not start (see {directory}/pcscd.log)")
        time.sleep(0.02)
    print(process.pid, flush=True)


def signal_pid(directory, sig, wait):
    path = os.path.join(directory, "pcscd.pid")
    try:
        pid = int(open(path).read())
    except (OSError, ValueError):
        return
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        os.unlink(path)
        return
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.02)
    else:
        os.kill(pid, signal.SIGKILL)
    os.unlink(path)


if __name__ == "__main__":
    unblock_signals()
    command, directory = sys.argv[1], os.path.abspath(sys.argv[2])
    if command == "inner":
        inner(directory)
    elif command == "start":
        start(directory, *sys.argv[3:4])
    elif command == "stop":
        signal_pid(directory, signal.SIGTERM, 5)
    elif command == "kill":
        signal_pid(directory, signal.SIGKILL, 5)
    else:
        sys.exit(__doc__)
