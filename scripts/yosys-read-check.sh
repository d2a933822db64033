#!/usr/bin/env bash
# Reads both accelerator tops (every module below them at the tops' parameters) with Yosys the way
# the synthesis scripts do (read_verilog -sv; hierarchy) and fails on the warnings with which
# Yosys 0.23 turns constructs it does not resolve into a silently wrong netlist: an implicitly
# declared identifier (a package's struct nested in a struct, docs/toolchain.md §4) and a range select out of bounds (its consequence); and refuses the arrays of struct types that
# it narrows without a warning. Used by ctest (yosys_read_tops).
# It stops after `hierarchy`: Yosys's frontend elaborates every module at its parameters there and
# gives both warnings then; `proc` (which the synthesis scripts run next) adds no check of these
# and took 7 of this test's 8 minutes.
# Usage: scripts/yosys-read-check.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
check() {  # check FOLDER TOP [chparam args]
  local dir=$1 top=$2 cp=${3:-}
  local sources
  sources=$(sed -n 's#^\([A-Za-z0-9_.].*\.sv\)$#'"$root/rtl/$dir"'/\1#p' "$root/rtl/$dir/filelist.f" | tr '\n' ' ')
  if ! yosys -p "read_verilog -sv $sources; ${cp:+chparam $cp $top;} hierarchy -top $top" > "$log" 2>&1; then
    echo "yosys-read-check: $top: yosys failed:" >&2
    grep -i "error" "$log" | head -5 >&2
    status=1
    return
  fi
  if grep -E "is implicitly declared|out of bounds on signal" "$log" > /dev/null; then
    echo "yosys-read-check: $top: Yosys does not resolve part of the design:" >&2
    grep -E "is implicitly declared|out of bounds on signal" "$log" | head -8 >&2
    status=1
    return
  fi
  echo "yosys-read-check: $top clean"
}
check paper kdopcd_top
check v2 kdopcd_v2_top
# Yosys 0.23 also gives the elements of an array of a struct type (packed or unpacked) and of a
# packed array of an enum type one bit each, without a warning: the design files declare no such
# array (a vector of the struct's width holds the value; docs/toolchain.md §4).
arrays=$(grep -nE '^\s*[A-Za-z0-9_:]+_t\s*\[|^\s*[A-Za-z0-9_:]+_t\s+[A-Za-z0-9_]+\s*\[|^\s*[A-Za-z0-9_:]+_e\s*\[' \
  "$root"/rtl/common/*.sv "$root"/rtl/paper/*.sv "$root"/rtl/v2/*.sv || true)
if [ -n "$arrays" ]; then
  echo "yosys-read-check: arrays of a struct type (or packed arrays of an enum), which Yosys 0.23 narrows to one bit:" >&2
  echo "$arrays" | head -8 >&2
  status=1
else
  echo "yosys-read-check: no arrays of struct types"
fi
exit $status
