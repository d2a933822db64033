#!/usr/bin/env bash
# Waveforms of the v2 top and the model (docs/waves.md), checked end to end. Used by ctest
# (waves_check). Usage: scripts/waves-check.sh KDOP MESH
#  1. `kdop sim --engine rtl --trace t.fst` reads back with GTKWave's fst2vcd, and every signal of
#     the save file docs/waves/kdopcd_v2_top.gtkw exists in it with the same bit range;
#  2. `--trace-depth 1` keeps the top's own signals and drops the blocks below it;
#  3. the model's VCD (`--engine model --trace`) names the signals it shares with the top as the
#     top's ports are named (clk_i, irq_o, m_axis_tvalid_o, m_axis_tdata_o).
set -euo pipefail
kdop=$1 mesh=$2
root=$(cd "$(dirname "$0")/.." && pwd)
command -v fst2vcd >/dev/null || { echo "waves-check: fst2vcd (Debian package gtkwave) is not installed" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pose="1 0 0 0 0.05 0.02 0"

"$kdop" sim "$mesh" "$mesh" --pose "$pose" --engine rtl --trace "$tmp/all.fst" > "$tmp/all.txt"
"$kdop" sim "$mesh" "$mesh" --pose "$pose" --engine rtl --trace "$tmp/top.fst" --trace-depth 1 > /dev/null
"$kdop" sim "$mesh" "$mesh" --pose "$pose" --engine model --trace "$tmp/model.vcd" > /dev/null
fst2vcd "$tmp/all.fst" > "$tmp/all.vcd"
fst2vcd "$tmp/top.fst" > "$tmp/top.vcd"

python3 - "$tmp" "$root/docs/waves/kdopcd_v2_top.gtkw" <<'PY'
import sys
tmp, gtkw = sys.argv[1], sys.argv[2]

def names(path):
    """Full signal names with their bit range ('' for one bit) from a VCD header."""
    scope, out = [], {}
    with open(path) as f:
        for line in f:
            t = line.split()
            if not t:
                continue
            if t[0] == "$enddefinitions":
                break
            if t[0] == "$scope":
                scope.append(t[2])
            elif t[0] == "$upscope":
                scope.pop()
            elif t[0] == "$var" and t[1] != "parameter":
                rng = t[5] if len(t) > 6 and t[5].startswith("[") else ""
                out[".".join(scope + [t[4]])] = rng
    return out

full, top, model = names(f"{tmp}/all.vcd"), names(f"{tmp}/top.vcd"), names(f"{tmp}/model.vcd")
bad = []
wanted = [l.strip() for l in open(gtkw) if l.startswith("TOP.")]
for w in wanted:
    name, rng = (w[:w.index("[", w.rindex("."))], w[w.index("[", w.rindex(".")):]) if w.endswith("]") else (w, "")
    if name not in full:
        bad.append(f"save file names {name}, which the trace does not have")
    elif full[name] != rng:
        bad.append(f"save file gives {name}{rng}, the trace {name}{full[name]}")
if not any(n.startswith("TOP.kdopcd_v2_top.g_engine[0].u_engine.") for n in full):
    bad.append("the full trace has no engine signals")
if any(n.startswith("TOP.kdopcd_v2_top.g_engine[0].u_engine.") for n in top):
    bad.append("--trace-depth 1 still has engine signals")
if "TOP.kdopcd_v2_top.irq_o" not in top:
    bad.append("--trace-depth 1 lost the top's ports")
shared = ["clk_i", "irq_o", "m_axis_tvalid_o", "m_axis_tdata_o"]
model_leaf = {n.split(".")[-1] for n in model}
for s in shared:
    if s not in model_leaf:
        bad.append(f"the model's VCD has no {s}")
    if f"TOP.{s}" not in full:
        bad.append(f"the RTL trace has no TOP.{s}")
for b in bad:
    print("waves-check:", b, file=sys.stderr)
if bad:
    sys.exit(1)
print(f"waves-check: {len(wanted)} save-file signals found in the FST; depth 1 keeps {len(top)} signals of "
      f"{len(full)}; the model's VCD shares {', '.join(shared)}")
PY
