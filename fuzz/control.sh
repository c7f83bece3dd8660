#!/usr/bin/env bash
# Fuzz the control protocol's codec (one JSON line, read by the agent and
# by every client, the static launcher included) with libFuzzer +
# AddressSanitizer for a fixed number of runs, seeded with requests and
# replies of every kind. Exits non-zero on a crash. RUNS overrides the
# count (default 200000).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
export SWIFT_BACKTRACE=enable=no
RUNS=${RUNS:-200000}
WORK=${TMPDIR:-/tmp}/deskdays-fuzz-control
rm -rf "$WORK"
mkdir -p "$WORK/corpus" "$WORK/src"

# One module: AgentSocket's codec (the files the fuzz target reaches, none
# of which makes a system call) without their `import Localization`.
for f in Sources/AgentSocket/{ControlWire,ControlMessage,AgentPaths}.swift; do
    grep -v '^import Localization$' "$f" > "$WORK/src/$(basename "$f")"
done
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name ControlFuzz -I Sources/CIntl \
    Sources/Localization/*.swift "$WORK"/src/*.swift fuzz/control_fuzz.swift -o "$WORK/control-fuzz"

/usr/bin/python3 - "$WORK/corpus" <<'PY'
import os, sys
out = sys.argv[1]
seeds = [
    b'{"version":1,"cmd":"status","format":"waybar","database":"/home/u/d.sqlite","config":"/home/u/c.toml","clock":"system","locale":"C:::::"}',
    b'{"cmd":"checkin","dates":["2026-11-18","2026-11-19"],"status":"office","note":"a\\"b\\\\c\\u00e9\\ud83d\\ude00\\n"}',
    b'{"cmd":"event","source":"nfc","at":"2026-11-18T08:00:00.250+01:00","rule":"desk","kind":"departure","x":[1,{"y":[2.5e-3,null]}]}',
    b'{"ok":true,"version":1,"output":"{\\"text\\":\\"3/4\\"}\\n","config":null,"stored":false,"removed":[]}',
    b'{"ok":false,"version":2,"code":"version","error":"e"}', b'{"cmd":"advance","seconds":-0.0e+10}',
    b'[' * 40, b'{"a":' * 12 + b'1' + b'}' * 12, b'{"cmd":"st\\ud800"}', b'\xef\xbb\xbf{}', b'{} x',
]
for i, seed in enumerate(seeds):
    with open(os.path.join(out, f"seed-{i:02d}"), "wb") as f:
        f.write(seed)
PY

"$WORK/control-fuzz" -runs="$RUNS" -max_len=4096 -print_final_stats=1 "$WORK/corpus" 2>&1 | tail -n 12
