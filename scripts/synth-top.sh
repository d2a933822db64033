#!/usr/bin/env bash
# Synthesizes the whole accelerator top (rtl/kdopcd_top.sv, sources in rtl/top_filelist.f; the
# simulation checkers of rtl/sim/ are left out: Yosys defines SYNTHESIS) with Yosys synth_xilinx
# for 7-series (xc7), K = 24, B = C = Z = 18, V = M = 24, W = 64, ADDR_W = 32, and writes the
# resource table into docs/synthesis.md (between the synth-top:begin/end markers). Logic depth:
# Yosys `ltp` on the mapped netlist with flip-flops, SRLs, DSP48E1 and block RAMs cut (the longest
# register-to-register path, in cells). No place and route: no Fmax here.
#
# Usage: scripts/synth-top.sh [--out DIR] [--no-doc]
# Needs yosys (0.23 tested).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/synth-top"
doc="$root/docs/synthesis.md"
write_doc=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --no-doc) write_doc=0; shift ;;
    *) echo "usage: $0 [--out DIR] [--no-doc]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
sources=$(sed -n 's#^\([A-Za-z0-9_].*\.sv\)$#'"$root"'/rtl/\1#p' "$root/rtl/top_filelist.f" | tr '\n' ' ')
yosys_version=$(yosys -V | awk '{print $2}')
params="-set K 24 -set B 18 -set C 18 -set Z 18 -set V 24 -set M 24 -set W 64 -set ADDR_W 32"

tag=top
start=$(date +%s)
yosys -q -l "$out/$tag.log" -p "
  read_verilog -sv $sources;
  chparam $params kdopcd_top;
  synth_xilinx -family xc7 -top kdopcd_top -noiopad -noclkbuf -flatten;
  tee -q -o $out/$tag.stat.txt stat -tech xilinx;
  tee -q -o $out/$tag.ltp.txt ltp -noff t:FD* t:DSP48E1 %u t:SRL* %u t:RAMB* %u %n;
  write_verilog -noattr $out/$tag.netlist.v" > /dev/null
secs=$(( $(date +%s) - start ))
cell() { awk -v re="$1" '$1 ~ re && $2 ~ /^[0-9]+$/ {s += $2} END {print s + 0}' "$out/$tag.stat.txt"; }
luts=$(cell '^LUT[1-6]$'); ffs=$(cell '^FD[A-Z]+$'); dsp=$(cell '^DSP48E1$'); carry=$(cell '^CARRY4$')
muxf=$(cell '^MUXF[78]$'); srl=$(cell '^SRL'); lutram=$(cell '^RAM(32|64|128|256)')
bram18=$(cell '^RAMB18E1$'); bram36=$(cell '^RAMB36E1$')
depth=$(sed -n 's/.*(length=\([0-9]*\)).*/\1/p' "$out/$tag.ltp.txt")
nc4=$(grep -c 'carry4)' "$out/$tag.ltp.txt" || true)
first=$(awk '/^ *0: /{print $2; exit}' "$out/$tag.ltp.txt")
slices=$(( (luts + srl + 3) / 4 > (ffs + 7) / 8 ? (luts + srl + 3) / 4 : (ffs + 7) / 8 ))
echo "kdopcd_top: LUT $luts, FF $ffs, DSP48E1 $dsp, CARRY4 $carry, RAMB36E1 $bram36, RAMB18E1 $bram18, LUTRAM $lutram, MUXF7/8 $muxf, SRL $srl, depth $depth ($nc4 CARRY4, from $first), ${secs} s"

if [[ $write_doc == 1 ]]; then
  table="<!-- synth-top:begin (written by scripts/synth-top.sh; do not edit by hand) -->
Whole top \`kdopcd_top\` (rtl/top_filelist.f), Yosys $yosys_version \`synth_xilinx -family xc7 -flatten -noiopad -noclkbuf\`,
K = 24, B = C = Z = 18, V = M = 24, W = 64, ADDR_W = 32, other parameters at their defaults, $(date -u +%Y-%m-%d), ${secs} s.

| design | LUTs | FFs | DSP48E1 | CARRY4 | RAMB36E1 | RAMB18E1 | LUTRAM | MUXF7/8 | SRL | slices | logic depth (cells) | clock |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
| kdopcd_top | $luts | $ffs | $dsp | $carry | $bram36 | $bram18 | $lutram | $muxf | $srl | >= $slices | $depth ($nc4 of them CARRY4; from \`${first#\\}\`) | n/a (no place and route) |
<!-- synth-top:end -->"
  TABLE="$table" python3 - "$doc" <<'PY'
import os, re, sys
path = sys.argv[1]
text = open(path).read()
new = os.environ["TABLE"]
pattern = re.compile(r"<!-- synth-top:begin.*?<!-- synth-top:end -->", re.S)
if not pattern.search(text):
    sys.exit(f"{path}: no synth-top:begin/end markers")
open(path, "w").write(pattern.sub(lambda m: new, text))
PY
  echo "table written to $doc"
fi
