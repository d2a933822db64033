#!/usr/bin/env python3
"""Model checking of the RTL with Yosys and yosys-smtbmc (docs/formal.md §2-§5).

1. The SAT lane equals its specification (formal/rtl/kdopcd_sat_lane_equiv.sv) for every operand
   and every input sequence: for each configuration, a bounded proof from reset (the base case)
   and a k-induction step, both with z3.
2. The v2 engine's control properties (formal/rtl/kdopcd_v2_engine_props.sv): credits, the
   pending set's overflow flag, contacts neither dropped nor duplicated, the stream's handshake;
   bounded from reset at a stated depth.
3. The AXI4-Lite register block (formal/rtl/kdopcd_v2_regs_props.sv): the handshake rules, the
   responses, every read, the read-write registers, CONTROL; by k-induction.
4. The command queue's front end (formal/rtl/kdopcd_v2_cmdq_props.sv) and write-back
   (formal/rtl/kdopcd_v2_wdma_props.sv): the DMA port's AXI4 rules, the counters, the order;
   bounded.
Then each mutant (a bug planted in a specification or in the RTL) must make its proof fail.

Usage: scripts/formal_rtl.py [--quick] [--jobs N] [--out DIR] [--only PROOF] [--mutant NAME] [--keep]
  --quick  what ctest runs (formal.sat_lane_equiv, formal.loader_axi, each with --only): the quick
           configurations of the SAT lane and the loader and their mutants; default: every
           configuration and mutant of every proof.
  --only   only this proof (sat-lane, engine, regs, cmdq, wdma, loader); --config: only this one,
           no mutant; --mutant: only this mutant, no proof.
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
RTL = ROOT / "rtl"
FORMAL = ROOT / "formal" / "rtl"


class Design:
    """One proof: the files Yosys reads, the wrapper (top), the probes the script connects, the
    configurations, the mutants and the depths. induction_depth None: bounded proof only."""

    def __init__(self, name, files, top, probes, configs, quick, mutants, base_depth, induction_depth,
                 in_ctest, mutant_depth=None):
        self.name, self.files, self.top, self.probes, self.in_ctest = name, files, top, probes, in_ctest
        self.configs, self.quick, self.mutants = configs, quick, mutants
        self.base_depth, self.induction_depth = base_depth, induction_depth
        # a mutant is checked from reset to this depth (default: the base case's); with k-induction
        # the base case need only reach k, which may be too short for a planted bug to show
        self.mutant_depth = mutant_depth or base_depth


# ---------------------------------------------------------------- 1. the SAT lane
LANE_LAT = 7  # the lane's latency (kdopcd_sat_lane.sv); the depths below follow from it


def lane_probes():
    probes = []
    for reg in ("r_q", "sw_q", "plo_q", "mhi_q"):
        for m in range(3):
            probes.append((f"probe_{reg}{m}", f"u_lane.g_select[{m}].{reg}"))
    for d in range(2):
        for m in range(3):
            probes.append((f"probe_t4_{d}{m}", f"u_lane.g_diff[{d}].g_term[{m}].t_4"))
        probes.append((f"probe_u4_{d}", f"u_lane.g_diff[{d}].u_4"))
    probes += [("probe_off1_q", "u_lane.off1_q"), ("probe_off2_q", "u_lane.off2_q")]
    return probes


# Each configuration exercises a different branch of the lane's generate logic (docs/formal.md §2
# gives the argument why together they cover the default K = 24 lane, and what they leave out):
#   Z <= B + C: offsets shifted left, Z > B + C: right (floor/ceil); K = 24: the default selection
#   multiplexer (face pairs 0..11); OWN_FIRST: both lane kinds.
SAT_LANE = Design(
    name="sat-lane",
    files=[RTL / "common" / "kdopcd_sat_pkg.sv", RTL / "common" / "kdopcd_sat_lane.sv",
           FORMAL / "kdopcd_sat_lane_equiv.sv"],
    top="kdopcd_sat_lane_equiv",
    probes=lane_probes(),
    configs={
        "k6-2,2,2-own1": dict(K=6, B=2, C=2, Z=2, OWN_FIRST=1, OWN_J0=3, OWN_J1=1, OWN_J2=2),
        "k6-2,2,6-own0": dict(K=6, B=2, C=2, Z=6, OWN_FIRST=0, OWN_J0=0, OWN_J1=4, OWN_J2=2),
        "k24-2,2,2-own1": dict(K=24, B=2, C=2, Z=2, OWN_FIRST=1, OWN_J0=12, OWN_J1=11, OWN_J2=16),
        "k24-2,2,6-own0": dict(K=24, B=2, C=2, Z=6, OWN_FIRST=0, OWN_J0=0, OWN_J1=23, OWN_J2=4),
        # Wide P': the DSP operand lowered to 2 bits so that -Phi has HI_W = C + 1 - 2 bits, as the
        # default C = 18 has 2 (the 3:1 multiplexer) and C >= 19 has more (the shift-and-add).
        "k6-2,3,3-lo2-own1": dict(K=6, B=2, C=3, Z=3, OWN_FIRST=1, OWN_J0=3, OWN_J1=1, OWN_J2=2, DSP_LO_W=2),
        "k6-2,4,8-lo2-own0": dict(K=6, B=2, C=4, Z=8, OWN_FIRST=0, OWN_J0=0, OWN_J1=4, OWN_J2=2, DSP_LO_W=2),
    },
    quick="k6-2,2,2-own1",
    # ("param", name, value) sets a wrapper parameter; ("stuck", signal, value) ties one bit of the
    # flattened RTL to a constant (a one-bit bug); an optional fourth element overrides parameters
    # of the quick configuration for that mutant (and an optional fifth its depth).
    mutants={
        "spec-no-plus-one": ("param", "MUTANT", 1),
        "lane-selection-bit": ("stuck", "u_lane.g_select[1].xj_q [0]", 0),
        "lane-own-coefficient-bit": ("stuck", "u_lane.g_own[0].y0_q [0]", 0),
        "lane-sign-correction-bit": ("stuck", "u_lane.g_diff[1].sn_3 [0]", 0),
        "lane-last-adder-bit": ("stuck", "u_lane.g_diff[0].s_b_5 [1]", 0),
        # the 3:1 multiplexer of v = (-Phi) x' (the default C = 18's branch) choosing x' for 2 x'
        "lane-v-mux-bit": ("stuck", "u_lane.g_diff[0].g_term[1].v_2 [1]", 0,
                           dict(C=3, Z=3, DSP_LO_W=2)),
        # the shift-and-add of v (C >= 19's branch): one bit of its result stuck
        "lane-v-add-bit": ("stuck", "u_lane.g_diff[1].g_term[0].v_2 [1]", 0,
                           dict(C=4, Z=4, DSP_LO_W=2)),
    },
    # The induction step needs a window in which every pair in the lane entered after its start:
    # LAT + 2 steps. The base case must reach at least as deep, and past the first output (reset,
    # cfg, a pair, LAT clocks): LAT + 4.
    base_depth=LANE_LAT + 4,
    induction_depth=LANE_LAT + 2,
    in_ctest=True,
)

# ---------------------------------------------------------------- 2. the v2 engine's control
ENGINE = Design(
    name="engine",
    files=[RTL / "common" / "kdopcd_format_pkg.sv", RTL / "common" / "kdopcd_v2_pkg.sv",
           RTL / "v2" / "kdopcd_v2_fifo.sv", RTL / "v2" / "kdopcd_v2_pending.sv",
           RTL / "v2" / "kdopcd_v2_engine.sv", FORMAL / "kdopcd_v2_engine_props.sv"],
    top="kdopcd_v2_engine_props",
    probes=[(f"p_{w}", f"u_engine.{s}") for w, s in (
        ("job_push", "job_push"), ("tri_start", "tri_start"), ("cq_push", "cq_push"),
        ("cq_pop", "cq_pop"), ("running", "running_q"), ("pend_push", "pend_push"),
        ("pend_pop", "pend_pop"), ("pend_ovf", "pend_ovf"), ("tq_cnt", "tq_cnt"),
        ("cq_cnt", "cq_cnt"), ("flight", "flight_q"), ("pend_cnt", "pend_cnt"))],
    # Small memories and short latencies (the SAT latency is the contract's), so that within the
    # depth a query reaches its second level of the trees, fills each queue and overflows.
    configs={
        "small": dict(K=6, NODE_AW=3, TRI_AW=3, PENDING_DEPTH=8, PAIRS_IN_FLIGHT=2, RAM_LAT=2,
                      TRI_II=1, TRI_LAT=2, TRI_QUEUE=2, CONTACT_QUEUE=2),
        # the configurations of the credit mutants below, unmutated: where each credit binds
        # (to the depth of its mutant's run: that one fails at step 21)
        "pif1": dict(K=6, NODE_AW=3, TRI_AW=3, PENDING_DEPTH=8, PAIRS_IN_FLIGHT=1, RAM_LAT=1,
                     TRI_II=1, TRI_LAT=2, TRI_QUEUE=2, CONTACT_QUEUE=2, bmc_depth=24),
        "cq1": dict(K=6, NODE_AW=3, TRI_AW=3, PENDING_DEPTH=8, PAIRS_IN_FLIGHT=2, RAM_LAT=1,
                    TRI_II=1, TRI_LAT=2, TRI_QUEUE=2, CONTACT_QUEUE=1, yosys_memory_map=True),
    },
    quick="small",
    mutants={
        "hit-not-queued": ("stuck", "u_engine.cq_push", 0),
        "pending-child-past-limit": ("stuck", "u_engine.u_pending.fit_second_keep", 1),
        # the credits, each in a configuration where it is the binding one (docs/formal.md §3):
        # with one pair in flight and a pending set of 8, the pending set's room would let the
        # root's second child issue while the first is in flight;
        "no-pairs-in-flight-credit": ("stuck", "u_engine.slot_free", 1, dict(PAIRS_IN_FLIGHT=1, RAM_LAT=1), 24),
        # with a contact queue of 1 and the triangle unit's II 1, the second leaf pair's test
        # would start while the first's hit is owed.
        "no-contact-queue-credit": ("stuck", "u_engine.tri_credit", 1, dict(CONTACT_QUEUE=1, RAM_LAT=1, yosys_memory_map=True), 30),
    },
    base_depth=30,
    induction_depth=None,
    in_ctest=False,  # minutes per run: scripts/formal.sh only
)

# ---------------------------------------------------------------- 3. the AXI4-Lite register block
REGS = Design(
    name="regs",
    files=[RTL / "common" / "kdopcd_format_pkg.sv", RTL / "common" / "kdopcd_v2_pkg.sv",
           RTL / "v2" / "kdopcd_v2_regs.sv", FORMAL / "kdopcd_v2_regs_props.sv"],
    top="kdopcd_v2_regs_props",
    probes=[("p_query", "u_regs.query_q")] + [(f"p_base{r}", f"u_regs.base_q[{r}]") for r in range(4)],
    # small: K = 6 (a short axis table), narrow M', T' and a 16-bit address (the bases truncated).
    # contract: the contract's defaults (kdopcd_v2_pkg: K = 24, ROT_W 26, TRANS_W 52, 32-bit
    # addresses, the engine's default sizes in the CONFIG words): about 11 minutes (docs/formal.md §4).
    configs={
        "small": dict(K=6, B=2, C=2, Z=2, V=2, M=2, ADDR_W=16),
        "contract": dict(K=24, B=18, C=18, Z=18, V=24, M=24, ADDR_W=32, NODE_AW=18, TRI_AW=17,
                         PENDING_DEPTH=1024, PAIRS_IN_FLIGHT=16, TRI_II=8, TRI_LAT=23, TRI_QUEUE=128,
                         CONTACT_QUEUE=64),
    },
    quick="small",
    mutants={
        # B and R dropped without their READY (the checker's held rules)
        "bvalid-drops-without-bready": ("stuck", "u_regs.s_axil_bready_i", 1),
        "rvalid-drops-without-rready": ("stuck", "u_regs.s_axil_rready_i", 1),
        # W taken without AW
        "w-taken-alone": ("stuck", "u_regs.s_axil_wready_o", 1),
        # a write lands one word too low: STATUS writes hit CONTROL, PENDING_LIMIT writes QUERY
        "write-address-bit": ("stuck", "u_regs.wr_idx [0]", 0),
        # byte strobe 1 ignored
        "strobe-ignored": ("stuck", "u_regs.wr_mask [8]", 1),
        # a read data bit stuck (ID reads 0x4B440600)
        "read-data-bit": ("stuck", "u_regs.rdata_d [1]", 0),
        # START accepted while not idle
        "start-while-busy": ("stuck", "u_regs.idle_i", 1),
    },
    # 2-inductive: the base case from reset to depth 3 and the step at 2 prove every depth; the
    # mutants are run from reset to depth 6 (reset, a write, its response stalled, then dropped)
    base_depth=3,
    induction_depth=2,
    mutant_depth=6,
    in_ctest=False,  # minutes with its mutants: scripts/formal.sh only
)

# ---------------------------------------------------------------- 4. the command queue's front end
CMDQ = Design(
    name="cmdq",
    files=[RTL / "common" / "kdopcd_format_pkg.sv", RTL / "common" / "kdopcd_v2_pkg.sv",
           RTL / "v2" / "kdopcd_v2_cmdq.sv", FORMAL / "kdopcd_axi_ar_props.sv", FORMAL / "kdopcd_v2_cmdq_props.sv"],
    top="kdopcd_v2_cmdq_props",
    probes=[("p_queued", "u_cmdq.queued_q"), ("p_ready", "u_cmdq.ready_q"), ("p_issue", "u_cmdq.issue"),
            ("p_free_slot", "u_cmdq.free_slot"), ("p_disp_slot", "u_cmdq.disp_slot"),
            ("p_state0", "u_cmdq.state_q[0]"), ("p_state1", "u_cmdq.state_q[1]")],
    # two buffers (the probes name two), two engines, K = 6: a descriptor of 5 beats of 512 bits
    configs={"small": dict(K=6, DMA_W=512, DESC_BUFFERS=2, RING_SLOTS=4, ENGINES=2)},
    quick="small",
    mutants={
        # a dispatch that does not pop the order queue: the same buffer dispatched again
        "dispatch-not-popped": ("stuck", "u_cmdq.dispatch", 0),
        # a read requested without a free buffer: a buffer in use overwritten
        "read-without-free-buffer": ("stuck", "u_cmdq.have_free", 1),
        # ARVALID dropped without ARREADY
        "arvalid-drops-without-arready": ("stuck", "u_cmdq.m_axi_arready_i", 1),
    },
    base_depth=20,
    induction_depth=None,
    in_ctest=False,
)

# ---------------------------------------------------------------- 5. the command queue's write-back
WDMA = Design(
    name="wdma",
    files=[RTL / "common" / "kdopcd_format_pkg.sv", RTL / "common" / "kdopcd_v2_pkg.sv",
           RTL / "v2" / "kdopcd_v2_wdma.sv", FORMAL / "kdopcd_axi_ar_props.sv", FORMAL / "kdopcd_v2_wdma_props.sv"],
    top="kdopcd_v2_wdma_props",
    probes=[("p_count", "u_wdma.count_q"), ("p_aw_count", "u_wdma.aw_count_q")],
    # 512-bit beats: 8 contacts a beat, a completion record of 2 beats; a beat FIFO and an AW
    # queue of 4 entries; the slave free (W before, with or after its AW)
    configs={"small": dict(DMA_W=512, ENGINES=1, DEPTH=4)},
    quick="small",
    mutants={
        # contacts taken (and queries started) without room in the FIFOs
        "no-room-check": ("stuck", "u_wdma.room_o", 1),
        # a beat popped without WREADY (a burst's beats lost: WLAST off its count)
        "w-popped-without-wready": ("stuck", "u_wdma.w_hs", 1),
        # the AW counted as taken without AWREADY
        "awvalid-drops-without-awready": ("stuck", "u_wdma.m_axi_awready_i", 1),
        # the AW queue never popped (AWREADY not seen): the first AW sent again, the next
        # bursts' AWs never (the class of the W-before-AW defect, docs/formal.md §5)
        "aw-never-popped": ("stuck", "u_wdma.m_axi_awready_i", 0),
        # a completion record across 4 KiB sent as one burst (the defect the split removes)
        "record-across-4k-not-split": ("stuck", "u_wdma.g_engine[0].split", 0),
    },
    base_depth=12,
    induction_depth=None,
    in_ctest=False,
)

# ---------------------------------------------------------------- 6. the loader's AXI4 read port
LOADER = Design(
    name="loader",
    files=[RTL / "v2" / "kdopcd_v2_loader.sv", FORMAL / "kdopcd_axi_ar_props.sv", FORMAL / "kdopcd_v2_loader_props.sv"],
    top="kdopcd_v2_loader_props",
    probes=[],
    # RAMs of 8 records, a node record of 2 beats and a triangle record of 1 (64-bit beats),
    # bursts of 4 beats at most: a section of up to 16 beats, cut by BURST_MAX and by 4 KiB
    # (quick: the same to depth 12, what ctest runs: formal.loader_axi)
    configs={
        "small": dict(W=64, ADDR_W=32, NODE_AW=3, TRI_AW=3, NODE_BITS=100, TRI_BITS=60, BURST_MAX=4),
        "quick": dict(W=64, ADDR_W=32, NODE_AW=3, TRI_AW=3, NODE_BITS=100, TRI_BITS=60, BURST_MAX=4,
                      bmc_depth=12),
    },
    quick="quick",
    mutants={
        # the 4 KiB cut ignored
        "no-4k-cut": ("stuck", "u_loader.near_4k", 0),
        # the BURST_MAX cap ignored where the section is longer
        "no-burst-cap": ("stuck", "u_loader.bl_lt_max", 1),
        # ARVALID dropped without ARREADY
        "arvalid-drops-without-arready": ("stuck", "u_loader.m_axi_arready_i", 1),
    },
    base_depth=24,
    induction_depth=None,
    in_ctest=True,  # the quick configuration and the mutants: seconds
)

DESIGNS = [SAT_LANE, ENGINE, REGS, CMDQ, WDMA, LOADER]


def yosys_script(design, params, smt2, mutant=None):
    lines = ["read_verilog -DSYNTHESIS -formal -sv " + " ".join(str(f) for f in design.files)]
    params = dict(params)
    if mutant and mutant[0] == "param":
        params[mutant[1]] = mutant[2]
    if mutant and len(mutant) > 3:
        params.update(mutant[3])  # the configuration in which the planted bug is the binding one
    # Yosys 0.23's write_smt2 fails (an internal assertion) on a memory of one word, such as a
    # queue of 1: such a configuration maps its memories to flip-flops first (the same logic).
    memory_map = params.pop("yosys_memory_map", False)
    params.pop("bmc_depth", None)
    for name, value in params.items():
        lines.append(f"chparam -set {name} {value} {design.top}")
    lines += [f"hierarchy -top {design.top}", "proc", "flatten"]
    # -nounset: the probe wires are undriven; unsetting would cut the wrapper's own assigns.
    lines += [f"connect -nounset -set {wire} {signal}" for wire, signal in design.probes]
    if mutant and mutant[0] == "stuck":
        lines.append(f"connect -set {mutant[1].replace(' ', '')} 1'b{mutant[2]}")
    lines += [f"prep -top {design.top}"] + (["memory_map"] if memory_map else [])
    lines += ["async2sync", "dffunmap", f"write_smt2 -wires {smt2}"]
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
    design, name, params, mutant, out, timeout = job
    work = out / name
    work.mkdir(parents=True, exist_ok=True)
    smt2 = work / "model.smt2"
    (work / "model.ys").write_text(yosys_script(design, params, smt2, mutant))
    rc, t_yosys = run(["yosys", "-q", "-s", str(work / "model.ys")], work / "yosys.log", timeout)
    if rc != 0:
        return name, "error", t_yosys, f"yosys failed (see {work / 'yosys.log'})"
    # --unroll: z3 4.8 spends minutes on the transition function's nested definitions otherwise.
    smtbmc = ["yosys-smtbmc", "--unroll", "-s", "z3"]
    depth = design.mutant_depth if mutant else params.get("bmc_depth", design.base_depth)
    if mutant and len(mutant) > 4:
        depth = mutant[4]
    rc, t_base = run(smtbmc + ["-t", str(depth), str(smt2)], work / "base.log", timeout)
    if mutant:
        # A mutant must fail; the base case is where a reachable bug shows. Exit status 1 alone
        # could also be a crash of the tool: a failure counts only with the solver's verdict.
        failed = rc == 1 and "Status: FAILED" in (work / "base.log").read_text(errors="replace")
        verdict = "failed" if failed else ("survived" if rc == 0 else "timeout" if rc is None else "error")
        return name, verdict, t_yosys + t_base, f"base case depth {depth}"
    if rc != 0:
        return name, "timeout" if rc is None else "failed", t_yosys + t_base, f"base case (see {work / 'base.log'})"
    if design.induction_depth is None:
        return name, "proved", t_yosys + t_base, f"bounded: depth {depth} from reset"
    k = design.induction_depth
    rc, t_ind = run(smtbmc + ["-i", "-t", str(k), str(smt2)], work / "induction.log", timeout)
    if rc != 0:
        return name, "timeout" if rc is None else "failed", t_yosys + t_base + t_ind, f"induction (see {work / 'induction.log'})"
    return name, "proved", t_yosys + t_base + t_ind, f"base {t_base:.0f} s (depth {depth}), induction {t_ind:.0f} s (depth {k}): all depths"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", default=str(ROOT / "build" / "formal-rtl"))
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per solver run")
    parser.add_argument("--only", action="append", help="run only this proof (sat-lane, engine, regs, cmdq, wdma, loader); repeatable")
    parser.add_argument("--keep", action="store_true", help="keep the logs of a run that passed")
    parser.add_argument("--config", action="append", help="run only this configuration (no mutants); repeatable")
    parser.add_argument("--mutant", action="append", help="run only this mutant (and no proof); repeatable")
    args = parser.parse_args()
    for tool in ("yosys", "yosys-smtbmc", "z3"):
        if not shutil.which(tool):
            print(f"formal_rtl: {tool} not found (scripts/install-deps.sh)", file=sys.stderr)
            return 2
    out = pathlib.Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    jobs = []
    for d in DESIGNS:
        if args.quick and not d.in_ctest:
            continue
        if args.only and d.name not in args.only:
            continue
        configs = {d.quick: d.configs[d.quick]} if args.quick else d.configs
        if not args.mutant:
            jobs += [(d, f"{d.name}-{n}", p, None, out, args.timeout) for n, p in configs.items()
                     if not args.config or n in args.config]
        if not args.config:
            jobs += [(d, f"{d.name}-{d.quick}-mutant-{m}", d.configs[d.quick], spec, out, args.timeout)
                     for m, spec in d.mutants.items() if not args.mutant or m in args.mutant]
    ok = True
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, verdict, seconds, detail in pool.map(check, jobs):
            mutant = "-mutant-" in name
            good = verdict == ("failed" if mutant else "proved")
            ok &= good
            print(f"{'ok  ' if good else 'FAIL'} {name}: {verdict} in {seconds:.0f} s ({detail})", flush=True)
    print("formal_rtl: every proof passed and every mutant failed" if ok else "formal_rtl: FAILED")
    if ok and not args.keep:
        shutil.rmtree(out, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
