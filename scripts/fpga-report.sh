#!/usr/bin/env bash
# Synthesis and clock estimate of the RTL modules for Xilinx parts, as JSON.
#
# Each module is synthesized flattened, with no black boxes, in ONE Yosys run per module and
# family: synth_xilinx -family xcup (UltraScale+) or -family xc7 (7-series), then in the same run
#   * resources (stat): LUTs (LUT1..6 plus LUTs used as SRL / distributed RAM, as the vendor's
#     "CLB LUTs" count them), FFs, DSPs, CARRY4/8, block RAM in RAMB36 equivalents, URAM;
#   * logic depth (ltp, registers, SRLs, DSPs and RAMs cut): the longest register-to-register
#     chain in cells;
#   * the worst register-to-register delay (sta) from the cell delays that Yosys ships in the
#     specify blocks of +/xilinx/cells_sim.v (taken from the Project X-Ray database for Artix-7,
#     speed grade -1), plus a routing delay per net, see "Clock estimate" below.
# Utilization and "fits" are computed per part from the capacity table below.
#
# Usage:
#   scripts/fpga-report.sh [--part P]... [--modules a,b,...] [--top NAME] [--out FILE.json]
#                          [--work DIR] [--reuse] [--timeout SECONDS] [--endpoints N] [--doc]
#                          [--calibrate picorv32.v]
#   --part      xcu55c (default), xcu250, xcvu9p, xczu9eg, xc7a200t; repeat for several parts
#               (one synthesis per module and family, shared by the parts of that family)
#   --modules   comma-separated names from MODULES below (default: all whose filelist exists)
#   --top       the module reported as the design's top (default: the last module synthesized)
#   --work      where Yosys logs, stat, ltp and sta outputs go (default: next to --out)
#   --reuse     take a module's results from --work when a previous run left them complete
#   --endpoints N  also list the N slowest register endpoints of each module (sta reports only
#               the worst path): keeps the analysed netlist as --work/TAG.il and writes
#               --work/TAG.endpoints.md (scripts/fpga_endpoints.tcl); works with --reuse
#   --doc       rewrite the table in docs/synthesis.md (fpga-report:begin/end markers)
#   --calibrate synthesize PicoRV32 (picorv32_axi, TWO_CYCLE_ALU = 1) for xc7 and print the
#               routing delay per net that makes the estimate match its published Artix-7 -1
#               figure (see ROUTE_PS)
# Needs yosys (0.23 tested) and python3.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# ---------------------------------------------------------------- modules
# One line per module: name | top module | filelist (relative to rtl/) | chparam arguments.
# The name is what --modules takes (a top may appear twice with different parameters).
# Adding a module is one line here.
MODULES=(
  "kdopcd_sat_lane|kdopcd_sat_lane|common/sat_filelist.f|-set K 24 -set B 18 -set C 18 -set Z 18 -set OWN_FIRST 1"
  "kdopcd_sat_pipeline|kdopcd_sat_pipeline|common/sat_filelist.f|-set K 24 -set B 18 -set C 18 -set Z 18 -set MUL_W 18"
  "kdopcd_tri_place|kdopcd_tri_place|paper/filelist.f|-set V 24 -set M 24"
  "kdopcd_sat_wide|kdopcd_sat_wide|common/sat_filelist.f|-set K 24 -set B 18 -set C 18 -set Z 18"
  # A fifth field holds flags, comma-separated. "manual" keeps a module out of the default set: the exact triangle unit's
  # orientation and decision stages take Yosys 4 and 15 minutes (xc7), and the whole paper top
  # with that unit does not finish in Yosys 0.23 (docs/synthesis.md, "The triangle unit").
  "kdopcd_tri_orient|kdopcd_tri_orient|paper/filelist.f|-set V 24 -set M 24|manual"
  "kdopcd_tri_decide|kdopcd_tri_decide|paper/filelist.f||manual"
  "kdopcd_top|kdopcd_top|paper/filelist.f|-set K 24 -set B 18 -set C 18 -set Z 18 -set V 24 -set M 24 -set W 64 -set ADDR_W 32|manual"
  # Modules whose filelist does not exist yet are skipped; these join the default set as soon as
  # their filelists are there (parameters at their defaults until set here). The v2 top is last,
  # so it is the design's top by default.
  "kdopcd_tri_seq|kdopcd_tri_seq|common/tri_seq_filelist.f|"
  # The v2 control blocks alone, at the top's parameters: their clock is the top's unless a
  # datapath is slower, and they take minutes instead of the whole top's hour.
  "kdopcd_v2_engine|kdopcd_v2_engine|v2/filelist.f|-set NODE_AW 14 -set TRI_AW 13"
  "kdopcd_v2_loader|kdopcd_v2_loader|v2/filelist.f|"
  "kdopcd_v2_regs|kdopcd_v2_regs|v2/filelist.f|"
  "kdopcd_v2_fetch|kdopcd_v2_fetch|v2/filelist.f|-set NODE_AW 14 -set TRI_AW 13"
  # The v2 top with tree RAMs of 2^14 nodes and 2^13 triangles per tree (cow/cow fits; the
  # verilated top has the contract's 2^18 / 2^17 for the largest test scenes).
  # It is synthesized hierarchically ("hier", see synth below): flattened before mapping it needs
  # more than 24 GB in Yosys 0.23's technology mapping (killed at 23.7 GB resident).
  "kdopcd_v2_top|kdopcd_v2_top|v2/filelist.f|-set NODE_AW 14 -set TRI_AW 13|hier"
  # The command queue's blocks alone (the part of the top that does not grow with ENGINES but for
  # the write-back's per-engine packers): for the extrapolation of docs/synthesis.md, "Engines".
  "kdopcd_v2_cmdq|kdopcd_v2_cmdq|v2/filelist.f||manual"
  "kdopcd_v2_wdma|kdopcd_v2_wdma|v2/filelist.f||manual"
  # The v2 top with two engines fed by the command queue (docs/synthesis.md, "Engines"); not in
  # the default set: a run of the one-engine top takes 20-50 minutes, this one about twice that.
  "kdopcd_v2_top_e2|kdopcd_v2_top|v2/filelist.f|-set NODE_AW 14 -set TRI_AW 13 -set ENGINES 2 -set DESC_BUFFERS 4|hier,manual"
)

