#!/usr/bin/env bash
# Long regression of the fixed-point error bound (docs/fixed-point.md §7): 10^8 random samples per
# width (default), split into one shard per core, each shard pinned to its core (TBB then uses one
# thread per process), the JSON reports merged. Not part of CI: about 3 us per sample on one core,
# so ~5 core-minutes per 10^8 samples and width; run it after changing the fixed-point arithmetic
# or the quantizers.
#
# Usage: scripts/verify-bound-long.sh [build-dir]
# Environment: SAMPLES (default 100000000), BITS (default "18,18,18 35,35,35"), K (default 24),
#              SEED (default 1), JOBS (default nproc), OUT (default build/verify-bound-long),
#              VECTORS (optional R-line vector file checked too, e.g. from kdop vectors).
# Exit status: 0 if every merged report passed (no false negatives, every error within the bound).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
kdop="$build/sim/kdop"
[[ -x "$kdop" ]] || { echo "verify-bound-long: $kdop not found (build the kdop target first)" >&2; exit 2; }
samples="${SAMPLES:-100000000}"
bits_list="${BITS:-18,18,18 35,35,35}"
k="${K:-24}"
seed="${SEED:-1}"
jobs="${JOBS:-$(nproc)}"
out="${OUT:-build/verify-bound-long}"
mkdir -p "$out"
extra=()
[[ -n "${VECTORS:-}" ]] && extra=(--vectors "$VECTORS")

status=0
for bits in $bits_list; do
  tag="b${bits//,/_}_k${k}"
  echo "== bits $bits, k $k: $samples samples in $jobs shards"
  pids=()
  for ((i = 0; i < jobs; ++i)); do
    cpu=$((i % $(nproc)))
    taskset -c "$cpu" "$kdop" verify-bound --bits "$bits" --k "$k" --samples "$samples" --seed "$seed" \
      --shard "$i/$jobs" "${extra[@]}" --report "$out/$tag.shard$i.json" >"$out/$tag.shard$i.log" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || true; done  # a failing shard still writes its report
  reports=()
  for ((i = 0; i < jobs; ++i)); do reports+=("$out/$tag.shard$i.json"); done
  if ! "$kdop" verify-bound merge "${reports[@]}" --report "$out/$tag.json"; then status=1; fi
done
exit $status
