#!/usr/bin/env bash
# Line, toggle and branch coverage of the whole accelerator top under its regression (top_tb: cow,
# elephant/hand and mushroom/couplingdown in the four pose classes, several n / rules / memory
# timings, one and four outstanding reads, random stalls, the tiny stack), through the coverage
# build of the two verilated tops (merged). Prints the figures per
# coverage type and per module and writes the data, an lcov file and annotated sources to WORKDIR.
#
# Usage: scripts/top-coverage.sh [BUILD_DIR, default build/release] [WORKDIR, default BUILD_DIR/top-coverage]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build/release}
work=${2:-$build/top-coverage}
cmake --build "$build" --target top_tb_cov -j"$(nproc)"
mkdir -p "$work"
rm -f "$work"/*.dat "$work"/*.dat.*
KDOPCD_TOP_COVERAGE="$work/run.dat" SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 \
  "$build/testbenches/top/top_tb_cov" > "$work/top_tb.log"
tail -1 "$work/top_tb.log"
# Both verilated tops (MAX_OUT = 4 and 1) have the same sources: one merged figure.
verilator_coverage --write "$work/top.dat" "$work"/run.dat*
verilator_coverage --write-info "$work/top.info" "$work/top.dat"
verilator_coverage --annotate "$work/annotated" "$work/top.dat" | tail -1

python3 - "$work/top.dat" "$(dirname "$0")" <<'PY'
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
