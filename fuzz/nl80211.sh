#!/usr/bin/env bash
# Fuzz the nl80211 parser with libFuzzer + AddressSanitizer for a
# fixed number of runs, seeded with the shared netlink vectors (each whole,
# and as attribute streams with their netlink/genetlink headers cut off) and
# the replies recorded in the test VM (Tests/Fixtures/netlink/hwsim).
# Exits non-zero on a crash. RUNS overrides the count (default 200000).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
RUNS=${RUNS:-200000}
WORK=${TMPDIR:-/tmp}/deskdays-fuzz-nl80211
rm -rf "$WORK"
mkdir -p "$WORK/corpus"

swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name NL80211Fuzz \
    Sources/NL80211/*.swift fuzz/nl80211_fuzz.swift -o "$WORK/nl80211-fuzz"

/usr/bin/python3 - "$WORK/corpus" <<'PY'
import json, os, sys
out = sys.argv[1]
vectors = json.load(open("Tests/Fixtures/netlink/netlink_vectors.json"))["vectors"]
for i, v in enumerate(vectors):
    data = bytes.fromhex(v["bytes_hex"])
    seeds = [data]
    if v["layout_assumed"] == "nlmsg":
        seeds += [data[16:], data[20:]]
    elif v["layout_assumed"] == "genl":
        seeds.append(data[4:])
    for j, seed in enumerate(seeds):
        with open(os.path.join(out, f"vector-{i:02d}-{j}"), "wb") as f:
            f.write(seed)
PY
# And the real replies recorded in the test VM.
for f in Tests/Fixtures/netlink/hwsim/*.bin; do cp "$f" "$WORK/corpus/hwsim-$(basename "$f")"; done

"$WORK/nl80211-fuzz" -runs="$RUNS" -max_len=4096 -print_final_stats=1 "$WORK/corpus" 2>&1 | tail -n 12
