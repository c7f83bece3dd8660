#!/usr/bin/env python3
"""The module map of docs/design.md, generated from Package.swift.

Prints one line per module of the package (test targets left out): its
kind and the modules of this package it depends on. With --check FILE,
exits 1 (naming the difference) unless FILE holds exactly that map
between the lines `<!-- map begin -->` and `<!-- map end -->`; with
--write FILE, puts it there. A test runs --check (docs/testing.md).
"""
import re
import textwrap
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = {"target": "lib", "executableTarget": "exe", "systemLibrary": "C"}


def calls(text):
    """Each `.kind(` call of the targets list with its balanced argument text."""
    for match in re.finditer(r"\.(target|executableTarget|systemLibrary|testTarget)\(", text):
        depth, start = 1, match.end()
        index = start
        while depth:
            char = text[index]
            depth += {"(": 1, ")": -1}.get(char, 0)
            index += 1
        yield match.group(1), text[start:index - 1]


def modules():
    text = Path(ROOT, "Package.swift").read_text()
    text = re.sub(r"//[^\n]*", "", text)
    result = []
    for kind, body in calls(text):
        if kind == "testTarget":
            continue
        name = re.search(r'name:\s*"([^"]+)"', body).group(1)
        deps = re.search(r"dependencies:\s*\[(.*?)\]\s*(,|$)", body, re.S)
        listed = deps.group(1) if deps else ""
        # Products of other packages are left out: the map is this package's.
        listed = re.sub(r"\.product\([^)]*\)", "", listed)
        listed = re.sub(r'\.target\(\s*name:\s*("[^"]+")[^)]*\)', r"\1", listed)
        result.append((name, KINDS[kind], re.findall(r'"([^"]+)"', listed)))
    return result


def render():
    """`Module  kind  its modules`, wrapped at 76 columns; the C shims on one line."""
    entries = [e for e in modules() if e[1] != "C"]
    width = max(len(name) for name, _, _ in entries)
    lines = ["```"]
    for name, kind, deps in sorted(entries, key=lambda e: (e[1] != "exe", e[0].lower())):
        line = f"{name.ljust(width)}  {kind}  "
        indent = " " * len(line)
        for dep in sorted(deps, key=str.lower) or ["-"]:
            if len(line) + len(dep) > 76 and not line.endswith("  "):
                lines.append(line.rstrip())
                line = indent
            line += dep + " "
        lines.append(line.rstrip())
    shims = sorted((e[0] for e in modules() if e[1] == "C"), key=str.lower)
    lines += textwrap.wrap("C shims (systemLibrary, pkg-config): " + " ".join(shims), 76, subsequent_indent="    ")
    lines.append("```")
    return "\n".join(lines) + "\n"


def main():
    mode, path = (sys.argv[1], Path(sys.argv[2])) if len(sys.argv) == 3 else (None, None)
    if mode is None:
        sys.stdout.write(render())
        return 0
    text = path.read_text()
    begin, end = "<!-- map begin -->\n", "<!-- map end -->"
    if begin not in text or end not in text:
        print(f"{path}: no {begin.strip()} … {end} block", file=sys.stderr)
        return 1
    head, rest = text.split(begin, 1)
    current, tail = rest.split(end, 1)
    if mode == "--write":
        path.write_text(head + begin + render() + end + tail)
        return 0
    if current != render():
        print(f"{path}: the map differs from Package.swift; run python3 docs/map.py --write {path}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
