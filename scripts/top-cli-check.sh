#!/usr/bin/env bash
# `kdop sim --engine rtl|both` through the CLI (docs/accelerator-v2.md, docs/accelerator.md), for the v2
# top and the paper top: the verilated top's contact
# pairs equal `kdop collide --backend fixed`'s byte for byte, `--engine both` finds every query's
# cycle count equal to the SystemC model's, random stalls keep the answer, a tiny stack fails with
# the overflow message, and a configuration the top was not verilated for is refused (exit 2).
# Usage: scripts/top-cli-check.sh PATH/TO/kdop [FIRST mesh, default data/meshes/cow.off] [SECOND, default FIRST]
set -euo pipefail
kdop="$1"
mesh="${2:-$(dirname "$0")/../data/meshes/cow.off}"
second="${3:-$mesh}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$kdop" poses "$mesh" "$second" --out "$tmp/poses.txt" >/dev/null
"$kdop" collide "$mesh" "$second" --poses "$tmp/poses.txt" --backend fixed --pairs "$tmp/collide.pairs" >/dev/null
# Both tops: v2 (kdopcd_v2_top, the default --arch) and the paper design's (kdopcd_top).
for arch in v2 paper; do
  "$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --arch "$arch" --engine both --compare --pairs "$tmp/rtl.pairs" > "$tmp/both.out"
  cmp "$tmp/collide.pairs" "$tmp/rtl.pairs"
  test "$(grep -c "rtl top vs SystemC model: .*(equal)" "$tmp/both.out")" -eq 4
  if [ "$arch" = paper ]; then
    # The second verilated paper top (one outstanding read) against the model with the same setting.
    "$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --arch paper --engine both --outstanding 1 --axes 8 > "$tmp/o1.out"
    test "$(grep -c "rtl top vs SystemC model: .*(equal)" "$tmp/o1.out")" -eq 4
  fi
  "$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --arch "$arch" --engine rtl --stalls --seed 9 --pairs "$tmp/stalls.pairs" > /dev/null
  cmp "$tmp/collide.pairs" "$tmp/stalls.pairs"
  set +e
  "$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --arch "$arch" --engine rtl --stack-depth 2 > "$tmp/overflow.out" 2>&1
  rc=$?
  set -e
  # An overflow is a reported result with its own exit status, 4 (docs/cli.md).
  [ "$rc" -eq 4 ] || { echo "top-cli-check: --stack-depth 2 gave status $rc, expected 4 (overflow)" >&2; exit 1; }
  grep -q "stack overflow" "$tmp/overflow.out"
  set +e
  "$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --arch "$arch" --engine rtl --bits 35 > "$tmp/bits.out" 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 2 ] && grep -q "verilated.* top has b,c,z" "$tmp/bits.out" ||
    { echo "top-cli-check: --arch $arch --bits 35 gave status $rc, expected 2 naming the verilated b,c,z:" >&2; cat "$tmp/bits.out" >&2; exit 1; }
  grep "rtl top vs SystemC model" "$tmp/both.out"
  echo "top-cli-check ($arch): rtl top = kdop collide --backend fixed, cycles = SystemC model, stalls keep the answer, overflow and wrong configuration reported"
done
# A v2 option the verilated v2 top does not have is refused by name.
set +e
"$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --engine rtl --tri-ii 4 > "$tmp/ii.out" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "tri-ii" "$tmp/ii.out" ||
  { echo "top-cli-check: --tri-ii 4 gave status $rc, expected 2 naming --tri-ii:" >&2; cat "$tmp/ii.out" >&2; exit 1; }
