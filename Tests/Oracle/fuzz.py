#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Differential test of `deskdays report --json` against oracle.py.

What it is: a generator of random, seeded cases (a configuration, a today,
a history of manual check-ins and ranges, import files and automatic
events around midnights and DST changes). Each case gets a scratch HOME and
XDG_* folders; its history goes in through the real CLI (`import`, `event`,
`checkin`), then `report --json` for the current, the previous and one other
period is compared key by key with oracle.py, an implementation of docs/policy.md
written from that document alone (not from the Swift sources).

Run by hand, from the package root:
    swift build
    DESKDAYS_BIN=$PWD/.build/debug/deskdays python3 Tests/Oracle/fuzz.py 200 7 2
Arguments: CASES SEED JOBS (number of cases, the first case's seed, parallel
cases). The same arguments always give the same cases. It prints one summary
line and, on a mismatch, each disagreeing case (configuration, today, the
keys with expected and actual values, how to reproduce it) and exits 1; it
exits 0 when every report agrees and 2 on a usage error. Scratch folders go
under one temporary folder, removed at the end, kept (and named) on failure.
Tests/CLITests/PolicyOracleTests.swift runs it in `make test`.

Licence: Apache-2.0, as the rest of DeskDays (see LICENSE at the package root).
"""
from __future__ import annotations

import datetime as dt
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from zoneinfo import ZoneInfo

# `make test` runs this inside the source tree: leave no __pycache__ there.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

TZS = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Pacific/Auckland"]
STATUSES = ["office", "travel", "remote", "sick", "vacation", "leave"]
KINDS = ["percent", "days_per_week", "days_per_period", "compliant_weeks", "best_weeks"]
WD_SETS = [
    ["mon", "tue", "wed", "thu", "fri"],
    ["sun", "mon", "tue", "wed", "thu"],
    ["mon", "tue", "wed", "thu"],
    ["tue", "wed", "thu", "fri", "sat"],
    ["mon", "wed", "fri"],
]
# Longest a single CLI command may take before the case counts as failed.
COMMAND_TIMEOUT = 120
# Most disagreeing cases printed in full.
MAX_SHOWN = 15


# ------------------------------------------------------------ generation
def gen_case(rng: random.Random):
    """(cfg, history, today, other period date) for one seed; depends on rng only."""
    cfg = {}
    cfg["timezone"] = rng.choice(TZS)
    # The system zone (TZ) of the case; with _omit_tz the file names no zone.
    cfg["_systz"] = rng.choice(TZS + ["Australia/Lord_Howe", "America/Sao_Paulo"])
    cfg["_omit_tz"] = rng.random() < 0.25
    if cfg["_omit_tz"]:
        cfg["timezone"] = cfg["_systz"]
    if rng.random() < 0.7:
        cfg["workdays"] = rng.choice(WD_SETS)
    else:
        k = rng.randint(1, 7)
        cfg["workdays"] = sorted(rng.sample(oracle.DAYS, k), key=oracle.DAYS.index)
    cfg["week_start"] = rng.choice(["mon"] * 4 + oracle.DAYS)
    cfg["period"] = rng.choice(["week", "month", "quarter", "year", "rolling"])
    cfg["fiscal_year_start_month"] = rng.choice([1, 1, 4, 7, 10, rng.randint(1, 12)])
    cfg["rolling_weeks"] = rng.choice([12, 4, 1, 2, 8, 13, rng.randint(1, 26)])
    cfg["count_non_workdays"] = rng.random() < 0.4
    kind = rng.choice(KINDS)
    t = {"kind": kind, "reduce": rng.choice(["cap", "pro-rata"])}
    if kind == "percent":
        t["value"] = rng.choice(["60", "62.5", "40", "50", "33.33", "100", "0.5", "75.25", str(rng.randint(1, 100))])
    elif kind in ("days_per_week", "compliant_weeks"):
        t["value"] = rng.choice(["2", "3", "2.5", "1", "4", "0.5", "1.75", "5"])
        if kind == "compliant_weeks":
            # Up to about the number of weeks in the period, so that every
            # status turns up, not mostly `impossible`.
            most = {"week": 1, "month": 5, "quarter": 14, "year": 53, "rolling": cfg["rolling_weeks"]}[cfg["period"]]
            t["weeks"] = rng.randint(1, most)
    elif kind == "days_per_period":
        t["value"] = rng.choice(["10", "8", "12.5", "20", "3", "30", str(rng.randint(1, 60))])
    else:
        t["window"] = rng.choice([12, 4, 6, rng.randint(1, 13)])
        t["best"] = rng.randint(1, t["window"])
        t["value"] = str(rng.randint(1, 3 * t["best"]))
    if rng.random() < 0.35:  # arbitrary decimals with one or two places
        hi = {"percent": 100, "days_per_week": 5, "compliant_weeks": 5, "days_per_period": 40}.get(kind)
        if hi:
            t["value"] = f"{rng.uniform(0.1, hi):.{rng.choice([1, 2])}f}".rstrip("0").rstrip(".")
    cfg["target"] = t
    counts = {}
    for s in ["travel", "sick", "vacation", "leave"]:
        if rng.random() < 0.3:
            counts[s] = rng.choice(["office", "remote", "excused"])
    cfg["counts"] = counts
    today = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randint(0, 1000))
    hol = set()
    for _ in range(rng.choice([0, 0, 1, 2, 4, 6])):
        hol.add(today + dt.timedelta(days=rng.randint(-60, 40)))
    cfg["holidays"] = sorted(h.isoformat() for h in hol)

    def rdate(spread=70, fut=20):
        return today + dt.timedelta(days=rng.randint(-spread, fut))

    manual = []
    for _ in range(rng.randint(0, 9)):
        d = rdate()
        manual.append((d.isoformat(), rng.choice(STATUSES)))
        if rng.random() < 0.2:  # second manual record same date
            manual.append((d.isoformat(), rng.choice(STATUSES)))
    if rng.random() < 0.25 and manual:
        manual.append((today.isoformat(), rng.choice(STATUSES)))
    rows = []
    for _ in range(rng.randint(0, 40)):
        d = rdate(120, 25)
        rows.append((d.isoformat(), rng.choice(STATUSES)))
        if rng.random() < 0.1:  # a date twice in one file: its last row counts
            rows.append((d.isoformat(), rng.choice(STATUSES)))
    if rng.random() < 0.6:  # dense history: most days recorded, office-biased
        pof = rng.choice([0.3, 0.5, 0.7, 0.9])
        fill = rng.choice([0.5, 0.8, 0.95])
        for k in range(-130, 15):
            if rng.random() < fill:
                s = "office" if rng.random() < pof else rng.choice(STATUSES)
                rows.append(((today + dt.timedelta(days=k)).isoformat(), s))
    for d, _ in manual[:2]:  # imports also on manual dates
        if rng.random() < 0.5:
            rows.append((d, rng.choice(STATUSES)))
    # Two import files (the later one wins on shared dates); sometimes the
    # first again (office -> sick -> office must end on office), sometimes
    # the last again (changes nothing), sometimes one written on an earlier
    # day (`--today`), which is then not the latest.
    imports = []
    if rows:
        cut = len(rows) // 2
        for part in (rows[:cut], rows[cut:]):
            if part:
                imports.append({"rows": part, "written": 0})
        if rng.random() < 0.3:
            imports.append({"rows": imports[0]["rows"], "written": 0})
        if rng.random() < 0.15:
            imports.append({"rows": imports[-1]["rows"], "written": 0})
        for f in imports:
            if rng.random() < 0.15:
                f["written"] = -rng.choice([1, 2, 5])
    tz = ZoneInfo(cfg["timezone"])
    events = []
    for _ in range(rng.randint(0, 7)):
        d = rdate(70, 0)
        if rng.random() < 0.5:  # near local midnight
            local = dt.datetime.combine(d, dt.time(0, 0), tz) + dt.timedelta(minutes=rng.choice([-30, -5, -1, 0, 1, 5, 30]))
        else:
            local = dt.datetime.combine(d, dt.time(rng.randint(0, 23), rng.randint(0, 59)), tz)
        u = local.astimezone(dt.timezone.utc)
        events.append(u.strftime("%Y-%m-%dT%H:%M:%SZ"))
    if rng.random() < 0.3:  # events around the DST transitions of the zone
        for k in range(-75, 5):
            d = today + dt.timedelta(days=k)
            a = dt.datetime.combine(d, dt.time(12), tz).utcoffset()
            b = dt.datetime.combine(d + dt.timedelta(days=1), dt.time(12), tz).utcoffset()
            if a != b:
                for dd in (d, d + dt.timedelta(days=1), d + dt.timedelta(days=2)):
                    for mins in rng.sample([-61, -59, -1, 1, 59, 61, 119, 121], 2):
                        u = dt.datetime.combine(dd, dt.time(0), tz).astimezone(dt.timezone.utc) + dt.timedelta(minutes=mins)
                        events.append(u.strftime("%Y-%m-%dT%H:%M:%SZ"))
    if rng.random() < 0.3:  # an event on today, late in the local day, or in the future
        for d in [today, today + dt.timedelta(days=rng.randint(1, 10))]:
            local = dt.datetime.combine(d, dt.time(rng.choice([13, 18, 23]), 59), tz)
            events.append(local.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
    # Manual operations in order: single check-ins and ranges (--from/--to),
    # each written on today or a few days before.
    ops = [("one", x, s, -rng.choice([0, 0, 0, 1, 2, 5])) for x, s in manual]
    for _ in range(rng.choice([0, 0, 1, 2])):
        a = rdate(60, 15)
        ops.insert(rng.randint(0, len(ops)), ("range", a.isoformat(), (a + dt.timedelta(days=rng.randint(0, 9))).isoformat(), rng.choice(STATUSES), -rng.choice([0, 0, 1, 3])))
    res = oracle.Resolver(oracle.defaults(cfg), {})
    manual, written = [], []
    for op in ops:
        if op[0] == "one":
            manual.append((op[1], op[2]))
            written.append(op[3])
        else:  # a range records its workdays only
            for x in oracle.dates(oracle.D(op[1]), oracle.D(op[2])):
                if res.is_workday(x):
                    manual.append((x.isoformat(), op[3]))
                    written.append(op[4])
    srcs = [rng.choice(["nfc", "qr", "wifi", "gps", "external"]) for _ in events]
    for k, at in enumerate(events):  # some event times with a non-UTC offset
        if rng.random() < 0.3:
            off = dt.timezone(dt.timedelta(minutes=rng.choice([-600, -300, 60, 330, 345, 780])))
            events[k] = dt.datetime.fromisoformat(at.replace("Z", "+00:00")).astimezone(off).isoformat()
    hist = {"manual": manual, "manual_written": written, "imports": imports, "events": events,
            "ops": ops, "sources": srcs}
    other = (today + dt.timedelta(days=rng.randint(-400, 200))).isoformat()
    # docs/policy.md "The day's start" and "Time on site", drawn last so that
    # every earlier draw of a seed stays as it was. No zone of TZS changes
    # its clocks at these times of day.
    cfg["day_starts_at"] = rng.choice(["00:00"] * 4 + ["04:00", "06:15", "11:59"])
    cfg["min_hours"] = rng.choice([0] * 4 + [1, 4, 7.5])
    leaves = []
    for at, src in zip(events, srcs):
        if src in ("wifi", "gps", "external") and rng.random() < 0.5:
            t = dt.datetime.fromisoformat(at.replace("Z", "+00:00")) + dt.timedelta(minutes=rng.randint(1, 900))
            leaves.append(t.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
        else:
            leaves.append(None)
    hist["leaves"] = leaves
    return cfg, hist, today.isoformat(), other


def toml(cfg):
    L = ["[policy]"] + ([] if cfg.get("_omit_tz") else [f'timezone = "{cfg["timezone"]}"']) + [
         "workdays = [" + ", ".join(f'"{d}"' for d in cfg["workdays"]) + "]",
         f'week_start = "{cfg["week_start"]}"', f'period = "{cfg["period"]}"',
         f'fiscal_year_start_month = {cfg["fiscal_year_start_month"]}',
         f'rolling_weeks = {cfg["rolling_weeks"]}',
         f'count_non_workdays = {"true" if cfg["count_non_workdays"] else "false"}',
         f'day_starts_at = "{cfg.get("day_starts_at", "00:00")}"', f'min_hours = {cfg.get("min_hours", 0)}', "",
         "[policy.target]"]
    t = cfg["target"]
    L.append(f'kind = "{t["kind"]}"')
    L.append(f'value = {t["value"]}')
    L.append(f'reduce = "{t["reduce"]}"')
    for k in ("weeks", "best", "window"):
        if k in t:
            L.append(f"{k} = {t[k]}")
    L += ["", "[policy.counts]"]
    for k, v in cfg["counts"].items():
        L.append(f'{k} = "{v}"')
    for h in cfg["holidays"]:
        L += ["", "[[holidays]]", f'date = "{h}"', 'name = "H"']
    return "\n".join(L) + "\n"


def config_line(cfg):
    """The configuration on one line, for a mismatch message."""
    t = cfg["target"]
    target = " ".join(f"{k}={t[k]}" for k in ("kind", "value", "reduce", "weeks", "best", "window") if k in t)
    zone = f"timezone={cfg['timezone']}" + (" (system zone, not in the file)" if cfg["_omit_tz"] else "")
    return (f"{zone}; workdays={','.join(cfg['workdays'])}; week_start={cfg['week_start']}; "
            f"period={cfg['period']}; fiscal_year_start_month={cfg['fiscal_year_start_month']}; "
            f"rolling_weeks={cfg['rolling_weeks']}; count_non_workdays={str(cfg['count_non_workdays']).lower()}; "
            f"target: {target}; counts={cfg['counts'] or 'defaults'}; holidays={cfg['holidays'] or 'none'}; "
            f"day_starts_at={cfg.get('day_starts_at', '00:00')}; min_hours={cfg.get('min_hours', 0)}")


# ------------------------------------------------------------ running the CLI
class Case:
    """One case's scratch folder and the CLI environment that goes with it."""

    def __init__(self, binary, folder, systz):
        self.binary, self.folder = binary, folder
        base = {k: v for k, v in os.environ.items() if not k.startswith("DESKDAYS_")}
        base.update(TZ=systz, HOME=folder, XDG_CONFIG_HOME=folder + "/xdg-config",
                    XDG_DATA_HOME=folder + "/xdg-data", XDG_CACHE_HOME=folder + "/xdg-cache",
                    XDG_STATE_HOME=folder + "/xdg-state", XDG_RUNTIME_DIR=folder + "/xdg-runtime")
        self.env = base
        self.paths = ["--config", folder + "/config.toml", "--database", folder + "/db.sqlite"]

    def run(self, args):
        return subprocess.run([self.binary] + args + self.paths, env=self.env, capture_output=True,
                              text=True, timeout=COMMAND_TIMEOUT)

    def reproduce(self, args):
        return (f"HOME={self.folder} TZ={self.env['TZ']} {self.binary} "
                + " ".join(args + self.paths))


