#!/usr/bin/env bash
# verilator --lint-only -Wall of the whole accelerator top (rtl/paper/filelist.f) with the protocol
# checkers bound to it (rtl/verif/, --assert) and every waiver file (each waiver carries its reason), for
# shapes other than the contract's defaults. The defaults of both tops are linted by the build itself:
# verilated/ verilates them with -Wall --assert, the checkers and the same waivers, and a warning
# fails it. Used by ctest (top_lint).
set -euo pipefail
rtl=$(cd "$(dirname "$0")/../rtl" && pwd)
for g in "-GB=35 -GC=35 -GZ=35" "-GK=26 -GW=128 -GMAX_OUT=1" "-GK=14 -GW=32 -GSTACK_DEPTH=64 -GBURST_MAX=4"; do
  # shellcheck disable=SC2086
  verilator --lint-only -Wall --assert --top-module kdopcd_top -F "$rtl/paper/filelist.f" -F "$rtl/verif/filelist.f" \
    "$rtl/verif/kdopcd_top_checkers.sv" "$rtl"/common/*.vlt "$rtl"/paper/*.vlt "$rtl"/verif/*.vlt $g
  echo "top-lint: clean $g"
done
# The v2 top (rtl/v2/filelist.f): a small synthesis-sized configuration and other queue/latency shapes.
for g in "-GNODE_AW=13 -GTRI_AW=12" "-GPAIRS_IN_FLIGHT=4 -GTRI_II=1 -GRAM_LAT=1 -GTRI_QUEUE=2 -GCONTACT_QUEUE=1" \
         "-GW=128 -GPENDING_DEPTH=64 -GTRI_II=16 -GTRI_LAT=30 -GRAM_LAT=3 -GDMA_W=256 -GDESC_BUFFERS=2"; do
  # shellcheck disable=SC2086
  verilator --lint-only -Wall --assert --top-module kdopcd_v2_top -F "$rtl/v2/filelist.f" -F "$rtl/verif/filelist.f" \
    "$rtl/verif/kdopcd_v2_top_checkers.sv" "$rtl"/common/*.vlt "$rtl"/v2/*.vlt "$rtl"/verif/*.vlt $g
  echo "top-lint: v2 clean $g"
done
