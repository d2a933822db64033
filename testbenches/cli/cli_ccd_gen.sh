#!/usr/bin/env bash
# kdop ccd-gen (docs/cli.md, "kdop ccd-gen"): bad input ends with exit status 2 and a message on
# stderr naming what was wrong, never a crash (134/139) or an internal error (3); small good runs
# exit 0 and write a .kframes file of exactly the size its counts imply (docs/formats.md), the same
# bytes for the same seed.
# Usage: cli_ccd_gen.sh KDOP MESH_DIR
set -u
kdop="$1"; meshes="$2"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; pass=0

expect() {  # expect STATUS "substring of stderr" kdop-args...
  local want_rc="$1" want="$2"; shift 2
  local err rc
  err=$("$kdop" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq "$want_rc" ] && [[ "$err" == *"$want"* ]]; then pass=$((pass + 1));
  else echo "FAIL: kdop $* -> status $rc, stderr: ${err:0:400} (wanted status $want_rc and '$want')"; fail=$((fail + 1)); fi
}
expect_error() { expect 2 "$@"; }
expect_ok() { expect 0 "" "$@"; }
check() {  # check "what" command...: a shell condition that must hold
  local what="$1"; shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}
kframes_size() {  # the size a .kframes file of V vertices, T triangles, F frames has
  echo $((64 + 12 * $2 + 24 * $1 * $3))
}

cube() {  # cube HALF_EXTENT FILE: an axis-aligned closed cube centred at the origin
  local h="$1"
  printf 'OFF\n8 12 0\n' > "$2"
  for z in -"$h" "$h"; do for y in -"$h" "$h"; do for x in -"$h" "$h"; do echo "$x $y $z" >> "$2"; done; done; done
  printf '3 0 2 1\n3 1 2 3\n3 4 5 6\n3 5 7 6\n3 0 1 4\n3 1 5 4\n3 2 6 3\n3 3 6 7\n3 0 4 2\n3 2 4 6\n3 1 3 5\n3 3 7 5\n' >> "$2"
}
cube 0.5 "$tmp/cube.off"
printf 'OFF\n3 0 0\n0 0 0\n1 0 0\n0 1 0\n' > "$tmp/points.off"
printf 'OFF\n3 1 0\n1 1 1\n1 1 1\n1 1 1\n3 0 1 2\n' > "$tmp/collapsed.off"
printf 'OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n' > "$tmp/badindex.off"
mkdir "$tmp/dir"; mkfifo "$tmp/fifo.kframes"
out="$tmp/out.kframes"
small=(--resolution 5 --frames 3 --field-cells 8)

# --- the command line ---------------------------------------------------------------------------
expect_error "A subcommand is required" ccd-gen
expect_error "A subcommand is required" ccd-gen wave -o "$out"
expect_error "--out" ccd-gen cloth --mesh "$tmp/cube.off"
expect_error "--nosuch" ccd-gen twist --mesh "$tmp/cube.off" -o "$out" --nosuch
expect_ok ccd-gen --help
expect_ok ccd-gen cloth --help

# --- meshes -------------------------------------------------------------------------------------
expect_error "nosuch.off: mesh not found" ccd-gen cloth --mesh "$tmp/nosuch.off" -o "$out"
expect_error "nosuch.off: mesh not found" ccd-gen twist --mesh "$tmp/nosuch.off" -o "$out"
expect_error "nosuch.off: mesh not found" ccd-gen fall --mesh "$tmp/cube.off" "$tmp/nosuch.off" -o "$out"
expect_error "points.off: empty mesh (no triangles)" ccd-gen cloth --mesh "$tmp/points.off" -o "$out"
expect_error "collapsed.off: the mesh's vertices all coincide" ccd-gen twist --mesh "$tmp/collapsed.off" -o "$out"
expect_error "badindex.off" ccd-gen fall --mesh "$tmp/badindex.off" -o "$out"
expect_error "is a directory" ccd-gen cloth --mesh "$tmp/dir" -o "$out"
check "no output after refused meshes" test ! -e "$out"

