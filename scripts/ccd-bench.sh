#!/usr/bin/env bash
# Continuous collision detection benchmark (docs/ccd.md, "Figures"): a 92k-triangle cloth draping
# over the cow (kdop ccd-gen cloth), per frame interval time of kdop ccd-sequence with
# self-collision on one thread and on all cores, with the trees refitted, rebuilt and restructured,
# and the cloth against the cow without self-collision. Prints one summary line per run and keeps
# the full outputs in OUT_DIR.
# Usage: scripts/ccd-bench.sh [KDOP] [FRAMES] [OUT_DIR]   (defaults: build/release/sim/kdop, 200, build/ccd-bench)
set -euo pipefail
kdop="${1:-build/release/sim/kdop}"; frames="${2:-200}"; out="${3:-build/ccd-bench}"
mkdir -p "$out"
cloth="$out/cloth-$frames.kframes"
[ -f "$cloth" ] || "$kdop" ccd-gen cloth --mesh data/meshes/cow.off --frames "$frames" --out "$cloth"
run() {  # run NAME kdop-args...
  local name="$1"; shift
  "$kdop" ccd-sequence "$@" --list 0 --json "$out/$name.json" > "$out/$name.txt"
  echo "$name: $(tail -1 "$out/$name.txt")   [kdop ccd-sequence $*]"
}
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
run self-refit-all "$cloth" --self --threads 0
run self-refit-1 "$cloth" --self --threads 1
run self-rebuild-all "$cloth" --self --threads 0 --rebuild
run self-restructure-all "$cloth" --self --threads 0 --restructure 1.5
run obstacle-only-all "$cloth" --other data/meshes/cow.off --threads 0
