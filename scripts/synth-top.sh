#!/usr/bin/env bash
# Synthesizes the whole accelerator top (rtl/paper/kdopcd_top.sv, sources in rtl/paper/filelist.f; the
# simulation checkers of rtl/verif/ are not in it) with Yosys synth_xilinx
# for 7-series (xc7), K = 24, B = C = Z = 18, V = M = 24, W = 64, ADDR_W = 32, and writes the
# resource table into docs/synthesis.md (between the synth-top:begin/end markers). Logic depth:
# Yosys `ltp` on the mapped netlist with flip-flops, SRLs, DSP48E1 and block RAMs cut (the longest
# register-to-register path, in cells). No place and route: no Fmax here.
#
# Two runs, because the triangle unit alone (120 multipliers of 53 x 53 bits and 45 of 53 x 105
# bits) takes Yosys far longer than the rest: (1) the top with kdopcd_tri_unit as a black box,
# (2) kdopcd_tri_unit alone (skipped with --no-tri). The whole top is their sum.
#
# Usage: scripts/synth-top.sh [--out DIR] [--no-doc] [--no-tri] [--tri-timeout SECONDS]
# Needs yosys (0.23 tested).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/build/synth-top"
doc="$root/docs/synthesis.md"
write_doc=1
do_tri=1
tri_timeout=7200
while [[ $# -gt 0 ]]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --no-doc) write_doc=0; shift ;;
    --no-tri) do_tri=0; shift ;;
    --tri-timeout) tri_timeout=$2; shift 2 ;;
    *) echo "usage: $0 [--out DIR] [--no-doc] [--no-tri] [--tri-timeout SECONDS]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
sources=$(sed -n 's#^\([A-Za-z0-9_.].*\.sv\)$#'"$root"'/rtl/paper/\1#p' "$root/rtl/paper/filelist.f" | tr '\n' ' ')
yosys_version=$(yosys -V | awk '{print $2}')
params="-set K 24 -set B 18 -set C 18 -set Z 18 -set V 24 -set M 24 -set W 64 -set ADDR_W 32"


# synth TAG TOP "chparam args" "commands after read (may be empty)" TIMEOUT -> one table row
rows=""
synth() {
  local tag=$1 top=$2 cp=$3 extra=$4 limit=$5
  local start secs
  start=$(date +%s)
  local rc=0
  timeout "$limit" yosys -q -l "$out/$tag.log" -p "
    $extra
    chparam $cp $top;
    hierarchy -top $top;
    synth_xilinx -family xc7 -top $top -noiopad -noclkbuf -flatten;
    tee -q -o $out/$tag.stat.txt stat -tech xilinx;
    tee -q -o $out/$tag.ltp.txt ltp -noff t:FD* t:DSP48E1 %u t:SRL* %u t:RAMB* %u %n;
    write_verilog -noattr $out/$tag.netlist.v" > /dev/null || rc=$?
  if [[ $rc == 124 ]]; then
    echo "$tag: yosys did not finish within $limit s" >&2
    rows+="| $top ($tag) | not finished within $limit s | | | | | | | | | | | |"$'\n'
    return 0
  elif [[ $rc != 0 ]]; then
    echo "$tag: yosys failed (exit $rc), see $out/$tag.log" >&2
    exit 1
  fi
  secs=$(( $(date +%s) - start ))
  cell() { awk -v re="$1" '$1 ~ re && $2 ~ /^[0-9]+$/ {s += $2} END {print s + 0}' "$out/$tag.stat.txt"; }
  local luts ffs dsp carry muxf srl lutram bram18 bram36 depth nc4 first slices
  luts=$(cell '^LUT[1-6]$'); ffs=$(cell '^FD[A-Z]+$'); dsp=$(cell '^DSP48E1$'); carry=$(cell '^CARRY4$')
  muxf=$(cell '^MUXF[78]$'); srl=$(cell '^SRL'); lutram=$(cell '^RAM(32|64|128|256)')
  bram18=$(cell '^RAMB18E1$'); bram36=$(cell '^RAMB36E1$')
  depth=$(sed -n 's/.*(length=\([0-9]*\)).*/\1/p' "$out/$tag.ltp.txt")
  nc4=$(grep -c 'carry4)' "$out/$tag.ltp.txt" || true)
  first=$(awk '/^ *0: /{print $2; exit}' "$out/$tag.ltp.txt")
  slices=$(( (luts + srl + 3) / 4 > (ffs + 7) / 8 ? (luts + srl + 3) / 4 : (ffs + 7) / 8 ))
  echo "$tag: LUT $luts, FF $ffs, DSP48E1 $dsp, CARRY4 $carry, RAMB36E1 $bram36, RAMB18E1 $bram18, LUTRAM $lutram, MUXF7/8 $muxf, SRL $srl, depth $depth ($nc4 CARRY4, from $first), ${secs} s"
  rows+="| $top ($tag) | $luts | $ffs | $dsp | $carry | $bram36 | $bram18 | $lutram | $muxf | $srl | >= $slices | $depth ($nc4 CARRY4; from \`${first#\\}\`) | ${secs} s |"$'\n'
}

# The triangle unit as a black box: its port list only (read_verilog -lib), not its submodules.
no_tri=$(for f in $sources; do case $f in */kdopcd_tri_*) ;; *) printf '%s ' "$f" ;; esac; done)
synth top_without_tri kdopcd_top "$params" "read_verilog -sv $no_tri; read_verilog -lib -sv $root/rtl/common/kdopcd_tri_unit.sv;" 3600
if [[ $do_tri == 1 ]]; then
  synth tri_unit kdopcd_tri_unit "-set V 24 -set M 24 -set LAT 16" "read_verilog -sv $sources;" "$tri_timeout"
fi

if [[ $write_doc == 1 ]]; then
  table="<!-- synth-top:begin (written by scripts/synth-top.sh; do not edit by hand) -->
Yosys $yosys_version \`synth_xilinx -family xc7 -flatten -noiopad -noclkbuf\`, K = 24, B = C = Z = 18, V = M = 24,
W = 64, ADDR_W = 32, other parameters at their defaults, $(date -u +%Y-%m-%d). \`top_without_tri\` is the
whole top with \`kdopcd_tri_unit\` as a black box; the whole top is the sum of the two rows. No place and
route here: no clock frequency ([toolchain.md](toolchain.md) §4).

| design | LUTs | FFs | DSP48E1 | CARRY4 | RAMB36E1 | RAMB18E1 | LUTRAM | MUXF7/8 | SRL | slices | logic depth (cells) | Yosys time |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
${rows}<!-- synth-top:end -->"
  TABLE="$table" "$root/scripts/replace-marked.py" "$doc" synth-top
  echo "table written to $doc"
fi
