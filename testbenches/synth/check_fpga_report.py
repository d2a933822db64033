#!/usr/bin/env python3
"""Checks a report of scripts/fpga-report.sh: the JSON parses, the design-level fields and those
of every module are there with sane values, utilization agrees with the counts and the part's
capacity. Usage: check_fpga_report.py REPORT.json [MODULE...] (the modules that must be in it)"""
import json
import sys

FIELDS = ("part", "lut", "ff", "dsp", "bram36", "uram", "carry", "worst_levels", "fmax_mhz_est",
          "capacity", "utilization_pct", "fits", "modules")
MODULE_FIELDS = ("module", "lut", "ff", "dsp", "bram36", "uram", "carry", "worst_levels", "fmax_mhz_est",
                 "utilization_pct", "fits")
KINDS = ("lut", "ff", "dsp", "bram36", "uram")


def fail(msg):
    sys.exit(f"check_fpga_report: {msg}")


doc = json.load(open(sys.argv[1]))
for key in FIELDS:
    if key not in doc:
        fail(f"missing field {key}")
for kind in KINDS:
    if not isinstance(doc["capacity"].get(kind), int):
        fail(f"capacity.{kind} missing")
names = [m.get("module") for m in doc["modules"]]
for want in sys.argv[2:]:
    if want not in names:
        fail(f"module {want} not in {names}")
for m in doc["modules"]:
    for key in MODULE_FIELDS:
        if key not in m:
            fail(f"{m.get('module')}: missing field {key}")
    if not (m["lut"] > 0 and m["ff"] > 0 and m["worst_levels"] > 0):
        fail(f"{m['module']}: implausible counts {m}")
    if not (10 <= m["fmax_mhz_est"] <= 2000):
        fail(f"{m['module']}: implausible fmax estimate {m['fmax_mhz_est']}")
    for kind in KINDS:
        cap = doc["capacity"][kind]
        if cap and abs(m["utilization_pct"][kind] - 100.0 * m[kind] / cap) > 0.01:
            fail(f"{m['module']}: utilization of {kind} does not match")
    if m["fits"] != all(m[k] <= doc["capacity"][k] for k in KINDS):
        fail(f"{m['module']}: fits is wrong")
print(f"{sys.argv[1]}: {doc['part']}, " + ", ".join(
    f"{m['module']} {m['lut']} LUT {m['ff']} FF {m['dsp']} DSP {m['fmax_mhz_est']} MHz" for m in doc["modules"]))
