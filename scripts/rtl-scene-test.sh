#!/usr/bin/env bash
# Records the axis-test vectors of real traversals (kdop vectors --format quantized) and checks
# that the RTL testbench prints exactly what kdop sat-eval prints for them.
# Usage: rtl-scene-test.sh KDOP RTL_SAT_TB B,C,Z WORKDIR MESH_DIR POSES
set -euo pipefail
kdop=$1 tb=$2 bits=$3 work=$4 meshes=$5 poses=$6
here=$(dirname "$0")
mkdir -p "$work"
total=0
for scene in "cow.off cow.off" "elephant.off dino.off" "knot1.off femur.off"; do
  set -- $scene
  if [[ ! -f "$meshes/$1" || ! -f "$meshes/$2" ]]; then
    echo "missing meshes $1 $2 in $meshes (scripts/fetch-meshes.sh)"
    exit 1
  fi
  out="$work/${1%.off}_${2%.off}.vec"
  "$kdop" vectors "$meshes/$1" "$meshes/$2" --poses "$poses" --out "$out" --format quantized \
    --bits "$bits" --limit 150000 > "$work/record.log"
  "$here/rtl-vectors-diff.sh" "$kdop" "$tb" "$out" "$work/${1%.off}_${2%.off}"
  total=$((total + $(grep -c '^Q' "$out")))
done
echo "scene vectors at b,c,z=$bits: $total, all identical"
