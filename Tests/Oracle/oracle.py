#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Independent oracle for DeskDays' attendance arithmetic.

What it is: a second implementation of docs/policy.md (dates and time zones,
resolution of a date's status, treatments, workdays, period counting, the
five target kinds, periods), in plain Python with the standard library only.
fuzz.py runs random cases through the `deskdays` CLI and compares every
`report --json` with `compute()` here.

It was written from docs/policy.md and docs/cli.md alone, without reading the Swift
sources, so that a misreading of the policy in one shows up as a difference
against the other. Where docs/policy.md leaves room it follows the readings listed
in README.md ("Where docs/policy.md leaves room"); each such place is marked
"README:" below.

Run by hand: it is a module, not a program; run fuzz.py (see its header).
From a Python prompt in this folder:
    import oracle
    oracle.compute({"period": "quarter", "target": {"kind": "percent", "value": "60"}},
                   {"manual": [("2026-11-16", "office")]}, "2026-11-18")

Input model (plain Python data):
  cfg = {
    "timezone": "Europe/Berlin",
    "workdays": ["mon", ...], "week_start": "mon",
    "period": "quarter", "fiscal_year_start_month": 1, "rolling_weeks": 12,
    "count_non_workdays": False,
    "target": {"kind": "percent", "value": "60", "reduce": "cap",
               "weeks": 8, "best": 8, "window": 12},
    "counts": {"travel": "office", "sick": "excused", ...},
    "holidays": ["2026-12-25", ...],
  }
  history = {
    "manual": [(date, status), ...],     # manual records in the order written
    "manual_written": [days, ...],       # the date (relative to today) each command answered for: no part in "latest"
    "imports": [{"rows": [(date, status), ...], "written": days}, ...],
                                         # `deskdays import` files in the order imported
    "events": ["2026-11-16T08:30:00Z", ...],  # automatic check-ins (RFC 3339)
    "sources": ["nfc", ...],             # the source of each event
    "leaves": ["2026-11-16T17:30:00Z" | None, ...],  # a departure of that event's source, or None
  }
  cfg may also hold "day_starts_at" ("HH:MM") and "min_hours" (docs/policy.md
  "The day's start", "Time on site"); that part was added by the helper who
  built the Swift side, from docs/policy.md's text.
compute(cfg, history, today, period_arg) -> dict shaped like `report --json`.

