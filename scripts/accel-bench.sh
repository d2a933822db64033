#!/usr/bin/env bash
# The accelerator model against the reference's float query on this machine (bench/accel_bench):
# v2 at 250 MHz (START to DONE, end to end through the command queue over each host interface,
# and the throughput of 10^4 queries with 1, 2 and 4 engines) and the paper configuration at
# 100 MHz (START to DONE), on the benchmark scenes and on held-out scenes (mesh pairs the
# benchmark never used, seeded pose searches) in the four pose classes. Writes the two result
# tables into docs/benchmarks-accel.md (marked sections).
# Usage: scripts/accel-bench.sh [build dir, default build/release]   (about 3 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
bench="$build/bench/accel_bench"
[ -x "$bench" ] || { echo "accel-bench: $bench not built" >&2; exit 1; }
scenes=(--scene cow:cow --scene elephant:hand --scene mushroom:couplingdown --scene bunny00:turbine
        --scene armadillo:ChineseDragon-10kv)
stamp="$(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for arch in v2 paper; do
  out=$("$bench" --arch "$arch" "${scenes[@]}" --csv "docs/benchmarks-accel-$arch.csv")
  echo "$out"
  TABLE="<!-- accel-$arch:begin (scripts/accel-bench.sh; measured $stamp) -->
$out
<!-- accel-$arch:end -->" scripts/replace-marked.py docs/benchmarks-accel.md "accel-$arch"
done
