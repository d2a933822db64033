#!/usr/bin/env python3
"""Helper of scripts/fpga-report.sh: reads the Yosys outputs (stat, ltp, sta) of each module,
computes resources, logic depth and the clock estimate, and writes the JSON report; also
renders the report as a Markdown table and computes the routing-delay calibration.

  fpga_report.py report OUT.json      (inputs from the environment, set by fpga-report.sh)
  fpga_report.py table REPORT.json    (Markdown table with the fpga-report markers)
  fpga_report.py calibrate PREFIX PUBLISHED_PS
  fpga_report.py endpoints DIR        (Markdown table of DIR/NN.sta.txt from fpga_endpoints.tcl;
                                       ROUTE_PS and SCALE from the environment)
  fpga_report.py engines E1.json E2.json [CEILING_PCT]
                                      (the v2 top with E engines, extrapolated from the reports
                                       of E = 1 and E = 2: see engines() below)
"""
import datetime
import json
import os
import re
import sys

CELL = re.compile(r"^\s+(\S+)\s+(\d+)\s*$")
HOP = re.compile(r"^\s+(\d+)\s+\S+\s+\((\w+)\.([\w\[\]]+)->([\w\[\]]+)\)\s*$")


def stat_cells(path):
    cells = {}
    with open(path) as f:
        for line in f:
            m = CELL.match(line)
            if m and not m.group(1).startswith("Number"):
                cells[m.group(1)] = cells.get(m.group(1), 0) + int(m.group(2))
    return cells


