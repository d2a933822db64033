#!/usr/bin/env python3
"""Model checking of the RTL with Yosys and yosys-smtbmc (docs/formal.md §2).

The SAT lane equals its specification (formal/rtl/kdopcd_sat_lane_equiv.sv) for every operand and
every input sequence: for each configuration, a bounded proof from reset (the base case) and a
k-induction step, both with z3. Then each mutant (a bug planted in the specification or the lane)
must make the proof fail.

Usage: scripts/formal_rtl.py [--quick] [--jobs N] [--out DIR]
  --quick  the configuration and mutants ctest runs (formal.sat_lane_equiv); default: all of them.
Exit status: 0 when every proof passes and every mutant fails, 1 otherwise, 2 on a missing tool.
"""
import argparse
import concurrent.futures
import os
import pathlib
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
RTL = ROOT / "rtl" / "common"
WRAPPER = ROOT / "formal" / "rtl" / "kdopcd_sat_lane_equiv.sv"
TOP = "kdopcd_sat_lane_equiv"
LAT = 7  # the lane's latency (kdopcd_sat_lane.sv); the depths below follow from it
# The induction step needs a window in which every pair in the lane entered after its start:
# LAT + 2 steps. The base case must reach at least as deep, and past the first output (reset,
# cfg, a pair, LAT clocks): LAT + 4.
INDUCTION_DEPTH = LAT + 2
BASE_DEPTH = LAT + 4

# Each configuration exercises a different branch of the lane's generate logic (docs/formal.md §2
# gives the argument why together they cover the default K = 24, b = c = z = 18 lane):
#   C <= 17: one-bit -Phi (HI_W = 1); C = 18: the two-bit multiplexer of the default; C = 19: the
#   shift-and-add for wider Phi; Z <= B + C: offsets shifted left, Z > B + C: right (floor/ceil);
#   K = 24: the default selection multiplexer (face pairs 0..11); OWN_FIRST: both lane kinds.
CONFIGS = {
    "k6-2,2,2-own1": dict(K=6, B=2, C=2, Z=2, OWN_FIRST=1, OWN_J0=3, OWN_J1=1, OWN_J2=2),
    "k6-2,2,6-own0": dict(K=6, B=2, C=2, Z=6, OWN_FIRST=0, OWN_J0=0, OWN_J1=4, OWN_J2=2),
    "k24-2,2,2-own1": dict(K=24, B=2, C=2, Z=2, OWN_FIRST=1, OWN_J0=12, OWN_J1=11, OWN_J2=16),
    "k24-2,2,6-own0": dict(K=24, B=2, C=2, Z=6, OWN_FIRST=0, OWN_J0=0, OWN_J1=23, OWN_J2=4),
}
QUICK_CONFIG = "k6-2,2,2-own1"

# Mutants: ("param", name, value) sets a wrapper parameter; ("stuck", signal, value) ties one bit
# of the flattened lane to a constant (a one-bit bug in the lane).
MUTANTS = {
    "spec-no-plus-one": ("param", "MUTANT", 1),
    "lane-selection-bit": ("stuck", "u_lane.g_select[1].xj_q [0]", 0),
    "lane-own-coefficient-bit": ("stuck", "u_lane.g_own[0].y0_q [0]", 0),
    "lane-sign-correction-bit": ("stuck", "u_lane.g_diff[1].sn_3 [0]", 0),
    "lane-last-adder-bit": ("stuck", "u_lane.g_diff[0].s_b_5 [1]", 0),
}

# Probe wires of the wrapper and the lane registers they read (connected after flattening: Yosys
# 0.23 has no hierarchical references).
def probe_connections():
    lines = []
    for reg in ("r_q", "sw_q", "plo_q", "mhi_q"):
        for m in range(3):
            lines.append(f"connect -nounset -set probe_{reg}{m} u_lane.g_select[{m}].{reg}")
    for d in range(2):
        for m in range(3):
            lines.append(f"connect -nounset -set probe_t4_{d}{m} u_lane.g_diff[{d}].g_term[{m}].t_4")
        lines.append(f"connect -nounset -set probe_u4_{d} u_lane.g_diff[{d}].u_4")
    lines.append("connect -nounset -set probe_off1_q u_lane.off1_q")
    lines.append("connect -nounset -set probe_off2_q u_lane.off2_q")
    return lines


