#!/usr/bin/env bash
# Synthesizes the time-multiplexed triangle unit (rtl/common/kdopcd_tri_seq.sv, sources in
# rtl/common/tri_seq_filelist.f) with Yosys synth_xilinx and prints LUTs, FFs, DSPs, carry cells and the
# worst logic depth. Logic depth: Yosys `ltp` with flip-flops, SRLs and DSPs cut, in cells (as
# scripts/synth-lane.sh). No place and route. LAT defaults to the unit's minimum at that II
# (read from the unit's own $error message).
# Usage: scripts/synth-tri-seq.sh [--ii N] [--lat N] [--family xc7|xcup] [--v N] [--m N]
#                                 [--no-decide] [--out DIR] [--timeout SECONDS]
# --no-decide reads kdopcd_tri_decide (the decision logic, shared with kdopcd_tri_unit and
# independent of II, V, M) as a black box: Yosys 0.23 spends most of the run (about 15 CPU minutes)
# expanding its nested functions; docs/synthesis.md has its own figures (1965 LUT, 5 FF, 0 DSP,
# 25 CARRY4 at xc7). The datapath alone takes a few CPU minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/synth"; ii=8; lat=""; family=xc7; v=24; m=24; limit=7200; decide=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --ii) ii=$2; shift 2 ;;
    --lat) lat=$2; shift 2 ;;
    --family) family=$2; shift 2 ;;
    --v) v=$2; shift 2 ;;
    --m) m=$2; shift 2 ;;
    --no-decide) decide=0; shift ;;
    --out) out=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    *) echo "usage: $0 [--ii N] [--lat N] [--family xc7|xcup] [--v N] [--m N] [--no-decide] [--out DIR] [--timeout SECONDS]" >&2; exit 2 ;;
  esac
done
srcs=$(grep -v '^//' "$root/rtl/common/tri_seq_filelist.f" | sed "s|^|$root/rtl/common/|" | tr '\n' ' ')
if [[ -z $lat ]]; then
  # shellcheck disable=SC2086
  lat=$(verilator --lint-only -Wno-fatal $srcs --top-module kdopcd_tri_seq -GII="$ii" -GV="$v" -GM="$m" -GLAT=1 2>&1 |
        sed -n 's/.*minimum latency \([0-9]*\).*/\1/p' | head -1 || true)
fi
case $family in
  xc7) dsp=DSP48E1; carry=CARRY4 ;;
  xcup) dsp=DSP48E2; carry="CARRY[48]" ;;   # Yosys 0.23 may map xcup carry chains to CARRY4
  *) echo "family: xc7 or xcup" >&2; exit 2 ;;
esac
mkdir -p "$out"
tag="tri_seq_${family}_ii${ii}_v${v}m${m}"
read_srcs="read_verilog -sv -D SYNTHESIS $srcs"
if [[ $decide == 0 ]]; then
  tag="${tag}_nodecide"
  read_srcs="read_verilog -sv -D SYNTHESIS -lib $root/rtl/common/kdopcd_tri_decide.sv;
  read_verilog -sv -D SYNTHESIS ${srcs//$root\/rtl\/kdopcd_tri_decide.sv/}"
fi
start=$(date +%s)
timeout "$limit" yosys -q -l "$out/$tag.log" -p "
  $read_srcs;
  chparam -set V $v -set M $m -set II $ii -set LAT $lat kdopcd_tri_seq;
  synth_xilinx -family $family -top kdopcd_tri_seq -noiopad -noclkbuf -flatten;
  tee -q -o $out/$tag.stat.txt stat -tech xilinx;
  tee -q -o $out/$tag.ltp.txt ltp -noff t:FD* t:$dsp %u t:SRL* %u %n" > /dev/null
secs=$(( $(date +%s) - start ))
cell() { awk -v re="$1" '$1 ~ re && $2 ~ /^[0-9]+$/ {s += $2} END {print s + 0}' "$out/$tag.stat.txt"; }
luts=$(cell '^LUT[1-6]$'); ffs=$(cell '^FD[A-Z]+$'); dsps=$(cell "^$dsp\$"); carries=$(cell "^$carry\$")
srl=$(cell '^SRL'); lutram=$(cell '^RAM'); muxf=$(cell '^MUXF[78]$')
depth=$(sed -n 's/.*(length=\([0-9]*\)).*/\1/p' "$out/$tag.ltp.txt")
what="kdopcd_tri_seq"; [[ $decide == 0 ]] && what="kdopcd_tri_seq without kdopcd_tri_decide"
echo "$what $family V=$v M=$m II=$ii LAT=$lat: LUT $luts, FF $ffs, $dsp $dsps, $carry $carries, SRL $srl, LUTRAM $lutram, MUXF7/8 $muxf, depth $depth, ${secs} s"
