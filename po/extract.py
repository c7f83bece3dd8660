#!/usr/bin/env python3
"""Writes po/deskdays.pot: every message the Swift sources pass to `tr(…)` or
`trn(…, …, n)` (module Localization).

xgettext cannot read Swift's interpolations, so this reads the literals
itself and builds each key exactly as `Message` does at run time: the
literal text, escapes resolved, with every `\\(…)` replaced by `{0}`, `{1}`…
in order. A call whose argument is not a literal is an error (it could
never be translated).

    po/extract.py            rewrite po/deskdays.pot
    po/extract.py --check    exit 1 when po/deskdays.pot is not current
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POT = os.path.join(ROOT, "po", "deskdays.pot")
SOURCES = os.path.join(ROOT, "Sources")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}


class ExtractError(Exception):
    pass


def skip_string(text, i):
    """Index just past the string literal starting at text[i] (a quote or '#')."""
    hashes = 0
    while text[i] == "#":
        hashes += 1
        i += 1
    if text.startswith('"""', i):
        end = text.find('"""' + "#" * hashes, i + 3)
        while hashes == 0 and end > 0 and text[end - 1] == "\\" and not text.endswith("\\\\", 0, end):
            end = text.find('"""', end + 1)
        return end + 3 + hashes
    i += 1
    while True:
        c = text[i]
        if c == "\\" and hashes == 0:
            if text[i + 1] == "(":
                i = skip_parens(text, i + 1)
                continue
            i += 2
            continue
        if c == '"' and text.startswith("#" * hashes, i + 1):
            return i + 1 + hashes
        if c == "\n":
            raise ExtractError("unterminated string literal")
        i += 1


def skip_parens(text, i):
    """Index just past the parenthesis group opening at text[i]."""
    depth = 0
    while True:
        c = text[i]
        if c == '"' or (c == "#" and text[i + 1] in '"#'):
            i = skip_string(text, i)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1


def read_literal(text, i):
    """The key of the plain or multi-line literal at text[i], and the index past it."""
    if text.startswith('"""', i):
        return read_multiline(text, i)
    if text[i] != '"':
        raise ExtractError("the message is not a string literal")
    key, count = [], 0
    i += 1
    while True:
        c = text[i]
        if c == '"':
            return "".join(key), i + 1
        if c == "\n":
            raise ExtractError("unterminated string literal")
        if c == "\\":
            n = text[i + 1]
            if n == "(":
                end = skip_parens(text, i + 1)
                key.append("{%d}" % count)
                count += 1
                i = end
                continue
            if n == "u":
                close = text.index("}", i)
                key.append(chr(int(text[i + 3:close], 16)))
                i = close + 1
                continue
            key.append(ESCAPES[n])
            i += 2
            continue
        key.append(c)
        i += 1


def read_multiline(text, i):
    """A `\"\"\"` literal: indentation of the closing delimiter removed, `\\` joins lines."""
    start = text.index("\n", i) + 1
    end = text.index('"""', start)
    while text[end - 1] == "\\":
        end = text.index('"""', end + 1)
    body = text[start:end]
    lines = body.split("\n")
    indent = lines[-1]
    if indent.strip():
        raise ExtractError("closing delimiter of a multi-line literal not on its own line")
    lines = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[:-1]]
    raw = ""
    for number, line in enumerate(lines):
        if line.endswith("\\") and not line.endswith("\\\\"):
            raw += line[:-1]
        else:
            raw += line + ("\n" if number < len(lines) - 1 else "")
    key, _ = read_literal('"' + raw.replace("\n", "\\n").replace('"', '\\"').replace('\\\\"', '\\"') + '"', 0)
    return key, end + 3


CALL = re.compile(r"(?<![A-Za-z0-9_.])(trn?)\(")


