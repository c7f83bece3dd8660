#!/usr/bin/env python3
"""Writes data/holidays/holidays.tsv, the public holidays DeskDays ships
(`[policy] holidays_region`, `deskdays holidays`), from the `holidays`
library (PyPI, MIT) at the version pinned in VERSION beside this script.
Run through `make holidays`, which installs that version first; the program
itself never runs Python.

Every country the library supports under an ISO 3166-1 alpha-2 code, with
its subdivisions whose codes are ISO 3166-2 style (1 to 3 letters or
digits; the library's city and zone groupings are left out), for the years
in YEARS. Public holidays only (the library's default category), observed
days included (the library's default). Each holiday has the library's name
in the country's own language and, when the library has one, its English
name.

The format (data/holidays/README.md), one record a line, fields
separated by tabs:
  version V                 the library's version
  years FIRST LAST
  index CC:OFFSET:LENGTH ...  where each country's block is, in bytes from
                            the line after this one (a lookup reads the
                            header and one block)
  =CC SUB SUB ...           a country and its subdivisions' codes
  n LOCAL ENGLISH           the country's next name (numbered from 0 in each
                            country); ENGLISH is empty when the library has
                            none or it is the local one
  CC YYYY MMDD:N ...        the country's holidays in a year
  CC-SUB YYYY ITEM ...      how a subdivision's year differs from its
                            country's: +MMDD:N adds (or renames) a date,
                            -MMDD removes one
"""
import os
import re
import sys

import holidays

HERE = os.path.dirname(os.path.abspath(__file__))
YEARS = range(2020, 2041)


def pinned_version():
    with open(os.path.join(HERE, "VERSION"), encoding="utf-8") as file:
        return file.read().strip()


def english(cls):
    languages = getattr(cls, "supported_languages", ()) or ()
    for language in ("en_US", "en_GB", "en"):
        if language in languages:
            return language
    return None


def table(code, subdiv, language):
    kwargs = {"years": YEARS}
    if subdiv is not None:
        kwargs["subdiv"] = subdiv
    if language is not None:
        kwargs["language"] = language
    result = holidays.country_holidays(code, **kwargs)
    return {day: clean(name) for day, name in result.items() if day.year in YEARS}


def clean(name):
    return re.sub(r"\s+", " ", name).strip()


def main(out):
    version = pinned_version()
    if holidays.__version__ != version:
        sys.exit(f"generate.py: holidays {holidays.__version__} is installed, {version} is pinned: `make holidays` installs it")
    supported = holidays.list_supported_countries()
    header = [
        "# DeskDays' public holidays by region: written by tools/holidays/generate.py from the",
        f"# holidays library (PyPI, MIT) {version}. Do not edit: `make holidays` regenerates it.",
        f"version\t{version}",
        f"years\t{YEARS[0]}\t{YEARS[-1]}",
    ]
    blocks = []
    for code in sorted(c for c in supported if re.fullmatch(r"[A-Z]{2}", c)):
        cls = getattr(holidays, code)
        local_language = getattr(cls, "default_language", None)
        english_language = english(cls)
        subdivisions = sorted(s for s in supported[code] if re.fullmatch(r"[A-Z0-9]{1,3}", s))
        names, numbers = [], {}

        def number(day, local, translated):
            pair = (local[day], translated.get(day, "") if translated is not None else "")
            if pair[1] == pair[0]:
                pair = (pair[0], "")
            if pair not in numbers:
                numbers[pair] = len(names)
                names.append(pair)
            return numbers[pair]

        def both(subdiv):
            local = table(code, subdiv, local_language)
            translated = table(code, subdiv, english_language) if english_language else None
            return {day: number(day, local, translated) for day in local}

        national = both(None)
        body = []
        for year in YEARS:
            days = sorted(d for d in national if d.year == year)
            body.append(f"{code}\t{year}\t" + " ".join(f"{d:%m%d}:{national[d]}" for d in days))
        for subdiv in subdivisions:
            own = both(subdiv)
            for year in YEARS:
                items = []
                for day in sorted({d for d in own if d.year == year} | {d for d in national if d.year == year}):
                    if day not in own:
                        items.append(f"-{day:%m%d}")
                    elif national.get(day) != own[day]:
                        items.append(f"+{day:%m%d}:{own[day]}")
                if items:
                    body.append(f"{code}-{subdiv}\t{year}\t" + " ".join(items))
        lines = ["=" + "\t".join([code] + subdivisions)]
        for local, translated in names:
            assert "\t" not in local + translated and "\n" not in local + translated
            lines.append(f"n\t{local}\t{translated}")
        lines.extend(body)
        blocks.append((code, ("\n".join(lines) + "\n").encode("utf-8")))
    index, offset = [], 0
    for code, block in blocks:
        index.append(f"{code}:{offset}:{len(block)}")
        offset += len(block)
    header.append("index\t" + " ".join(index))
    with open(out + ".new", "wb") as file:
        file.write(("\n".join(header) + "\n").encode("utf-8") + b"".join(block for _, block in blocks))
    os.replace(out + ".new", out)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "data", "holidays", "holidays.tsv"))