# --- numbers ------------------------------------------------------------------------------------
expect_error "--frames" ccd-gen cloth --mesh "$tmp/cube.off" -o "$out" --frames 0
expect_error "--frames" ccd-gen cloth --mesh "$tmp/cube.off" -o "$out" --frames 1048577
expect_error "not an unsigned decimal integer" ccd-gen twist --mesh "$tmp/cube.off" -o "$out" --frames 1e3
expect_error "not an unsigned decimal integer" ccd-gen fall --mesh "$tmp/cube.off" -o "$out" --frames -5
expect_error "--resolution" ccd-gen cloth --mesh "$tmp/cube.off" -o "$out" --resolution 1
expect_error "--resolution" ccd-gen cloth --mesh "$tmp/cube.off" -o "$out" --resolution 99999
expect_error "not a finite number" ccd-gen cloth --mesh "$tmp/cube.off" -o "$out" --width nan
expect_error "--width" ccd-gen cloth --mesh "$tmp/cube.off" -o "$out" --width -1
expect_error "--fps" ccd-gen cloth --mesh "$tmp/cube.off" -o "$out" --fps 0
expect_error "not an unsigned decimal integer" ccd-gen cloth --mesh "$tmp/cube.off" -o "$out" --seed -1
expect_error "does not fit" ccd-gen cloth --mesh "$tmp/cube.off" -o "$out" --seed 99999999999999999999
expect_error "not a finite number" ccd-gen twist --mesh "$tmp/cube.off" -o "$out" --twist inf
expect_error "--bend" ccd-gen twist --mesh "$tmp/cube.off" -o "$out" --bend 7
expect_error "--bodies" ccd-gen fall --mesh "$tmp/cube.off" -o "$out" --bodies 0
expect_error "--contact-radius" ccd-gen fall --mesh "$tmp/cube.off" -o "$out" --contact-radius 2
expect_error "--substeps" ccd-gen fall --mesh "$tmp/cube.off" -o "$out" --substeps 0
check "no output after refused numbers" test ! -e "$out"

# --- outputs ------------------------------------------------------------------------------------
expect_error "does not exist" ccd-gen cloth --mesh "$tmp/cube.off" -o "$tmp/nosuch/out.kframes" "${small[@]}"
expect_error "is a directory" ccd-gen cloth --mesh "$tmp/cube.off" -o "$tmp/dir" "${small[@]}"
expect_error "FIFO" ccd-gen twist --mesh "$tmp/cube.off" -o "$tmp/fifo.kframes" --frames 2
if [ -c /dev/full ]; then
  expect_error "character device" ccd-gen fall --mesh "$tmp/cube.off" -o /dev/full --frames 2
fi
cp "$tmp/cube.off" "$tmp/input.off"; sum=$(cksum < "$tmp/input.off")
expect_error "refusing to overwrite an input" ccd-gen twist --mesh "$tmp/input.off" -o "$tmp/input.off" --frames 2
check "the input mesh is intact" test "$(cksum < "$tmp/input.off")" == "$sum"

# --- small good runs ----------------------------------------------------------------------------
expect_ok ccd-gen cloth --mesh "$tmp/cube.off" -o "$out" "${small[@]}"
check "cloth file size" test "$(stat -c %s "$out")" -eq "$(kframes_size 25 32 3)"
expect_ok ccd-gen cloth --mesh "$tmp/cube.off" -o "$tmp/with.kframes" "${small[@]}" --include-obstacle
check "cloth with obstacle file size" test "$(stat -c %s "$tmp/with.kframes")" -eq "$(kframes_size $((25 + 8)) $((32 + 12)) 3)"
expect_ok ccd-gen cloth --mesh "$tmp/cube.off" -o "$tmp/again.kframes" "${small[@]}"
check "same seed, same bytes" cmp -s "$out" "$tmp/again.kframes"
expect_ok ccd-gen cloth --mesh "$tmp/cube.off" -o "$tmp/other.kframes" "${small[@]}" --seed 2
check "another seed, other bytes" test -n "$(cmp "$out" "$tmp/other.kframes" 2>&1)"
expect_ok ccd-gen twist --mesh "$tmp/cube.off" -o "$out" --frames 4
check "twist file size" test "$(stat -c %s "$out")" -eq "$(kframes_size 8 12 4)"
expect_ok ccd-gen fall --mesh "$tmp/cube.off" "$meshes/tetrahedron.off" -o "$out" --bodies 3 --frames 5
check "fall file size" test "$(stat -c %s "$out")" -eq "$(kframes_size $((8 + 4 + 8)) $((12 + 4 + 12)) 5)"
if [ -c /dev/full ]; then  # the summary on a full standard output is an output error
  err=$("$kdop" ccd-gen twist --mesh "$tmp/cube.off" -o "$out" --frames 2 2>&1 >/dev/full); rc=$?
  check "stdout on /dev/full -> 2 (got $rc: $err)" test "$rc" -eq 2 -a -n "$(echo "$err" | grep 'standard output')"
fi

echo "cli_ccd_gen: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
