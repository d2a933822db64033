#!/usr/bin/env bash
# Host instructions per simulated query clock of the verilated v2 top, by RTL block (callgrind,
# scripts/rtl_sim_profile.py; independent of the machine's load). Writes the table into
# docs/accelerator-v2.md (marked section "rtl-sim-profile").
# Usage: scripts/rtl-sim-profile.sh [build dir, default build/release] [rtl_sim_profile.py options]
# Needs: cmake --build <build dir> --target rtl_sim_bench_prof; valgrind, addr2line.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
shift || true
bench="$build/bench/rtl_sim_bench_prof"
[ -x "$bench" ] || { echo "rtl-sim-profile: $bench not built (cmake --build $build --target rtl_sim_bench_prof)" >&2; exit 1; }
for tool in valgrind addr2line; do
  command -v $tool > /dev/null || { echo "rtl-sim-profile: $tool not found" >&2; exit 1; }
done
# The top's compiler (verilated/CMakeLists.txt: clang++ when found, wanted and not under the sanitizers).
cache() { grep -m1 "^$1:" "$build/CMakeCache.txt" | cut -d= -f2- || true; }
cxx=g++
if [[ "$(cache KDOPCD_VERILATED_CLANG)" == ON && "$(cache KDOPCD_VERILATED_CXX)" == /* &&
      ! "$(cache KDOPCD_SANITIZE)" =~ ^(ON|TRUE|1)$ ]]; then
  cxx=$(basename "$(cache KDOPCD_VERILATED_CXX)")
fi
stamp="$(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), the top compiled with $cxx"
out=$(python3 scripts/rtl_sim_profile.py "$bench" "$@")
echo "$out"
TABLE="<!-- rtl-sim-profile:begin (scripts/rtl-sim-profile.sh; measured $stamp) -->
$out
<!-- rtl-sim-profile:end -->" scripts/replace-marked.py docs/accelerator-v2.md rtl-sim-profile
