#!/usr/bin/env bash
# kdop collide --backend fixed far from the origin (docs/fixed-point.md §2, §9): data/meshes' cube
# and icosahedron, both moved 1e3, 1e6 and 1e9 from the origin in their files, give the contact
# pairs they give at the origin (12); a scene of very different sizes prints a warning naming the
# bits to use, an ordinary one none.
# Usage: cli_far.sh KDOP MESH_DIR
set -u
kdop="$1"; meshes="$2"
. "$(dirname "$0")/check_lib.sh"  # tmp, check, pass and fail counts
# An OFF file with every vertex moved by (d, d, d) (awk prints the full double).
moved() {  # moved IN OUT d
  awk -v d="$3" 'NR == 1 { print; next }
                 NR == 2 { nv = $1; print; next }
                 nv > 0 && NF == 3 { printf "%.17g %.17g %.17g\n", $1 + d, $2 + d, $3 + d; nv--; next }
                 { print }' "$1" > "$2"
}
pose="1 0 0 0 1.5 0.25 0.125"
"$kdop" collide "$meshes/cube.off" "$meshes/icosahedron.off" --pose "$pose" --backend fixed \
  --pairs "$tmp/origin.txt" > /dev/null 2> "$tmp/origin.err"
check "12 contacts at the origin" grep -q "^pose 0 12$" "$tmp/origin.txt"
check "no warning at the origin" test ! -s "$tmp/origin.err"
for d in 1000 1000000 1000000000; do
  moved "$meshes/cube.off" "$tmp/cube.off" "$d"
  moved "$meshes/icosahedron.off" "$tmp/ico.off" "$d"
  "$kdop" collide "$tmp/cube.off" "$tmp/ico.off" --pose "$pose" --backend fixed --pairs "$tmp/far.txt" \
    > /dev/null 2> "$tmp/far.err"
  check "moved $d: the origin's contact pairs" cmp -s "$tmp/origin.txt" "$tmp/far.txt"
  check "moved $d: no warning" test ! -s "$tmp/far.err"
done
# A cube of edge 2e5 and the icosahedron (radius 1): the SAT needs more than 18 bits.
awk 'NR > 2 && NF == 3 { printf "%.17g %.17g %.17g\n", $1 * 1e5, $2 * 1e5, $3 * 1e5; next } { print }' \
  "$meshes/cube.off" > "$tmp/big.off"
"$kdop" collide "$tmp/big.off" "$meshes/icosahedron.off" --pose "1 0 0 0 100000 0 0" --backend fixed \
  > /dev/null 2> "$tmp/big.err"
check "different sizes: a warning that names --bits" grep -q "warning: fixed SAT.*Use --bits" "$tmp/big.err"
"$kdop" collide "$tmp/big.off" "$meshes/icosahedron.off" --pose "1 0 0 0 100000 0 0" --backend float \
  > /dev/null 2> "$tmp/float.err"
check "float backend: no warning" test ! -s "$tmp/float.err"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
