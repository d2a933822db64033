#!/usr/bin/env bash
# The pending-set depth each traversal order needs (docs/model-v2.md, "Pending set and traversal
# order"): the SystemC model v2 (`kdop sim`, its max_stack_depth = the pending set's high-water
# mark) with the three descent rules, 16 pairs in flight (the contract) and 1 (one pair at a time,
# the issue order a stackless engine would have), on the traversal benchmark's pairs (cow/cow and
# armadillo/armadillo in the four pose classes, the armadillo pair deep in overlap); beside them
# the sequential traversals' peaks from the roots, from docs/traversals.json (run
# scripts/traversal-bench.sh first). Writes the marked block of docs/model-v2.md.
# Usage: scripts/pending-depth.sh [build dir, default build/release]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
kdop="$build/sim/kdop"
[ -x "$kdop" ] || { echo "pending-depth: $kdop not built" >&2; exit 1; }
[ -s docs/traversals.json ] || { echo "pending-depth: docs/traversals.json missing (scripts/traversal-bench.sh)" >&2; exit 1; }
work="$build/pending-depth"
mkdir -p "$work"
for pair in cow armadillo; do
  mesh="data/meshes/$pair.off"
  "$kdop" poses "$mesh" "$mesh" --out "$work/$pair.poses" > /dev/null
  if [ "$pair" = armadillo ]; then  # traversal_bench's deep overlap
    echo "0.98 0 0.199 0 0.05 0.02 0  # deep-overlap" >> "$work/$pair.poses"
  fi
  for rule in shallower first second; do
    for flight in 16 1; do
      "$kdop" sim "$mesh" "$mesh" --poses "$work/$pair.poses" --arch v2 --rule "$rule" --pairs-in-flight "$flight" \
        --json "$work/${pair}_${rule}_$flight.json" > /dev/null
    done
  done
done
TABLE="$(python3 - "$work" "$(git rev-parse --short HEAD)" <<'PY'
import json, sys
work, commit = sys.argv[1], sys.argv[2]
classes = ["intersecting", "close-proximity", "small-proximity", "separated", "deep overlap"]
bench = {w["name"]: w["traversals"] for w in json.load(open("docs/traversals.json"))["workloads"]}
def sim(pair, rule, flight):
    return json.load(open(f"{work}/{pair}_{rule}_{flight}.json"))["poses"]
out = ["<!-- pending-depth:begin (scripts/pending-depth.sh writes this block) -->", "",
       f"Measured at {commit}. Pending-set entries (node pairs) at the high-water mark; model v2 as chosen, "
       "its rule, 16 or 1 pairs in flight; cycles with the shallower rule. Sequential traversals from the roots "
       "(host code, one thread, no front): explicit stack (both children pushed, shallower rule), predictable "
       "(only right children wait), dynamic (volume rule), in pairs.", "",
       "| pair | pose | pairs tested | model 16 in flight: shallower / first / second | model 1 in flight: shallower / first / second | cycles 16 → 1 in flight | explicit | predictable | dynamic | stackless, post-indexed, leaf |",
       "|---|---|---|---|---|---|---|---|---|---|"]
for pair, name in [("cow", "cow/cow"), ("armadillo", "armadillo/armadillo")]:
    runs = {(r, f): sim(pair, r, f) for r in ("shallower", "first", "second") for f in (16, 1)}
    for i, pose in enumerate(runs[("shallower", 16)]):
        cls = classes[i]
        if any(p[i]["stack_overflow"] for p in runs.values()):
            sys.exit(f"{name} {cls}: the model's pending set overflowed")
        d16 = " / ".join(str(runs[(r, 16)][i]["max_stack_depth"]) for r in ("shallower", "first", "second"))
        d1 = " / ".join(str(runs[(r, 1)][i]["max_stack_depth"]) for r in ("shallower", "first", "second"))
        c16, c1 = runs[("shallower", 16)][i]["cycles"], runs[("shallower", 1)][i]["cycles"]
        t = bench[f"{name} {cls}"]
        seq = [str(t[x]["peak_pending_bytes_from_roots"] // 8) for x in ("explicit", "predictable", "dynamic")]
        zero = max(t[x]["peak_pending_bytes_from_roots"] for x in ("stackless", "post-indexed", "leaf"))
        out.append(f"| {name} | {cls} | {pose['pair_tests']} | {d16} | {d1} | {c16} → {c1} ({c1 / c16:.1f}x) | "
                   + " | ".join(seq) + f" | {zero} |")
out += ["", "<!-- pending-depth:end -->"]
print("\n".join(out))
PY
)"
TABLE="$TABLE" scripts/replace-marked.py docs/model-v2.md pending-depth
echo "wrote the pending-depth block of docs/model-v2.md"
