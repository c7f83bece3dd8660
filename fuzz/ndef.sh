#!/usr/bin/env bash
# Fuzz the NDEF parser with libFuzzer + AddressSanitizer for a
# fixed number of runs, seeded with the ndeflib vectors as messages and as
# Type 2 tag images. Exits non-zero on a crash. RUNS overrides the count
# (default 1000000).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-1000000}
WORK=${TMPDIR:-/tmp}/deskdays-fuzz-ndef
rm -rf "$WORK"
mkdir -p "$WORK/corpus"

# One module: NDEF's files without their `import Localization`, and Localization.
mkdir -p "$WORK/src"
for f in Sources/NDEF/*.swift; do grep -v '^import Localization$' "$f" > "$WORK/src/$(basename "$f")"; done
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name NDEFFuzz -I Sources/CIntl \
    Sources/Localization/*.swift "$WORK"/src/*.swift fuzz/ndef_fuzz.swift -o "$WORK/ndef-fuzz"

/usr/bin/python3 - "$WORK/corpus" <<'PY'
import json, os, sys
out = sys.argv[1]
vectors = json.load(open("Tests/Fixtures/nfc/ndeflib_vectors.json"))
seeds = []
for group in vectors["record_tests"]:
    kind = {"TestTextRecord": b"T", "TestUriRecord": b"U", "TestSmartposterRecord": b"Sp"}.get(group["class"])
    for case in (group["decode_valid"] or []) + (group["decode_error"] or []):
        payload = bytes.fromhex(case["payload_hex"].replace(" ", ""))
        seeds.append(payload)
        if kind and len(payload) < 256:
            message = bytes([0xD1, len(kind), len(payload)]) + kind + payload
            seeds.append(message)
            area = bytes([0x03, len(message)]) + message + b"\xFE"
            seeds.append(bytes(12) + b"\xE1\x10\x12\x00" + area + bytes(max(0, 144 - len(area))))
for name in ("test_message_set_1", "test_message_set_2", "test_message_set_3"):
    for literal, _ in vectors["message_tests"][name]:
        seeds.append(bytes.fromhex(literal.strip("'").replace(" ", "")))
for i, seed in enumerate(seeds):
    with open(os.path.join(out, f"seed-{i:03d}"), "wb") as f:
        f.write(seed)
PY

"$WORK/ndef-fuzz" -runs="$RUNS" -max_len=2048 -print_final_stats=1 "$WORK/corpus" 2>&1 | tail -n 15
