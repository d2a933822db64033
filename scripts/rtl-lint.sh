#!/usr/bin/env bash
# Lints the SAT pipeline and the v2 wide SAT unit with 'verilator --lint-only -Wall' (waivers:
# rtl/common/kdopcd_sat_waivers.vlt) for the two regression parameter sets and a few other shapes (one
# multiplier per product, z > b + c, small k), and the time-multiplexed triangle unit
# (rtl/common/tri_seq_filelist.f, waivers rtl/common/kdopcd_tri_seq_waivers.vlt) at II = 1, 2, 4, 8, 16.
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
for params in "-GK=24 -GB=18 -GC=18 -GZ=18" "-GK=24 -GB=35 -GC=35 -GZ=35" \
              "-GK=24 -GB=18 -GC=18 -GZ=18 -GMUL_W=25" "-GK=26 -GB=20 -GC=16 -GZ=40" \
              "-GK=6 -GB=4 -GC=4 -GZ=4" "-GK=14 -GB=44 -GC=44 -GZ=44 -GMUL_W=27"; do
  lint kdopcd_sat_pipeline "$params"
done
# The v2 wide SAT unit (kdopcd_sat_wide, kdopcd_sat_lane): it has no multiplier-width parameter.
for params in "-GK=24 -GB=18 -GC=18 -GZ=18" "-GK=24 -GB=35 -GC=35 -GZ=35" "-GK=26 -GB=20 -GC=16 -GZ=40" \
              "-GK=6 -GB=4 -GC=4 -GZ=4" "-GK=14 -GB=44 -GC=44 -GZ=44"; do
  lint kdopcd_sat_wide "$params"
done
# The time-multiplexed triangle unit (rtl/common/tri_seq_filelist.f, waivers rtl/common/kdopcd_tri_seq_waivers.vlt)
# at the initiation intervals it is built for, its minimum latencies, and one smaller format.
for params in "-GII=8 -GLAT=23" "-GII=1 -GLAT=16" "-GII=2 -GLAT=17" "-GII=4 -GLAT=19" "-GII=16 -GLAT=30" \
              "-GII=8 -GLAT=23 -GV=8 -GM=8"; do
  # shellcheck disable=SC2086
  if verilator --lint-only -Wall "$root/rtl/common/kdopcd_tri_seq_waivers.vlt" -F "$root/rtl/common/tri_seq_filelist.f" \
       --top-module kdopcd_tri_seq $params; then
    echo "lint clean (kdopcd_tri_seq): $params"
  else
    echo "lint FAILED (kdopcd_tri_seq): $params"
    status=1
  fi
done
exit $status
