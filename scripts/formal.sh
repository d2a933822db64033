#!/usr/bin/env bash
# Every machine-checked proof of docs/formal.md, and every mutant that each proof must reject.
# ctest runs the quick part (label "formal"); this runs the sweep. Not part of CI.
#
#   1. The fixed-point SAT (kdop prove-bound, Gappa): the error bound, the clamp and the widths
#      for k = 6, 14, 18, 24, 26 at b = c = z = 4 .. 44 and at a few unequal widths (z > b+c
#      among them), and the triangle unit's widths at v = m = 1 .. 28 and a few unequal (v, m);
#      then the mutants at four widths per k and three (v, m), each of which must make a proof fail.
#   2. The RTL (scripts/formal_rtl.py: Yosys, yosys-smtbmc, z3): the SAT lane equals Eq. 22 for
#      every operand and input sequence (base case and k-induction, six configurations), the v2
#      engine's control properties (bounded, three configurations), the AXI4-Lite register block
#      (k-induction, small and at the contract's defaults), the command queue's front end and
#      write-back and the loader (bounded), and their mutants.
#   3. With --coq, Gappa's Coq certificates of the default widths (k = 24 at 18,18,18; the
#      triangle unit at 24,24) are checked by coqc (Debian: libcoq-gappa; scripts/install-deps.sh
#      --coq). (Where z > b+c, Gappa's Coq back-end cannot certify the tighter offset share:
#      docs/formal.md §1.)
#
# Usage: scripts/formal.sh [--coq] [build-dir]      (default build dir: build/release)
# Environment: JOBS (parallel Gappa runs, default nproc), OUT (default build/formal).
# Exit status 0 when every proof passes and every mutant fails.
set -euo pipefail
cd "$(dirname "$0")/.."
coq=0
if [[ "${1:-}" == "--coq" ]]; then coq=1; shift; fi
build="${1:-build/release}"
kdop="$build/sim/kdop"
[[ -x "$kdop" ]] || { echo "formal: $kdop not found (build the kdop target first)" >&2; exit 2; }
command -v gappa >/dev/null || { echo "formal: gappa not found (scripts/install-deps.sh)" >&2; exit 2; }
jobs="${JOBS:-$(nproc)}"
out="${OUT:-build/formal}"
rm -rf "$out"
mkdir -p "$out"

ks=(--k 6 --k 14 --k 18 --k 24 --k 26)
widths=()
for n in $(seq 4 44); do widths+=(--bits "$n"); done
widths+=(--bits 18,18,40 --bits 4,4,12 --bits 12,20,16 --bits 44,4,4 --bits 4,44,44 --bits 20,16,37)
tri=()
for n in $(seq 1 28); do tri+=(--tri-bits "$n,$n"); done
tri+=(--tri-bits 32,24 --tri-bits 16,40 --tri-bits 1,55)

status=0
echo "== fixed-point SAT and triangle unit: every proof, 5 orientation sets x $((${#widths[@]} / 2)) widths, $((${#tri[@]} / 2)) (v, m)"
start=$(date +%s)
"$kdop" prove-bound "${ks[@]}" "${widths[@]}" "${tri[@]}" --jobs "$jobs" --emit "$out/sat" | tee "$out/sat.log" || status=1
echo "   $(($(date +%s) - start)) s"

echo "== mutants (each must make a proof fail)"
start=$(date +%s)
"$kdop" prove-bound --mutants "${ks[@]}" --bits 18,18,18 --bits 18,18,40 --bits 4 --bits 44 \
  --tri-bits 24,24 --tri-bits 1,1 --tri-bits 28,28 --jobs "$jobs" \
  --emit "$out/sat-mutants" | tee "$out/sat-mutants.log" || status=1
echo "   $(($(date +%s) - start)) s"

echo "== RTL: the SAT lane, the engine, the register block, the command queue (yosys-smtbmc, z3)"
start=$(date +%s)
python3 scripts/formal_rtl.py --jobs "$jobs" --out "$out/rtl" | tee "$out/rtl.log" || status=1
echo "   $(($(date +%s) - start)) s"

if [[ $coq == 1 ]]; then
  command -v coqc >/dev/null || { echo "formal: coqc not found (scripts/install-deps.sh --coq)" >&2; exit 2; }
  echo "== Coq: Gappa's certificates of k = 24 at 18,18,18 and of the triangle unit at 24,24"
  start=$(date +%s)
  "$kdop" prove-bound --k 24 --bits 18,18,18 --tri-bits 24,24 --emit "$out/coq" >/dev/null
  for g in "$out"/coq/*_none/*.g; do
    v="${g%.g}.v"
    # Coq module names may not contain '-': the certificate gets an underscore name.
    v="$(dirname "$v")/$(basename "$v" | tr '-' '_')"
    if gappa -Bcoq "$g" >"$v" 2>"$v.stderr" && coqc -q "$v" >"$v.log" 2>&1; then
      echo "   checked  $g"
    else
      echo "   FAILED   $g (see $v.log)"
      status=1
    fi
  done
  echo "   $(($(date +%s) - start)) s"
fi

if [[ $status == 0 ]]; then echo "formal: every proof passed and every mutant failed"; else echo "formal: FAILED"; fi
exit $status