def resources(cells):
    def total(pred):
        return sum(n for c, n in cells.items() if pred(c))
    lut_logic = total(lambda c: re.fullmatch(r"LUT[1-6]", c) is not None)
    # LUTs used as memory: SRLs, and distributed RAM (RAM32M/RAM64M: 4 LUTs; the UltraScale
    # RAM32M16/RAM64M8: 8; RAM32X1D, RAM64X1D: 2; single-port 1 per 64 bits; RAM128X1D: 4;
    # RAM256X1S: 4).
    lut_mem = total(lambda c: c.startswith("SRL"))
    for c, n in cells.items():
        m = re.fullmatch(r"RAM(\d+)(M8|M16|M|X1D|X1S)", c)
        if m:
            depth, kind = int(m.group(1)), m.group(2)
            if kind in ("M8", "M16"):
                per = 8
            elif kind == "M":
                per = 4
            else:
                per = (2 if kind == "X1D" else 1) * max(1, depth // 64)
            lut_mem += n * per
    bram36 = total(lambda c: c.startswith("RAMB36")) + total(lambda c: c.startswith("RAMB18")) / 2
    return {
        "lut": lut_logic + lut_mem,
        "lut_logic": lut_logic,
        "lut_mem": lut_mem,
        "ff": total(lambda c: re.fullmatch(r"FD[A-Z]+", c) is not None),
        "dsp": total(lambda c: c.startswith("DSP48")),
        "bram36": bram36,
        "uram": total(lambda c: c.startswith("URAM")),
        "carry": total(lambda c: c.startswith("CARRY")),
        "muxf": total(lambda c: c.startswith("MUXF")),
    }


def ltp_levels(path):
    with open(path) as f:
        m = re.search(r"\(length=(\d+)\)", f.read())
    return int(m.group(1)) if m else 0


def sta_path(path):
    """(arrival in ps, routed nets, start point) of the worst path that sta reports."""
    text = open(path).read()
    m = re.search(r"Latest arrival time in '[^']*' is (\d+):", text)
    if not m:
        return 0, 0, ""
    arrival = int(m.group(1))
    block = text[m.end():].split("Arrival histogram", 1)[0]
    hops = [HOP.match(line) for line in block.splitlines()]
    hops = [h for h in hops if h]
    start = ""
    for line in block.splitlines():
        s = re.match(r"^\s+0\s+(.+?)\s+\(<primary input>\)", line)
        if s:
            start = s.group(1)
    # A net before every cell except the launching flip-flop (clock to Q) and the carry-chain
    # hops that come in on CI (dedicated wiring), plus the net into the capturing flip-flop.
    nets = 1
    for h in hops:
        cell, frm = h.group(2), h.group(3)
        if frm in ("C", "CLK"):
            continue
        if cell.startswith("CARRY") and frm.startswith("CI"):
            continue
        nets += 1
    # A path that starts at a data input (not a clock) is launched by a register outside the
    # module: add its clock-to-Q (FDRE, 303 ps in cells_sim.v).
    if start and not re.search(r"clk", start, re.I):
        arrival += 303
    return arrival, nets, start


def endpoint_rows(directory):
    """(pin, net, cell delay ps, routed nets) of each sta run of fpga_endpoints.tcl, in its order
    (by cell delay), up to the first run that found no path."""
    rows = []
    for name in sorted(f for f in os.listdir(directory) if f.endswith(".sta.txt")):
        path = os.path.join(directory, name)
        arrival, nets, _ = sta_path(path)
        if not arrival:
            break
        m = re.search(r"Latest arrival time in '[^']*' is \d+:\n\s+\d+ \S+ \((\S+)\)\n\s+(.+)", open(path).read())
        pin, net = (m.group(1), m.group(2).strip()) if m else ("?", "?")
        rows.append((pin, net, arrival, nets))
    return rows


def module_result(prefix, family):
    cells = stat_cells(prefix + ".stat.txt")
    res = resources(cells)
    res["worst_levels"] = ltp_levels(prefix + ".ltp.txt")
    arrival, nets, _ = sta_path(prefix + ".sta.txt")
    route = float(os.environ["ROUTE_PS"])
    scale = float(os.environ["SCALE_" + family])
    res["fmax_basis"] = "the path with the largest cell delay"
    # With an endpoint listing (--endpoints), the clock is the lowest estimate over the listed
    # endpoints: the path with the largest cell delay need not have the most routed nets.
    if os.path.isdir(prefix + ".endpoints"):
        rows = endpoint_rows(prefix + ".endpoints")
        if rows:
            _, net, arrival, nets = max(rows, key=lambda r: r[2] + route * r[3])
            res["fmax_basis"] = (f"the lowest estimate over the {len(rows)} endpoints with the "
                                 f"largest cell delay: {net}")
    delay_ps = scale * (arrival + route * nets)
    res["sta_cell_delay_ps"] = arrival
    res["sta_routed_nets"] = nets
    res["delay_ns_est"] = round(delay_ps / 1000, 3)
    res["fmax_mhz_est"] = round(1e6 / delay_ps, 1) if delay_ps > 0 else None
    res["yosys_seconds"] = int(open(prefix + ".secs").read().strip() or 0)
    return res


def utilization(res, cap):
    pct = {}
    for key in ("lut", "ff", "dsp", "bram36", "uram"):
        if cap[key] == 0:
            pct[key] = None if res[key] == 0 else float("inf")
        else:
            pct[key] = round(100.0 * res[key] / cap[key], 2)
    fits = all(res[k] <= cap[k] for k in ("lut", "ff", "dsp", "bram36", "uram"))
    return pct, fits


def report(out):
    parts = [line.split("|") for line in os.environ["PART_LINES"].splitlines() if line]
    results = [line.split("|") for line in os.environ["RESULTS"].splitlines() if line]
    top = os.environ["TOP"]
    per_family = {}
    for name, family, prefix, status, topm, params in results:
        entry = {"module": name, "top_module": topm, "parameters": params, "status": status}
        if status == "ok":
            entry.update(module_result(prefix, family))
        per_family.setdefault(family, []).append(entry)
    part_reports = []
    for name, family, lut, ff, dsp, bram, uram in parts:
        cap = {"lut": int(lut), "ff": int(ff), "dsp": int(dsp), "bram36": int(bram), "uram": int(uram)}
        mods = []
        for entry in per_family.get(family, []):
            e = dict(entry)
            if e["status"] == "ok":
                e["utilization_pct"], e["fits"] = utilization(e, cap)
            mods.append(e)
        top_entry = next((m for m in mods if m["module"] == top), None)
        rep = {"part": name, "family": family, "capacity": cap, "top": top}
        if top_entry is not None and top_entry["status"] == "ok":
            for key in ("lut", "ff", "dsp", "bram36", "uram", "carry", "worst_levels", "fmax_mhz_est",
                        "utilization_pct", "fits"):
                rep[key] = top_entry[key]
        rep["modules"] = mods
        part_reports.append(rep)
    doc = dict(part_reports[0])
    doc["parts"] = part_reports
    doc["tool"] = "Yosys " + os.environ["YOSYS_VERSION"]
    doc["date"] = datetime.date.today().isoformat()
    doc["clock_estimate"] = {
        "method": "sta over cells_sim.v cell delays (Artix-7 -1) + route_ps_per_net x routed nets, "
                  "times the family scale",
        "route_ps_per_net": float(os.environ["ROUTE_PS"]),
        "scale": {"xc7": float(os.environ["SCALE_xc7"]), "xcup": float(os.environ["SCALE_xcup"])},
        "uncertainty_pct": float(os.environ["UNCERTAINTY_PCT"]),
        "speed_grade": {"xc7": "-1", "xcup": "-2"},
    }
    with open(out, "w") as f:
        json.dump(doc, f, indent=2, allow_nan=False, default=str)
        f.write("\n")


def table(path):
    doc = json.load(open(path))
    lines = ["<!-- fpga-report:begin (written by scripts/fpga-report.sh --doc; do not edit by hand) -->",
             f"{doc['tool']} `synth_xilinx -flatten` (`-nowidelut` for UltraScale+), {doc['date']}; clock "
             f"estimate +-{doc['clock_estimate']['uncertainty_pct']:.0f} % (see above).", ""]
    for rep in doc["parts"]:
        cap = rep["capacity"]
        lines.append(f"**{rep['part']}** ({rep['family']}, speed grade "
                     f"{doc['clock_estimate']['speed_grade'][rep['family']]}; capacity {cap['lut']} LUT, "
                     f"{cap['ff']} FF, {cap['dsp']} DSP, {cap['bram36']} BRAM36, {cap['uram']} URAM)")
        lines.append("")
        lines.append("| module | LUTs | FFs | DSPs | BRAM36 | URAM | CARRY | worst levels (cells) | "
                     "fmax est. (MHz) | LUT % | DSP % | fits | Yosys time |")
        lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for m in rep["modules"]:
            if m["status"] != "ok":
                lines.append(f"| `{m['module']}` | {m['status']} |" + " |" * 12)
                continue
            u = m["utilization_pct"]
            lines.append(f"| `{m['module']}` | {m['lut']} | {m['ff']} | {m['dsp']} | {m['bram36']:g} | {m['uram']} | "
                         f"{m['carry']} | {m['worst_levels']} | {m['fmax_mhz_est']:.0f} | {u['lut']:.2f} | "
                         f"{u['dsp']:.2f} | {'yes' if m['fits'] else 'no'} | {m['yosys_seconds']} s |")
        lines.append("")
    lines.append("<!-- fpga-report:end -->")
    print("\n".join(lines))


def calibrate(prefix, published_ps):
    arrival, nets, _ = sta_path(prefix + ".sta.txt")
    route = (published_ps - arrival) / nets
    print(f"worst path: {arrival} ps of cell delay, {nets} routed nets; published {published_ps} ps "
          f"-> {route:.0f} ps per net")


def endpoints(directory):
    """One row per sta run of fpga_endpoints.tcl: the capturing register's pin and the net into
    it, cell delay, routed nets and the clock that path alone would allow."""
    route = float(os.environ["ROUTE_PS"])
    scale = float(os.environ["SCALE"])
    print("| # | endpoint pin | net into it | cell delay ps | nets | fmax est. MHz |")
    print("|---|---|---|---|---|---|")
    for i, (pin, net, arrival, nets) in enumerate(endpoint_rows(directory)):
        delay_ps = scale * (arrival + route * nets)
        print(f"| {i + 1} | {pin} | `{net}` | {arrival} | {nets} | {1e6 / delay_ps:.0f} |")


def engines(path1, path2, ceiling_pct=100.0):
    """Resources of the v2 top as a + E b, from the reports of ENGINES = 1 and 2 (each engine has
    its own tree RAMs, SAT unit, triangle unit and write-back packer, and the command queue one
    descriptor buffer more: DESC_BUFFERS = E + 2), and the largest E whose every resource stays
    within CEILING_PCT of the part. The clock is not extrapolated: every path of an engine is
    inside it or through the queue's per-engine logic, so the estimate of E = 2 stands for larger
    E as long as that logic's depth does not grow (say so where it does)."""
    def top(path):
        with open(path) as f:
            rep = json.load(f)
        mod = next(m for m in rep["modules"] if m["module"].startswith("kdopcd_v2_top"))
        return rep, mod
    rep1, e1 = top(path1)
    _, e2 = top(path2)
    cap = rep1["capacity"]
    print(f"| resource | E = 1 | E = 2 | per engine | shared | {rep1['part']} | largest E at {ceiling_pct:g} % |")
    print("|---|---|---|---|---|---|---|")
    limits = {}
    for key in ("lut", "ff", "dsp", "bram36", "uram", "carry"):
        per = e2[key] - e1[key]
        shared = e1[key] - per
        capacity = cap.get(key)
        if capacity and per > 0:
            limits[key] = int((capacity * ceiling_pct / 100.0 - shared) // per)
        largest = limits.get(key, "-")
        print(f"| {key} | {e1[key]:g} | {e2[key]:g} | {per:g} | {shared:g} | {capacity if capacity else '-'} | {largest} |")
    bound = min(limits, key=limits.get)
    print(f"\nlargest E: {limits[bound]} (bound by {bound}); clock estimate E = 1: {e1['fmax_mhz_est']} MHz, "
          f"E = 2: {e2['fmax_mhz_est']} MHz")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "report":
        report(sys.argv[2])
    elif cmd == "table":
        table(sys.argv[2])
    elif cmd == "endpoints":
        endpoints(sys.argv[2])
    elif cmd == "engines":
        engines(sys.argv[2], sys.argv[3], float(sys.argv[4]) if len(sys.argv) > 4 else 100.0)
    elif cmd == "calibrate":
        calibrate(sys.argv[2], float(sys.argv[3]))
    else:
        sys.exit(__doc__)
