#!/usr/bin/env python3
"""Checks what msgfmt cannot in DeskDays' catalogs (po/check.sh runs it):

- every translation keeps the placeholders {0}, {1} … of its message (a
  plural form may drop the count, as "one day" does; none may add one);
- every `backquoted command` of the message appears unchanged (commands,
  flags and status words are typed by the user and never translated);
- the header names the language's Plural-Forms.

    po/lint.py [FILE.po …]     (default: every po/*.po)
"""
import glob
import os
import re
import sys

PLACEHOLDER = re.compile(r"\{\d+\}")
COMMAND = re.compile(r"`[^`]+`")


def unquote(text):
    out, i = [], 0
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            out.append(escapes.get(text[i + 1], text[i + 1]))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def entries(path):
    """(line, msgid, msgid_plural, [msgstr…], fuzzy) for each entry."""
    result = []
    current = None
    field = None
    fuzzy = False
    for number, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        if line.startswith("#~"):
            continue
        match = re.match(r'^(msgid|msgid_plural|msgstr(?:\[(\d+)\])?)\s+"(.*)"$', line)
        if match:
            keyword = match.group(1)
            if keyword == "msgid":
                if current:
                    result.append(current)
                current = {"line": number, "msgid": "", "plural": None, "msgstr": {}, "fuzzy": fuzzy}
                fuzzy = False
            if keyword == "msgid":
                field = ("msgid", None)
            elif keyword == "msgid_plural":
                field = ("plural", None)
                current["plural"] = ""
            else:
                field = ("msgstr", int(match.group(2) or 0))
                current["msgstr"][field[1]] = ""
            append(current, field, unquote(match.group(3)))
        elif line.startswith('"') and current and field:
            append(current, field, unquote(line[1:-1]))
    if current:
        result.append(current)
    return result


def append(entry, field, text):
    name, index = field
    if name == "msgstr":
        entry["msgstr"][index] += text
    else:
        entry[name] += text


def lint(path):
    problems = []
    items = entries(path)
    header = next((e for e in items if e["msgid"] == ""), None)
    if header is None or "Plural-Forms:" not in header["msgstr"].get(0, "") or "INTEGER" in header["msgstr"].get(0, ""):
        problems.append("%s: the header has no Plural-Forms for the language" % path)
    for e in items:
        if e["msgid"] == "":
            continue
        wanted = set(PLACEHOLDER.findall(e["msgid"] + (e["plural"] or "")))
        commands = COMMAND.findall(e["msgid"])
        for index, text in sorted(e["msgstr"].items()):
            if not text:
                continue
            found = set(PLACEHOLDER.findall(text))
            where = "%s:%d (%s)" % (path, e["line"], e["msgid"][:60].replace("\n", " "))
            if e["plural"] is None and found != wanted:
                problems.append("%s: placeholders %s, the message has %s" % (where, sorted(found), sorted(wanted)))
            elif e["plural"] is not None and not found <= wanted:
                problems.append("%s: form %d adds placeholders %s" % (where, index, sorted(found - wanted)))
            for command in commands:
                if command not in text:
                    problems.append("%s: %s must appear unchanged" % (where, command))
    return problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(here, "*.po")))
    problems = [p for path in paths for p in lint(path)]
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
