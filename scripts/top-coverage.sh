#!/usr/bin/env bash
# Line, toggle and branch coverage of a whole accelerator top under its regression, through the
# coverage build of the verilated top. Prints the figures per coverage type and per source file
# and writes the data, an lcov file and annotated sources to WORKDIR.
#   default: the paper top, kdopcd_top, under top_tb (cow, elephant/hand and mushroom/couplingdown
#            in the four pose classes, several n / rules / memory timings, one and four
#            outstanding reads, random stalls, the tiny stack); its two verilated configurations
#            (MAX_OUT = 4 and 1) have the same sources and are merged;
#   --v2:    the v2 top, kdopcd_v2_top, under top_v2_tb (the same scenes and pose classes against
#            the model v2, descent rules, random stalls, pending-set overflow, a tree too large,
#            read errors during LOAD).
#
# Usage: scripts/top-coverage.sh [--v2] [BUILD_DIR, default build/release] [WORKDIR, default BUILD_DIR/top-coverage[-v2]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
variant=paper
if [[ ${1:-} == --v2 ]]; then variant=v2; shift; fi
build=${1:-$root/build/release}
if [[ $variant == v2 ]]; then
  tb=top_v2_tb_cov; top=kdopcd_v2_top; work=${2:-$build/top-coverage-v2}
else
  tb=top_tb_cov; top=kdopcd_top; work=${2:-$build/top-coverage}
fi
cmake --build "$build" --target "$tb" -j"$(nproc)"
mkdir -p "$work"
rm -f "$work"/*.dat "$work"/*.dat.*
KDOPCD_TOP_COVERAGE="$work/run.dat" SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 \
  "$build/testbenches/top/$tb" > "$work/$tb.log"
tail -1 "$work/$tb.log"
verilator_coverage --write "$work/top.dat" "$work"/run.dat*
verilator_coverage --write-info "$work/top.info" "$work/top.dat"
verilator_coverage --annotate "$work/annotated" "$work/top.dat" | tail -1

python3 - "$work/top.dat" "$(dirname "$0")" "$top" <<'PY'
import collections, sys

sys.path.insert(0, sys.argv[2])
from coverage_points import kind as point_kind, points  # noqa: E402

total, hit = collections.Counter(), collections.Counter()
per_file = collections.defaultdict(collections.Counter)
missed = []
for f, count in points(sys.argv[1]):
    kind = point_kind(f)
    src = f.get("f", "?").split("/")[-1]
    total[kind] += 1
    per_file[src][kind + "_total"] += 1
    if count > 0:
        hit[kind] += 1
        per_file[src][kind + "_hit"] += 1
    elif kind in ("line", "branch"):
        missed.append(f"{kind} {src}:{f.get('l', '')}")
print(f"coverage of {sys.argv[3]}: " + ", ".join(f"{k} {hit[k]}/{total[k]} = {100.0 * hit[k] / total[k]:.2f}%" for k in sorted(total)))
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
