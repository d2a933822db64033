#!/usr/bin/env bash
# Line, toggle and branch coverage of the whole accelerator top under its regression (top_tb: cow
# and elephant/hand in the four pose classes, several n / rules / memory timings, random stalls,
# the tiny stack), through the coverage build of the verilated top. Prints the figures per
# coverage type and per module and writes the data, an lcov file and annotated sources to WORKDIR.
#
# Usage: scripts/top-coverage.sh [BUILD_DIR, default build/release] [WORKDIR, default BUILD_DIR/top-coverage]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
work=${2:-$build/top-coverage}
cmake --build "$build" --target top_tb_cov -j"$(nproc)"
mkdir -p "$work"
rm -f "$work"/*.dat
KDOPCD_TOP_COVERAGE="$work/top.dat" SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 \
  "$build/testbenches/top/top_tb_cov" > "$work/top_tb.log"
tail -1 "$work/top_tb.log"
verilator_coverage --write-info "$work/top.info" "$work/top.dat"
verilator_coverage --annotate "$work/annotated" "$work/top.dat" | tail -1

python3 - "$work/top.dat" <<'PY'
import collections, sys

def points(path):
    for line in open(path, encoding="latin-1"):
        if not line.startswith("C '"):
            continue
        key, count = line[3:].rstrip("\n").rsplit("' ", 1)
        fields = {}
        for item in key.split("\x01"):
            if "\x02" in item:
                k, v = item.split("\x02", 1)
                fields[k] = v
        yield fields, int(count)

total, hit = collections.Counter(), collections.Counter()
per_file = collections.defaultdict(collections.Counter)
missed = []
for f, count in points(sys.argv[1]):
    kind = f.get("page", "?").split("/")[0].replace("v_", "")
    src = f.get("f", "?").split("/")[-1]
    total[kind] += 1
    per_file[src][kind + "_total"] += 1
    if count > 0:
        hit[kind] += 1
        per_file[src][kind + "_hit"] += 1
    elif kind in ("line", "branch"):
        missed.append(f"{kind} {src}:{f.get('l', '')}")
print("coverage of kdopcd_top: " + ", ".join(f"{k} {hit[k]}/{total[k]} = {100.0 * hit[k] / total[k]:.2f}%" for k in sorted(total)))
print("| file | line | toggle | branch |")
print("|---|---|---|---|")
for src in sorted(per_file):
    c = per_file[src]
    cells = []
    for k in ("line", "toggle", "branch"):
        t = c[k + "_total"]
        cells.append(f"{c[k + '_hit']}/{t} ({100.0 * c[k + '_hit'] / t:.1f}%)" if t else "-")
    print(f"| {src} | " + " | ".join(cells) + " |")
for m in missed:
    print(f"  never hit: {m}")
PY
