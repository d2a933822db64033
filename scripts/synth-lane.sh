#!/usr/bin/env bash
# Synthesizes one lane of the v2 wide SAT unit (rtl/common/kdopcd_sat_lane.sv; the unit is K lanes and a
# K-input OR / priority encoder) with Yosys synth_xilinx for 7-series, K = 24, b = c = z = 18, and
# writes its resources into docs/synthesis.md (synth-lane:begin/end markers). Logic depth: Yosys
# `ltp` with flip-flops and DSP48E1 cut, in cells (as scripts/synth-sat.sh). No place and route.
# Usage: scripts/synth-lane.sh [--out DIR] [--no-doc]      (about 1 minute)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/synth"; write_doc=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --no-doc) write_doc=0; shift ;;
    *) echo "usage: $0 [--out DIR] [--no-doc]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
start=$(date +%s)
yosys -q -l "$out/lane.log" -p "
  read_verilog -sv $root/rtl/common/kdopcd_sat_pkg.sv $root/rtl/common/kdopcd_sat_lane.sv;
  chparam -set K 24 -set B 18 -set C 18 -set Z 18 -set OWN_FIRST 1 kdopcd_sat_lane;
  synth_xilinx -family xc7 -top kdopcd_sat_lane -noiopad -noclkbuf -flatten;
  tee -q -o $out/lane.stat.txt stat -tech xilinx;
  tee -q -o $out/lane.ltp.txt ltp -noff t:FD* t:DSP48E1 %u t:SRL* %u %n" > /dev/null
secs=$(( $(date +%s) - start ))
cell() { awk -v re="$1" '$1 ~ re && $2 ~ /^[0-9]+$/ {s += $2} END {print s + 0}' "$out/lane.stat.txt"; }
luts=$(cell '^LUT[1-6]$'); ffs=$(cell '^FD[A-Z]+$'); dsp=$(cell '^DSP48E1$'); carry=$(cell '^CARRY4$')
depth=$(sed -n 's/.*(length=\([0-9]*\)).*/\1/p' "$out/lane.ltp.txt")
echo "lane: LUT $luts, FF $ffs, DSP48E1 $dsp, CARRY4 $carry, depth $depth, ${secs} s"
if [[ $write_doc == 1 ]]; then
  table="<!-- synth-lane:begin (written by scripts/synth-lane.sh; do not edit by hand) -->
Yosys $(yosys -V | awk '{print $2}') \`synth_xilinx -family xc7 -flatten -noiopad -noclkbuf\`, K = 24, b = c = z = 18, $(date -u +%Y-%m-%d).

| module | LUTs | FFs | DSP48E1 | CARRY4 | logic depth of worst stage (cells) | x 24 lanes (the wide unit) |
|---|---|---|---|---|---|---|
| \`kdopcd_sat_lane\` (one axis per clock, 7 stages) | $luts | $ffs | $dsp | $carry | $depth | $((24 * luts)) LUT, $((24 * ffs)) FF, $((24 * dsp)) DSP48E1 |
<!-- synth-lane:end -->"
  TABLE="$table" "$root/scripts/replace-marked.py" "$root/docs/synthesis.md" synth-lane
  echo "table written to docs/synthesis.md"
fi
