#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, docs/fuzzing.md) with clang and runs each one for a fixed
# time on a copy of its seed corpus (fuzz/corpus/<target>; the repository's seeds are never
# modified). Prints, per target, the executions, the time, the corpus size reached and the
# findings; a finding (crash, uncaught exception, leak, timeout, out of memory) is kept under the
# findings folder and makes the script fail.
#
#   scripts/fuzz.sh [--seconds N] [--build DIR] [--findings DIR] [--jobs J] [TARGET...]
#
# Defaults: 60 s per target, build/fuzz, findings in <build>/findings. TARGET names are
# mesh_off mesh_obj mesh_stl mesh_ply poses vectors scene tree_image cli (default: all).
# Exit status 77 (ctest's "skipped") when clang++ cannot link -fsanitize=fuzzer (install clang and
# libclang-rt-dev, or clang-14 and libclang-rt-14-dev on Debian 12).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
seconds=60
build="$root/build/fuzz"
findings=""
jobs=2
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --findings) findings="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    -*) echo "fuzz: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(mesh_off mesh_obj mesh_stl mesh_ply poses vectors scene tree_image cli)
[ -n "$findings" ] || findings="$build/findings"

# clang with libFuzzer?
cxx=""
for c in "${KDOPCD_FUZZ_CXX:-}" clang++ clang++-16 clang++-15 clang++-14; do
  [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 && { cxx=$(command -v "$c"); break; }
done
probe=$(mktemp -d); trap 'rm -rf "$probe"' EXIT
if [ -z "$cxx" ]; then
  echo "fuzz: SKIP: no clang++ (libFuzzer is clang's; apt-get install clang libclang-rt-14-dev)"; exit 77
fi
printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' > "$probe/p.cpp"
if ! "$cxx" -fsanitize=fuzzer,address "$probe/p.cpp" -o "$probe/p" >"$probe/log" 2>&1; then
  echo "fuzz: SKIP: $cxx cannot link -fsanitize=fuzzer (apt-get install libclang-rt-14-dev):"
  head -3 "$probe/log"; exit 77
fi

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root/fuzz" -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null ||
    { echo "fuzz: configuring $build failed" >&2; exit 1; }
fi
cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}" >"$probe/build.log" 2>&1 ||
  { tail -30 "$probe/build.log"; echo "fuzz: build failed" >&2; exit 1; }

mkdir -p "$findings"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
printf '%-12s %12s %8s %10s %8s %9s\n' target executions seconds "exec/s" corpus findings
status=0
total_runs=0
for t in "${targets[@]}"; do
  exe="$build/fuzz_$t"
  seeds="$root/fuzz/corpus/$t"
  [ -x "$exe" ] || { echo "fuzz: no target $exe" >&2; status=1; continue; }
  work="$probe/corpus_$t"; mkdir -p "$work"
  log="$findings/$t.log"
  rm -f "$findings/$t-"*  # the count below is this run's
  # -timeout: one input taking longer than 10 s is a finding (a parse that never ends);
  # -rss_limit_mb: memory a malformed size field makes the parser reserve.
  "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$findings/$t-" "$work" "$seeds" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  [ -n "$secs" ] || secs=$seconds
  corpus=$(find "$work" -type f | wc -l)
  found=$(find "$findings" -maxdepth 1 -name "$t-*" -type f | wc -l)
  rate=$(( ${runs:-0} / (secs > 0 ? secs : 1) ))
  printf '%-12s %12s %8s %10s %8s %9s\n' "$t" "${runs:-?}" "$secs" "$rate" "$corpus" "$found"
  total_runs=$(( total_runs + ${runs:-0} ))
  if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    status=1
    echo "fuzz: $t: exit $rc, findings in $findings/$t-* (log $log):"
    grep -m5 -E "ERROR|SUMMARY|terminate|what\(\)" "$log" | sed 's/^/    /'
  elif [ "${runs:-0}" -eq 0 ]; then
    # -print_final_stats=1 always reports the count: none, or zero, means the target did not fuzz.
    status=1
    echo "fuzz: $t: exit 0 but no executions reported (log $log):"
    tail -5 "$log" | sed 's/^/    /'
  fi
done
echo "fuzz: $total_runs executions over ${#targets[@]} target(s), ${seconds} s each"
exit $status
