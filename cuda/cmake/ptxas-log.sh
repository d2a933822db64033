#!/usr/bin/env bash
# Compiler launcher of the CUDA sources (CUDA_COMPILER_LAUNCHER): runs the nvcc command line
# given as arguments, shows its output as usual, and keeps the ptxas -v lines of it in
# <object>.ptxas.log next to the object file, for the ptxas report (ptxas-report.cmake).
obj=""
prev=""
for a in "$@"; do
  if [ "$prev" = "-o" ]; then obj="$a"; fi
  prev="$a"
done
tmp="$(mktemp)"
"$@" 2>"$tmp"
rc=$?
cat "$tmp" >&2
if [ -n "$obj" ] && [ "$rc" -eq 0 ]; then
  grep -E "ptxas info|bytes stack frame" "$tmp" > "$obj.ptxas.log" || true
fi
rm -f "$tmp"
exit "$rc"
