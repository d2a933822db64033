#!/usr/bin/env python3
"""Writes the hardware contracts' SystemVerilog packages and C++ headers from their descriptions.

    scripts/gen-contract.py            # rewrite every generated file
    scripts/gen-contract.py --check    # exit 1 (and name the file) when a checked-in file differs

Three descriptions in contract/, each the only place where what it holds is written down:
  formats.json            the bit layouts both accelerators share with the software: the descent-rule
                          codes, the node record's link word, the axis-table entry;
  accelerator_paper.json  the paper accelerator (rtl/paper/kdopcd_top.sv): parameters, derived
                          latencies, register map, CONTROL/STATUS bits, CONFIG and QUERY words, counters;
  accelerator_v2.json     the same for the v2 accelerator (rtl/v2/kdopcd_v2_top.sv).
Each becomes a SystemVerilog package (rtl/common/) and a C++ header (contract/include/kdopcd_contract/);
an accelerator's tables also go into its docs page, between the contract markers. Derived values and
layout positions are emitted as functions of the parameters they depend on, so a block verilated or
synthesized with other parameters gets its own widths from the same formula.

Schema (every key optional except where a section needs it):
  parameters  [{name, value, doc}]            top parameters and their defaults
  derived     [{name, expr, doc}]             values computed from parameters (expr may use clog2)
  registers   [{name, offset, access, doc}]   the AXI4-Lite register map; id_value: the ID register
  control_bits, status_bits [{name, bit, doc}]
  counters    [{name, doc}]                   64-bit counters in register order
  enums       [{name, prefix, bits, doc, values: [{name, value, doc}]}]
  words       [{name, bits, doc, fields: [{name, bits, doc, type?, value?}]}]
              fixed-width words, fields LSB first; `type` names an enum; `value` (an expression of
              parameters) makes the word a read-only constant with a generated `<word>_value` function
  layouts     [{name, doc, fields: [{name, bits (expression), count?, signed?, doc}]}]
              bit vectors whose field widths depend on parameters, fields LSB first
"""
import functools
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTRACT_DIR = ROOT / "contract"
CPP_DIR = CONTRACT_DIR / "include" / "kdopcd_contract"
DOC_BEGIN = "<!-- contract:begin (written by scripts/gen-contract.py; do not edit by hand) -->"
DOC_END = "<!-- contract:end -->"

# (description, SV package, SV file, C++ header, C++ namespace, docs page or None)
CONTRACTS = [
    ("formats.json", "kdopcd_format_pkg", ROOT / "rtl" / "common" / "kdopcd_format_pkg.sv",
     CPP_DIR / "formats.hpp", "format", None),
    ("accelerator_paper.json", "kdopcd_pkg", ROOT / "rtl" / "common" / "kdopcd_pkg.sv",
     CPP_DIR / "accelerator_paper.hpp", "paper", ROOT / "docs" / "accelerator.md"),
    ("accelerator_v2.json", "kdopcd_v2_pkg", ROOT / "rtl" / "common" / "kdopcd_v2_pkg.sv",
     CPP_DIR / "accelerator_v2.hpp", "v2", ROOT / "docs" / "accelerator-v2.md"),
]
BUILTINS = {"clog2"}


def words_of(expr):
    return re.findall(r"[A-Za-z_][A-Za-z_0-9]*", str(expr))


def expand(expr, derived):
    """Replaces derived names by their (parenthesized) expressions until only parameters remain."""
    expr = str(expr)
    for _ in range(10):
        changed = False
        for name in words_of(expr):
            if name in derived:
                expr = re.sub(rf"\b{name}\b", "(" + derived[name] + ")", expr)
                changed = True
        if not changed:
            return expr
    raise SystemExit(f"gen-contract: derived values refer to each other in a cycle: {expr}")