Licence: Apache-2.0, as the rest of DeskDays (see LICENSE at the package root).
"""
from __future__ import annotations

import datetime as dt
import math
from fractions import Fraction
from zoneinfo import ZoneInfo

DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]
ONE = dt.timedelta(days=1)


def D(s):
    return s if isinstance(s, dt.date) else dt.date.fromisoformat(s)


def ceil(q) -> int:
    return math.ceil(Fraction(q))


def defaults(cfg):
    c = dict(cfg)
    c.setdefault("timezone", "UTC")
    c.setdefault("workdays", ["mon", "tue", "wed", "thu", "fri"])
    c.setdefault("week_start", "mon")
    c.setdefault("period", "quarter")
    c.setdefault("fiscal_year_start_month", 1)
    c.setdefault("rolling_weeks", 12)
    c.setdefault("count_non_workdays", False)
    c.setdefault("day_starts_at", "00:00")
    c.setdefault("min_hours", 0)
    t = dict(c.get("target", {}))
    t.setdefault("kind", "percent")
    t.setdefault("value", "60")
    t.setdefault("reduce", "cap")
    c["target"] = t
    counts = {"travel": "office", "sick": "excused", "vacation": "excused",
              "leave": "excused"}
    counts.update(c.get("counts", {}))
    counts["office"] = "office"
    counts["remote"] = "remote"
    c["counts"] = counts
    c["holidays"] = {D(h) for h in c.get("holidays", [])}
    return c


# ---------------------------------------------------------------- periods
def week_start_of(d, cfg):
    ws = DAYS.index(cfg["week_start"])
    return d - dt.timedelta(days=(d.weekday() - ws) % 7)


def add_months(y, m, k):
    idx = y * 12 + (m - 1) + k
    return idx // 12, idx % 12 + 1


def period_containing(anchor, cfg):
    """(kind, start, end, label) of the configured period containing anchor."""
    kind = cfg["period"]
    if cfg["target"]["kind"] == "best_weeks":
        # README: best_weeks reports its window as a `rolling` period, whatever
        # policy.period says; `previous` is the window before it.
        m = int(cfg["target"].get("window", 12))
        end = week_start_of(anchor, cfg) + dt.timedelta(days=6)
        start = end - dt.timedelta(days=7 * m - 1)
        return ("rolling", start, end, f"{m} weeks to {end.isoformat()}")
    if kind == "week":
        s = week_start_of(anchor, cfg)
        return (kind, s, s + dt.timedelta(days=6), f"Week of {s.isoformat()}")
    if kind == "month":
        s = anchor.replace(day=1)
        y, m = add_months(s.year, s.month, 1)
        return (kind, s, dt.date(y, m, 1) - ONE, f"{MONTHS[s.month - 1]} {s.year}")
    if kind == "rolling":
        rw = int(cfg["rolling_weeks"])
        end = week_start_of(anchor, cfg) + dt.timedelta(days=6)
        start = end - dt.timedelta(days=7 * rw - 1)
        return (kind, start, end, f"{rw} weeks to {end.isoformat()}")
    m0 = int(cfg["fiscal_year_start_month"])
    fy_start_year = anchor.year if anchor.month >= m0 else anchor.year - 1
    fy_start = dt.date(fy_start_year, m0, 1)
    if kind == "year":
        y, m = add_months(fy_start_year, m0, 12)
        end = dt.date(y, m, 1) - ONE
        label = str(fy_start_year) if m0 == 1 else f"FY{end.year}"
        return (kind, fy_start, end, label)
    if kind == "quarter":
        off = (anchor.year * 12 + anchor.month - 1) - (fy_start_year * 12 + m0 - 1)
        q = off // 3
        sy, sm = add_months(fy_start_year, m0, 3 * q)
        ey, em = add_months(sy, sm, 3)
        start = dt.date(sy, sm, 1)
        end = dt.date(ey, em, 1) - ONE
        if m0 == 1:
            label = f"Q{q + 1} {sy}"
        else:
            label = f"Q{q + 1} FY{fy_start_year + 1}"
        return (kind, start, end, label)
    raise ValueError(kind)


def select_period(cfg, today, period_arg):
    cur = period_containing(today, cfg)
    if period_arg in (None, "current"):
        return cur
    if period_arg == "previous":
        return period_containing(cur[1] - ONE, cfg)
    return period_containing(D(period_arg), cfg)


# ------------------------------------------------------------- resolution
def latest_imports(files):
    """The status of each date's latest stored import record.

    README: an import file says one thing per date, its last row for that
    date; that row is stored unless it equals the date's latest import
    record already stored (so importing the same file twice changes
    nothing). The latest record is the one written last, in the order
    written (`--today` plays no part). Rule 3 of docs/policy.md then takes
    the latest one.
    """
    stored = {}   # date -> [(seq, status), ...]
    seq = 0
    for f in files:
        says = {}
        for d, s in f["rows"]:
            says[D(d)] = s
        for d, s in says.items():
            recs = stored.setdefault(d, [])
            if recs and max(recs)[1] == s:
                continue
            recs.append((seq, s))
            seq += 1
    return {d: max(recs)[1] for d, recs in stored.items()}


STAYS = {"wifi", "wired", "gps"}  # present until a departure; taps and external lines count to their latest sign


class Resolver:
    def __init__(self, cfg, history, today=None):
        self.cfg = cfg
        tz = ZoneInfo(cfg["timezone"])
        h, m = (int(x) for x in cfg.get("day_starts_at", "00:00").split(":"))
        dsa = h * 60 + m

        def day_of(t):
            # docs/policy.md "The day's start": before day_starts_at is the day before.
            local = t.astimezone(tz)
            return local.date() - ONE if local.hour * 60 + local.minute < dsa else local.date()

        def start_of(d):
            return dt.datetime.combine(d, dt.time(h, m), tz)
        self.manual, self.auto = {}, set()
        # docs/policy.md: "latest" = written last, in the order written; the
        # date a command answers for (`--today`, "manual_written") plays no part.
        for d, s in history.get("manual", []):
            self.manual[D(d)] = s
        self.imported = latest_imports(history.get("imports", []))
        events = history.get("events", [])
        sources = history.get("sources", ["nfc"] * len(events))
        first, latest = {}, {}  # (date, source) -> earliest arrival; -> (latest sign, 1 if a departure)
        for at, src in zip(events, sources):
            t = dt.datetime.fromisoformat(at.replace("Z", "+00:00"))
            d = day_of(t)
            self.auto.add(d)
            first[(d, src)] = min(first.get((d, src), t), t)
            latest[(d, src)] = max(latest.get((d, src), (t, 0)), (t, 0))
        for at, src in zip(history.get("leaves", []), sources):
            if at is None:
                continue
            t = dt.datetime.fromisoformat(at.replace("Z", "+00:00"))
            key = (day_of(t), src)
            latest[key] = max(latest.get(key, (t, 1)), (t, 1))  # a departure written after an equal arrival wins
        # docs/policy.md "Time on site": per date, first arrival to the last
        # sign, the end of the date while a source is still present, or "now"
        # (12:00 on today, what --today means) for today and later.
        self.short = set()
        hours = Fraction(str(cfg.get("min_hours", 0)))
        if today is not None and hours > 0:
            now = dt.datetime.combine(today, dt.time(12), tz)
            for d in self.auto:
                end = start_of(d + ONE)
                stop = end if d < today else min(now, end)
                arrived = min(t for (dd, _), t in first.items() if dd == d)
                last = arrived
                for (dd, src), (t, leaving) in latest.items():
                    # A departure counts only after an arrival of its own source that date.
                    if dd != d or (dd, src) not in first:
                        continue
                    last = max(last, t)
                    if not leaving and src in STAYS:
                        last = max(last, stop)
                if Fraction(int((last - arrived).total_seconds())) < hours * 3600:
                    self.short.add(d)

    def status(self, d):
        if d in self.manual:
            return self.manual[d], "manual"
        if d in self.auto and d not in self.short:
            return "office", "automatic"
        if d in self.imported:
            return self.imported[d], "import"
        return None, None

    def treatment(self, d):
        s, _ = self.status(d)
        return None if s is None else self.cfg["counts"][s]

    def is_workday(self, d):
        return DAYS[d.weekday()] in self.cfg["workdays"] and d not in self.cfg["holidays"]

    def is_nominal(self, d):
        return DAYS[d.weekday()] in self.cfg["workdays"]


def dates(a, b):
    d = a
    while d <= b:
        yield d
        d += ONE


def count_range(r: Resolver, a, b, T):
    c = dict(workdays=0, excused=0, eligible=0, office=0, remote=0,
             unrecorded=0, pending=0, planned_office=0, nominal=0, extra=0)
    for d in dates(a, b):
        tr = r.treatment(d)
        if r.is_nominal(d):
            c["nominal"] += 1
        if not r.is_workday(d):
            # README: count_non_workdays counts non-workday office days up to
            # today; a planned one is neither office nor eligible yet.
            if r.cfg["count_non_workdays"] and tr == "office" and d <= T:
                c["office"] += 1
                c["extra"] += 1
            continue
        c["workdays"] += 1
        if tr == "excused":
            c["excused"] += 1
            continue
        if d < T or (d == T and tr is not None):
            if tr == "office":
                c["office"] += 1
            elif tr == "remote":
                c["remote"] += 1
            else:
                c["unrecorded"] += 1
        else:
            c["pending"] += 1
            if tr == "office":
                c["planned_office"] += 1
    c["eligible"] = c["workdays"] - c["excused"] + c["extra"]
    c["elapsed"] = c["office"] + c["remote"] + c["unrecorded"]
    # pending = eligible - elapsed must equal the walked pending count
    assert c["pending"] == c["eligible"] - c["elapsed"], c
    return c


def week_required(n, reduce_, W, Wp, E):
    if W == 0:
        return 0
    if reduce_ == "pro-rata":
        return ceil(n * E / W)
    return min(E, ceil(n * Wp / W))


def fmt_ratio(num, den):
    if den == 0:
        return None
    q = Fraction(num, den) * 10000
    return math.floor(q + Fraction(1, 2)) / 10000   # half-up to 4 decimals


def compute(cfg, history, today, period_arg=None):
    cfg = defaults(cfg)
    T = D(today)
    r = Resolver(cfg, history, T)
    kind, start, end, label = select_period(cfg, T, period_arg)
    tgt = cfg["target"]
    tk = tgt["kind"]
    n = Fraction(str(tgt["value"]))
    c = count_range(r, start, end, T)
    W = len(set(cfg["workdays"]))
    out = {
        "today": T.isoformat(),
        "period": {"kind": kind, "start": start.isoformat(), "end": end.isoformat(), "label": label},
        "target": {"kind": tk, "value": float(n)},
    }
    for k in ("workdays", "excused", "eligible", "office", "remote", "unrecorded",
              "elapsed", "pending", "planned_office"):
        out[k] = c[k]
    if Fraction(str(cfg["min_hours"])) > 0:
        # docs/policy.md: the period's workdays before today whose presence was short.
        out["short_days"] = sum(1 for d in dates(start, end) if d < T and r.is_workday(d) and d in r.short)

    def weeks_meeting(a, b):
        w = week_start_of(a, cfg)
        while w <= b:
            yield w
            w += dt.timedelta(days=7)

    if tk in ("percent", "days_per_week", "days_per_period"):
        if tk == "percent":
            req = ceil(n * c["eligible"] / 100)
        elif tk == "days_per_period":
            if tgt.get("reduce", "cap") == "pro-rata":
                req = ceil(n * c["eligible"] / c["nominal"]) if c["nominal"] else 0
            else:
                # README: with a decimal value, min(eligible, ceil(value)).
                req = min(c["eligible"], ceil(n))
        else:
            req = 0
            weeks = []
            for w in weeks_meeting(start, end):
                a, b = max(w, start), min(w + dt.timedelta(days=6), end)
                wc = count_range(r, a, b, T)
                E = wc["workdays"] - wc["excused"]
                rw = week_required(n, tgt.get("reduce", "cap"), W, wc["nominal"], E)
                req += rw
                weeks.append({"start": w.isoformat(), "required": rw,
                              "office": wc["office"], "met": wc["office"] >= rw})
            out["weeks"] = weeks
        out["required"] = req
        rem = max(0, req - c["office"])
        out["remaining_required"] = rem
        rtd = ceil(Fraction(req * c["elapsed"], c["eligible"])) if c["eligible"] else 0
        out["required_to_date"] = rtd
        if c["office"] >= req:
            st = "met"
        elif rem > c["pending"]:
            st = "impossible"
        elif c["office"] >= rtd:
            st = "on_track"
        else:
            st = "behind"
        out["status"] = st
    elif tk == "compliant_weeks":
        k = int(tgt.get("weeks", 8))
        weeks = []
        met = over = remaining = 0
        shortfalls = []   # weeks not over, not met: office days short, if they fit in the week's pending days
        required_over = 0
        # A week belongs to the period that contains its first day.
        w = week_start_of(start, cfg)
        if w < start:
            w += dt.timedelta(days=7)
        while w <= end:
            wend = w + dt.timedelta(days=6)
            wc = count_range(r, w, wend, T)
            E = wc["workdays"] - wc["excused"]
            rw = week_required(n, tgt.get("reduce", "cap"), W, wc["nominal"], E)
            # README: a week whose requirement is 0 counts as compliant
            # (office >= 0 always holds).
            m = wc["office"] >= rw
            weeks.append({"start": w.isoformat(), "required": rw, "office": wc["office"], "met": m})
            met += m
            if wend < T:
                over += 1
                required_over += rw
            else:
                remaining += 1
                if not m and rw - wc["office"] <= wc["pending"]:
                    shortfalls.append(rw - wc["office"])
            w += dt.timedelta(days=7)
        out["weeks"] = weeks
        # README: `required` is the sum of the weekly requirements.
        out["required"] = sum(x["required"] for x in weeks)
        out["weeks_met"] = met
        out["weeks_required"] = k
        out["weeks_remaining"] = remaining
        nweeks = len(weeks)
        # POLICY (fourth round): the fewest office days that still make k weeks
        # compliant: the k - weeks_met smallest shortfalls of the weeks that can
        # still be met; fewer such weeks than needed is impossible.
        shortfalls.sort()
        out["remaining_required"] = 0 if met >= k else sum(shortfalls[:k - met])
        out["required_to_date"] = required_over
        pace = ceil(Fraction(k * over, nweeks)) if nweeks else 0
        out["weeks_required_to_date"] = pace
        if met >= k:
            st = "met"
        elif met + len(shortfalls) < k:
            # A week not yet over that is already compliant is counted once,
            # in weeks_met; one whose shortfall exceeds its pending days is lost.
            st = "impossible"
        elif met >= pace:
            st = "on_track"
        else:
            st = "behind"
        out["status"] = st
    elif tk == "best_weeks":
        b = int(tgt.get("best", 8))
        m = int(tgt.get("window", 12))
        weeks = []
        over = 0
        for w in weeks_meeting(start, end):
            wc = count_range(r, w, w + dt.timedelta(days=6), T)
            weeks.append((w, wc["office"], wc["pending"]))
            if w + dt.timedelta(days=6) < T:
                over += 1
        offs = sorted((o for _, o, _ in weeks), reverse=True)
        best = sum(offs[:b])
        pots = sorted((o + p for _, o, p in weeks), reverse=True)
        out["office_all"] = c["office"]
        out["office"] = best
        req = ceil(n)
        out["required"] = req
        out["remaining_required"] = max(0, req - best)
        out["weeks"] = [{"start": w.isoformat(), "office": o} for w, o, _ in weeks]
        if best >= n:
            st = "met"
        elif sum(pots[:b]) < n:
            st = "impossible"
        elif best >= ceil(n * over / m):
            st = "on_track"
        else:
            st = "behind"
        out["status"] = st
    # README: for best_weeks, compliance_to_date is the best weeks' office
    # days over the window's elapsed days.
    out["compliance_to_date"] = fmt_ratio(out["office"], c["elapsed"])
    return out


# Keys docs/policy.md defines for each target kind (others are not compared).
SPEC_KEYS = {
    "percent": ["required", "remaining_required", "required_to_date", "status"],
    "days_per_week": ["required", "remaining_required", "required_to_date", "status", "weeks"],
    "days_per_period": ["required", "remaining_required", "required_to_date", "status"],
    "compliant_weeks": ["required", "remaining_required", "required_to_date", "weeks_required_to_date", "weeks_met",
                        "weeks_required", "weeks_remaining", "status", "weeks"],
    "best_weeks": ["required", "remaining_required", "status", "office_all", "weeks"],
}
COMMON = ["today", "period", "target", "workdays", "excused", "eligible", "office",
          "remote", "unrecorded", "elapsed", "pending", "planned_office", "compliance_to_date", "short_days"]


def compare(expected, actual, tk):
    """[(key, expected, actual)] for every compared key that differs; for a
    list of weeks of equal length, only the differing weeks are given."""
    diffs = []
    for k in COMMON + SPEC_KEYS[tk]:
        if k not in expected:
            continue
        e, a = expected[k], actual.get(k, "<missing>")
        if k == "target" and isinstance(a, dict):
            a = {"kind": a.get("kind"), "value": float(a.get("value"))}
        if k == "weeks" and isinstance(a, list):
            keys = set(e[0]) if e else set()
            a = [{x: w.get(x) for x in keys} for w in a]
        if e != a:
            if k == "weeks" and isinstance(a, list) and len(a) == len(e):
                pairs = [(x, y) for x, y in zip(e, a) if x != y]
                diffs.append((k, [x for x, _ in pairs], [y for _, y in pairs]))
            else:
                diffs.append((k, e, a))
    return diffs
