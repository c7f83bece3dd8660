#!/usr/bin/python3
"""The app as a user opens it, driven by its accessible names (AppWindowTests).

A private X server (Xvfb) and a private session bus whose service folder points D-Bus
activation at the built agent and at Debian's at-spi bus launcher; the app is started with
its desktop entry's Exec line, so nothing starts the agent by hand. The script then reads and
presses what a screen reader would (pyatspi), records with the real `deskdays`, takes
screenshots, and prints one JSON object of what it saw. Every wait has a guard bound
(DEADLINE), never a measurement.

usage: session.py FOLDER BIN_DIR DESKTOP_ENTRY SERVICE_FILE SHOTS_PREFIX [KEY=VALUE…]
  FOLDER holds xdg-config/deskdays/config.toml; KEY=VALUE is the app's environment
  (LANGUAGE, LANG, ADW_DEBUG_COLOR_SCHEME, DESKDAYS_LOCALEDIR); SHOTS_PREFIX "" takes none.
"""
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

DEADLINE = 60.0

folder, bin_dir, desktop, service, shots = sys.argv[1:6]
app_env = dict(arg.split("=", 1) for arg in sys.argv[6:])
seen = {"steps": []}


def step(text):
    seen["steps"].append(text)


def agent_pid():
    reply = subprocess.run(["gdbus", "call", "--address", env["DBUS_SESSION_BUS_ADDRESS"], "--dest", "org.freedesktop.DBus",
                            "--object-path", "/org/freedesktop/DBus", "--method",
                            "org.freedesktop.DBus.GetConnectionUnixProcessID", "io.github.deskdays.DeskDays1"],
                           capture_output=True, text=True, timeout=30).stdout
    return int(reply.strip().strip("(),").split()[-1])


def finish(code=0):
    print(json.dumps(seen, ensure_ascii=False))
    sys.stdout.flush()
    app.terminate()
    app.wait(timeout=DEADLINE)
    # The agent the bus started: stopped by its pid, as the bus reports it, and waited for.
    try:
        pid = agent_pid()
        os.kill(pid, 15)
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end and os.path.exists(f"/proc/{pid}") and "zombie" not in open(f"/proc/{pid}/status").read():
            time.sleep(0.1)
    except Exception as error:
        print(f"the agent was not stopped: {error!r}", file=sys.stderr)
    for process in reversed(started):
        try:
            process.terminate()
            process.wait(timeout=10)
        except Exception:
            process.kill()
    sys.exit(code)


started = []
env = dict(os.environ)
for key in ("LC_ALL", "LANGUAGE", "LANG", "DESKDAYS_NOW"):
    env.pop(key, None)
env.update({
    "HOME": folder, "XDG_CONFIG_HOME": folder + "/xdg-config", "XDG_DATA_HOME": folder + "/xdg-data",
    "XDG_CACHE_HOME": folder + "/xdg-cache", "XDG_RUNTIME_DIR": folder + "/run", "TZ": "UTC",
    "LC_ALL": "C", "DESKDAYS_NOW": app_env.pop("DESKDAYS_NOW", "2026-11-18T09:30:00Z"),
    "PATH": bin_dir + ":" + os.environ.get("PATH", "/usr/bin:/bin"), "NO_AT_BRIDGE": "0", "GTK_A11Y": "atspi",
    "GSETTINGS_BACKEND": "memory", "GDK_BACKEND": "x11",
})
os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700, exist_ok=True)

# The X server: -displayfd picks a free display and writes its number.
read_fd, write_fd = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1100x860x24", "-nolisten", "tcp"],
                        pass_fds=(write_fd,), stderr=subprocess.DEVNULL)
started.append(xvfb)
os.close(write_fd)
display = os.read(read_fd, 32).decode().strip()
env["DISPLAY"] = ":" + display

# The session bus: the agent's service file with Exec= at the built agent (as `make install` points it at the
# installed one), and the system's services (org.a11y.Bus, the accessibility bus).
services = folder + "/services"
os.makedirs(services, exist_ok=True)
lines = []
for line in open(service).read().splitlines():
    if line.startswith("Exec="):
        line = "Exec=" + bin_dir + "/deskdays-hardware agent"
    if line.startswith("SystemdService="):
        continue
    lines.append(line)
