#!/usr/bin/env bash
# `kdop sat-eval --engine rtl` must print exactly what `kdop sat-eval` prints, for vectors of both
# compiled parameter sets (recorded from a real traversal, random with edge values, the small
# checked-in file), and refuse an uncompiled b c z with a clear error.
# Usage: rtl-engine-diff.sh KDOP RTL_SAT_TB WORKDIR MESH_DIR POSES SMALL_VEC
set -euo pipefail
kdop=$1 tb=$2 work=$3 meshes=$4 poses=$5 small=$6
mkdir -p "$work"
"$kdop" vectors "$meshes/cow.off" "$meshes/cow.off" --poses "$poses" --out "$work/scene_18.vec" \
  --format quantized --bits 18,18,18 --limit 30000 > /dev/null
"$kdop" vectors "$meshes/knot1.off" "$meshes/femur.off" --poses "$poses" --out "$work/scene_35.vec" \
  --format quantized --bits 35,35,35 --limit 30000 > /dev/null
"$tb" --random 20000 --bits 18,18,18 --seed 5 --dump "$work/random_18.vec" > /dev/null
"$tb" --random 20000 --bits 35,35,35 --seed 6 --dump "$work/random_35.vec" > /dev/null
cat "$work/random_18.vec" "$work/random_35.vec" "$work/scene_18.vec" > "$work/mixed.vec"
for f in "$small" "$work/scene_18.vec" "$work/scene_35.vec" "$work/random_18.vec" "$work/random_35.vec" "$work/mixed.vec"; do
  "$kdop" sat-eval --vectors "$f" > "$work/ref.txt"
  "$kdop" sat-eval --engine rtl --vectors "$f" > "$work/rtl.txt"
  if ! cmp -s "$work/ref.txt" "$work/rtl.txt"; then
    echo "MISMATCH: $f: kdop sat-eval --engine rtl differs"
    diff "$work/ref.txt" "$work/rtl.txt" | head -10
    exit 1
  fi
  echo "identical: $f ($(wc -l < "$work/ref.txt") vectors)"
done
# An uncompiled b c z: a clear error, no output.
head -1 "$work/random_18.vec" | sed 's/^Q 18 18 18/Q 20 18 18/' > "$work/uncompiled.vec"
if "$kdop" sat-eval --engine rtl --vectors "$work/uncompiled.vec" > "$work/out.txt" 2> "$work/err.txt"; then
  echo "expected an error for b,c,z = 20,18,18"; exit 1
fi
grep -q "20,18,18 is not compiled into the RTL engine" "$work/err.txt" || { cat "$work/err.txt"; exit 1; }
echo "refused: $(cat "$work/err.txt")"