# ---------------------------------------------------------------- parts
# part | family | LUT | FF | DSP | BRAM36 | URAM, from the vendor's product tables:
#   xcu55c:   Alveo U55C Data Sheet (DS978): 1 304K LUTs, 2 607K registers, 9 024 DSP slices,
#             2 016 block RAMs (70.9 Mb), 960 UltraRAMs (270 Mb)
#   xcu250:   Alveo U250 Data Sheet (DS962) / Virtex UltraScale+ VU13P in the UltraScale
#             Architecture and Product Data Sheet: Overview (DS890)
#   xcvu9p:   DS890, Virtex UltraScale+ table (VU9P)
#   xczu9eg:  Zynq UltraScale+ MPSoC Data Sheet: Overview (DS891), ZU9EG
#   xc7a200t: 7 Series FPGAs Data Sheet: Overview (DS180), XC7A200T (33 650 slices x 4 LUTs)
PARTS=(
  "xcu55c|xcup|1303680|2607360|9024|2016|960"
  "xcu250|xcup|1728000|3456000|12288|2688|1280"
  "xcvu9p|xcup|1182240|2364480|6840|2160|960"
  "xczu9eg|xcup|274080|548160|2520|912|0"
  "xc7a200t|xc7|133800|267600|740|365|0"
)

# ---------------------------------------------------------------- clock estimate
# delay = SCALE[family] * (sta arrival of the worst path + ROUTE_PS * nets on it)
# * sta sums the cell delays of cells_sim.v (Artix-7 -1) along the worst register-to-register
#   path; DSP slices have no timing there and are skipped (their inputs and outputs are
#   registered in these designs, so they start or end paths like flip-flops). Nets inside a
#   carry chain (CI -> CO) use dedicated wires and get no routing delay.
# * ROUTE_PS, the routing delay per net, is calibrated (--calibrate) on PicoRV32, whose README
#   (C. Wolf, "PicoRV32 - A Size-Optimized RISC-V CPU", table "Timing on Xilinx 7-Series FPGAs",
#   Vivado 2015.1) gives 4.2 ns (238 MHz) for picorv32_axi with TWO_CYCLE_ALU on Artix-7 -1.
#   Our flow finds a 3204 ps cell-delay path with 6 routed nets there: (4200 - 3204) / 6 = 166.
# * SCALE maps the Artix-7 -1 delays to the target family: 1 for 7-series (estimate for speed
#   grade -1), and for UltraScale+ speed grade -2 the ratio of the documented maximum DSP
#   frequencies, 464 MHz (DSP48E1, Artix-7 -1, DS181 "Artix-7 FPGAs Data Sheet: DC and AC
#   Switching Characteristics") to 775 MHz (DSP48E2, -2, DS923 "Virtex UltraScale+ FPGA Data
#   Sheet: DC and AC Switching Characteristics"): 0.60.
# Uncertainty: +-30 % at least. One calibration design; routing depends on placement,
# congestion and fanout, which synthesis does not see; the worst path is chosen by cell delay;
# Yosys' netlist is not Vivado's. It is a synthesis-time estimate, not a timing sign-off.
ROUTE_PS=166
SCALE_xc7=1.00
SCALE_xcup=0.60
UNCERTAINTY_PCT=30

