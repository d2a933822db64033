#!/usr/bin/env bash
# Simulated clocks per second of the verilated v2 top (bench/rtl_sim_bench) on real scenes in the
# four pose classes, every query checked against the reference's fixed backend. Writes the table
# into docs/accelerator-v2.md (marked section "rtl-sim-speed").
# Usage: scripts/rtl-sim-bench.sh [build dir, default build/release] [rtl_sim_bench options]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
shift || true
bench="$build/bench/rtl_sim_bench"
[ -x "$bench" ] || { echo "rtl-sim-bench: $bench not built (cmake --build $build --target rtl_sim_bench)" >&2; exit 1; }
stamp="$(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg) before the run"
out=$("$bench" "$@")
echo "$out"
TABLE="<!-- rtl-sim-speed:begin (scripts/rtl-sim-bench.sh; measured $stamp) -->
$out
<!-- rtl-sim-speed:end -->" scripts/replace-marked.py docs/accelerator-v2.md rtl-sim-speed
