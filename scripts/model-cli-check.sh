#!/usr/bin/env bash
# `kdop sim` against `kdop collide --backend fixed` through the CLI on cow vs cow in the four pose
# classes: the --pairs files must be identical, --compare must pass (pair and axis tests equal),
# and a tiny --stack-depth must fail with the overflow error. Used by ctest (model_cli_check).
# Usage: scripts/model-cli-check.sh PATH/TO/kdop [FIRST mesh, default data/meshes/cow.off] [SECOND, default FIRST]
set -euo pipefail
kdop="$1"
mesh="${2:-$(dirname "$0")/../data/meshes/cow.off}"
second="${3:-$mesh}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$kdop" poses "$mesh" "$second" --out "$tmp/poses.txt" >/dev/null
"$kdop" collide "$mesh" "$second" --poses "$tmp/poses.txt" --backend fixed --axes 12 --pairs "$tmp/collide.pairs" >/dev/null
"$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --axes 12 --compare --pairs "$tmp/sim.pairs" \
  --json "$tmp/sim.json" --trace "$tmp/top.vcd" > "$tmp/sim.out"
cmp "$tmp/collide.pairs" "$tmp/sim.pairs"
grep -q "Mcycles/s" "$tmp/sim.out"
grep -q "enddefinitions" "$tmp/top.vcd"
set +e
"$kdop" sim "$mesh" "$second" --poses "$tmp/poses.txt" --stack-depth 2 > "$tmp/overflow.out" 2>&1
rc=$?
set -e
# An overflow is a reported result with its own exit status, 4 (docs/cli.md).
[ "$rc" -eq 4 ] || { echo "model-cli-check: --stack-depth 2 gave status $rc, expected 4 (overflow)" >&2; exit 1; }
grep -q "stack overflow" "$tmp/overflow.out"
grep -q "kdop: overflow:" "$tmp/overflow.out"
echo "model-cli-check: kdop sim equals kdop collide --backend fixed; overflow reported"
