#!/usr/bin/env bash
# Architecture exploration of the accelerator model (docs/model-v2.md): the paper configuration,
# v2 with every move off, each move alone and combined, then sweeps of each v2 parameter around
# the chosen default. Scenes: the benchmark pairs (cow/cow, elephant/hand, mushroom/couplingdown,
# bunny00/turbine, armadillo/ChineseDragon-10kv), poses in the four classes (kdop poses).
# Every run is `kdop sim --compare`: a configuration whose contacts or counts differ from the
# reference's fixed backend fails the script.
# Writes docs/model-explore.csv (one row per configuration, scene and pose), docs/model-explore-totals.csv
# (per configuration: cycles summed over the intersecting and close-proximity poses) and, with
# gnuplot, docs/model-explore.svg.
# Usage: scripts/model-explore.sh [build dir, default build/release]   (about 4 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
kdop="$build/sim/kdop"
[ -x "$kdop" ] || { echo "model-explore: $kdop not built" >&2; exit 1; }
scenes=("cow cow" "elephant hand" "mushroom couplingdown" "bunny00 turbine" "armadillo ChineseDragon-10kv")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for s in "${scenes[@]}"; do
  read -r a b <<< "$s"
  [ -f "data/meshes/$a.off" ] && [ -f "data/meshes/$b.off" ] || { echo "model-explore: data/meshes/$a.off or $b.off missing (scripts/fetch-meshes.sh)" >&2; exit 1; }
  "$kdop" poses "data/meshes/$a.off" "data/meshes/$b.off" --out "$tmp/$a-$b.txt" >/dev/null
done
csv=docs/model-explore.csv
echo "group,config,scene,pose,class,cycles,pair_tests,triangle_tests,contacts,utilization,stall_cycles,mem_beats,cache_hits,cache_misses,dsp,sat_products,tree_ram_mbit,sim_seconds,batch_cycles" > "$csv"
classes=(intersecting close-proximity small-proximity separated)
run() {  # run GROUP NAME KDOP-SIM-OPTIONS...
  local group=$1 name=$2; shift 2
  local options=("$@") a b
  for s in "${scenes[@]}"; do
    read -r a b <<< "$s"
    "$kdop" sim "data/meshes/$a.off" "data/meshes/$b.off" --poses "$tmp/$a-$b.txt" --compare --json "$tmp/r.json" \
      "${options[@]}" \
      > "$tmp/out.txt" || { cat "$tmp/out.txt" >&2; echo "model-explore: $name on $a/$b failed" >&2; exit 1; }
    jq -r --arg g "$group" --arg n "$name" --arg s "$a/$b" '. as $r | .poses[] |
        [$g, $n, $s, .index, .cycles, .pair_tests, .triangle_tests, .contacts, .pipeline_utilization, .stall_cycles,
         .mem_beats, .cache_hits, .cache_misses, ($r.resources.dsp // ""), ($r.resources.sat_products // ""),
         (if $r.resources.tree_ram_bits then $r.resources.tree_ram_bits / 1e6 else "" end), .sim_seconds,
         $r.batch_cycles] |
        map(tostring) | join(",")' "$tmp/r.json" |
      awk -F, -v OFS=, 'BEGIN{split("intersecting close-proximity small-proximity separated", c, " ")}
                        {$4 = $4 "," c[$4 + 1]; print}' >> "$csv"
  done
}
off=(--pairs-in-flight 1 --sat-lanes 1 --tree-memory external --tri-ii 1)
run baseline paper --arch paper
run moves all-off "${off[@]}"
run moves a:in-flight --pairs-in-flight 32 --sat-lanes 1 --tree-memory external --tri-ii 1
run moves b:on-chip --pairs-in-flight 1 --sat-lanes 1 --tri-ii 1
run moves c:wide --pairs-in-flight 1 --tree-memory external --tri-ii 1
run moves a+b --pairs-in-flight 32 --sat-lanes 1 --tri-ii 1
run moves a+c --pairs-in-flight 32 --tree-memory external --tri-ii 1
run moves b+c --pairs-in-flight 1 --tri-ii 1
run moves a+b+c --pairs-in-flight 32 --tri-ii 1
for ii in 1 2 4 8 12 16 24; do run triangle-ii "ii=$ii" --tri-ii "$ii"; done
for f in 1 2 4 8 12 16 24 32 64; do run in-flight "f=$f" --pairs-in-flight "$f"; done
for l in 1 2 4 6 8 12 24; do run lanes "lanes=$l" --sat-lanes "$l"; done
for u in 1 2 4; do run units "u=$u/ii=1" --sat-units "$u" --pairs-in-flight 64 --tri-ii 1; done
for u in 1 2; do run units "u=$u/ii=8" --sat-units "$u" --pairs-in-flight 64; done
for e in 1 2 4; do run engines "e=$e" --engines "$e"; done
for c in 0 256 1024 4096 16384; do run cache "lines=$c" --tree-memory external --node-cache "$c" --bus-width 512; done
for r in 1 2 3; do run ram-latency "ram=$r" --ram-latency "$r"; done
run default v2
echo "wrote $csv ($(($(wc -l < "$csv") - 1)) rows)"
# Per configuration: cycles over the intersecting and close-proximity poses of all scenes (the
# benchmark's target queries), all poses, and the model's simulation speed.
totals=docs/model-explore-totals.csv
{ echo "group,config,target_cycles,all_cycles,batch_cycles,dsp,tree_ram_mbit,sim_Mcycles_per_s,sim_Mpairs_per_s"
  awk -F, 'NR>1 {k=$1","$2; if (!(k in order)) {order[k]=++n; keys[n]=k}
                  if ($5=="intersecting" || $5=="close-proximity") t[k]+=$6; all[k]+=$6; pairs[k]+=$7; sim[k]+=$18;
                  dsp[k]=$15; ram[k]=$17; if ($4 == 0) batch[k]+=$19}
       END {for (i=1;i<=n;i++) {k=keys[i]; printf "%s,%d,%d,%d,%s,%s,%.2f,%.2f\n", k, t[k], all[k], batch[k], dsp[k], ram[k],
                                  all[k]/sim[k]/1e6, pairs[k]/sim[k]/1e6}}' "$csv"; } > "$totals"
column -s, -t "$totals"
if command -v gnuplot >/dev/null; then
  for g in triangle-ii in-flight lanes; do
    awk -F, -v g="$g" 'NR>1 && $1==g {split($2, kv, "="); print kv[2], $3, $6}' "$totals" > "$tmp/$g.dat"
  done
  gnuplot <<GP
set terminal svg size 1100,360 font "sans,11"
set output "docs/model-explore.svg"
set multiplot layout 1,3 title "v2 model, 5 scenes: cycles of the intersecting + close-proximity poses (left axis), DSP48 estimate (right)"
set ylabel "cycles"; set y2label "DSP48"; set ytics nomirror; set y2tics; set key top left
set xlabel "triangle unit initiation interval"
plot "$tmp/triangle-ii.dat" u 1:2 w lp t "cycles", "" u 1:3 axes x1y2 w lp t "DSP48"
set xlabel "pairs in flight"; set logscale x 2
plot "$tmp/in-flight.dat" u 1:2 w lp t "cycles", "" u 1:3 axes x1y2 w lp t "DSP48"
unset logscale x; set xlabel "SAT lanes (axes per clock)"
plot "$tmp/lanes.dat" u 1:2 w lp t "cycles", "" u 1:3 axes x1y2 w lp t "DSP48"
unset multiplot
GP
  echo "wrote docs/model-explore.svg"
fi
