#!/usr/bin/env bash
# kdop ccd and ccd-sequence (docs/ccd.md, docs/cli.md): bad input exits 2 with a message naming the
# file (and the frame), never a crash; small checked runs exit 0.
# Usage: cli_ccd.sh KDOP MESH_DIR
set -u
kdop="$1"; meshes="$2"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; pass=0

expect() {  # expect STATUS "substring of stderr or stdout" kdop-args...
  local want_rc="$1" want="$2"; shift 2
  local out rc
  out=$("$kdop" "$@" 2>&1); rc=$?
  if [ "$rc" -eq "$want_rc" ] && [[ "$out" == *"$want"* ]]; then pass=$((pass + 1));
  else echo "FAIL: kdop $* -> status $rc, output: ${out:0:600} (wanted status $want_rc and '$want')"; fail=$((fail + 1)); fi
}

# Two triangles of one mesh: the second, tilted, starts above the first (frame 0) and ends below
# it (frame 1): its lowest corner goes through the first at z = 0 (self-collision).
two_triangles() {  # two_triangles Z3 Z4 Z5 FILE: the second triangle's corners' heights
  printf 'OFF\n6 2 0\n0 0 0\n1 0 0\n0 1 0\n0.2 0.2 %s\n1.2 0.2 %s\n0.2 1.2 %s\n3 0 1 2\n3 3 4 5\n' "$1" "$2" "$3" > "$4"
}
two_triangles 1 1.3 1.5 "$tmp/f0.off"
two_triangles -1 0.5 0.9 "$tmp/f1.off"
printf 'OFF\n6 2 0\n0 0 0\n1 0 0\n0 1 0\n0.2 0.2 nan\n1.2 0.2 0\n0.2 1.2 0\n3 0 1 2\n3 3 4 5\n' > "$tmp/fnan.off"
# A static obstacle below the first triangle.
printf 'OFF\n3 1 0\n0 0 -2\n2 0 -2\n0 2 -2\n3 0 1 2\n' > "$tmp/one_triangle.off"
printf 'f0.off\nf1.off\n' > "$tmp/frames.txt"
printf 'f0.off\nf1.off\nmissing.off\n' > "$tmp/missing.txt"
printf 'f0.off\none_triangle.off\n' > "$tmp/topology.txt"
printf 'f0.off\nfnan.off\n' > "$tmp/nan.txt"
printf 'f0.off\n' > "$tmp/single.txt"
printf 'f0.off\nf1.off\nf1.off\n' > "$tmp/three.txt"
printf '1 0 0 0 -3 0 0\n' > "$tmp/from.txt"
printf '1 0 0 0 0.5 0.2 0.1\n' > "$tmp/to.txt"
printf '1 0 0 0 nan 0 0\n' > "$tmp/nan_pose.txt"

# --- kdop ccd -------------------------------------------------------------------------------------
expect 0 "check: brute force over every feature pair: equal" ccd "$meshes/sphere.off" "$meshes/sphere.off" \
  --from "$tmp/from.txt" --to "$tmp/to.txt" --check --json "$tmp/ccd.json"
expect 0 "t* = " ccd "$meshes/cube.off" "$meshes/cube.off" --from-pose "1 0 0 0 3 0 0" --to-pose "1 0 0 0 0 0 0" --threads 1
expect 0 "no contact in [0, 1]" ccd "$meshes/cube.off" "$meshes/cube.off" --from-pose "1 0 0 0 3 0 0" --to-pose "1 0 0 0 3 5 0"
expect 2 "--from" ccd "$meshes/cube.off" "$meshes/cube.off" --to "$tmp/to.txt"
expect 2 "$tmp/nope.txt" ccd "$meshes/cube.off" "$meshes/cube.off" --from "$tmp/nope.txt" --to "$tmp/to.txt"
expect 2 "nan_pose.txt" ccd "$meshes/cube.off" "$meshes/cube.off" --from "$tmp/nan_pose.txt" --to "$tmp/to.txt"
expect 2 "--pose-index 3" ccd "$meshes/cube.off" "$meshes/cube.off" --from "$tmp/from.txt" --to "$tmp/to.txt" --pose-index 3
expect 2 "fnan.off" ccd "$tmp/fnan.off" "$meshes/cube.off" --from "$tmp/from.txt" --to "$tmp/to.txt"
expect 2 "" ccd "$meshes/cube.off" "$meshes/cube.off" --from "$tmp/from.txt" --to "$tmp/to.txt" --k 7
expect 2 "character device" ccd "$meshes/cube.off" "$meshes/cube.off" --from "$tmp/from.txt" --to "$tmp/to.txt" --json /dev/full

# --- kdop ccd-sequence ----------------------------------------------------------------------------
expect 0 "brute force equal; bracketing ok" ccd-sequence "$tmp/frames.txt" --check --threads 1
expect 0 "1 interval(s), 1 with a contact" ccd-sequence "$tmp/frames.txt" --rebuild
expect 0 "brute force equal; bracketing ok" ccd-sequence "$tmp/frames.txt" --check --no-patch-culling
expect 0 "brute force equal; bracketing ok" ccd-sequence "$tmp/frames.txt" --check --elementary batch
expect 2 "--elementary" ccd-sequence "$tmp/frames.txt" --elementary gpu
# On the GPU where there is one (the same checked answer), else exit 2 naming why.
out=$("$kdop" ccd-sequence "$tmp/frames.txt" --check --elementary cuda 2>&1); rc=$?
if { [ "$rc" -eq 0 ] && [[ "$out" == *"brute force equal; bracketing ok"* ]]; } ||
   { [ "$rc" -eq 2 ] && [[ "$out" == *"--elementary cuda: "* ]]; }; then pass=$((pass + 1));
else echo "FAIL: kdop ccd-sequence --elementary cuda -> status $rc, output: ${out:0:600}"; fail=$((fail + 1)); fi
expect 0 "1 with a contact" ccd-sequence "$tmp/frames.txt" --other "$tmp/one_triangle.off" --self --restructure 1.5 --check
expect 2 "frame 2" ccd-sequence "$tmp/missing.txt"
expect 2 "frame 1" ccd-sequence "$tmp/topology.txt"
expect 2 "frame 1" ccd-sequence "$tmp/nan.txt"
expect 2 "no frame interval" ccd-sequence "$tmp/single.txt"
expect 2 "exclude each other" ccd-sequence "$tmp/frames.txt" --rebuild --restructure 2
expect 2 "3 frames" ccd-sequence "$tmp/frames.txt" --other "$tmp/three.txt"
expect 2 "$tmp/nope.kframes" ccd-sequence "$tmp/nope.kframes"

echo "cli_ccd: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
