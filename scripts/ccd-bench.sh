#!/usr/bin/env bash
# Continuous collision detection benchmark (docs/ccd.md, "Figures"): a 92k-triangle cloth draping
# over the cow (kdop ccd-gen cloth), per frame interval time of kdop ccd-sequence with
# self-collision on one thread and on all cores, with and without patch culling, with the trees
# refitted, rebuilt and restructured, and the cloth against the cow without self-collision; then a
# second cloth, over bunny00 with another seed, that no setting was tuned on. Prints one summary
# line per run and keeps the full outputs in OUT_DIR.
# Usage: scripts/ccd-bench.sh [KDOP] [FRAMES] [OUT_DIR]   (defaults: build/release/sim/kdop, 200, build/ccd-bench)
set -euo pipefail
kdop="${1:-build/release/sim/kdop}"; frames="${2:-200}"; out="${3:-build/ccd-bench}"
mkdir -p "$out"
cloth="$out/cloth-$frames.kframes"
[ -f "$cloth" ] || "$kdop" ccd-gen cloth --mesh data/meshes/cow.off --frames "$frames" --out "$cloth"
held_out="$out/cloth-bunny-$frames.kframes"
[ -f "$held_out" ] || "$kdop" ccd-gen cloth --mesh data/meshes/bunny00.off --seed 7 --frames "$frames" --out "$held_out"
run() {  # run NAME kdop-args...
  local name="$1"; shift
  "$kdop" ccd-sequence "$@" --list 0 --json "$out/$name.json" > "$out/$name.txt"
  echo "$name: $(tail -1 "$out/$name.txt")   [kdop ccd-sequence $*]"
}
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
run self-refit-all "$cloth" --self --threads 0
run self-refit-1 "$cloth" --self --threads 1
run self-refit-all-unculled "$cloth" --self --threads 0 --no-patch-culling
run self-refit-1-unculled "$cloth" --self --threads 1 --no-patch-culling
run self-rebuild-all "$cloth" --self --threads 0 --rebuild
run self-restructure-all "$cloth" --self --threads 0 --restructure 1.5
run obstacle-only-all "$cloth" --other data/meshes/cow.off --threads 0
run held-out-self-refit-all "$held_out" --self --threads 0
run held-out-self-refit-all-unculled "$held_out" --self --threads 0 --no-patch-culling