def args_of(expr, params):
    """The parameters an expression uses, in the description's parameter order (or first use)."""
    used = [w for w in words_of(expr) if w not in BUILTINS]
    ordered = [p for p in params if p in used]
    for w in used:
        if w not in ordered:
            ordered.append(w)
    return ordered


@functools.cache
def format_enum(name):
    """An enum of contract/formats.json by name (a field typed format.NAME refers to it)."""
    enums = json.loads((CONTRACT_DIR / "formats.json").read_text())["enums"]
    return next(e for e in enums if e["name"] == name)


def camel(name):
    return "".join(p.capitalize() for p in name.lower().split("_"))


def snake(name):
    return name.lower()


class Contract:
    def __init__(self, source, package, sv_path, cpp_path, ns, doc):
        self.source = CONTRACT_DIR / source
        self.package, self.sv_path, self.cpp_path, self.ns, self.doc = package, sv_path, cpp_path, ns, doc
        self.c = json.loads(self.source.read_text())
        self.params = [p["name"] for p in self.c.get("parameters", [])] or self.c.get("argument_order", [])
        self.derived = {d["name"]: d["expr"] for d in self.c.get("derived", [])}
        self.fns = []
        for d in self.c.get("derived", []):
            e = expand(d["expr"], self.derived)
            self.fns.append((d["name"], e, args_of(e, self.params), d["doc"]))
        self.enums = {e["name"]: e for e in self.c.get("enums", [])}

    def sv_type(self, type_name):
        """An enum named by a field: NAME (this description) or format.NAME (formats.json)."""
        # Yosys 0.23 cannot resolve another package's typedef inside a package's struct: a field of
        # formats.json's enum is its bits here, compared with kdopcd_format_pkg's codes.
        if type_name.startswith("format."):
            return f"logic [{format_enum(type_name[7:])['bits'] - 1}:0]"
        return f"{snake(type_name)}_e"

    def cpp_type(self, type_name):
        if type_name.startswith("format."):
            return "format::" + camel(type_name[7:])
        return camel(type_name)

    def uses_formats(self):
        return any(f.get("type", "").startswith("format.") for w in self.c.get("words", []) for f in w["fields"])

    def banner(self):
        return f"Generated by scripts/gen-contract.py from contract/{self.source.name}: do not edit by hand."

    def value_expr(self, expr):
        return expand(expr, self.derived)

    # ---- layout helpers: the lsb of field f element i is the sum of the widths before it
    def layout_terms(self, layout):
        """Per field: (field, width expression, lsb expression with `i` for the element)."""
        out, before = [], []
        for f in layout["fields"]:
            width = f"({f['bits']})"
            count = f.get("count", 1)
            base = " + ".join(before) if before else "0"
            lsb = base if count == 1 else f"{base} + i * {width}"
            out.append((f, width, lsb))
            before.append(width if count == 1 else f"{count} * {width}")
        total = " + ".join(before)
        return out, total

    # ------------------------------------------------------------------------------- SystemVerilog
    def sv(self):
        c = self.c
        o = [f"// {self.banner()}", "//"]
        o += [f"// {line}" for line in c["sv_comment"]]
        o += [f"package {self.package};", ""]
        if c.get("parameters"):
            o.append("  // ---- top parameters (defaults)")
            for p in c["parameters"]:
                o.append(f"  localparam int DEFAULT_{p['name']} = {p['value']};  // {p['doc']}")
            o.append("")
        o += ["  function automatic int clog2(input int x);", "    clog2 = 0;",
              "    while ((1 << clog2) < x) clog2 = clog2 + 1;", "  endfunction", ""]
        if self.fns:
            o.append("  // ---- derived values")
            for name, e, args, doc in self.fns:
                o.append(f"  // {doc}")
                sig = ", ".join(f"input int {a}" for a in args)
                o += [f"  function automatic int {snake(name)}({sig});", f"    {snake(name)} = {e};", "  endfunction"]
            o.append("")
        for e in c.get("enums", []):
            o.append(f"  // ---- {e['doc']}")
            o.append(f"  typedef enum logic [{e['bits'] - 1}:0] {{")
            for i, v in enumerate(e["values"]):
                sep = "," if i + 1 < len(e["values"]) else ""
                o.append(f"    {e['prefix']}_{v['name']} = {e['bits']}'d{v['value']}{sep}  // {v['doc']}")
            o.append(f"  }} {snake(e['name'])}_e;")
            o.append("")
        for w in c.get("words", []):
            o.append(f"  // ---- {w['name']}: {w['doc']}")
            o.append("  typedef struct packed {")
            used = sum(f["bits"] for f in w["fields"])
            if used > w["bits"]:
                raise SystemExit(f"gen-contract: word {w['name']} has {used} bits of fields in {w['bits']}")
            if used < w["bits"]:
                o.append(f"    logic [{w['bits'] - used - 1}:0] reserved;  // reads 0, writes ignored")
            for f in reversed(w["fields"]):
                t = self.sv_type(f["type"]) if "type" in f else ("logic" if f["bits"] == 1 else f"logic [{f['bits'] - 1}:0]")
                note = f" (kdopcd_format_pkg::{snake(f['type'][7:])}_e)" if f.get("type", "").startswith("format.") else ""
                o.append(f"    {t} {snake(f['name'])};  // {f['doc']}{note}")
            o.append(f"  }} {snake(w['name'])}_t;")
            if all("value" in f for f in w["fields"]):
                exprs = [self.value_expr(f["value"]) for f in w["fields"]]
                args = args_of(" ".join(exprs), self.params)
                sig = ", ".join(f"input int {a}" for a in args)
                parts = [f"{f['bits']}'({e})" for f, e in zip(reversed(w["fields"]), reversed(exprs))]
                if used < w["bits"]:
                    parts.insert(0, f"{w['bits'] - used}'d0")
                o += [f"  // The constant value of {w['name']} for these parameters.",
                      f"  function automatic logic [{w['bits'] - 1}:0] {snake(w['name'])}_value({sig});",
                      f"    {snake(w['name'])}_value = {{{', '.join(parts)}}};", "  endfunction"]
            o.append("")
        for lay in c.get("layouts", []):
            terms, total = self.layout_terms(lay)
            o.append(f"  // ---- {lay['name']}: {lay['doc']}")
            for f, width, lsb in terms:
                name = f"{snake(lay['name'])}_{snake(f['name'])}"
                wargs = args_of(width, self.params)
                o.append(f"  // {f['doc']}")
                o += [f"  function automatic int {name}_bits({', '.join(f'input int {a}' for a in wargs)});",
                      f"    {name}_bits = {width};", "  endfunction"]
                largs = args_of(lsb, self.params)
                o += [f"  function automatic int {name}_lsb({', '.join(f'input int {a}' for a in largs)});",
                      f"    {name}_lsb = {lsb};", "  endfunction"]
            targs = args_of(total, self.params)
            o += [f"  // Bits of one {lay['name']}.",
                  f"  function automatic int {snake(lay['name'])}_bits({', '.join(f'input int {a}' for a in targs)});",
                  f"    {snake(lay['name'])}_bits = {total};", "  endfunction", ""]
        if c.get("registers"):
            o.append("  // ---- register map (byte offsets)")
            for r in c["registers"]:
                o.append(f"  localparam logic [11:0] REG_{r['name']} = 12'h{int(r['offset'], 16):03X};  // {r['access']}: {r['doc']}")
            o.append(f"  localparam logic [31:0] ID_VALUE = 32'h{int(c['id_value'], 16):08X};")
            o.append(f"  localparam int AXIS_ENTRY_BYTES = {c['axis_entry_bytes']};  // stride of the axis table")
            o.append("")
        if c.get("control_bits"):
            o.append("  // ---- CONTROL bits")
            for b in c["control_bits"]:
                o.append(f"  localparam int CTRL_{b['name']} = {b['bit']};  // {b['doc']}")
            o.append("  // ---- STATUS bits")
            for b in c["status_bits"]:
                o.append(f"  localparam int STAT_{b['name']} = {b['bit']};  // {b['doc']}")
            o.append("")
        if c.get("counters"):
            o.append("  // ---- counters, in register order (COUNTERS + 8 i)")
            o.append(f"  localparam int NUM_COUNTERS = {len(c['counters'])};")
            width = max(1, (len(c["counters"]) - 1).bit_length())
            o.append(f"  typedef enum logic [{width - 1}:0] {{")
            for i, k in enumerate(c["counters"]):
                sep = "," if i + 1 < len(c["counters"]) else ""
                o.append(f"    CNT_{k['name']} = {width}'d{i}{sep}  // {k['doc']}")
            o.append("  } counter_e;")
            o.append("")
        o += ["endpackage", ""]
        return "\n".join(o)

    # ------------------------------------------------------------------------------------- C++
    def cpp(self):
        c = self.c
        o = ["#pragma once", f"// {self.banner()}", "//"]
        o += [f"// {line}" for line in c["cpp_comment"]]
        o += ["#include <algorithm>", "#include <array>", "#include <cstdint>", "#include <string_view>", "#include <vector>", ""]
        if self.uses_formats():
            o += ['#include "kdopcd_contract/formats.hpp"', ""]
        o += [
              f"namespace kdopcd::contract::{self.ns} {{", "",
              "constexpr int clog2(int x) {", "  int r = 0;", "  while ((1 << r) < x) ++r;", "  return r;", "}", ""]
        if c.get("parameters"):
            o.append("// Top parameters (defaults).")
            for p in c["parameters"]:
                o.append(f"inline constexpr int k{camel(p['name'])} = {p['value']};  // {p['doc']}")
            o.append("")
        if self.fns:
            o.append("// Derived values, as functions of the parameters they depend on; k... = at the defaults.")
            for name, e, args, doc in self.fns:
                sig = ", ".join(f"int {a}" for a in args)
                o.append(f"// {doc}")
                o.append(f"constexpr int {snake(name)}({sig}) {{ return {e}; }}")
                call = ", ".join(f"k{camel(a)}" for a in args)
                o.append(f"inline constexpr int k{camel(name)} = {snake(name)}({call});")
            o.append("")
        for e in c.get("enums", []):
            o.append(f"// {e['doc']}")
            o.append(f"enum class {camel(e['name'])} : std::uint32_t {{")
            for v in e["values"]:
                o.append(f"  k{camel(v['name'])} = {v['value']},  // {v['doc']}")
            o.append("};")
            o.append(f"inline constexpr int k{camel(e['name'])}Bits = {e['bits']};")
            o.append("")
        for w in c.get("words", []):
            ctype = "std::uint32_t" if w["bits"] <= 32 else "std::uint64_t"
            n = camel(w["name"])
            o.append(f"// {w['name']}: {w['doc']}")
            o.append(f"struct {n} {{")
            for f in w["fields"]:
                t = self.cpp_type(f["type"]) if "type" in f else ctype
                init = "{}" if "type" in f else "0"
                o.append(f"  {t} {snake(f['name'])} = {init};  // [{f['bits']} bits] {f['doc']}")
            o.append(f"  friend constexpr bool operator==(const {n}&, const {n}&) = default;")
            o.append("};")
            pos, packs, unpacks, fits = 0, [], [], []
            for f in w["fields"]:
                mask = f"((std::uint64_t(1) << {f['bits']}) - 1)" if f["bits"] < 64 else "~std::uint64_t(0)"
                val = f"std::uint64_t(w.{snake(f['name'])})"
                packs.append(f"(({val} & {mask}) << {pos})")
                get = f"(word >> {pos}) & {mask}"
                unpacks.append(f"  w.{snake(f['name'])} = {self.cpp_type(f['type'])}({get});" if "type" in f
                               else f"  w.{snake(f['name'])} = {ctype}({get});")
                fits.append(f"({val} & ~{mask}) == 0")
                pos += f["bits"]
            o.append(f"// The word's bits; fields wider than their width are cut (see fits).")
            o.append(f"constexpr {ctype} pack(const {n}& w) {{")
            o.append(f"  return {ctype}({' | '.join(packs)});")
            o.append("}")
            o.append(f"constexpr {n} unpack_{snake(w['name'])}({ctype} word) {{")
            o.append(f"  {n} w;")
            o += unpacks
            o.append("  return w;")
            o.append("}")
            o.append(f"// Whether every field fits its width (pack loses nothing).")
            o.append(f"constexpr bool fits(const {n}& w) {{ return {' && '.join(fits)}; }}")
            if all("value" in f for f in w["fields"]):
                exprs = [self.value_expr(f["value"]) for f in w["fields"]]
                args = args_of(" ".join(exprs), self.params)
                sig = ", ".join(f"int {a}" for a in args)
                init = ", ".join(f"{ctype}({e})" for e in exprs)
                o.append(f"// The constant value of {w['name']} for these parameters (what the hardware reads back).")
                o.append(f"constexpr {n} {snake(w['name'])}_value({sig}) {{ return {n}{{{init}}}; }}")
            o.append("")
        for lay in c.get("layouts", []):
            terms, total = self.layout_terms(lay)
            n = camel(lay["name"])
            o.append(f"// {lay['name']}: {lay['doc']}")
            for f, width, lsb in terms:
                name = f"{snake(lay['name'])}_{snake(f['name'])}"
                wargs = args_of(width, self.params)
                o.append(f"// {f['doc']}")
                o.append(f"constexpr int {name}_bits({', '.join(f'int {a}' for a in wargs)}) {{ return {width}; }}")
                largs = args_of(lsb, self.params)
                o.append(f"constexpr int {name}_lsb({', '.join(f'int {a}' for a in largs)}) {{ return {lsb}; }}")
            targs = args_of(total, self.params)
            o.append(f"constexpr int {snake(lay['name'])}_bits({', '.join(f'int {a}' for a in targs)}) {{ return {total}; }}")
            o.append(f"struct {n} {{")
            for f in lay["fields"]:
                t = "std::int64_t" if f.get("signed") else "std::uint64_t"
                count = f.get("count", 1)
                o.append(f"  {'std::array<' + t + ', ' + str(count) + '>' if count > 1 else t} {snake(f['name'])}{{}};  // {f['doc']}")
            o.append(f"  friend bool operator==(const {n}&, const {n}&) = default;")
            o.append("};")
            # the layout's parameters, in a stable order, for pack/unpack
            largs = args_of(total, self.params)
            sig = ", ".join(f"int {a}" for a in largs)
            o.append(f"// Packs into 32-bit words, LSB first ({snake(lay['name'])}_bits / 32 rounded up); fields are cut")
            o.append("// to their widths (two's complement for signed ones).")
            o.append(f"inline std::vector<std::uint32_t> pack(const {n}& e, {sig}) {{")
            o.append(f"  std::vector<std::uint32_t> words(std::size_t(({snake(lay['name'])}_bits({', '.join(largs)}) + 31) / 32), 0);")
            o.append("  auto put = [&](std::uint64_t value, int lsb, int width) {  // a word's worth of bits at a time")
            o.append("    for (int b = 0; b < width && b < 64;) {")
            o.append("      const int shift = (lsb + b) % 32, take = std::min(32 - shift, std::min(width, 64) - b);")
            o.append("      words[std::size_t((lsb + b) / 32)] |= std::uint32_t(((value >> b) & ((std::uint64_t(1) << take) - 1)) << shift);")
            o.append("      b += take;")
            o.append("    }")
            o.append("  };")
            for f, width, lsb in terms:
                name = f"{snake(lay['name'])}_{snake(f['name'])}"
                wcall = f"{name}_bits({', '.join(args_of(width, self.params))})"
                lparams = [a for a in args_of(lsb, self.params) if a != "i"]
                if f.get("count", 1) > 1:
                    lcall = f"{name}_lsb({', '.join(args_of(lsb, self.params))})"
                    o.append(f"  for (int i = 0; i < {f['count']}; ++i) put(std::uint64_t(e.{snake(f['name'])}[std::size_t(i)]), {lcall}, {wcall});")
                else:
                    lcall = f"{name}_lsb({', '.join(lparams)})"
                    o.append(f"  put(std::uint64_t(e.{snake(f['name'])}), {lcall}, {wcall});")
            o.append("  return words;")
            o.append("}")
            o.append(f"// Unpacks words written by pack (signed fields sign-extended).")
            o.append(f"inline {n} unpack_{snake(lay['name'])}(const std::vector<std::uint32_t>& words, {sig}) {{")
            o.append("  auto get = [&](int lsb, int width, bool is_signed) {")
            o.append("    std::uint64_t v = 0;")
            o.append("    for (int b = 0; b < width && b < 64;) {")
            o.append("      const int shift = (lsb + b) % 32, take = std::min(32 - shift, std::min(width, 64) - b);")
            o.append("      v |= ((std::uint64_t(words[std::size_t((lsb + b) / 32)]) >> shift) & ((std::uint64_t(1) << take) - 1)) << b;")
            o.append("      b += take;")
            o.append("    }")
            o.append("    if (is_signed && width < 64 && ((v >> (width - 1)) & 1)) v |= ~std::uint64_t(0) << width;")
            o.append("    return v;")
            o.append("  };")
            o.append(f"  {n} e;")
            for f, width, lsb in terms:
                name = f"{snake(lay['name'])}_{snake(f['name'])}"
                wcall = f"{name}_bits({', '.join(args_of(width, self.params))})"
                t = "std::int64_t" if f.get("signed") else "std::uint64_t"
                sg = "true" if f.get("signed") else "false"
                if f.get("count", 1) > 1:
                    lcall = f"{name}_lsb({', '.join(args_of(lsb, self.params))})"
                    o.append(f"  for (int i = 0; i < {f['count']}; ++i) e.{snake(f['name'])}[std::size_t(i)] = {t}(get({lcall}, {wcall}, {sg}));")
                else:
                    lcall = f"{name}_lsb({', '.join(a for a in args_of(lsb, self.params))})"
                    o.append(f"  e.{snake(f['name'])} = {t}(get({lcall}, {wcall}, {sg}));")
            o.append("  return e;")
            o.append("}")
            o.append("")
        if c.get("registers"):
            o.append("// Register map (byte offsets).")
            o.append("namespace reg {")
            for r in c["registers"]:
                o.append(f"inline constexpr std::uint32_t k{camel(r['name'])} = {r['offset']};  // {r['access']}: {r['doc']}")
            o.append(f"inline constexpr std::uint32_t kIdValue = {c['id_value']};")
            o.append(f"inline constexpr std::uint32_t kAxisEntryBytes = {c['axis_entry_bytes']};  // stride of the axis table")
            for b in c["control_bits"]:
                o.append(f"inline constexpr std::uint32_t k{camel(b['name'])} = 1u << {b['bit']};  // CONTROL: {b['doc']}")
            for b in c["status_bits"]:
                o.append(f"inline constexpr std::uint32_t kStatus{camel(b['name'])} = 1u << {b['bit']};  // STATUS: {b['doc']}")
            o.append("}  // namespace reg")
            o.append("")
        if c.get("counters"):
            o.append("// Counters, in register order (reg::kCounters + 8 i).")
            o.append("enum class Counter : int {")
            for i, k in enumerate(c["counters"]):
                o.append(f"  k{camel(k['name'])} = {i},  // {k['doc']}")
            o.append("};")
            o.append(f"inline constexpr int kNumCounters = {len(c['counters'])};")
            names = ", ".join(f'"{k["name"].lower()}"' for k in c["counters"])
            o.append(f"inline constexpr std::array<std::string_view, kNumCounters> kCounterNames{{{names}}};")
            o.append("")
        o += [f"}}  // namespace kdopcd::contract::{self.ns}", ""]
        return "\n".join(o)

    # ------------------------------------------------------------------------------------ docs
    def doc_tables(self):
        c = self.c
        o = [DOC_BEGIN, "", f"Parameters (the defaults of the top):", "",
             "| parameter | default | meaning |", "|---|---|---|"]
        for p in c["parameters"]:
            o.append(f"| `{p['name']}` | {p['value']} | {p['doc']} |")
        o += ["", "Derived values (functions of the parameters in both languages):", "",
              "| name | formula | meaning |", "|---|---|---|"]
        for d in c["derived"]:
            o.append(f"| `{d['name']}` | `{d['expr']}` | {d['doc']} |")
        o += ["", f"Register map (AXI4-Lite, 32-bit words; `ID` reads `{c['id_value']}`):", "",
              "| offset | register | access | contents |", "|---|---|---|---|"]
        for r in sorted(c["registers"], key=lambda r: int(r["offset"], 16)):
            o.append(f"| `{r['offset']}` | `{r['name']}` | {r['access']} | {r['doc']} |")
        o += ["", "CONTROL bits: " + ", ".join(f"{b['bit']} `{b['name']}` ({b['doc']})" for b in c["control_bits"]) + ".",
              "", "STATUS bits: " + ", ".join(f"{b['bit']} `{b['name']}` ({b['doc']})" for b in c["status_bits"]) + "."]
        for w in c.get("words", []):
            pos, parts = 0, []
            for f in w["fields"]:
                rng = f"[{pos}]" if f["bits"] == 1 else f"[{pos + f['bits'] - 1}:{pos}]"
                doc = f["doc"]
                if f.get("type", "").startswith("format."):
                    e = format_enum(f["type"][7:])
                    doc += ": " + ", ".join(f"{v['value']} {v['name'].lower()}" for v in e["values"])
                parts.append(f"{rng} `{f['name']}` ({doc})")
                pos += f["bits"]
            o += ["", f"`{w['name']}` ({w['doc']}): " + ", ".join(parts) + "."]
        o += ["", "Counters (64 bits each at `COUNTERS + 8 i`, low word first):", "", "| i | counter | meaning |", "|---|---|---|"]
        for i, k in enumerate(c["counters"]):
            o.append(f"| {i} | `{k['name']}` | {k['doc']} |")
        o += ["", DOC_END]
        return "\n".join(o)

    def with_doc_tables(self, text):
        if DOC_BEGIN not in text or DOC_END not in text:
            raise SystemExit(f"gen-contract: {self.doc.relative_to(ROOT)} lacks the contract markers")
        head, rest = text.split(DOC_BEGIN, 1)
        return head + self.doc_tables() + rest.split(DOC_END, 1)[1]

    def outputs(self):
        out = {self.sv_path: self.sv(), self.cpp_path: self.cpp()}
        if self.doc is not None:
            out[self.doc] = self.with_doc_tables(self.doc.read_text())
        return out


def main():
    outputs = {}
    for spec in CONTRACTS:
        outputs.update(Contract(*spec).outputs())
    if "--check" in sys.argv[1:]:
        bad = [p for p, text in outputs.items() if not p.exists() or p.read_text() != text]
        for p in bad:
            print(f"gen-contract: {p.relative_to(ROOT)} differs from its description in contract/; "
                  "run scripts/gen-contract.py", file=sys.stderr)
        return 1 if bad else 0
    for p, text in outputs.items():
        if p.exists() and p.read_text() == text:
            continue  # unchanged: keep the timestamp, so that nothing is verilated again
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
