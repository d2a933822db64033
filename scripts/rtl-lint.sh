#!/usr/bin/env bash
# Lints the SAT pipeline and the v2 wide SAT unit with 'verilator --lint-only -Wall' (waivers:
# rtl/common/kdopcd_sat_waivers.vlt) at the shapes the build does not verilate: one multiplier per
# product, z > b + c, small and large k, 35 and 44 bits. The regression sets are linted by the build
# itself: every verilate() runs -Wall with the same waivers, and a warning fails it (the pipeline at
# (18,18,18) and (35,35,35) in verilated/, the wide unit at (18,18,18) in testbenches/rtl/). The
# time-multiplexed triangle unit has its own lint (ctest rtl_tri_seq_lint, testbenches/tri/).
# Any warning fails. Usage: scripts/rtl-lint.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
status=0
lint() {  # lint TOP PARAMS
  # shellcheck disable=SC2086
  if verilator --lint-only -Wall "$root/rtl/common/kdopcd_sat_waivers.vlt" -F "$root/rtl/common/sat_filelist.f" --top-module "$1" $2; then
    echo "lint clean ($1): $2"
  else
    echo "lint FAILED ($1): $2"
    status=1
  fi
}
for params in "-GK=24 -GB=18 -GC=18 -GZ=18 -GMUL_W=25" "-GK=26 -GB=20 -GC=16 -GZ=40" \
              "-GK=6 -GB=4 -GC=4 -GZ=4" "-GK=14 -GB=44 -GC=44 -GZ=44 -GMUL_W=27"; do
  lint kdopcd_sat_pipeline "$params"
done
# The v2 wide SAT unit (kdopcd_sat_wide, kdopcd_sat_lane): it has no multiplier-width parameter.
for params in "-GK=24 -GB=35 -GC=35 -GZ=35" "-GK=26 -GB=20 -GC=16 -GZ=40" \
              "-GK=6 -GB=4 -GC=4 -GZ=4" "-GK=14 -GB=44 -GC=44 -GZ=44"; do
  lint kdopcd_sat_wide "$params"
done
exit $status
