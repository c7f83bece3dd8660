#!/usr/bin/env bash
# Fuzz the pure QR logic (pixel-format luma extraction, change
# detection, payload rules, sighting debounce) with libFuzzer +
# AddressSanitizer for a fixed number of runs. Exits non-zero on a crash.
# RUNS overrides the count (default 1000000).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-1000000}
WORK=${TMPDIR:-/tmp}/deskdays-fuzz-qr
rm -rf "$WORK"
mkdir -p "$WORK/corpus"

swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name QRFuzz \
    Sources/QR/*.swift fuzz/qr_fuzz.swift -o "$WORK/qr-fuzz"

# Seeds: small frames of each geometry class, and payload-rule texts.
printf '\x08\x04\x00\x00%s' "$(head -c 64 /dev/zero | tr '\0' 'A')" > "$WORK/corpus/frame"
printf '\x03\x03\x05\x01deskdays:office:hq\ndeskdays:office:lab\ndeskdays:badge:\n\ndeskdays:badge:0042' > "$WORK/corpus/rules"

"$WORK/qr-fuzz" -runs="$RUNS" -max_len=4096 -print_final_stats=1 "$WORK/corpus" 2>&1 | tail -n 12
