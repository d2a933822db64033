#!/usr/bin/env python3
"""Host instructions per simulated query clock of the verilated v2 top, by RTL block.

Runs bench/rtl_sim_bench_prof (the top built with line tables) under Valgrind's callgrind twice,
once with one repetition of each query and once with `--reps N`, and keeps the difference: the
cost of N - 1 repetitions of the queries, without the set-up (meshes, trees, the LOAD), divided
by their simulated clocks. Instruction counts do not move with the machine's load.

Each instruction is charged to the generated source line it was inlined into (addr2line -i, the
outermost frame in Verilator's output) and that line to the block of the first signal it names
(kdopcd_v2_top__DOT__<block>__DOT__...; the lines of a multi-line statement to the statement's
first signal). Code outside the generated files (the bus models of the harness) and generated
code without a line are listed under their own names.
"""
import argparse
import collections
import pathlib
import re
import subprocess
import sys
import tempfile

SIGNAL = re.compile(r"kdopcd_v2_top__DOT__(\w+)")
ROOT_FIELD = re.compile(r"vlSelf->(\w+)")


def callgrind(bench, scenes, reps, meshes):
    """Self cost per instruction address, and the simulated query clocks of one repetition."""
    with tempfile.NamedTemporaryFile(suffix=".callgrind") as out:
        cmd = ["valgrind", "--tool=callgrind", "--dump-instr=yes", "--dump-line=no",
               f"--callgrind-out-file={out.name}", bench, "--reps", str(reps), "--meshes", meshes]
        for s in scenes:
            cmd += ["--scene", s]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"rtl-sim-profile: {' '.join(cmd)} failed:\n{run.stderr[-2000:]}")
        clocks = None
        for line in run.stdout.splitlines():
            if "all queries" in line:
                clocks = int(line.split("|")[2])
        if clocks is None:
            sys.exit("rtl-sim-profile: no 'all queries' row in the bench's output")
        return parse(out.name), clocks


def parse(path):
    """Self cost by instruction address from a callgrind file written with --dump-instr=yes
    (positions: instr; relative addresses '+n'/'-n', '*' the same; a line after calls= is the
    call's inclusive cost, not self cost)."""
    cost = collections.Counter()
    addr = 0
    after_call = False
    with open(path) as f:
        for line in f:
            if line.startswith("calls="):
                after_call = True
                continue
            if not line or line[0] not in "0123456789+-*":
                continue
            fields = line.split()
            if len(fields) < 2:
                continue
            pos = fields[0]
            if pos.startswith("0x"):
                addr = int(pos, 16)
            elif pos[0] == "+":
                addr += int(pos[1:])
            elif pos[0] == "-":
                addr -= int(pos[1:])
            if after_call:
                after_call = False
                continue
            cost[addr] += int(fields[-1])
    return cost


def locate(binary, addrs):
    """addr2line -i frames (function, file:line), innermost first, per address."""
    frames = {}
    addrs = sorted(addrs)
    for i in range(0, len(addrs), 4000):
        chunk = addrs[i:i + 4000]
        out = subprocess.run(["addr2line", "-i", "-a", "-f", "-C", "-e", binary] +
                             [hex(a) for a in chunk], capture_output=True, text=True).stdout
        cur = None
        for line in out.splitlines():
            if line.startswith("0x"):
                cur = int(line, 16)
                frames[cur] = []
            elif cur is not None:
                frames[cur].append(line)
    return {a: list(zip(f[0::2], f[1::2])) for a, f in frames.items()}


class Blocks:
    def __init__(self, depth):
        self.depth = depth
        self.files = {}

    def source(self, path):
        if path not in self.files:
            try:
                self.files[path] = pathlib.Path(path).read_text().splitlines()
            except OSError:
                self.files[path] = []
        return self.files[path]

    def of_line(self, path, number):
        lines = self.source(path)
        for k in range(min(number, len(lines)), max(number - 40, 0), -1):
            text = lines[k - 1]
            m = SIGNAL.search(text)
            if m:
                parts = [re.sub(r"__BRA__\d+__KET__", "[]", p) for p in m.group(1).split("__DOT__")]
                return "/".join(parts[:self.depth])
            m = ROOT_FIELD.search(text)
            if m:
                return "scheduling and ports"
        return "scheduling and ports"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", help="path of rtl_sim_bench_prof")
    ap.add_argument("--scene", action="append", help="first:second (repeatable; default cow:cow)")
    ap.add_argument("--reps", type=int, default=6, help="repetitions of the longer run (default 6)")
    ap.add_argument("--depth", type=int, default=1, help="levels of the block path (default 1)")
    ap.add_argument("--rows", type=int, default=12, help="rows of the table (default 12)")
    ap.add_argument("--meshes", default="data/meshes")
    args = ap.parse_args()
    scenes = args.scene or ["cow:cow"]
    if args.reps < 2:
        sys.exit("rtl-sim-profile: --reps must be at least 2")

    one, clocks = callgrind(args.bench, scenes, 1, args.meshes)
    many, _ = callgrind(args.bench, scenes, args.reps, args.meshes)
    diff = {a: many[a] - one.get(a, 0) for a in many if many[a] > one.get(a, 0)}
    query_clocks = clocks * (args.reps - 1)
    frames = locate(args.bench, diff.keys())
    blocks = Blocks(args.depth)
    by_block = collections.Counter()
    for addr, n in diff.items():
        chain = frames.get(addr, [])
        generated = [(fn, loc) for fn, loc in chain
                     if "Vkdopcd_v2_top" in loc and re.search(r":\d+", loc) and not loc.endswith(":0")]
        if generated:
            path, number = generated[-1][1].rsplit(":", 1)
            by_block[blocks.of_line(path, int(number.split()[0]))] += n
        elif chain and "Vkdopcd_v2_top" in chain[-1][0]:
            by_block["generated code without a line"] += n
        elif chain:
            name = re.sub(r"\(.*", "", chain[-1][0])
            name = re.sub(r"<[^<>]*>", "", name)
            by_block[f"host: {name}"] += n
        else:
            by_block["host: (unknown)"] += n
    total = sum(by_block.values())
    print(f"| block | host instructions per query clock | share |")
    print(f"|---|--:|--:|")
    rest = total
    for name, n in by_block.most_common(args.rows):
        print(f"| {name} | {n / query_clocks:,.0f} | {100 * n / total:.1f} % |")
        rest -= n
    if rest > 0:
        print(f"| everything else | {rest / query_clocks:,.0f} | {100 * rest / total:.1f} % |")
    print(f"| **all** ({', '.join(scenes)}: {clocks} query clocks, {args.reps} - 1 repetitions) "
          f"| **{total / query_clocks:,.0f}** | 100 % |")


if __name__ == "__main__":
    main()
