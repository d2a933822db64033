#!/usr/bin/env bash
# The GPU check, run on a machine with a GPU (CUDA driver, nvidia-smi, compute-sanitizer) from the
# folder scripts/gpu-bundle.sh made, with nothing else installed: the GPU tests,
# the GPU rows of the three-way comparison (bench compare_backends: the GPU against the reference on
# this machine's cores), a look at where the GPU's time goes, and compute-sanitizer's racecheck and
# memcheck, within 10 minutes at the steps' limits (a few minutes when every step passes).
# Prints one summary table last. Writes into OUT (default ./gpu-check-out): compare.json (the rows,
# for scripts/compare-backends.sh --gpu-json), summary.md, logs.tar.gz.
# Usage: bash gpu-check.sh [OUT]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$here/gpu-check-out}"
mkdir -p "$out"
logs="$(mktemp -d)"
export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export KDOPCD_MESH_DIR="$here/meshes"
bin="$here/bin"
rows=()
failed=0

# step NAME TIMEOUT_S COMMAND...: runs it with a time limit, its output into NAME.log.
step() {
  local name="$1" limit="$2"
  shift 2
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout "$limit" "$@" >"$logs/$name.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  local verdict=passed
  if [ "$rc" -eq 124 ]; then verdict="TIMED OUT (${limit} s)"; failed=1
  elif [ "$rc" -ne 0 ]; then verdict="FAILED (exit $rc)"; failed=1; fi
  rows+=("| $name | $verdict | $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') |")
  echo "gpu-check: $name: $verdict" >&2
}

{
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv
  nproc
  grep -m1 "model name" /proc/cpuinfo
} >"$logs/machine.log" 2>&1
gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
cores="$(nproc)"
if [ -z "$gpu" ]; then
  echo "gpu-check: nvidia-smi finds no GPU here: nothing to check" >&2
  exit 2
fi
sanitizer="$(command -v compute-sanitizer || true)"
[ -n "$sanitizer" ] || [ ! -x /usr/local/cuda/bin/compute-sanitizer ] || sanitizer=/usr/local/cuda/bin/compute-sanitizer

# 1. The GPU tests (every device result against the host backend and the reference). The one Gpu
#    test that checks the error without a device skips where there is one: it is left out.
step gpu-tests 90 "$bin/cuda_tests" --gtest_filter='Gpu.*:-Gpu.CudaBackendWithoutDeviceIsAnInputError'
if grep -q "SKIPPED \]" "$logs/gpu-tests.log"; then
  rows+=("| gpu-tests | FAILED: a GPU test skipped (see gpu-tests.log) | - |")
  failed=1
fi
# A hang would be the one-launch front's grid-wide barrier (docs/cuda.md §4.4): the rest of the
# check then runs without it, so that its figures still come back.
if printf '%s\n' "${rows[@]}" | grep -q "TIMED OUT"; then
  export KDOPCD_FUSED_FRONT=0
  rows+=("| (the rest without the one-launch front: KDOPCD_FUSED_FRONT=0) | - | - |")
fi
# 2. The comparison's GPU rows (and this host's reference rows beside them): the benchmark pairs in
#    the four pose classes, three meshes against themselves overlapping (10^4 to 10^5 DOP pair
#    tests), the multibody scenes. The per-pair reference and the one-thread host backend only up
#    to the 4 096-cow scene. compare.json is rewritten after every row, so a step stopped by its
#    limit keeps what it measured.
step compare 200 "$bin/compare_backends" --meshes "$KDOPCD_MESH_DIR" --gpu --machine-name "$gpu, $cores host cores" \
  --reference-max-pairs 25000 --one-thread-max-pairs 25000 --json "$out/compare.json"