def messages_in(path):
    """(key, plural key or None, line) for each call in one file."""
    text = open(path, encoding="utf-8").read() + "\n\n"
    found = []
    i = 0
    while i < len(text):
        c = text[i]
        if text.startswith("//", i):
            i = text.index("\n", i)
            continue
        if text.startswith("/*", i):
            i = text.index("*/", i) + 2
            continue
        if c == '"' or (c == "#" and text[i + 1] in '"#'):
            start = i
            i = skip_string(text, i)
            # Calls inside interpolations of a literal are still calls.
            inner = text[start:i]
            if "\\(" in inner and CALL.search(inner):
                for key, plural, offset in scan_calls(inner, path, text.count("\n", 0, start) + 1):
                    found.append((key, plural, offset))
            continue
        match = CALL.match(text, i) if c == "t" else None
        if match and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_.")):
            line = text.count("\n", 0, i) + 1
            try:
                j = skip_space(text, match.end())
                if text.startswith("_ ", j) or text.startswith(")", j):
                    i = match.end()
                    continue  # a declaration or a reference to the function
                key, j = read_literal(text, j)
                plural = None
                if match.group(1) == "trn":
                    j = skip_space(text, j)
                    if text[j] != ",":
                        raise ExtractError("trn needs two literals and a count")
                    plural, j = read_literal(text, skip_space(text, j + 1))
                found.append((key, plural, line))
            except (ExtractError, IndexError, ValueError, KeyError) as error:
                raise ExtractError("%s:%d: %s" % (os.path.relpath(path, ROOT), line, error or "cannot read the message"))
            i = match.end()
            continue
        i += 1
    return found


def scan_calls(fragment, path, line):
    results = []
    for match in CALL.finditer(fragment):
        j = skip_space(fragment, match.end())
        key, j = read_literal(fragment, j)
        plural = None
        if match.group(1) == "trn":
            j = skip_space(fragment, j)
            plural, j = read_literal(fragment, skip_space(fragment, j + 1))
        results.append((key, plural, line))
    return results


def skip_space(text, i):
    while text[i] in " \t\n":
        i += 1
    return i


def po_string(value):
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    if "\n" not in escaped[:-1]:
        return '"%s"' % escaped.replace("\n", "\\n")
    parts = escaped.split("\n")
    lines = ['""']
    for index, part in enumerate(parts):
        if index < len(parts) - 1:
            lines.append('"%s\\n"' % part)
        elif part:
            lines.append('"%s"' % part)
    return "\n".join(lines)


def template():
    entries = {}
    order = []
    for directory, _, files in sorted(os.walk(SOURCES)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            for key, plural, line in messages_in(path):
                if key == "":
                    raise ExtractError("%s:%d: an empty message" % (os.path.relpath(path, ROOT), line))
                ident = (key, plural)
                if ident not in entries:
                    entries[ident] = []
                    order.append(ident)
                # File names only (xgettext's --add-location=file): a message moving
                # within its file leaves the template as it was.
                where = os.path.relpath(path, ROOT)
                if where not in entries[ident]:
                    entries[ident].append(where)
    singulars = {}
    for key, plural in order:
        if key in singulars and singulars[key] != plural:
            raise ExtractError("%s: the message %r is used both with and without a plural" % (entries[(key, plural)][0], key))
        singulars[key] = plural
    out = [
        "# DeskDays messages. Generated by po/extract.py from Sources/: do not edit.",
        "# Copyright the DeskDays authors. Licensed under the Apache License 2.0.",
        "#",
        "# {0}, {1} … are the values the program fills in; a translation may",
        "# move them but must keep each one.",
        'msgid ""',
        'msgstr ""',
        '"Project-Id-Version: deskdays\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Content-Transfer-Encoding: 8bit\\n"',
        '"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"',
        "",
    ]
    for key, plural in order:
        out.append("#: " + " ".join(entries[(key, plural)]))
        out.append("msgid " + po_string(key))
        if plural is None:
            out.append('msgstr ""')
        else:
            out.append("msgid_plural " + po_string(plural))
            out.append('msgstr[0] ""')
            out.append('msgstr[1] ""')
        out.append("")
    return "\n".join(out)


def main():
    try:
        text = template()
    except ExtractError as error:
        sys.stderr.write("po/extract.py: %s\n" % error)
        return 1
    if "--check" in sys.argv[1:]:
        current = open(POT, encoding="utf-8").read() if os.path.exists(POT) else ""
        if current != text:
            sys.stderr.write("po/deskdays.pot is not current: run po/extract.py (then msgmerge the catalogs: make po).\n")
            return 1
        return 0
    with open(POT, "w", encoding="utf-8") as handle:
        handle.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
