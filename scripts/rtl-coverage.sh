#!/usr/bin/env bash
# Line and toggle coverage of the SAT pipeline under the regression stimulus, per parameter set
# and merged: random + edge vectors, the cancel stream and vectors recorded from a real scene,
# each through the coverage build of the testbench (verilated with --coverage). Prints the
# figures per coverage type and the points never hit; writes the merged data, an lcov file and
# annotated sources under WORKDIR. Fails if line coverage < 100% or toggle coverage < 99%, or
# if a parameter set has no line or toggle points at all.
#
# Usage: scripts/rtl-coverage.sh RTL_SAT_TB_COV WORKDIR KDOP MESH_DIR POSES [RANDOM_N]
set -euo pipefail
tb=$1 work=$2 kdop=$3 meshes=$4 poses=$5 n=${6:-100000}
mkdir -p "$work"
rm -f "$work"/*.dat "$work"/*.dat.*
for b in 18 35; do
  bits=$b,$b,$b
  "$tb" --random "$n" --bits "$bits" --seed 1$b --coverage "$work/random_$b.dat"
  "$tb" --cancel $((n / 4)) --bits "$bits" --seed 2$b --coverage "$work/cancel_$b.dat"
  "$kdop" vectors "$meshes/cow.off" "$meshes/cow.off" --poses "$poses" --out "$work/scene_$b.vec" \
    --format quantized --bits "$bits" --limit 50000 > /dev/null
  "$tb" --vectors "$work/scene_$b.vec" --seed 3$b --coverage "$work/scene_$b.dat" > /dev/null
  verilator_coverage --write "$work/merged_$b.dat" "$work"/random_$b.dat "$work"/cancel_$b.dat "$work"/scene_$b.dat
done
verilator_coverage --write "$work/merged.dat" "$work/merged_18.dat" "$work/merged_35.dat"
verilator_coverage --write-info "$work/merged.info" "$work/merged.dat"
verilator_coverage --annotate "$work/annotated" "$work/merged.dat" | tail -1

python3 - "$work" "$(dirname "$0")" <<'PY'
import collections, sys
work = sys.argv[1]

sys.path.insert(0, sys.argv[2])
from coverage_points import kind as point_kind, points  # noqa: E402

status = 0
for name in ("merged_18", "merged_35", "merged"):
    total, hit, missed = collections.Counter(), collections.Counter(), []
    for f, count in points(f"{work}/{name}.dat"):
        kind = point_kind(f)
        total[kind] += 1
        if count > 0:
            hit[kind] += 1
        else:
            missed.append(f"{kind} {f.get('page', '').split('/')[-1]}.{f.get('o', '')} ({f.get('f', '').split('/')[-1]}:{f.get('l', '')})")
    label = {"merged_18": "(18,18,18)", "merged_35": "(35,35,35)", "merged": "both sets"}[name]
    parts = [f"{k} {hit[k]}/{total[k]} = {100.0 * hit[k] / total[k]:.2f}%" for k in sorted(total)]
    print(f"coverage {label}: " + ", ".join(parts))
    if total["line"] == 0 or total["toggle"] == 0:
        # No points at all: the data is not the coverage build's, and "100%" of nothing says nothing.
        print(f"coverage {label}: no line or toggle points in {work}/{name}.dat")
        status = 1
    if name == "merged":
        for m in missed:
            print(f"  never hit: {m}")
        if hit["line"] != total["line"] or hit["toggle"] < 0.99 * total["toggle"]:
            print("coverage below the bar (line 100%, toggle 99%)")
            status = 1
sys.exit(status)
PY
