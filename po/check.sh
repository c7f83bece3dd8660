#!/usr/bin/env bash
# Every catalog compiles (`msgfmt --check`) and is complete: all messages
# translated, none fuzzy, none missing against po/deskdays.pot; placeholders
# and `commands` kept (po/lint.py). Run by make test.
set -euo pipefail
cd "$(dirname "$0")"
status=0
for po in *.po; do
    [ -e "$po" ] || continue
    stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$po" 2>&1) || { echo "$po: $stats" >&2; status=1; continue; }
    missing=$(LC_ALL=C msgcmp "$po" deskdays.pot 2>&1 >/dev/null || true)
    echo "$po: $stats"
    if [[ "$stats" == *fuzzy* || "$stats" == *untranslated* || -n "$missing" ]]; then
        echo "$po is not complete: translate every message (no fuzzy or untranslated ones), then run make po." >&2
        [ -z "$missing" ] || echo "$missing" | head -5 >&2
        status=1
    fi
done
python3 lint.py || { echo "Fix the translations above: keep every {N} placeholder and every \`command\`." >&2; status=1; }
exit $status
