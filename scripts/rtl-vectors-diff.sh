#!/usr/bin/env bash
# Runs one vector file through the RTL testbench and through the reference and diffs the two
# 'diff1 diff2 verdict' outputs. Usage: rtl-vectors-diff.sh KDOP RTL_SAT_TB VECTORS WORKDIR [SEED]
set -euo pipefail
kdop=$1 tb=$2 vectors=$3 work=$4 seed=${5:-1}
mkdir -p "$work"
"$kdop" sat-eval --vectors "$vectors" > "$work/ref.txt"
"$tb" --vectors "$vectors" --seed "$seed" --bubble 0.2 > "$work/rtl.txt"
n=$(wc -l < "$work/ref.txt")
if ! diff -q "$work/ref.txt" "$work/rtl.txt" > /dev/null; then
  echo "MISMATCH: $vectors: rtl differs from kdop sat-eval (first differences below)"
  diff "$work/ref.txt" "$work/rtl.txt" | head -20
  exit 1
fi
sep=$(awk '$3 == 1' "$work/ref.txt" | wc -l)
echo "identical: $vectors: $n vectors ($sep separated), rtl_sat_tb == kdop sat-eval"
