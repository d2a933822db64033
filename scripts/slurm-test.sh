#!/usr/bin/env bash
# The Slurm test of scripts/regress: brings up a single-node Slurm on this machine
# (scripts/slurm-local.sh: Debian slurm-wlm + munge, needs root), runs a small regression as a
# job array of 3 shards with its merge as a dependent job, runs the same regression here in
# 2 shards, and checks that
#   - both merged results (result.json: statuses and outcomes, no times or paths) are equal,
#   - the array really ran under Slurm (one log per array task, the merge job's log),
#   - both JUnit XML files parse (python3 xml.etree) and report every case passed.
# Not in the default ctest run: it installs packages and starts root services. The daemons it
# started are stopped at the end; a cluster that was already up is left as it was.
# Usage: scripts/slurm-test.sh [build dir, default build/release]   (needs sim/kdop, rtl_sat_tb)
set -euo pipefail
cd "$(dirname "$0")/.."
build="$(cd "${1:-build/release}" && pwd)"
work="$(pwd)/build/slurm-test"
rm -rf "$work"
mkdir -p "$work"

was_up=0
sinfo -h >/dev/null 2>&1 && was_up=1
bash scripts/slurm-local.sh start
if [ $was_up = 0 ]; then trap 'bash scripts/slurm-local.sh stop' EXIT; fi

common=(--suite all --quick --build "$build")
t0=$(date +%s)
scripts/regress "${common[@]}" --shards 3 --slurm --wait --out "$work/slurm" --junit "$work/slurm.xml"
t1=$(date +%s)
scripts/regress "${common[@]}" --shards 2 --local -j 2 --out "$work/local" --junit "$work/local.xml"
t2=$(date +%s)

python3 - "$work" <<'PY'
import json, sys, xml.etree.ElementTree as ET
from pathlib import Path
work = Path(sys.argv[1])
fail = []
a, b = (work / "slurm" / "result.json").read_bytes(), (work / "local" / "result.json").read_bytes()
if a != b:
    fail.append("merged results differ: slurm/result.json vs local/result.json")
logs = sorted(p.name for p in (work / "slurm" / "slurm").glob("shard-*.out"))
if logs != ["shard-0.out", "shard-1.out", "shard-2.out"] or not (work / "slurm" / "slurm" / "merge.out").exists():
    fail.append(f"Slurm logs missing: {logs}")
jobs = json.loads((work / "slurm" / "slurm" / "jobs.json").read_text())
for name in ("slurm.xml", "local.xml"):
    root = ET.parse(work / name).getroot()  # raises on XML that does not parse
    cases = root.findall("./testsuite/testcase")
    bad = [c.get("name") for c in cases if c.find("failure") is not None or c.find("error") is not None]
    if root.tag != "testsuites" or not cases or bad or int(root.get("tests")) != len(cases):
        fail.append(f"{name}: {len(cases)} cases, not passed: {bad}")
    print(f"{name}: parses, {len(cases)} test cases in {len(root)} suites, all passed" if not bad else "")
n = len(json.loads(a)["cases"])
if fail:
    print("slurm-test: FAILED\n  " + "\n  ".join(fail))
    sys.exit(1)
print(f"slurm-test: job array {jobs['array']} (3 shards) + merge job {jobs['merge']}: {n} cases, "
      "merged result equal to the local run (2 shards)")
PY
echo "slurm-test: PASSED (Slurm run $((t1 - t0)) s, local run $((t2 - t1)) s)"
