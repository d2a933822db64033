#!/usr/bin/env bash
# kdop collide --device host (the GPU's narrow phase on CPU threads, trees resident) gives the
# reference's --pairs file and counters for the four pose classes of cow/cow and elephant/hand,
# passes its own --check, and refuses what it cannot do (exit 2): the exact SAT, and --device cuda
# without a GPU. kdop multibody --frames: every frame's contacts equal the reference (--check);
# every --traversal passes --check, and an unknown one or a rule it cannot follow is exit 2.
# Usage: cli_device.sh KDOP MESH_DIR
set -u
kdop="$1"; meshes="$2"
. "$(dirname "$0")/check_lib.sh"  # tmp, check, pass and fail counts
# The table's columns but the time (and the stack, which the device path does not record).
counts() { awk '$1 ~ /^[0-9]+$/ && NF == 7 { print $1, $2, $3, $4, $5 }' "$1"; }
for pair in cow:cow elephant:hand; do
  a="$meshes/${pair%%:*}.off"; b="$meshes/${pair##*:}.off"
  rm -f "$tmp/p.poses"
  "$kdop" poses "$a" "$b" --out "$tmp/p.poses" > /dev/null
  check "$pair: kdop poses found the four classes" test -s "$tmp/p.poses"
  for backend in float fixed; do
    # The reference with the GPU's tree and rule, and (float) the k axes alone, as the device tests them.
    planes=""; [ "$backend" = float ] && planes="--no-leaf-planes"
    "$kdop" collide "$a" "$b" --poses "$tmp/p.poses" --backend "$backend" --build median --rule shallower $planes \
      --pairs "$tmp/ref.txt" > "$tmp/ref.out"
    "$kdop" collide "$a" "$b" --poses "$tmp/p.poses" --backend "$backend" --device host --check \
      --pairs "$tmp/dev.txt" > "$tmp/dev.out"
    rc=$?
    check "$pair $backend: --device host --check passes (exit $rc)" test "$rc" -eq 0
    check "$pair $backend: four poses answered" test "$(counts "$tmp/dev.out" | wc -l)" -eq 4
    check "$pair $backend: the reference's counters" test "$(counts "$tmp/ref.out")" = "$(counts "$tmp/dev.out")"
    check "$pair $backend: the reference's contact pairs" cmp -s "$tmp/ref.txt" "$tmp/dev.txt"
  done
done
"$kdop" collide "$meshes/cow.off" "$meshes/cow.off" --pose "1 0 0 0 0.1 0 0" --backend exact --device host \
  > /dev/null 2> "$tmp/err"
rc=$?
check "--device host --backend exact: exit 2 (got $rc)" test "$rc" -eq 2
check "--device host --backend exact: says why" grep -q "float or fixed" "$tmp/err"
"$kdop" collide "$meshes/cow.off" "$meshes/cow.off" --pose "1 0 0 0 0.1 0 0" --device host --no-leaf-planes \
  > /dev/null 2> "$tmp/err"
rc=$?
check "--device host --no-leaf-planes: exit 2 (got $rc)" test "$rc" -eq 2
check "--device host --no-leaf-planes: says why" grep -q "reference's float backend" "$tmp/err"
if ! nvidia-smi > /dev/null 2>&1; then
  "$kdop" collide "$meshes/cow.off" "$meshes/cow.off" --pose "1 0 0 0 0.1 0 0" --device cuda > /dev/null 2> "$tmp/err"
  rc=$?
  check "--device cuda without a GPU: exit 2 (got $rc)" test "$rc" -eq 2
  check "--device cuda without a GPU: says why" grep -q "no usable GPU" "$tmp/err"
fi
# The reference's wide descent (its default) and binary descent: the same contact pairs, other counters.
"$kdop" collide "$meshes/cow.off" "$meshes/cow.off" --pose "1 0 0 0 0.1 0 0" --pairs "$tmp/wide.txt" > "$tmp/wide.out"
"$kdop" collide "$meshes/cow.off" "$meshes/cow.off" --pose "1 0 0 0 0.1 0 0" --binary-descent --pairs "$tmp/binary.txt" \
  > "$tmp/binary.out"
check "wide and binary descent: the same contact pairs" cmp -s "$tmp/wide.txt" "$tmp/binary.txt"
check "wide and binary descent: contacts found" test "$(head -1 "$tmp/wide.txt" | awk '{ print $3 }')" -gt 0
check "wide and binary descent: other pair tests" test "$(counts "$tmp/wide.out")" != "$(counts "$tmp/binary.out")"
"$kdop" multibody-scene --mesh "$meshes/cow.off" --objects 12 --density 6 --seed 2 -o "$tmp/s.json" > /dev/null
"$kdop" multibody "$tmp/s.json" --frames 3 --check > "$tmp/frames.out"
rc=$?
check "multibody --frames 3 --check passes (exit $rc)" test "$rc" -eq 0
check "multibody --frames 3: three frames checked" test "$(grep -c "contacts and pair/axis/leaf counts equal" "$tmp/frames.out")" -eq 3
# Every traversal (docs/cuda.md §3) passes --check on the same scene; the leaf algorithm tests
# other DOP pairs, so its check compares contacts and leaf pairs only.
for traversal in binary explicit dynamic predictable leaf stackless post-indexed; do
  "$kdop" multibody "$tmp/s.json" --traversal "$traversal" --check > "$tmp/t.out"
  rc=$?
  check "multibody --traversal $traversal --check passes (exit $rc)" test "$rc" -eq 0
  check "multibody --traversal $traversal: the traversal named" grep -q "traversal $traversal," "$tmp/t.out"
done
"$kdop" multibody "$tmp/s.json" --traversal stack-less > /dev/null 2> "$tmp/err"
rc=$?
check "multibody --traversal stack-less: exit 2 (got $rc)" test "$rc" -eq 2
check "multibody --traversal stack-less: lists the names" grep -q "post-indexed" "$tmp/err"
"$kdop" multibody "$tmp/s.json" --traversal post-indexed --rule first > /dev/null 2> "$tmp/err"
rc=$?
check "multibody --traversal post-indexed --rule first: exit 2 (got $rc)" test "$rc" -eq 2
check "multibody --traversal post-indexed --rule first: says why" grep -q "steps alternately" "$tmp/err"
echo "cli_device: $pass passed, $fail failed"
test "$fail" -eq 0
