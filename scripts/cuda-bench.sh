#!/usr/bin/env bash
# Host-backend timings of `kdop multibody` (docs/cuda.md §7): a generated cow scene, the binary
# and the explicit stack, 1 and 2 TBB threads; median of RUNS runs (default 5) of the narrow phase
# (wall and process CPU time) and of the whole run; then one --check run that times the reference
# (kdopcd::collide, 1 thread) on the same object pairs and compares every contact set.
# Usage: scripts/cuda-bench.sh [objects] [density] [seed]        (default: 512 4 1)
# BENCH_BUILD_DIR=build/xyz builds kdop there instead of build/release.
set -euo pipefail
cd "$(dirname "$0")/.."
objects="${1:-512}"
density="${2:-4}"
seed="${3:-1}"
runs="${RUNS:-5}"
build="${BENCH_BUILD_DIR:-build/release}"
[ -x /usr/local/cuda/bin/nvcc ] && export CUDACXX=/usr/local/cuda/bin/nvcc
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)" --target kdop >/dev/null
kdop="$build/sim/kdop"
work="$build/cuda-bench"
mkdir -p "$work"
scene="$work/cows_${objects}_${density}_${seed}.json"
"$kdop" multibody-scene --mesh data/meshes/cow.off --objects "$objects" --density "$density" --seed "$seed" -o "$scene"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg) before"
echo
echo "| traversal | threads | narrow wall ms | narrow CPU ms | total wall ms | total CPU ms | DOP pair tests | candidates | contacts |"
echo "|---|---|---|---|---|---|---|---|---|"
for traversal in binary explicit; do
  for threads in 1 2; do
    for i in $(seq "$runs"); do
      "$kdop" multibody "$scene" --backend host --threads "$threads" --traversal "$traversal" \
        --json "$work/run_${traversal}_${threads}_$i.json" >/dev/null
    done
    python3 - "$traversal" "$threads" "$work"/run_"${traversal}"_"${threads}"_*.json <<'PY'
import json, statistics, sys
t, n, files = sys.argv[1], sys.argv[2], sys.argv[3:]
rs = [json.load(open(f)) for f in files]
med = lambda k: statistics.median(r["seconds"][k] for r in rs) * 1e3
r = rs[0]
print(f"| {t} | {n} | {med('narrow'):.1f} | {med('narrow_cpu'):.1f} | {med('total'):.1f} | {med('total_cpu'):.1f} | "
      f"{r['pair_tests']} | {r['candidates']} | {r['contacts']} |")
PY
  done
done
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after; reference check (1 thread):"
"$kdop" multibody "$scene" --backend host --threads 1 --check | grep -E "narrow phase|check:"
