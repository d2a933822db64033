#!/usr/bin/env bash
# `kdop sim --engine systemc --rtl-blocks LIST` through the CLI (docs/cosim.md): on cow/cow in the
# four pose classes of `kdop poses`, every configuration (none, each block alone, all, top) gives the
# model's cycles per pose and the reference's contacts (--compare, --pairs); --trace writes a VCD
# of the block ports; bad block names, --rtl-blocks without --engine systemc,
# options the signal-level build does not have and a trace that is not a VCD are input errors
# (exit 2) that name what is wrong. Used by ctest (cosim_cli_check).
# Usage: testbenches/cosim/cosim_cli_check.sh PATH/TO/kdop MESH_DIR
set -euo pipefail
kdop="$1"
mesh="$2/cow.off"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$kdop" poses "$mesh" "$mesh" --out "$tmp/poses.txt" >/dev/null
"$kdop" collide "$mesh" "$mesh" --poses "$tmp/poses.txt" --backend fixed --pairs "$tmp/collide.pairs" >/dev/null
"$kdop" sim "$mesh" "$mesh" --poses "$tmp/poses.txt" > "$tmp/model.out"
grep -E '^ +cycles [0-9]+ =' "$tmp/model.out" | awk '{print $2}' > "$tmp/model.cycles"
[ "$(wc -l < "$tmp/model.cycles")" -eq 4 ] || { echo "cosim-cli-check: no per-pose cycles from the model" >&2; exit 1; }
for blocks in none sat tri ctrl fetch all top; do
  "$kdop" sim "$mesh" "$mesh" --poses "$tmp/poses.txt" --engine systemc --rtl-blocks "$blocks" --compare \
    --pairs "$tmp/$blocks.pairs" > "$tmp/$blocks.out"
  cmp "$tmp/collide.pairs" "$tmp/$blocks.pairs"
  grep -E '^ +cycles [0-9]+ =' "$tmp/$blocks.out" | awk '{print $2}' > "$tmp/$blocks.cycles"
  cmp "$tmp/model.cycles" "$tmp/$blocks.cycles" || { echo "cosim-cli-check: --rtl-blocks $blocks: cycles differ from the model" >&2; exit 1; }
  grep -q "Mcycles/s" "$tmp/$blocks.out"
done
grep -q "verilated blocks: sat+tri+ctrl+fetch" "$tmp/all.out"
# Waves: a VCD with the unit ports of the run.
"$kdop" sim "$mesh" "$mesh" --poses "$tmp/poses.txt" --engine systemc --rtl-blocks sat --trace "$tmp/w.vcd" >/dev/null
grep -q "enddefinitions" "$tmp/w.vcd"
grep -q "effective_o" "$tmp/w.vcd"
# Input errors: exit 2 and a message that names the problem.
expect_input_error() {  # PATTERN ARGS...
  local pattern="$1"; shift
  set +e
  "$kdop" sim "$mesh" "$mesh" --poses "$tmp/poses.txt" "$@" > "$tmp/err.out" 2>&1
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] && grep -q -- "$pattern" "$tmp/err.out" ||
    { echo "cosim-cli-check: '$*' gave status $rc, expected 2 and '$pattern':" >&2; cat "$tmp/err.out" >&2; exit 1; }
}
expect_input_error "unknown block 'bogus'" --engine systemc --rtl-blocks sat,bogus
expect_input_error "sat, tri, ctrl, fetch" --engine systemc --rtl-blocks bogus
expect_input_error "'top' is the whole verilated top" --engine systemc --rtl-blocks ctrl,top
expect_input_error "--rtl-blocks needs --engine systemc" --rtl-blocks sat
expect_input_error "--pairs-in-flight" --engine systemc --pairs-in-flight 8
expect_input_error "--arch v2" --engine systemc --arch paper
expect_input_error "must end in .vcd" --engine systemc --trace "$tmp/w.fst"
echo "cosim-cli-check: ok"
