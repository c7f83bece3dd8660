#!/usr/bin/env bash
# Fuzz the sync folder's inbox (files written by phones and scripts: the
# reader's encodings and torn lines, the `TIME arrive|leave RULE` parser)
# with libFuzzer + AddressSanitizer for a fixed number of runs, seeded with
# good lines, UTF-16 and Latin-1 files, CRLF, torn lines and broken times.
# Exits non-zero on a crash. RUNS overrides the count (default 200000).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
export SWIFT_BACKTRACE=enable=no
RUNS=${RUNS:-200000}
WORK=${TMPDIR:-/tmp}/deskdays-fuzz-inbox
rm -rf "$WORK"
mkdir -p "$WORK/corpus"

# Localization and DeskDaysCore as modules (fuzz/modules.bash).
source fuzz/modules.bash
swift_core_modules
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name InboxFuzz -I "$WORK/modules" -I Sources/CIntl "${MODULE_FLAGS[@]}" \
    fuzz/inbox_fuzz.swift "${MODULE_OBJECTS[@]}" -o "$WORK/inbox-fuzz"

/usr/bin/python3 - "$WORK/corpus" <<'PY'
import os, sys
out = sys.argv[1]
good = "2026-11-18T08:52:10+01:00 arrive hq\n2026-11-18T17:31:02.123456+01:00 leave hq\n"
seeds = [
    good.encode(), good.replace("\n", "\r\n").encode(), b"\xef\xbb\xbf" + good.encode(),
    b"\xff\xfe" + good.encode("utf-16-le"), b"\xfe\xff" + good.encode("utf-16-be"),
    b"# B\xfcro\n2026-11-18T08:52:10Z arrive hq\n", good.encode() + b"2026-11-18T18:00:00Z lea",
    b"2026-02-30T08:52:10Z arrive hq\n9999-12-31T23:59:59-23:59 arrive hq\n0000-01-01T00:00:00+23:59 leave x\n",
    b"2026-11-18T08:52:10.1234567891Z arrive hq\n2026-11-18T08:52:10+01:00 stay 52.5,13.4\n",
    b"\xff\xfe\x00\xd8\n\x00", b"x" * 600 + b"\n",
]
for i, seed in enumerate(seeds):
    with open(os.path.join(out, f"seed-{i:02d}"), "wb") as f:
        f.write(seed)
PY

"$WORK/inbox-fuzz" -runs="$RUNS" -max_len=4096 -print_final_stats=1 "$WORK/corpus" 2>&1 | tail -n 12
