#!/usr/bin/env bash
# Sweeps of the SystemC accelerator model (docs/model.md): the paper's Fig. 6 (cycles vs
# axes n per pair), Fig. 7 (with / without continued axis testing), the proposed extension of P
# pipelines, and Fig. 8 (simulated accelerator time vs the reference's software time on this host)
# on cow vs cow at 4 rotations x the 4 pose classes (kdop poses). Writes docs/model-sweep.csv and,
# if gnuplot is installed, docs/model-sweep.svg.
# Usage: scripts/model-sweep.sh [build dir, default build/release] [extra kdop sim options...]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"; shift || true
kdop="$build/sim/kdop"
[ -x "$kdop" ] || { echo "model-sweep: $kdop not built" >&2; exit 1; }
mesh=data/meshes/cow.off
[ -f "$mesh" ] || { echo "model-sweep: $mesh missing (scripts/fetch-meshes.sh)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
poses="$tmp/poses.txt"; : > "$poses"
for angle in 0.25 0.5 1.0 2.0; do
  "$kdop" poses "$mesh" "$mesh" --angle "$angle" --out "$tmp/a.txt" >/dev/null
  grep -v '^#' "$tmp/a.txt" | sed "s/\$/ angle=$angle/" >> "$poses"
done
# Class and angle of each pose line (the pose file keeps them as comments).
sed -n 's/.*# \([a-z-]*\) angle=\(.*\)/\1,\2/p' "$poses" > "$tmp/labels.csv"
csv=docs/model-sweep.csv
echo "sweep,pose,class,angle,n,continue,pipelines,cycles,accel_us,pair_tests,axis_tests,axis_issued,axis_cancelled,axis_continued,triangle_tests,contacts,mem_beats,mem_wasted,stall_cycles,utilization,sim_seconds,software_ms" > "$csv"
# Software reference on this host: the float backend (the fast path), n = all.
"$kdop" collide "$mesh" "$mesh" --poses "$poses" --backend float --json "$tmp/sw.json" >/dev/null
jq -r '.poses[] | .seconds * 1000' "$tmp/sw.json" > "$tmp/sw.txt"
run() {  # run SWEEP KDOP-SIM-OPTIONS...
  local sweep=$1; shift
  "$kdop" sim "$mesh" "$mesh" --poses "$poses" --json "$tmp/r.json" --arch paper "$@" >/dev/null
  jq -r '. as $r | .poses[] | [.index, $r.axes, ($r.continue_axes|tostring), $r.pipelines, .cycles, .accel_seconds*1e6,
         .pair_tests, .axis_tests, .axis_tests_issued, .axis_tests_cancelled, .axis_tests_continued, .triangle_tests,
         .contacts, .mem_beats, .mem_beats_wasted, .stall_cycles, .pipeline_utilization, .sim_seconds] | map(tostring) | join(",")' \
     "$tmp/r.json" > "$tmp/rows.csv"
  paste -d, "$tmp/labels.csv" "$tmp/rows.csv" "$tmp/sw.txt" |
    awk -F, -v s="$sweep" 'BEGIN{OFS=","} {print s,$3,$1,$2,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21}' >> "$csv"
}
for n in 1 2 3 4 6 8 12 16 20 24; do
  run axes --axes "$n" "$@"
  run axes --axes "$n" --continue-axes "$@"
done
for P in 1 2 4 8; do run pipelines --pipelines "$P" "$@"; done
for P in 1 2 4 8; do run pipelines-fastmem --pipelines "$P" --beats-per-cycle 4 "$@"; done
echo "wrote $csv ($(($(wc -l < "$csv") - 1)) rows)"
# Totals over the 16 poses, the tables docs/model.md quotes.
{ echo "sweep,n,continue,pipelines,total_cycles,accel_us,software_ms,sim_Mcycles_per_s"
  awk -F, 'NR>1 {k=$1","$5","$6","$7; c[k]+=$8; us[k]+=$9; sw[k]+=$22; sim[k]+=$21} END {
    for (k in c) printf "%s,%d,%.1f,%.1f,%.2f\n", k, c[k], us[k], sw[k], c[k]/sim[k]/1e6 }' "$csv" |
    sort -t, -k1,1 -k4,4n -k2,2n -k3,3; } > docs/model-sweep-totals.csv
cat docs/model-sweep-totals.csv
if command -v gnuplot >/dev/null; then
  gnuplot <<GP
set terminal svg size 900,520 font "sans,11"
set output "docs/model-sweep.svg"
set datafile separator ","
set title "kdop sim, cow vs cow, 16 poses: total cycles vs axes n per pair (Fig. 6, 7)"
set xlabel "axes n tested per DOP pair"
set ylabel "total cycles (16 poses)"
set key top right
plot "< grep '^axes,' docs/model-sweep-totals.csv | grep ',false,'" using 2:5 with linespoints title "stop after n axes", \
     "< grep '^axes,' docs/model-sweep-totals.csv | grep ',true,'" using 2:5 with linespoints title "continued testing (Fig. 7)"
GP
  gnuplot <<GP
set terminal svg size 900,520 font "sans,11"
set output "docs/model-sweep-pipelines.svg"
set datafile separator ","
set title "kdop sim, cow vs cow, 16 poses, n = 24: total cycles vs SAT pipelines P"
set xlabel "pipelines P"
set ylabel "total cycles (16 poses)"
set logscale x 2
set yrange [0:*]
plot "< grep '^pipelines,' docs/model-sweep-totals.csv" using 4:5 with linespoints title "64-bit memory, 1 beat / cycle", \
     "< grep '^pipelines-fastmem,' docs/model-sweep-totals.csv" using 4:5 with linespoints title "4 beats / cycle"
GP
  echo "wrote docs/model-sweep.svg docs/model-sweep-pipelines.svg"
fi
