#!/usr/bin/env bash
# Fuzz the NMEA framer and decoders with libFuzzer + AddressSanitizer
# for a fixed number of runs, seeded with the gpsd captures and the sentence
# vectors. Exits non-zero on a crash. RUNS overrides the count (default 100000).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-100000}
WORK=${TMPDIR:-/tmp}/deskdays-fuzz-nmea
rm -rf "$WORK"
mkdir -p "$WORK/corpus"

swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name NMEAFuzz \
    Sources/NMEA/*.swift fuzz/nmea_fuzz.swift -o "$WORK/nmea-fuzz"

# Seeds: each capture cut into 2 KiB pieces (libFuzzer's default maximum
# input is 4 KiB), and each vector sentence on its own.
for log in Tests/Fixtures/nmea/gpsd/*.log; do
    split -b 2048 -d -a 3 "$log" "$WORK/corpus/$(basename "$log")."
done
/usr/bin/python3 - "$WORK/corpus" <<'PY'
import json, sys, os
out = sys.argv[1]
m = json.load(open("Tests/Fixtures/nmea/vectors/minmea_vectors.json"))
texts = sum(m["lists"].values(), []) + [t["sentence"] for t in m["parse_tests"]]
p = json.load(open("Tests/Fixtures/nmea/vectors/pynmea2_vectors.json"))
texts += [c["sentence"] for c in p["cases"]]
for i, t in enumerate(texts):
    with open(os.path.join(out, f"vector-{i:03d}"), "w", encoding="utf-8") as f:
        f.write(t + "\r\n")
PY

"$WORK/nmea-fuzz" -runs="$RUNS" -max_len=4096 -print_final_stats=1 "$WORK/corpus" 2>&1 | tail -n 15