def setup(case: Case, cfg, hist, today):
    """Writes the configuration and feeds the history through the CLI."""
    d = case.folder
    os.makedirs(d)
    with open(d + "/config.toml", "w") as f:
        f.write(toml(cfg))
    T = oracle.D(today)
    cmds = []
    for i, imp in enumerate(hist["imports"]):
        fn = f"{d}/import{i}.json"
        with open(fn, "w") as f:
            json.dump([{"date": x, "status": s} for x, s in imp["rows"]], f)
        cmds.append(["import", fn, "--today", (T + dt.timedelta(days=imp["written"])).isoformat()])
    for at, src in zip(hist["events"], hist["sources"]):
        # An event is fed when it happens: DeskDays refuses check-ins stamped
        # more than a day after "now", and the history has some after today.
        written = max(T, oracle.D(at[:10]) + dt.timedelta(days=1)).isoformat()
        cmds.append(["event", "--source", src, "--at", at, "--today", written])
    # Departures (event --leave), after every arrival.
    for at, src in zip(hist.get("leaves", []), hist["sources"]):
        if at is None:
            continue
        written = max(T, oracle.D(at[:10]) + dt.timedelta(days=1)).isoformat()
        cmds.append(["event", "--source", src, "--at", at, "--leave", "--today", written])
    for op in hist["ops"]:
        wt = (T + dt.timedelta(days=op[-1])).isoformat()
        if op[0] == "one":
            cmds.append(["checkin", "--date", op[1], "--status", op[2], "--today", wt])
        else:
            # --overwrite: the oracle records every workday of a range (a range without it fills only the empty ones).
            cmds.append(["checkin", "--from", op[1], "--to", op[2], "--status", op[3], "--overwrite", "--today", wt])
    with open(d + "/commands.txt", "w") as f:
        for c in cmds:
            f.write(case.reproduce(c) + "\n")
    for c in cmds:
        p = case.run(c)
        # A range of non-workdays only is refused, as docs/cli.md says.
        if p.returncode != 0 and not (c[0] == "checkin" and "holds no workday" in p.stderr):
            raise RuntimeError(f"deskdays {' '.join(c)}: exit {p.returncode}: {p.stderr.strip()}")