usage() { sed -n '/^# Usage:/,/^# Needs/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
parts=(); modules=""; out="$root/build/fpga-report/report.json"; work=""; top=""; timeout_s=3600
write_doc=0; calibrate=""; reuse=0; endpoints=0
while [[ $# -gt 0 ]]; do
  case $1 in
    --part) parts+=("$2"); shift 2 ;;
    --modules) modules=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --doc) write_doc=1; shift ;;
    --reuse) reuse=1; shift ;;
    --endpoints) endpoints=$2; shift 2 ;;
    --calibrate) calibrate=$2; shift 2 ;;
    *) usage ;;
  esac
done
[[ ${#parts[@]} -eq 0 ]] && parts=(xcu55c)
[[ -z $work ]] && work="$(dirname "$out")/fpga-report-work"
mkdir -p "$work" "$(dirname "$out")"
yosys_version=$(yosys -V | awk '{print $2}')

# synth TAG FAMILY TOP "sources" "chparam args" [hier]: one Yosys run, results in $work/TAG.*
# (`rename -top`: Yosys 0.23 may re-derive a top with chparam'd parameters as $paramod$...\TOP,
# which synth_xilinx -top would then not find.)
# Flat by default: the design is flattened before mapping, so constants and unused logic are
# optimized across module boundaries. With "hier" each module is mapped on its own (one copy per
# distinct parameter set, e.g. one for the eight equal minor units of the triangle unit) and the
# mapped netlist is flattened for the reports, with unused cells removed again; technology mapping
# then needs far less memory. Both are one run over the whole design, with no black box.
# For the timing analysis only (after stat and ltp), flip-flops with an asynchronous clear or
# preset are retyped to their synchronous twins with the same pins: sta would otherwise time the
# reset input through the CLR->Q arc (764 ps) as if it were a register-to-register path. The
# asynchronous reset is timed by recovery/removal checks, which this estimate does not model;
# every register still launches at clock-to-Q and captures at D.
synth() {
  local tag=$1 family=$2 topm=$3 sources=$4 cp=$5 hier=${6:-} start rc=0 flat="-flatten" post=""
  local keep=""; [[ $endpoints -gt 0 ]] && keep=1
  if [[ $hier == hier ]]; then flat=""; post="flatten; opt_clean -purge;"; fi
  start=$(date +%s)
  timeout "$timeout_s" yosys -q -l "$work/$tag.log" -p "
    read_verilog -sv $sources;
    ${cp:+chparam $cp $topm;}
    hierarchy -top $topm;
    rename -top $topm;
    synth_xilinx -family $family -top $topm -noiopad -noclkbuf $flat $(widelut "$family") $(uram "$family");
    $post
    tee -q -o $work/$tag.stat.txt stat;
    tee -q -o $work/$tag.ltp.txt ltp -noff t:FD* t:DSP48E* %u t:SRL* %u t:RAM* %u t:URAM* %u %n;
    chtype -map FDCE FDRE; chtype -map FDPE FDSE;
    ${keep:+select $topm; write_rtlil -selected $work/$tag.il; select -clear;}
    read_verilog -lib -specify -overwrite +/xilinx/cells_sim.v;
    tee -q -o $work/$tag.sta.txt sta" > /dev/null 2> "$work/$tag.stderr" || rc=$?
  echo $(( $(date +%s) - start )) > "$work/$tag.secs"
  return $rc
}
# Yosys 0.23 maps UltraScale+ logic into LUT7..9 (MUXF7/8/9) so eagerly that the LUT count
# grows several-fold (a 3-term adder: 164 LUT6 + 126 MUXF instead of 58 LUTs); -nowidelut
# keeps plain LUT6 mapping, as the vendor's synthesis reports it.
widelut() { [[ $1 == xcup ]] && echo "-nowidelut" || true; }
# UltraScale+ has UltraRAM: the large tree RAMs of the v2 top go there (4096 x 72 per URAM288),
# as the model's resource estimate assumes; the rest stays in block RAM and LUT RAM.
uram() { [[ $1 == xcup ]] && echo "-uram" || true; }

if [[ -n $calibrate ]]; then
  synth calibrate xc7 picorv32_axi "$calibrate" "-set TWO_CYCLE_ALU 1"
  python3 "$root/scripts/fpga_report.py" calibrate "$work/calibrate" 4200
  exit 0
fi

declare -A fam_of
for p in "${parts[@]}"; do
  line=$(printf '%s\n' "${PARTS[@]}" | awk -F'|' -v p="$p" '$1 == p')
  [[ -z $line ]] && { echo "unknown part $p (known: $(printf '%s ' "${PARTS[@]%%|*}"))" >&2; exit 2; }
  fam_of[$p]=$(cut -d'|' -f2 <<< "$line")
done
families=$(printf '%s\n' "${fam_of[@]}" | sort -u)

selected=()
for m in "${MODULES[@]}"; do
  IFS='|' read -r name topm flist cp flag <<< "$m"
  if [[ -n $modules ]]; then
    [[ ",$modules," == *",$name,"* ]] || continue
  elif [[ ",${flag:-}," == *,manual,* || ! -f "$root/rtl/$flist" ]]; then
    continue
  fi
  [[ -f "$root/rtl/$flist" ]] || { echo "$name: rtl/$flist is missing" >&2; exit 2; }
  selected+=("$m")
done
if [[ -n $modules ]]; then
  for want in ${modules//,/ }; do
    printf '%s\n' "${selected[@]}" | grep -q "^$want|" || { echo "unknown module $want" >&2; exit 2; }
  done
fi
[[ ${#selected[@]} -eq 0 ]] && { echo "no module selected" >&2; exit 2; }

results=()  # name|family|workprefix|status
for m in "${selected[@]}"; do
  IFS='|' read -r name topm flist cp flag <<< "$m"
  # the filelist's .sv lines, relative to the list's folder (comments and other lines skipped)
  sources=$(sed -n 's#^\([A-Za-z0-9_.].*\.sv\)$#'"$root/rtl/$(dirname "$flist")"'/\1#p' "$root/rtl/$flist" | tr '\n' ' ')
  for fam in $families; do
    tag="${name}.${fam}"
    status=ok
    if [[ $reuse == 1 && -s "$work/$tag.sta.txt" && -s "$work/$tag.secs" ]]; then
      echo "$name ($fam): reusing $work/$tag.*" >&2
    elif synth "$tag" "$fam" "$topm" "$sources" "$cp" "$([[ ",${flag:-}," == *,hier,* ]] && echo hier)"; then :; else
      rc=$?
      [[ $rc == 124 ]] && status="timeout after ${timeout_s} s" || status="yosys failed (exit $rc), see $work/$tag.log"
    fi
    echo "$name ($fam): $status, $(cat "$work/$tag.secs") s" >&2
    if [[ $endpoints -gt 0 && $status == ok ]]; then
      if [[ -s "$work/$tag.il" ]]; then
        rm -rf "$work/$tag.endpoints"
        EP_IL="$work/$tag.il" EP_OUT="$work/$tag.endpoints" EP_COUNT=$endpoints \
          yosys -q -l "$work/$tag.endpoints.log" -c "$root/scripts/fpga_endpoints.tcl" > /dev/null \
          2> "$work/$tag.endpoints.stderr" ||
          echo "$name ($fam): the endpoint listing stopped early, see $work/$tag.endpoints.stderr" >&2
        scale_of_family=SCALE_$fam
        ROUTE_PS=$ROUTE_PS SCALE=${!scale_of_family} \
          python3 "$root/scripts/fpga_report.py" endpoints "$work/$tag.endpoints" > "$work/$tag.endpoints.md"
        echo "$name ($fam): slowest endpoints in $work/$tag.endpoints.md" >&2
      else
        echo "$name ($fam): no kept netlist $work/$tag.il for --endpoints (run without --reuse)" >&2
      fi
    fi
    results+=("$name|$fam|$work/$tag|$status|$topm|$cp")
  done
done
[[ -z $top ]] && top=$(IFS='|' read -r n _ <<< "${selected[-1]}"; echo "$n")

part_lines=()
for p in "${parts[@]}"; do part_lines+=("$(printf '%s\n' "${PARTS[@]}" | awk -F'|' -v p="$p" '$1 == p')"); done
PART_LINES=$(printf '%s\n' "${part_lines[@]}") RESULTS=$(printf '%s\n' "${results[@]}") \
  TOP="$top" YOSYS_VERSION="$yosys_version" ROUTE_PS=$ROUTE_PS SCALE_xc7=$SCALE_xc7 SCALE_xcup=$SCALE_xcup \
  UNCERTAINTY_PCT=$UNCERTAINTY_PCT \
  python3 "$root/scripts/fpga_report.py" report "$out"
echo "written $out" >&2
if [[ $write_doc == 1 ]]; then
  TABLE=$(python3 "$root/scripts/fpga_report.py" table "$out") "$root/scripts/replace-marked.py" \
    "$root/docs/synthesis.md" fpga-report
  echo "table written to docs/synthesis.md" >&2
fi
