#!/usr/bin/env bash
# The three-way comparison (bench/compare_backends): the reference on one and on all threads, the
# GPU's pipeline on this machine's threads and the accelerator model v2 here; the GPU's rows from a
# GPU machine's run of scripts/gpu-check.sh when given (its compare.json), else "not measured".
# Writes docs/comparison.md (the tables between its markers) and docs/comparison.svg (a plot).
# Usage: scripts/compare-backends.sh [--gpu-json FILE] [--quick] [build dir, default build/release]
#   --quick: the smaller workloads only (cow pairs, 512 and 4096 cows), for a first look.
set -euo pipefail
cd "$(dirname "$0")/.."
gpu_json=""
quick=0
build="build/release"
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu-json) gpu_json="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    *) build="$1"; shift ;;
  esac
done
bench="$build/bench/compare_backends"
[ -x "$bench" ] || { echo "compare-backends: $bench not built (scripts/build.sh release)" >&2; exit 1; }
[ -z "$gpu_json" ] || [ -s "$gpu_json" ] || { echo "compare-backends: $gpu_json missing or empty" >&2; exit 2; }
work="$build/compare-backends"
mkdir -p "$work"
args=(--model --json "$work/here.json")
if [ "$quick" -eq 1 ]; then args+=(--pair cow:cow --cows 512 --cows 4096 --large-count 0); fi
machine="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "compare-backends: running $bench ${args[*]} on $machine (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
"$bench" "${args[@]}" | tee "$work/here.md"

python3 - "$work/here.json" "$gpu_json" "$machine" "$(git rev-parse --short HEAD)" "$work/table.md" "$work/plot.dat" <<'PY'
import json, sys
here = json.load(open(sys.argv[1]))
gpu = json.load(open(sys.argv[2])) if sys.argv[2] else None
machine, commit, table_path, plot_path = sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
def sig(x): return f"{x:.1f}" if x >= 10 else f"{x:.3g}"
def us(x): return sig(x * 1e6) if x else "–"
def ms(x): return sig(x * 1e3) if x else "–"
def ratio(a, b): return sig(a / b) + "x" if a and b else "–"
gpu_pairs = {(r["pair"], r["class"]): r for r in (gpu or {}).get("pairs", [])}
gpu_multi = {r["scene"]: r for r in (gpu or {}).get("multibody", [])}
gpu_machine = gpu.get("machine_name", "the GPU machine") if gpu else None
out = []
out.append(f"Measured at commit {commit}. Here: {machine}. GPU: "
           + (f"{gpu_machine}, scripts/gpu-check.sh" if gpu else "**not measured** (no GPU lent to this run; "
              "scripts/gpu-check.sh on a GPU machine, then `scripts/compare-backends.sh --gpu-json compare.json`)") + ".\n")
out.append("### Single pairs (µs per query)\n")
out.append("| pair | class | pair tests | reference 1 thread (here) | accelerator START-to-DONE | accelerator end to end (PCIe card) | "
           "accelerator end to end vs reference | reference 1 thread (GPU host) | GPU query | GPU compute | GPU vs reference (GPU host) |")
out.append("|---|---|---|---|---|---|---|---|---|---|---|")
plot = []
for r in here.get("pairs", []):
    g = gpu_pairs.get((r["pair"], r["class"]), {})
    acc = r.get("accel_s", 0)
    acc_total = r.get("accel_e2e_s", 0) if acc else 0
    out.append(f"| {r['pair']} | {r['class']} | {r['pair_tests']} | {us(r['reference_1_s'])} | {us(acc)} | {us(acc_total)} | "
               f"{ratio(r['reference_1_s'], acc_total)} | {us(g.get('reference_1_s'))} | "
               f"{us(g.get('gpu_s')) if g else 'not measured'} | {us(g.get('gpu_compute_s'))} | "
               f"{ratio(g.get('reference_1_s'), g.get('gpu_s'))} |")
    plot.append((r["pair_tests"], r["reference_1_s"], acc_total, g.get("gpu_s", 0), g.get("reference_1_s", 0)))
out.append("\n### Multibody scenes (ms per frame, end to end unless noted)\n")
out.append("| scene | object pairs | DOP pair tests | reference 1 thread (here) | host backend all threads (here) | "
           "accelerator, E engines (end to end, PCIe card) | host backend all threads (GPU host) | GPU end to end | GPU narrow phase | "
           "GPU vs host (GPU host): end to end, narrow |")
out.append("|---|---|---|---|---|---|---|---|---|---|")
for r in here.get("multibody", []):
    g = gpu_multi.get(r["scene"], {})
    acc = f"{ms(r['accel_s'])} (E = {r['accel_engines']})" if "accel_s" in r else "–"
    out.append(f"| {r['scene']} | {r['object_pairs']} | {r['pair_tests']} | {ms(r.get('reference_1_s'))} | "
               f"{ms(r['host_all_s'])} | {acc} | {ms(g.get('host_all_s'))} | "
               f"{ms(g.get('gpu_s')) if g else 'not measured'} | {ms(g.get('gpu_narrow_s'))} | "
               f"{ratio(g.get('host_all_s'), g.get('gpu_s'))}, {ratio(g.get('host_all_narrow_s'), g.get('gpu_narrow_s'))} |")
open(table_path, "w").write("\n".join(out) + "\n")
with open(plot_path, "w") as f:
    for p in sorted(plot):
        f.write(" ".join(f"{x:.9g}" if x else "NaN" for x in p) + "\n")
PY

if command -v gnuplot >/dev/null; then
  gnuplot <<EOF
set terminal svg size 800,480 font "sans,12"
set output "docs/comparison.svg"
set logscale xy
set xlabel "DOP pair tests of the query"
set ylabel "seconds per query"
set key left top
set title "Single pairs: reference (1 thread), accelerator model v2 + host set-up, GPU"
plot "$work/plot.dat" using 1:2 with points pt 7 title "reference, 1 thread (here)", \
     "" using 1:3 with points pt 5 title "accelerator v2 at 250 MHz + host set-up", \
     "" using 1:4 with points pt 9 title "GPU query (GPU machine)", \
     "" using 1:5 with points pt 6 title "reference, 1 thread (GPU machine's host)"
EOF
fi
TABLE="<!-- comparison:begin (scripts/compare-backends.sh) -->
$(cat "$work/table.md")
<!-- comparison:end -->" scripts/replace-marked.py docs/comparison.md comparison
echo "compare-backends: docs/comparison.md and docs/comparison.svg written" >&2