def run_case(binary, root, i, seed):
    """Runs one case; a dict with its problems (empty lists when it agrees)."""
    cfg, hist, today, other = gen_case(random.Random(seed))
    case = Case(binary, f"{root}/{i}", cfg["_systz"])
    res = {"i": i, "seed": seed, "cfg": cfg, "today": today, "folder": case.folder,
           "compared": 0, "diffs": [], "errors": []}
    try:
        setup(case, cfg, hist, today)
        for parg in ["current", "previous", other]:
            args = ["report", "--json", "--period", parg, "--today", today]
            p = case.run(args)
            if p.returncode != 0:
                res["errors"].append(f"report --period {parg}: exit {p.returncode}: {p.stderr.strip()}")
                continue
            res["compared"] += 1
            expected = oracle.compute(cfg, hist, today, parg)
            diffs = oracle.compare(expected, json.loads(p.stdout), cfg["target"]["kind"])
            if diffs:
                res["diffs"].append({"period": parg, "diffs": diffs, "reproduce": case.reproduce(args)})
    except (RuntimeError, subprocess.TimeoutExpired, json.JSONDecodeError) as ex:
        res["errors"].append(str(ex))
    if res["diffs"] or res["errors"]:
        with open(case.folder + "/case.json", "w") as f:
            json.dump({"seed": seed, "today": today, "other": other, "cfg": cfg, "hist": hist}, f, indent=1)
    return res


