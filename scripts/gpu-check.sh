#!/usr/bin/env bash
# The GPU check, run on a machine with a GPU (CUDA driver, nvidia-smi, compute-sanitizer) from the
# folder scripts/gpu-bundle.sh made, with nothing else installed: the GPU tests, the GPU rows of
# the three-way comparison (bench compare_backends: the GPU against the reference on this
# machine's cores), a look at where the GPU's time goes, the CCD cloth with its elementary tests on
# the host and on the GPU, and compute-sanitizer's racecheck and
# memcheck, within the steps' limits (560 s in all; summary.md and logs.tar.gz are rewritten after
# every step, so a run stopped from outside keeps what it did).
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
  write_summary
}

# summary.md and logs.tar.gz, rewritten after every step: a run stopped from outside keeps them.
write_summary() {
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

# 1. The GPU tests (every device result against the host backend and the reference; the device
#    set-up bit for bit against the host's). The one Gpu test that checks the error without a
#    device skips where there is one: it is left out.
step gpu-tests 45 "$bin/cuda_tests" --gtest_filter='Gpu*:SetupScene.Gpu*:-Gpu.CudaBackendWithoutDeviceIsAnInputError'
if grep -q "SKIPPED \]" "$logs/gpu-tests.log"; then
  rows+=("| gpu-tests | FAILED: a GPU test skipped (see gpu-tests.log) | - |")
  failed=1
fi
# 2. The comparison's GPU rows (and this host's reference rows beside them): the benchmark pairs in
#    the four pose classes, three meshes against themselves overlapping (10^4 to 10^5 DOP pair
#    tests), the multibody scenes. The per-pair reference and the one-thread host backend only up
#    to the 4 096-cow scene. compare.json is rewritten after every row, so a step stopped by its
#    limit keeps what it measured.
step compare 110 "$bin/compare_backends" --meshes "$KDOPCD_MESH_DIR" --gpu --machine-name "$gpu, $cores host cores" \
  --reference-max-pairs 25000 --one-thread-max-pairs 25000 --json "$out/compare.json"
# 3. Where the GPU's time goes (not part of the verdict): `kdop multibody --frames` per-phase times
#    of 4 096 and 32 768 cows, the latter also at splits 2^24 and 2^26; a kernel summary from Nsight
#    Systems where it is installed. The reports are in logs.tar.gz.
explore() {
  local k="$bin/kdop" d="$logs/explore" n
  mkdir -p "$d"
  for n in 4096 32768; do
    "$k" multibody-scene --mesh "$KDOPCD_MESH_DIR/cow.off" --objects "$n" --density 4 --seed 1 -o "$d/cows$n.json" || return 1
    "$k" multibody "$d/cows$n.json" --backend cuda --frames 4 --json "$d/cows$n-phases.json" || return 1
  done
  # 32 768 cows outgrow the default split (2^22): wider fronts, for the next choice of default.
  local split
  for split in 16777216 67108864; do
    "$k" multibody "$d/cows32768.json" --backend cuda --frames 3 --split "$split" \
      --json "$d/cows32768-split$split.json" || return 1
  done
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
step explore 40 bash -c "$(declare -f explore); bin='$bin' logs='$logs' KDOPCD_MESH_DIR='$KDOPCD_MESH_DIR' explore"
# 4. Continuous collision (docs/ccd.md): the 92k-triangle cloth over the cow, 200 frames with
#    self-collision, per interval times with the elementary tests inline (all cores, and 2 threads
#    as on the project's build machine), in batches on the host and in batches on the GPU; every
#    run's answers are compared with the inline run's (time and contacts of every interval).
ccd() {
  local k="$bin/kdop" d="$logs/ccd" mode
  mkdir -p "$d"
  "$k" ccd-gen cloth --mesh "$KDOPCD_MESH_DIR/cow.off" --frames 200 --out "$d/cloth.kframes" >"$d/gen.txt" || return 1
  "$k" ccd-sequence "$d/cloth.kframes" --self --list 0 --threads 2 --json "$d/inline-2.json" >"$d/inline-2.txt" || return 1
  for mode in inline batch cuda; do
    "$k" ccd-sequence "$d/cloth.kframes" --self --list 0 --threads 0 --elementary "$mode" --json "$d/$mode.json" \
      >"$d/$mode.txt" || return 1
    tail -1 "$d/$mode.txt" | sed "s/^/$mode, all cores: /"
  done
  tail -1 "$d/inline-2.txt" | sed "s/^/inline, 2 threads: /"
  rm -f "$d/cloth.kframes"
  python3 - "$d" <<'PY'
import json, sys
d = sys.argv[1]
def answers(name):
    j = json.load(open(f"{d}/{name}.json"))
    return [(i.get("time"), (i.get("self") or {}).get("contacts"), (i.get("pair") or {}).get("contacts"))
            for i in j["intervals"]]
reference = answers("inline")
failed = False
for name in ("inline-2", "batch", "cuda"):
    got = answers(name)
    differing = [f for f, (a, b) in enumerate(zip(got, reference)) if a != b]
    if len(got) != len(reference) or differing:
        print(f"{name}: answers DIFFER from the inline run's (intervals {differing[:10]})")
        failed = True
    else:
        print(f"{name}: answers equal the inline run's in all {len(got)} intervals")
sys.exit(1 if failed else 0)
PY
  local rc=$?
  rm -f "$d"/*.json  # tens of MB of contacts each: the comparison above is what they were for
  return "$rc"
}
step ccd 60 bash -c "$(declare -f ccd); bin='$bin' logs='$logs' KDOPCD_MESH_DIR='$KDOPCD_MESH_DIR' ccd"

# 5. compute-sanitizer: shared-memory races (CUB's kernels) on the small GPU tests, then
#    out-of-bounds and misaligned accesses and leaks, last, as the slowest step (it instruments
#    every kernel at its first launch): the single-pair queries, the moving scene (front,
#    binary-stack units, triangles, set-up; both SATs) and the CCD elementary-test filter, then
#    every traversal's units.
if [ -n "$sanitizer" ]; then
  step racecheck 50 "$sanitizer" --tool racecheck --error-exitcode 1 "$bin/cuda_tests" \
    --gtest_filter='Gpu/SmallScene.*:Gpu.SmallFrames*:Gpu.PairQueries*'
  step memcheck-pairs 75 "$sanitizer" --tool memcheck --leak-check full --error-exitcode 1 "$bin/cuda_tests" \
    --gtest_filter='Gpu.PairQueries*:Gpu.SmallFrames*:Gpu.Ccd*'
  # 17-100 s a traversal under memcheck on an H200: GPU_CHECK_MEMCHECK_TRAVERSALS (a gtest filter) picks
  # which of the seven a run covers.
  step memcheck-traversals 180 "$sanitizer" --tool memcheck --leak-check full --error-exitcode 1 "$bin/cuda_tests" \
    --gtest_filter="${GPU_CHECK_MEMCHECK_TRAVERSALS:-Gpu/SmallScene.*}"
else
  rows+=("| memcheck / racecheck | NOT RUN: compute-sanitizer not found | - |")
  failed=1
fi
write_summary
cat "$out/summary.md"
exit "$failed"
