#!/usr/bin/env bash
# Synthesizes the SAT pipeline (rtl/common/kdopcd_sat_pipeline.sv, sources in rtl/common/sat_filelist.f) with
# Yosys synth_xilinx for 7-series (xc7), K = 24 and MUL_W = 18, for (B,C,Z) = (18,18,18) and
# (35,35,35), and writes the resource table into docs/synthesis.md (between the
# synth-sat:begin/end markers). Logic depth: Yosys `ltp` on the mapped netlist with flip-flops,
# SRLs and DSP48E1 cut (so: the longest register-to-register path of any stage, in cells:
# LUT/MUXF/CARRY4 levels). No place and route: no Fmax here.
#
# Usage: scripts/synth-sat.sh [--sets "18 35"] [--out DIR] [--no-doc]
# Needs yosys (0.23 tested). Takes ~1.5 min per set on one core.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sets="18 35"
out="$root/build/synth"
doc="$root/docs/synthesis.md"
write_doc=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --sets) sets=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-doc) write_doc=0; shift ;;
    *) echo "usage: $0 [--sets \"18 35\"] [--out DIR] [--no-doc]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
sources=$(sed -n 's#^\([A-Za-z0-9_.].*\.sv\)$#'"$root"'/rtl/common/\1#p' "$root/rtl/common/sat_filelist.f" | tr '\n' ' ')
yosys_version=$(yosys -V | awk '{print $2}')

rows=""
for n in $sets; do
  tag="b${n}c${n}z${n}"
  start=$(date +%s)
  yosys -q -l "$out/$tag.log" -p "
    read_verilog -sv $sources;
    chparam -set K 24 -set B $n -set C $n -set Z $n -set MUL_W 18 kdopcd_sat_pipeline;
    synth_xilinx -family xc7 -top kdopcd_sat_pipeline -noiopad -noclkbuf -flatten;
    tee -q -o $out/$tag.stat.txt stat -tech xilinx;
    tee -q -o $out/$tag.ltp.txt ltp -noff t:FD* t:DSP48E1 %u t:SRL* %u %n;
    write_verilog -noattr $out/$tag.netlist.v" > /dev/null
  secs=$(( $(date +%s) - start ))
  cell() { awk -v re="$1" '$1 ~ re && $2 ~ /^[0-9]+$/ {s += $2} END {print s + 0}' "$out/$tag.stat.txt"; }
  luts=$(cell '^LUT[1-6]$'); ffs=$(cell '^FD[A-Z]+$'); dsp=$(cell '^DSP48E1$'); carry=$(cell '^CARRY4$')
  muxf=$(cell '^MUXF[78]$'); srl=$(cell '^SRL'); 
  depth=$(sed -n 's/.*(length=\([0-9]*\)).*/\1/p' "$out/$tag.ltp.txt")
  nc4=$(grep -c 'carry4)' "$out/$tag.ltp.txt" || true)
  first=$(awk '/^ *0: /{print $2; exit}' "$out/$tag.ltp.txt")
  # lower bound on 7-series slices: 4 LUTs (SRLs too) and 8 FFs per slice
  slices=$(( (luts + srl + 3) / 4 > (ffs + 7) / 8 ? (luts + srl + 3) / 4 : (ffs + 7) / 8 ))
  lat=$(( $(python3 -c "import math; L=17; na=(${n}+1+L-1)//L; np_=(${n}+L-1)//L; print(math.ceil(math.log2(6*na*np_+7)))") + 3 ))
  echo "($n,$n,$n): LUT $luts, FF $ffs, DSP48E1 $dsp, CARRY4 $carry, MUXF7/8 $muxf, SRL $srl, depth $depth ($nc4 CARRY4, from $first), latency $lat, ${secs} s"
  rows+="| ($n,$n,$n) | $((n + 2)) | $lat | $luts | $ffs | $dsp | $carry | $muxf | $srl | >= $slices | $depth ($nc4 of them CARRY4; from \`${first#\\}\`) | n/a (no place and route) |"$'\n'
done

if [[ $write_doc == 1 ]]; then
  table="<!-- synth-sat:begin (written by scripts/synth-sat.sh; do not edit by hand) -->
Yosys $yosys_version \`synth_xilinx -family xc7 -flatten -noiopad -noclkbuf\`, K = 24, MUL_W = 18, $(date -u +%Y-%m-%d).

| (B,C,Z) | coefficient bits | latency (clocks) | LUTs | FFs | DSP48E1 | CARRY4 | MUXF7/8 | SRL16E | slices | logic depth of worst stage (cells) | clock |
|---|---|---|---|---|---|---|---|---|---|---|---|
${rows}| paper: 35 bits, Virtex-II XC2V6000-4, ISE 6.3 | 35 | 9 (7 + 2 for the split multipliers) | | | MULT18X18 (count not given; 144 on the chip) | | | | 7278 Virtex-II slices (21% of 33792) | | 111.117 MHz |
<!-- synth-sat:end -->"
  if [[ ! -f "$doc" ]]; then
    echo "$doc is missing (it holds the prose around the table)" >&2
    exit 1
  fi
  TABLE="$table" "$root/scripts/replace-marked.py" "$doc" synth-sat
  echo "table written to $doc"
fi