def describe(r):
    """The lines that explain one disagreeing case."""
    out = [f"case {r['i']} (seed {r['seed']}), today {r['today']}:",
           f"  config: {config_line(r['cfg'])}",
           f"  history: {r['folder']}/commands.txt (case.json beside it)"]
    for e in r["errors"]:
        out.append(f"  error: {e}")
    for x in r["diffs"]:
        out.append(f"  report --period {x['period']}:")
        for k, e, a in x["diffs"]:
            out.append(f"    {k}: expected {json.dumps(e)}, actual {json.dumps(a)}")
        out.append(f"    reproduce: {x['reproduce']}")
    return out


def main(argv):
    args = argv[1:]
    try:
        n, seed0, jobs = (int(x) for x in args + ["50", "1000", "2"][len(args):])
    except ValueError:
        n = -1
    binary = os.environ.get("DESKDAYS_BIN", "")
    if n < 0 or jobs < 1:
        print("usage: DESKDAYS_BIN=/path/to/deskdays fuzz.py CASES SEED JOBS", file=sys.stderr)
        return 2
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        print(f"fuzz.py: DESKDAYS_BIN must name the deskdays executable (is {binary!r}); "
              "build it with `swift build` first", file=sys.stderr)
        return 2
    binary = os.path.abspath(binary)
    root = tempfile.mkdtemp(prefix="deskdays-oracle-")
    ok = False
    try:
        with ThreadPoolExecutor(jobs) as ex:
            results = list(ex.map(lambda i: run_case(binary, root, i, seed0 + i), range(n)))
        bad = [r for r in results if r["diffs"] or r["errors"]]
        compared = sum(r["compared"] for r in results)
        mismatches = sum(len(r["diffs"]) + len(r["errors"]) for r in results)
        print(f"fuzz.py: {n} cases run (seeds {seed0}..{seed0 + n - 1}), {compared} reports compared "
              f"with the oracle, {mismatches} mismatches")
        for r in bad[:MAX_SHOWN]:
            print("\n".join(describe(r)))
        if len(bad) > MAX_SHOWN:
            print(f"... and {len(bad) - MAX_SHOWN} more disagreeing cases")
        ok = not bad
    finally:
        if ok:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"scratch folders kept in {root}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
