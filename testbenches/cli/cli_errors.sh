#!/usr/bin/env bash
# Bad input to the kdop command line: each case must exit with status 2 (input error, never a
# crash: 134/139) and print a message naming the file and what was wrong.
# Usage: cli_errors.sh KDOP MESH_DIR
set -u
kdop="$1"; meshes="$2"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0; pass=0
expect_error() {  # expect_error "substring of stderr" kdop-args...
  local want="$1"; shift
  local err rc
  err=$("$kdop" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && [[ "$err" == *"$want"* ]]; then pass=$((pass + 1));
  else echo "FAIL: kdop $* -> status $rc, stderr: $err (wanted status 2 and '$want')"; fail=$((fail + 1)); fi
}
printf 'OFF\n3 1 0\n0 0 0\n1 0 0\n' > "$tmp/truncated.off"
printf 'OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n' > "$tmp/badindex.off"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n' > "$tmp/badindex.obj"
printf 'solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0\n' > "$tmp/broken.stl"
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nend_header\n0\n' > "$tmp/broken.ply"
printf 'OFF\n0 0 0\n' > "$tmp/empty.off"
printf '1 0 0 0 0 0 0\n0 0 0 0 1 1 1\n' > "$tmp/zeroquat.txt"
printf '1 0 0 0 0 0\n' > "$tmp/short.txt"
cow="$meshes/cow.off"
expect_error "missing.off" collide "$tmp/missing.off" "$cow" --pose "1 0 0 0 0 0 0"
expect_error "truncated.off" collide "$tmp/truncated.off" "$cow" --pose "1 0 0 0 0 0 0"
expect_error "badindex.off" collide "$tmp/badindex.off" "$cow" --pose "1 0 0 0 0 0 0"
expect_error "badindex.obj" collide "$cow" "$tmp/badindex.obj" --pose "1 0 0 0 0 0 0"
expect_error "broken.stl" collide "$cow" "$tmp/broken.stl" --pose "1 0 0 0 0 0 0"
expect_error "broken.ply" collide "$cow" "$tmp/broken.ply" --pose "1 0 0 0 0 0 0"
expect_error "empty.off" collide "$tmp/empty.off" "$cow" --pose "1 0 0 0 0 0 0"
expect_error "zeroquat.txt:2" collide "$cow" "$cow" --poses "$tmp/zeroquat.txt"
expect_error "short.txt:1: expected 7 numbers" collide "$cow" "$cow" --poses "$tmp/short.txt"
expect_error "--pose" collide "$cow" "$cow" --pose "1 0 0 0 0 zero 0"
expect_error "unknown descent rule" collide "$cow" "$cow" --pose "1 0 0 0 0 0 0" --rule deepest
expect_error "--tri-bits '40,20'" collide "$cow" "$cow" --pose "1 0 0 0 0 0 0" --backend fixed --tri-bits 40,20
expect_error "--tri-bits 'x'" collide "$cow" "$cow" --pose "1 0 0 0 0 0 0" --backend fixed --tri-bits x
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