open(services + "/io.github.deskdays.DeskDays1.service", "w").write("\n".join(lines) + "\n")
conf = folder + "/session.conf"
open(conf, "w").write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={folder}/run/bus</listen>
  <servicedir>{services}</servicedir>
  <servicedir>/usr/share/dbus-1/services</servicedir>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_type="method_return"/>
    <allow send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="signal"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
  </policy>
</busconfig>
""")
bus = subprocess.Popen(["dbus-daemon", "--config-file=" + conf, "--nofork", "--print-address"], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
started.append(bus)
env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().strip()
os.environ.update({k: env[k] for k in ("DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "HOME")})

# The app, from the desktop entry's Exec line (field codes dropped), in the asked language and scheme.
exec_line = next(line[5:] for line in open(desktop).read().splitlines() if line.startswith("Exec="))
argv = [word for word in shlex.split(exec_line) if not word.startswith("%")]
app_environment = dict(env)
app_environment.update(app_env)
if "LANGUAGE" in app_env:
    app_environment.pop("LC_ALL", None)
app_log = open(folder + "/app.log", "w")
if app_env.get("SCENARIO") == "bench":
    # The agent running and its answer computed before the window starts (D-Bus activation, then a report).
    subprocess.run(["gdbus", "call", "--address", env["DBUS_SESSION_BUS_ADDRESS"], "--dest", "io.github.deskdays.DeskDays1",
                    "--object-path", "/io/github/deskdays/DeskDays1", "--method", "io.github.deskdays.DeskDays1.Report", ""],
                   env=env, capture_output=True, timeout=300)
app_started = time.monotonic()
app = subprocess.Popen(argv, env=app_environment, stdout=app_log, stderr=subprocess.STDOUT)
started.append(app)
step("started " + " ".join(argv))

import pyatspi  # noqa: E402  (after the buses are in the environment)


def walk(node, depth=0):
    if node is None or depth > 60:
        return
    yield node
    try:
        count = node.childCount
    except Exception:
        return
    for index in range(count):
        try:
            child = node.getChildAtIndex(index)
        except Exception:
            continue
        yield from walk(child, depth + 1)


def application():
    desktop_node = pyatspi.Registry.getDesktop(0)
    for index in range(desktop_node.childCount):
        node = desktop_node.getChildAtIndex(index)
        if node is not None and node.name in ("deskdays-app", "DeskDays"):
            return node
    return None


def wait(what, probe):
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        try:
            value = probe()
        except Exception:
            value = None
        if value:
            return value
        if app.poll() is not None:
            seen["error"] = f"the app ended ({app.returncode}) while waiting for {what}"
            finish(1)
        time.sleep(0.1)
    seen["error"] = "waited in vain for " + what
    finish(1)


def find(role, predicate):
    root = application()
    for node in walk(root):
        try:
            if node.getRoleName() == role and predicate(node.name or ""):
                return node
        except Exception:
            continue
    return None


def labels():
    return [node.name for node in walk(application()) if node.getRoleName() == "label" and node.name]


def press(name):
    button = wait(f"a button named {name!r}", lambda: find("push button", lambda n: n == name))
    action = button.queryAction()
    for index in range(action.nActions):
        if action.getName(index) in ("click", "activate", "press"):
            action.doAction(index)
            return
    action.doAction(0)


def cli(*arguments):
    result = subprocess.run([bin_dir + "/deskdays", *arguments], env=env, capture_output=True, text=True, timeout=120)
    return result.stdout + result.stderr


def screenshot(name):
    if not shots:
        return
    path = f"{shots}-{name}.png"
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    # The window alone (no window manager: it sits at the top left corner).
    subprocess.run(["import", "-window", "root", "-crop", "860x720+0+0", "+repage", path], env=env, check=False, timeout=60)
    seen.setdefault("screenshots", []).append(path)


def page(title):
    """Shows a page by its tab in the header bar's view switcher (role "page tab", named by the page's title)."""
    tab = wait(f"the page tab {title!r}", lambda: find("page tab", lambda n: n == title))
    try:
        action = tab.queryAction()
        action.doAction(0)
    except NotImplementedError:
        tab.parent.querySelection().selectChild(tab.getIndexInParent())
    wait(f"the page {title!r} shown", lambda: tab.getState().contains(pyatspi.STATE_SELECTED)
         or tab.getState().contains(pyatspi.STATE_CHECKED))
    time.sleep(0.5)  # the page's transition (250 ms) ends before the screenshot; not a wait for an outcome


wait("the app on the accessibility bus", application)
if app_env.get("SCENARIO") == "bench":
    # bench/app.sh: from the spawn to the first frame painted with the period line (the app prints
    # its CLOCK_MONOTONIC then, with DESKDAYS_APP_FIRST_FRAME), then the floor (a bare
    # AdwApplicationWindow with one label, FLOOR) to its first frame; each one's resident memory,
    # and its context switches over 10 s idle (its wake-ups).
    def first_frame(who):
        return next((float(line.split()[2]) for line in open(folder + "/app.log") if line.startswith("first-frame " + who)), None)
    seen["app_ms"] = round((wait("the app's first frame", lambda: first_frame("app")) - app_started) * 1000)

    def status_of(pid, field):
        return int(next(l.split()[1] for l in open(f"/proc/{pid}/status") if l.startswith(field + ":")))

    def switches(pid):
        return status_of(pid, "voluntary_ctxt_switches") + status_of(pid, "nonvoluntary_ctxt_switches")

    floor_started = time.monotonic()
    floor = subprocess.Popen([app_env["FLOOR"]], env=app_environment, stdout=app_log, stderr=subprocess.STDOUT)
    started.append(floor)

    def floor_label():
        desktop_node = pyatspi.Registry.getDesktop(0)
        for index in range(desktop_node.childCount):
            node = desktop_node.getChildAtIndex(index)
            if node is not None and node.name not in ("deskdays-app", "DeskDays"):
                if any(n.name == "DeskDays floor" for n in walk(node)):
                    return True
        return None
    wait("the floor's label", floor_label)
    seen["floor_ms"] = round((wait("the floor's first frame", lambda: first_frame("floor")) - floor_started) * 1000)
    # The system calls each one's threads make while idle (strace, attached first): a thread that
    # wakes makes one at least. Context switches are counted too, though attaching causes a few.
    # First 20 s to settle: threads of the start (GLib's and libdispatch's pools) end on their own timers.
    time.sleep(20)  # a settling span, not a wait for an outcome
    tracers = [subprocess.Popen(["strace", "-f", "-qq", "-o", f"{folder}/{who}.strace", "-p", str(pid)], stderr=subprocess.DEVNULL)
               for who, pid in (("app", app.pid), ("floor", floor.pid))] if shutil.which("strace") else []
    before = (switches(app.pid), switches(floor.pid))
    time.sleep(10)  # the idle span the wake-ups are counted over, not a wait for an outcome
    seen["app_switches"], seen["floor_switches"] = switches(app.pid) - before[0], switches(floor.pid) - before[1]
    for tracer in tracers:
        tracer.send_signal(signal.SIGINT)
        tracer.wait()

    def calls(who):
        # Lines of calls made after attaching (not the ones already waiting, resumed or ended).
        lines = open(f"{folder}/{who}.strace").read().splitlines()
        return [l for l in lines if not any(k in l for k in ("restart_syscall", "resumed>", "<unfinished", "<detached", "+++", "---"))]
    seen["app_wakeups"], seen["floor_wakeups"] = (len(calls("app")), len(calls("floor"))) if tracers else (None, None)
    seen["app_calls"] = calls("app")[:5] if tracers else []
    seen["app_rss_kb"], seen["floor_rss_kb"] = status_of(app.pid, "VmRSS"), status_of(floor.pid, "VmRSS")
    finish(0)

week_prefix = app_env.get("WEEK_PREFIX", "This week:")
if app_env.get("SCENARIO") != "firstrun":  # the defaults' rule (a share of a quarter) has no week figure
    seen["week"] = wait("the week figure", lambda: next((l for l in labels() if l.startswith(week_prefix)), None))
    seen["period"] = wait("the period line", lambda: next((l for l in labels() if ":" in l and l != seen["week"]
                                                           and any(c.isdigit() or "\u0660" <= c <= "\u0669" for c in l)
                                                           and ("—" in l)), None))
seen["labels"] = labels()
seen["check_in_button"] = find("push button", lambda n: n == app_env.get("CHECK_IN", "Check in")) is not None
# Where the first and the last of today's buttons are (mirrored in a right-to-left language).
check_in = find("push button", lambda n: n == app_env.get("CHECK_IN", "Check in"))
if check_in is not None:
    row = check_in.parent
    first, last = row.getChildAtIndex(0), row.getChildAtIndex(row.childCount - 1)
    seen["buttons_x"] = {"first": first.queryComponent().getExtents(pyatspi.WINDOW_COORDS).x,
                         "last": last.queryComponent().getExtents(pyatspi.WINDOW_COORDS).x}
# The window's background as drawn, below the cards (the style: light or dark).
time.sleep(0.5)  # the first frames' transitions end before the pixel is read; not a wait for an outcome
pixel = subprocess.run(["import", "-window", "root", "-crop", "1x1+430+680", "+repage", "txt:-"], env=env,
                       capture_output=True, text=True, timeout=60).stdout
seen["background"] = pixel.strip().splitlines()[-1] if pixel.strip() else ""

if app_env.get("SCENARIO", "full") == "full":
    before = seen["week"]
    press(app_env.get("CHECK_IN", "Check in"))
    seen["after_check_in"] = wait("the week figure to change after Check in",
                                  lambda: next((l for l in labels() if l.startswith(week_prefix) and l != before), None))
    seen["days_after_check_in"] = cli("days", "--json", "--from", "2026-11-18", "--to", "2026-11-18")
    # Another process's write, on a date of this week: the figure follows.
    seen["other_write"] = cli("checkin", "--date", "2026-11-16", "--status", "office")
    seen["after_other_write"] = wait("the week figure to follow another process's write",
                                     lambda: next((l for l in labels() if l.startswith(week_prefix)
                                                   and l != seen["after_check_in"]), None))
    seen["today_title"] = labels()[:3]

if app_env.get("SCENARIO") == "restart":
    # The agent stops: the banner says so; its button starts the agent again (D-Bus activation) and the figures return.
    banner_text = app_env.get("BANNER", "The DeskDays agent is not running")
    pid = agent_pid()
    os.kill(pid, 15)
    showing = lambda: next((node for node in walk(application()) if node.getRoleName() == "label"
                            and (node.name or "").startswith(banner_text)), None)
    seen["banner"] = wait("the banner saying the agent stopped", showing).name
    screenshot("banner")
    press(app_env.get("START", "Start the agent"))
    wait("the banner to go once the agent is back", lambda: showing() is None)
    seen["restarted"] = agent_pid() != pid
    seen["week_after_restart"] = wait("the week figure after the restart",
                                      lambda: next((l for l in labels() if l.startswith(week_prefix)), None))

if app_env.get("SCENARIO") == "plan":
    # The Plan page: the planner's days by accessible name, a preferred weekday, Avoid, then
    # "Add to my plans"; the database then holds them as plans. Insights: the reports' charts.
    page("Plan")
    add = wait("the button 'Add to my plans'", lambda: find("push button", lambda n: n == "Add to my plans"))
    plan_rows = lambda: sorted(n.name for n in walk(application()) if n.getRoleName() == "push button" and (n.name or "").startswith("Avoid "))
    seen["plan_days"] = wait("the plan's days", plan_rows)
    weekdays = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
    seen["toggles"] = [n.name for n in walk(application()) if n.getRoleName() in ("toggle button", "push button") and n.name in weekdays]
    seen["toggle_roles"] = sorted({n.getRoleName() + ":" + (n.name or "") for n in walk(application()) if "toggle" in n.getRoleName() or (n.name or "").startswith(("Mo", "Tu"))})
    first = seen["plan_days"][0]
    press(first)
    seen["after_avoid"] = wait("the plan without the avoided day", lambda: (lambda rows: rows if rows and first not in rows else None)(plan_rows()))
    seen["avoided_line"] = wait("the line naming the avoided day", lambda: next((l for l in labels() if l.startswith("Not planned:")), None))
    screenshot("plan")
    press("Add to my plans")
    seen["added"] = wait("the toast saying what was added", lambda: next((l for l in labels() if l.startswith("Added ")), None))
    seen["plan_after"] = cli("plan", "--json")
    page("Insights")
    charts = lambda: sorted(n.name for n in walk(application()) if n.getRoleName() in ("image", "picture", "graphic") and n.name)
    seen["charts"] = wait("the two charts", lambda: (lambda names: names if len(names) >= 2 else None)(charts()))
    seen["milestones"] = wait("the milestones line", lambda: next((l for l in labels() if "milestone" in l.lower()), None))
    screenshot("insights")

if app_env.get("SCENARIO") == "firstrun":
    # No configuration yet: the window greets and opens the rule's questions.
    seen["welcome"] = wait("the welcome", lambda: next((l for l in labels() if l == "Welcome to DeskDays"), None))
    screenshot("welcome")
    press("Set up the rule")

if app_env.get("SCENARIO") in ("preferences", "firstrun"):
    # Preferences, opened through the application's exported action (as the main menu does): the
    # rule's pro-rata switch, turned on by its accessible name, reaches config.toml with its comment kept.
    opened = None if app_env.get("SCENARIO") == "firstrun" else subprocess.run(["gdbus", "call", "--address", env["DBUS_SESSION_BUS_ADDRESS"], "--dest", "io.github.deskdays.DeskDays",
                             "--object-path", "/io/github/deskdays/DeskDays", "--method", "org.gtk.Actions.Activate",
                             "preferences", "[]", "{}"], env=env, capture_output=True, text=True, timeout=60)
    if opened is not None:
        step(f"preferences action: {opened.returncode} {opened.stdout.strip()} {opened.stderr.strip()}")
    name = "Holidays, leave and sick days reduce the days you owe"
    switch = wait(f"a switch named {name!r}", lambda: next((n for n in walk(application())
                                                           if n.name == name and n.getRoleName() in ("switch", "toggle button", "check box")), None))
    seen["switch_role"] = switch.getRoleName()
    seen["rows"] = sorted({n.name for n in walk(application()) if n.getRoleName() in ("switch", "toggle button", "check box") and n.name})
    action = switch.queryAction()
    action.doAction(0)
    config_path = os.path.join(folder, "xdg-config/deskdays/config.toml")
    seen["config_after"] = wait("config.toml to say pro-rata",
                                lambda: (lambda text: text if "pro-rata" in text else None)(open(config_path).read() if os.path.exists(config_path) else ""))
    seen["toast"] = wait("the toast saying what was saved", lambda: next((l for l in labels() if l.startswith("Saved: ")), None))
    screenshot("preferences")
    if app_env.get("SCENARIO") == "preferences":
        # Learn, in the QR code's row: the agent runs `enroll qr`; its answer (LEARNED: the CLI's own, such as
        # "No camera at /dev/video0: …") comes back as a toast.
        def in_row(node, title):
            parent = node.parent
            for _ in range(4):
                if parent is None:
                    return False
                if parent.name == title:
                    return True
                parent = parent.parent
            return False
        qr = "QR code in front of the camera"
        # The row says what this machine has for it (setup's detection): a camera, or none.
        cameras = sorted(d for d in os.listdir("/dev") if d.startswith("video"))
        found = f"On this machine: camera /dev/{cameras[0]}." if cameras else "Nothing for it on this machine yet."
        seen["qr_found"] = wait(f"the QR row's subtitle {found!r}", lambda: next((l for l in labels() if l == found), None))
        learn = wait("the Learn button of the QR row", lambda: next((n for n in walk(application()) if n.getRoleName() == "push button"
                                                                     and n.name == "Learn" and in_row(n, qr)), None))
        learn.queryAction().doAction(0)
        expected = app_env.get("LEARNED", "")
        seen["learned"] = wait(f"the toast with enroll's answer, {expected!r}", lambda: next((l for l in labels() if l == expected), None))

screenshot("today")
for title in app_env.get("PAGES", "").split(","):
    if title:
        page(title)
        screenshot(title.lower())
finish(0)
