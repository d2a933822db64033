#!/usr/bin/env bash
# Every narrow-phase traversal (docs/cuda.md §3) timed on the same workloads in one run
# (bench/traversal_bench: cow/cow and armadillo/armadillo in the four pose classes, the armadillo
# pair deep in overlap, a scene of generated cows; traversals interleaved per round), writing the
# measured block of docs/traversals.md, docs/traversals.json and, with gnuplot, docs/traversals.svg.
# GPU columns are filled only where the bench finds a usable GPU.
# Usage: scripts/traversal-bench.sh [build dir, default build/release]   (ROUNDS, BATCH_MS, COWS)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
bench="$build/bench/traversal_bench"
[ -x "$bench" ] || { echo "traversal-bench: $bench not built (cmake --build $build --target traversal_bench)" >&2; exit 1; }
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
"$bench" --meshes data/meshes --rounds "${ROUNDS:-7}" --batch-ms "${BATCH_MS:-80}" --cows "${COWS:-512}" \
  --json docs/traversals.json
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
commit="$(git rev-parse --short HEAD)"
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
TABLE="$(python3 - docs/traversals.json "$commit" "$cpu" "$(nproc)" "$load_before" "$load_after" <<'PY'
import json, math, sys
path, commit, cpu, cores, before, after = sys.argv[1:7]
d = json.load(open(path))
order = ["binary", "explicit", "dynamic", "predictable", "leaf", "stackless", "post-indexed"]
gpu = d["gpu"] == "present"
def ms(s): return f"{s * 1e3:.3f}" if s < 0.01 else f"{s * 1e3:.2f}" if s < 1 else f"{s * 1e3:.0f}"
out = ["<!-- traversals:begin (scripts/traversal-bench.sh writes this block) -->", ""]
out.append(f"Measured at {commit} on {cpu}, {cores} cores, shared with other work: load average {before} "
           f"before and {after} after the run. {d['rounds']} rounds per workload, each a batch of about "
           f"{d['batch_ms']:.0f} ms per traversal in rotating order; the median per call: on one thread the "
           "calling thread's CPU time (it does all the work), on all threads the wall time. "
           + ("GPU: present, column measured." if gpu else f"GPU: {d['gpu']} — no GPU column."))
out.append("")
head = "| workload | traversal | 1 thread: CPU ms | all threads: wall ms | vs binary (1 / all) | DOP pair tests | node records | restarts | pending bytes per thread: peak (reserved) |"
sep = "|---|---|---|---|---|---|---|---|---|"
if gpu:
    head = head.replace("| DOP pair", "| GPU ms | DOP pair"); sep += "---|"
out += [head, sep]
logs = {t: {"h1": [], "ha": []} for t in order}
for w in d["workloads"]:
    tr = w["traversals"]
    b = tr["binary"]
    for t in order:
        v = tr[t]
        r1, ra = v["host_1_cpu_seconds"] / b["host_1_cpu_seconds"], v["host_all_seconds"] / b["host_all_seconds"]
        # The summary below weighs the workloads whose time is the traversal's, not call overhead.
        if v["pair_tests"] >= 1000:
            logs[t]["h1"].append(math.log(r1)); logs[t]["ha"].append(math.log(ra))
        row = f"| {w['name'] if t == 'binary' else ''} | {t} | {ms(v['host_1_cpu_seconds'])} | {ms(v['host_all_seconds'])} | {r1:.2f} / {ra:.2f} |"
        if gpu:
            row += f" {ms(v['gpu_seconds'])} |"
        row += f" {v['pair_tests']} | {v['node_visits']} | {v['restarts']} | {v['peak_pending_bytes']} ({v['reserved_pending_bytes']}) |"
        out.append(row)
out.append("")
out.append("Geometric mean of the time relative to the binary stack over the workloads of at least 1000 DOP "
           "pair tests (the others take a few microseconds, mostly the call's fixed cost):")
out.append("")
out.append("| traversal | 1 thread | all threads |")
out.append("|---|---|---|")
for t in order:
    g1 = math.exp(sum(logs[t]["h1"]) / len(logs[t]["h1"])); ga = math.exp(sum(logs[t]["ha"]) / len(logs[t]["ha"]))
    out.append(f"| {t} | {g1:.2f} | {ga:.2f} |")
out.append("")
out.append("<!-- traversals:end -->")
print("\n".join(out))
# Data for the plot: per heavy workload, the 1-thread time relative to the binary stack.
with open(path.replace(".json", ".dat"), "w") as f:
    f.write("workload " + " ".join(order) + "\n")
    for w in d["workloads"]:
        tr = w["traversals"]
        if tr["binary"]["pair_tests"] < 1000: continue
        b = tr["binary"]["host_1_cpu_seconds"]
        f.write('"' + w["name"] + '" ' + " ".join(f"{tr[t]['host_1_cpu_seconds'] / b:.4f}" for t in order) + "\n")
PY
)"
TABLE="$TABLE" scripts/replace-marked.py docs/traversals.md traversals
if command -v gnuplot > /dev/null; then
  gnuplot <<'GP'
set terminal svg size 960,480 font "sans,11"
set output "docs/traversals.svg"
set title "CPU time per call on one thread, relative to the binary stack (workloads of >= 1000 DOP pair tests)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "time / binary stack's"
set yrange [0:*]
set key outside right
set xtics rotate by -15 scale 0
set grid ytics
plot "docs/traversals.dat" using 2:xtic(1) title columnheader(2), \
     for [i=3:8] "" using i title columnheader(i)
GP
  echo "wrote docs/traversals.md (measured block), docs/traversals.json, docs/traversals.svg"
else
  echo "wrote docs/traversals.md (measured block), docs/traversals.json (no gnuplot: no plot)"
fi
rm -f docs/traversals.dat