def yosys_script(params, smt2, mutant=None):
    lines = [
        f"read_verilog -DSYNTHESIS -formal -sv {RTL / 'kdopcd_sat_pkg.sv'} {RTL / 'kdopcd_sat_lane.sv'} {WRAPPER}"
    ]
    params = dict(params)
    if mutant and mutant[0] == "param":
        params[mutant[1]] = mutant[2]
    for name, value in params.items():
        lines.append(f"chparam -set {name} {value} {TOP}")
    lines += [f"hierarchy -top {TOP}", "proc", "flatten"]
    lines += probe_connections()
    if mutant and mutant[0] == "stuck":
        lines.append(f"connect -set {mutant[1].replace(' ', '')} 1'b{mutant[2]}")
    lines += [f"prep -top {TOP}", "async2sync", "dffunmap", f"write_smt2 -wires {smt2}"]
    return "\n".join(lines) + "\n"


def run(cmd, log, timeout):
    start = time.monotonic()
    try:
        with open(log, "w") as out:
            rc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout).returncode
    except subprocess.TimeoutExpired:
        rc = None
    return rc, time.monotonic() - start


def check(job):
    """One configuration (or mutant): returns (name, verdict, seconds, detail)."""
    name, params, mutant, out, timeout = job
    work = out / name
    work.mkdir(parents=True, exist_ok=True)
    smt2 = work / "model.smt2"
    (work / "model.ys").write_text(yosys_script(params, smt2, mutant))
    rc, t_yosys = run(["yosys", "-q", "-s", str(work / "model.ys")], work / "yosys.log", timeout)
    if rc != 0:
        return name, "error", t_yosys, f"yosys failed (see {work / 'yosys.log'})"
    # --unroll: z3 4.8 spends minutes on the transition function's nested definitions otherwise.
    smtbmc = ["yosys-smtbmc", "--unroll", "-s", "z3"]
    rc, t_base = run(smtbmc + ["-t", str(BASE_DEPTH), str(smt2)], work / "base.log", timeout)
    if mutant:
        # A mutant must fail; the base case is where a reachable bug shows.
        verdict = "failed" if rc == 1 else ("survived" if rc == 0 else "timeout")
        return name, verdict, t_yosys + t_base, f"base case depth {BASE_DEPTH}"
    if rc != 0:
        return name, "timeout" if rc is None else "failed", t_yosys + t_base, f"base case (see {work / 'base.log'})"
    rc, t_ind = run(smtbmc + ["-i", "-t", str(INDUCTION_DEPTH), str(smt2)], work / "induction.log", timeout)
    if rc != 0:
        return name, "timeout" if rc is None else "failed", t_yosys + t_base + t_ind, f"induction (see {work / 'induction.log'})"
    return name, "proved", t_yosys + t_base + t_ind, f"base {t_base:.0f} s (depth {BASE_DEPTH}), induction {t_ind:.0f} s (depth {INDUCTION_DEPTH})"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=str(ROOT / "build" / "formal-rtl"))
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per solver run")
    args = parser.parse_args()
    for tool in ("yosys", "yosys-smtbmc", "z3"):
        if not shutil.which(tool):
            print(f"formal_rtl: {tool} not found (scripts/install-deps.sh)", file=sys.stderr)
            return 2
    out = pathlib.Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    configs = {QUICK_CONFIG: CONFIGS[QUICK_CONFIG]} if args.quick else CONFIGS
    jobs = [(f"sat-lane-{n}", p, None, out, args.timeout) for n, p in configs.items()]
    jobs += [(f"sat-lane-{QUICK_CONFIG}-mutant-{m}", CONFIGS[QUICK_CONFIG], spec, out, args.timeout)
             for m, spec in MUTANTS.items()]
    ok = True
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, verdict, seconds, detail in pool.map(check, jobs):
            mutant = "-mutant-" in name
            good = verdict == ("failed" if mutant else "proved")
            ok &= good
            print(f"{'ok  ' if good else 'FAIL'} {name}: {verdict} in {seconds:.0f} s ({detail})", flush=True)
    print("formal_rtl: every proof passed and every mutant failed" if ok else "formal_rtl: FAILED")
    if ok:
        shutil.rmtree(out, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
