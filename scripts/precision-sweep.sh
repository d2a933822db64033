#!/usr/bin/env bash
# The paper's Fig. 3 on real meshes: for b = c = z = 8..44, the fixed-point SAT's pair tests and
# triangle tests against the exact SAT's, per scene and pose class. Writes
# docs/precision-sweep.csv and docs/precision-sweep.svg (gnuplot, from Debian's gnuplot-nox).
# Usage: scripts/precision-sweep.sh [build dir, default build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
kdop="$build/sim/kdop"
[ -x "$kdop" ] || { echo "precision-sweep: $kdop not built (run scripts/build.sh)" >&2; exit 1; }
command -v gnuplot >/dev/null || { echo "precision-sweep: gnuplot missing (run scripts/install-deps.sh)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
csv=docs/precision-sweep.csv
first=1
for scene in cow:cow elephant:hand mushroom:couplingdown; do
  a=${scene%%:*}; b=${scene##*:}
  "$kdop" poses "data/meshes/$a.off" "data/meshes/$b.off" --out "$tmp/$scene.poses" >/dev/null
  "$kdop" precision-sweep "data/meshes/$a.off" "data/meshes/$b.off" --poses "$tmp/$scene.poses" \
    --scene "$a-$b" --csv "$tmp/$scene.csv"
  if [ $first = 1 ]; then cat "$tmp/$scene.csv" > "$csv"; first=0; else tail -n +2 "$tmp/$scene.csv" >> "$csv"; fi
done
# Pose 0 is the intersecting class, 1 close proximity: the two where rounding costs pair tests.
gnuplot <<GP
set terminal svg size 900,520 font "sans,11"
set output "docs/precision-sweep.svg"
set datafile separator ","
set title "Fixed-point SAT: DOP pair tests relative to the exact SAT (b = c = z)"
set xlabel "fractional bits b = c = z"
set ylabel "pair tests / exact pair tests"
set logscale y
set key top right
set grid
plot for [s in "cow-cow elephant-hand mushroom-couplingdown"] for [p=0:1] \
  "< awk -F, -v s=".s." -v p=".p." 'NR>1 && \$1==s && \$2==p' $csv" using 3:(\$4/\$7) with linespoints \
  title s." ".(p==0 ? "intersecting" : "close proximity")
GP
echo "wrote $csv and docs/precision-sweep.svg"
