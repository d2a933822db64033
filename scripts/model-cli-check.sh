#!/usr/bin/env bash
# `kdop sim` against `kdop collide --backend fixed` through the CLI in the four pose classes, for
# both architectures (--arch paper and the default v2): the --pairs files must be identical,
# --compare must pass (pair, axis, leaf and triangle tests equal), --json keeps cycles per pose and
# clock_mhz, and a tiny --stack-depth must fail with the overflow error. Options of the other
# architecture are input errors. Used by ctest (model_cli_check).
# Usage: scripts/model-cli-check.sh PATH/TO/kdop [FIRST mesh, default data/meshes/cow.off] [SECOND, default FIRST]
set -euo pipefail
kdop="$1"
mesh="${2:-$(dirname "$0")/../data/meshes/cow.off}"
second="${3:-$mesh}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$kdop" poses "$mesh" "$second" --out "$tmp/poses.txt" >/dev/null
"$kdop" collide "$mesh" "$second" --poses "$tmp/poses.txt" --backend fixed --axes 12 --pairs "$tmp/collide.pairs" >/dev/null
for arch in paper v2; do
  "$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --arch "$arch" --axes 12 --compare --pairs "$tmp/$arch.pairs" \
    --json "$tmp/$arch.json" --trace "$tmp/$arch.vcd" > "$tmp/$arch.out"
  cmp "$tmp/collide.pairs" "$tmp/$arch.pairs"
  grep -q "Mcycles/s" "$tmp/$arch.out"
  grep -q "enddefinitions" "$tmp/$arch.vcd"
  jq -e --arg a "$arch" '.arch == $a and .clock_mhz > 0 and (.poses | length) == 4 and all(.poses[]; .cycles > 0)' \
    "$tmp/$arch.json" >/dev/null
  set +e
  "$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --arch "$arch" --stack-depth 2 > "$tmp/overflow.out" 2>&1
  rc=$?
  set -e
  # An overflow is a reported result with its own exit status, 4 (docs/cli.md).
  [ "$rc" -eq 4 ] || { echo "model-cli-check: --arch $arch --stack-depth 2 gave status $rc, expected 4 (overflow)" >&2; exit 1; }
  grep -q "stack overflow" "$tmp/overflow.out"
  grep -q "kdop: overflow:" "$tmp/overflow.out"
done
# v2 needs far fewer cycles than the paper design on the intersecting pose.
paper=$(jq '.poses[0].cycles' "$tmp/paper.json"); v2=$(jq '.poses[0].cycles' "$tmp/v2.json")
[ "$v2" -lt "$paper" ] || { echo "model-cli-check: v2 $v2 cycles, paper $paper" >&2; exit 1; }
# An option of the other architecture is an input error (exit 2) that names it.
set +e
"$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --pipelines 2 > "$tmp/wrong.out" 2>&1; rc1=$?
"$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --arch paper --tri-ii 4 > "$tmp/wrong2.out" 2>&1; rc2=$?
set -e
[ "$rc1" -eq 2 ] && grep -q -- "--pipelines" "$tmp/wrong.out" || { cat "$tmp/wrong.out" >&2; exit 1; }
[ "$rc2" -eq 2 ] && grep -q -- "--tri-ii" "$tmp/wrong2.out" || { cat "$tmp/wrong2.out" >&2; exit 1; }
# The command queue: the same pairs, an end-to-end line per pose and the batch's rate; its options
# without it, and a contact buffer too small, are reported (exit 2 and 4).
"$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --axes 12 --host pcie-gen3x16 --engines 2 --host-setup-ns 1500 \
  --pairs "$tmp/queue.pairs" --json "$tmp/queue.json" > "$tmp/queue.out"
cmp "$tmp/collide.pairs" "$tmp/queue.pairs"
[ "$(grep -c "pose known -> contacts in host memory" "$tmp/queue.out")" -eq 4 ] || { cat "$tmp/queue.out" >&2; exit 1; }
grep -q "queries/s" "$tmp/queue.out"
jq -e 'all(.poses[]; .completion_cycle > .end_cycle and .end_cycle >= .start_cycle and .start_cycle > .doorbell_cycle)' \
  "$tmp/queue.json" >/dev/null
set +e
"$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --host-setup-ns 100 > "$tmp/wrong3.out" 2>&1; rc3=$?
"$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --host zynq-coherent --contact-capacity 1 > "$tmp/cap.out" 2>&1; rc4=$?
set -e
[ "$rc3" -eq 2 ] && grep -q -- "--host-setup-ns" "$tmp/wrong3.out" || { cat "$tmp/wrong3.out" >&2; exit 1; }
[ "$rc4" -eq 4 ] && grep -q -- "--contact-capacity" "$tmp/cap.out" || { cat "$tmp/cap.out" >&2; exit 1; }
echo "model-cli-check: kdop sim (paper and v2, registers and command queue) equals kdop collide --backend fixed; overflow and option errors reported"
