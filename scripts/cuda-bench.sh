#!/usr/bin/env bash
# Host-backend timings of `kdop multibody` (docs/cuda.md §7): does the narrow phase use a second
# thread? Two workloads, each run with 1 and 2 TBB threads alternately, ROUNDS rounds (default 4),
# every run a simulation of FRAMES frames (default 10, trees resident) whose per-frame median is
# taken (frame 0, which first touches the buffers, left out); reported: the median over rounds of
# the wall time per frame and of the narrow phase's CPU time, and the 1 -> 2 thread ratio.
#   - one large pair: armadillo against itself, overlapping (about 2 x 10^5 DOP pair tests), the
#     case that one thread per object pair cannot spread;
#   - a generated scene of 512 cows (density 4, seed 1: 2232 object pairs).
# The second core must be free for the ratio to mean anything: run it on an idle machine.
# Usage: scripts/cuda-bench.sh [build dir, default build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
rounds="${ROUNDS:-4}"
frames="${FRAMES:-10}"
kdop="$build/sim/kdop"
[ -x "$kdop" ] || { echo "cuda-bench: $kdop not built" >&2; exit 1; }
work="$build/cuda-bench"
mkdir -p "$work"
mesh="$(pwd)/data/meshes/armadillo.off"
cat > "$work/armadillo-pair.json" <<EOF
{"objects":[
 {"mesh":"$mesh","rotation":[1,0,0,0],"translation":[0,0,0]},
 {"mesh":"$mesh","rotation":[0.98,0,0.199,0],"translation":[0.05,0.02,0]}
]}
EOF
"$kdop" multibody-scene --mesh data/meshes/cow.off --objects 512 --density 4 --seed 1 -o "$work/cows512.json" > /dev/null

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores;" \
     "load average $(cut -d' ' -f1-3 /proc/loadavg) before; $rounds rounds of $frames frames"
echo
echo "| workload | DOP pair tests (frame 1) | 1 thread: ms per frame (narrow CPU ms) | 2 threads: ms per frame (narrow CPU ms) | 1 -> 2 threads |"
echo "|---|---|---|---|---|"
for scene in armadillo-pair cows512; do
  for round in $(seq "$rounds"); do
    for threads in 1 2; do
      "$kdop" multibody "$work/$scene.json" --backend host --threads "$threads" --frames "$frames" \
        --json "$work/${scene}_${threads}_$round.json" > /dev/null
    done
  done
  python3 - "$scene" "$work" "$rounds" <<'PY'
import json, statistics, sys
scene, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
def per_round(threads, key):
    out = []
    for r in range(1, rounds + 1):
        frames = json.load(open(f"{work}/{scene}_{threads}_{r}.json"))["frames"][1:]
        out.append(statistics.median(f["seconds"][key] for f in frames))
    return statistics.median(out) * 1e3
tests = json.load(open(f"{work}/{scene}_1_1.json"))["frames"][1]["pair_tests"]
w1, w2 = per_round(1, "total"), per_round(2, "total")
c1, c2 = per_round(1, "narrow_cpu"), per_round(2, "narrow_cpu")
print(f"| {scene} | {tests} | {w1:.2f} ({c1:.2f}) | {w2:.2f} ({c2:.2f}) | {w1 / w2:.2f}x |")
PY
done
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after"
