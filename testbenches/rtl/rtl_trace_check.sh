#!/usr/bin/env bash
# FST waves of the SAT pipeline testbench on request (rtl_sat_tb --trace): GTKWave's fst2vcd reads
# the file back, the pipeline's ports are in it, and the waves hold the whole run: the clocks with
# valid_i and valid_o high at a rising clk_i edge are as many as the tests the testbench sent and
# the results it checked (its summary line), so a trace that stops early or records nothing fails.
# Usage: rtl_trace_check.sh RTL_SAT_TB OUT.fst
set -euo pipefail
tb=$1 fst=$2
command -v fst2vcd >/dev/null || { echo "rtl_trace: fst2vcd (Debian package gtkwave) is not installed" >&2; exit 1; }
rm -f "$fst" "${fst%.fst}.vcd"
"$tb" --random 50 --bits 18,18,18 --trace "$fst" > "${fst%.fst}.txt"
cat "${fst%.fst}.txt"
fst2vcd "$fst" > "${fst%.fst}.vcd"
python3 - "${fst%.fst}.vcd" "${fst%.fst}.txt" <<'PY'
import re, sys
vcd, summary = sys.argv[1], open(sys.argv[2]).read()
m = re.search(r"(\d+) tests, (\d+) results", summary)
if not m:
    sys.exit(f"rtl_trace: no 'N tests, N results' in the testbench's output: {summary!r}")
tests, results = int(m.group(1)), int(m.group(2))
ports = ("clk_i", "valid_i", "valid_o")
code, scope, value = {}, [], {}
beats = {"valid_i": 0, "valid_o": 0}
edges = 0
with open(vcd) as f:
    for line in f:  # header: the ports of the top scope
        t = line.split()
        if not t:
            continue
        if t[0] == "$scope":
            scope.append(t[2])
        elif t[0] == "$upscope":
            scope.pop()
        elif t[0] == "$var" and scope == ["TOP"] and t[4] in ports:
            code[t[3]] = t[4]
        elif t[0] == "$enddefinitions":
            break
    missing = [p for p in ports if p not in code.values()]
    if missing:
        sys.exit(f"rtl_trace: the trace has no TOP.{', TOP.'.join(missing)}")
    before = {}
    for line in f:  # value changes: a port's value before a rising clk_i edge is what the edge samples
        if line[0] == "#":
            before = dict(value)
        elif line[0] in "01" and line[1:].strip() in code:
            name = code[line[1:].strip()]
            if name == "clk_i" and line[0] == "1" and before.get("clk_i") == "0":
                edges += 1
                for p in beats:
                    beats[p] += before.get(p) == "1"
            value[name] = line[0]
print(f"rtl_trace: {edges} rising clk_i edges; valid_i high at {beats['valid_i']}, valid_o at {beats['valid_o']}; "
      f"the testbench sent {tests} tests and checked {results} results")
if beats["valid_i"] != tests or beats["valid_o"] != results or results == 0:
    sys.exit("rtl_trace: the waves do not hold the run")
PY