# 3. Where the GPU's time goes (not part of the verdict): `kdop multibody --frames` per-phase times
#    of 4 096 cows at three front splits, with the explicit stack and the fixed SAT, of 32 768
#    cows, and of the
#    overlapping armadillo pair (front in one launch and one launch per level); the single cow
#    and overlapping pairs with one launch per level; a kernel summary from Nsight Systems where
#    it is installed. The reports are in logs.tar.gz.
explore() {
  local k="$bin/kdop" d="$logs/explore"
  mkdir -p "$d"
  "$k" multibody-scene --mesh "$KDOPCD_MESH_DIR/cow.off" --objects 4096 --density 4 --seed 1 -o "$d/cows4096.json" || return 1
  printf '{"objects":[\n {"mesh":"%s","rotation":[1,0,0,0],"translation":[0,0,0]},\n {"mesh":"%s","rotation":[0.98,0,0.199,0],"translation":[0.05,0.02,0]}\n]}\n' \
    "$KDOPCD_MESH_DIR/armadillo.off" "$KDOPCD_MESH_DIR/armadillo.off" >"$d/armadillo-pair.json"
  local v
  for v in "default:" "split262144:--split 262144" "split4194304:--split 4194304" "explicit:--traversal explicit" \
           "fixed:--sat fixed"; do
    "$k" multibody "$d/cows4096.json" --backend cuda --frames 6 ${v#*:} --json "$d/cows4096-${v%%:*}.json" || return 1
  done
  "$k" multibody-scene --mesh "$KDOPCD_MESH_DIR/cow.off" --objects 32768 --density 4 --seed 1 -o "$d/cows32768.json" || return 1
  "$k" multibody "$d/cows32768.json" --backend cuda --frames 4 --json "$d/cows32768-default.json" || return 1
  "$k" multibody "$d/armadillo-pair.json" --backend cuda --frames 6 --json "$d/armadillo-cuda.json" || return 1
  KDOPCD_FUSED_FRONT=0 "$k" multibody "$d/armadillo-pair.json" --backend cuda --frames 6 \
    --json "$d/armadillo-cuda-levels.json" || return 1
  "$k" multibody "$d/armadillo-pair.json" --backend host --frames 6 --json "$d/armadillo-host.json" || return 1
  # The single pairs with one launch per front level, beside the comparison's (one launch).
  KDOPCD_FUSED_FRONT=0 "$bin/compare_backends" --meshes "$KDOPCD_MESH_DIR" --gpu --no-multibody --pair cow:cow \
    --json "$d/pairs-levels.json" >"$d/pairs-levels.md" || return 1
  local nsys
  nsys="$(command -v nsys || ls /usr/local/cuda/bin/nsys 2>/dev/null || true)"
  if [ -n "$nsys" ]; then
    "$nsys" profile --stats=true --force-overwrite true -o "$d/cows4096" "$k" multibody "$d/cows4096.json" \
      --backend cuda --frames 3 >"$d/nsys.txt" 2>&1 || echo "nsys failed" >>"$d/nsys.txt"
    rm -f "$d"/cows4096.nsys-rep "$d"/cows4096.sqlite
  else
    echo "nsys not found" >"$d/nsys.txt"
  fi
}
step explore 60 bash -c "$(declare -f explore); bin='$bin' logs='$logs' KDOPCD_MESH_DIR='$KDOPCD_MESH_DIR' explore"

# 4. compute-sanitizer on the small GPU tests and the single-pair queries (the one-launch front):
#    shared-memory races (the one-launch front's block-shared level count; CUB's kernels), then
#    out-of-bounds and misaligned accesses and leaks, last, as the slowest step.
sanitized='Gpu.*Small*:Gpu.PairQueries*'
if [ -n "$sanitizer" ]; then
  step racecheck 80 "$sanitizer" --tool racecheck --error-exitcode 1 "$bin/cuda_tests" --gtest_filter="$sanitized"
  step memcheck 150 "$sanitizer" --tool memcheck --leak-check full --error-exitcode 1 \
    "$bin/cuda_tests" --gtest_filter="$sanitized"
else
  rows+=("| memcheck / racecheck | NOT RUN: compute-sanitizer not found | - |")
  failed=1
fi
tar -czf "$out/logs.tar.gz" -C "$logs" .
{
  echo "# GPU check: $gpu, $cores host cores, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo
  echo "| step | result | seconds |"
  echo "|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  if [ -s "$logs/compare.log" ]; then cat "$logs/compare.log"; fi
} >"$out/summary.md"
cat "$out/summary.md"
exit "$failed"
