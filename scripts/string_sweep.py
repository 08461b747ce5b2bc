#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The sweep behind the string target (issue 35, item 1): lane groups in
flight x bytes of string data prefetched ahead, with instructions per string,
for the byte-array hash kernels (src/kernels/simd/string_hash_kernels-inl.h).

Each cell is a blockbloom_bench built from an existing build directory with
src/kernels/simd/simd_kernels.cc compiled again under -DBLOCKBLOOM_STRING_GROUPS=G
-DBLOCKBLOOM_STRING_PREFETCH_BYTES=P (the compile and link commands are the
build's own, from ninja). The cells run in a random order in each round,
pinned to one CPU; the table holds each benchmark's median over the rounds
(ns a string or a row) and loop_instructions.py's instructions per string.

  scripts/string_sweep.py [--build-dir build] [--groups 1,2,3,4]
                          [--prefetch 0,1024,4096] [--rounds 5] [--cpu 1]

The build directory must have built bench/blockbloom_bench (meson's
-Dbenchmarks=true). Cells are written to <build>/string_sweep/.
"""
import argparse
import collections
import json
import os
import random
import re
import shlex
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import loop_instructions  # noqa: E402

SOURCE = "src/kernels/simd/simd_kernels.cc"
BENCH = "bench/blockbloom_bench"
FILTER = ("^(string_hash/0_32(_dram)?/avx512/|kudu_string_hash/0_32(_dram)?/avx512/"
          "|find_column_bitmap/(string_0_32|int64)/avx512/16384$)")


def compile_command(build):
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        for entry in json.load(f):
            if entry["file"].endswith(SOURCE):
                return shlex.split(entry["command"]), entry["output"]
    sys.exit("string_sweep: %s is not in %s/compile_commands.json" % (SOURCE, build))


def link_command(build):
    out = subprocess.run(["ninja", "-C", build, "-t", "commands", BENCH], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    if not out or " -o %s " % BENCH not in out[-1]:
        sys.exit("string_sweep: no link command for %s in %s" % (BENCH, build))
    return shlex.split(out[-1])


def build_cell(build, groups, prefetch, cell_dir):
    """The bench binary of one cell: the kernels' object compiled with the
    cell's constants, linked in place of the library's own."""
    os.makedirs(cell_dir, exist_ok=True)
    compile_args, output = compile_command(build)
    obj = os.path.join(cell_dir, "simd_kernels.o")
    args = [obj if a == output else a for a in compile_args]
    args = [a for a in args if a not in ("-MD",)]
    if "-MF" in args:  # no dependency file for the cell's object
        i = args.index("-MF")
        del args[i:i + 2]
    if "-MQ" in args:
        i = args.index("-MQ")
        del args[i:i + 2]
    args += ["-DBLOCKBLOOM_STRING_GROUPS=%d" % groups, "-DBLOCKBLOOM_STRING_PREFETCH_BYTES=%d" % prefetch]
    subprocess.run(["nice", "-n", "19"] + args, cwd=build, check=True)
    # The core library is a thin archive: its members are the build's objects,
    # listed by path; the cell links them with its own kernels' object.
    link = link_command(build)
    archive = next(a for a in link if a.endswith("libblockbloom_core.a"))
    members = subprocess.run(["ar", "t", archive], cwd=build, capture_output=True, text=True,
                             check=True).stdout.split()
    if not all(os.path.exists(os.path.join(build, m)) for m in members):
        sys.exit("string_sweep: %s is not a thin archive of the build's objects" % archive)
    members = [obj if m.endswith(os.path.basename(output)) else m for m in members]
    binary = os.path.join(cell_dir, "blockbloom_bench")
    out = []
    for a in link:
        if a == BENCH:
            out.append(binary)
        elif a == archive:
            out.extend(members)
        elif a not in ("-Wl,--whole-archive", "-Wl,--no-whole-archive"):
            out.append(a)
    subprocess.run(out, cwd=build, check=True)
    return binary


def run_cell(binary, cpu, min_time):
    """{benchmark: median of 3 repetitions} of one run of a cell."""
    out = subprocess.run(["taskset", "-c", str(cpu), binary, "--benchmark_filter=" + FILTER,
                          "--benchmark_min_time=%g" % min_time, "--benchmark_repetitions=3",
                          "--benchmark_display_aggregates_only=true", "--benchmark_format=json"],
                         capture_output=True, text=True, check=True).stdout
    values = {}
    for entry in json.loads(out)["benchmarks"]:
        if entry.get("aggregate_name") == "median":
            value = entry.get("ns_per_row", entry.get("ns_per_key"))
            values[entry["run_name"]] = float(value)
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-dir", default="build")
    parser.add_argument("--groups", default="1,2,3,4")
    parser.add_argument("--prefetch", default="0,1024,4096")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cpu", type=int, default=1)
    parser.add_argument("--min-time", type=float, default=0.05)
    args = parser.parse_args()
    build = os.path.abspath(args.build_dir)
    cells = [(int(g), int(p)) for g in args.groups.split(",") for p in args.prefetch.split(",")]
    binaries = {}
    for g, p in cells:
        binaries[(g, p)] = build_cell(build, g, p, os.path.join(build, "string_sweep", "g%d_p%d" % (g, p)))
        print("built groups %d, prefetch %d" % (g, p), file=sys.stderr)
    results = collections.defaultdict(list)
    for r in range(args.rounds):
        order = list(cells)
        random.shuffle(order)
        for cell in order:
            for name, value in run_cell(binaries[cell], args.cpu, args.min_time).items():
                results[(cell, name)].append(value)
        print("round %d of %d" % (r + 1, args.rounds), file=sys.stderr)
    names = sorted({name for _, name in results})
    short = [re.sub(r"/avx512|/1024$|/16384$", "", n) for n in names]
    print("| groups | prefetch | instructions / string (no 32-byte string) | " + " | ".join(short) + " |")
    print("|---:|---:|---:|" + "---:|" * len(names))
    for cell in cells:
        table = loop_instructions.symbols(binaries[cell])
        rows = {r["tier"]: r for r in loop_instructions.string_rows(binaries[cell], table)}
        avx512 = rows.get("avx512")
        count = "%.2f (%.2f)" % (avx512["instructions_per_string"], avx512["common_path_per_string"]) \
            if avx512 else "-"
        print("| %d | %d | %s | " % (cell[0], cell[1], count) +
              " | ".join("%.2f" % statistics.median(results[(cell, n)]) if results[(cell, n)] else "-"
                         for n in names) + " |")


if __name__ == "__main__":
    main()
