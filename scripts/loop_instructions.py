#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Instructions per key in the hot loops of each tier's batch kernels.

Reads `objdump -d` of the library, finds each tier's instantiation of a batch
loop (src/kernels/batch_loops-inl.h: ForEachChunkOf<Layout, hint, ...> of the op's
lambda), takes its innermost loop with the most salt multiplies (one vpmulld
a key on avx2/avx512, two pmulld on sse42/neon, eight multiplies by a salt
constant on scalar) and prints instructions per key. These are the numbers
docs/benchmarks.md records.

  scripts/loop_instructions.py build-release/libblockbloom.so.0 [--json]

With --strings: the byte-array hash kernels instead (parquet_hash_byte_array32
of avx512 and avx2, src/kernels/simd/string_hash_kernels-inl.h): the loop with the
most 64-bit multiplies, its strings (vector stores of hashes x lanes) and its
instructions per string, all of them and on the path taken when no string is
exactly 32 bytes (the forward branches that skip multiplies not taken).
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import isa_registry  # noqa: E402  (each tier and the namespace of its kernels)

# op name in the table -> the template in the symbol
OPS = [("find_batch_bitmap", "FindBatchBitmap"), ("find_batch_select", "FindBatchSelect"),
       ("insert_batch", "InsertBatch")]
# The loops the defaults run (src/kernels/prefetch.h: l1 from 1 MiB, l2 from 4 MiB).
HINTS = [(0, "no prefetch (< 1 MiB)"), (1, "prefetch l1 (1-4 MiB)"), (2, "prefetch l2 (>= 4 MiB)")]
SALTS = {0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947,
         0x5c6bfb31}
LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
BRANCH = re.compile(r"^j[a-z]+$")


def symbols(lib):
    out = subprocess.run(["nm", "-C", "--defined-only", lib], capture_output=True, text=True,
                         check=True).stdout
    table = []
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "tTwW":
            table.append((int(parts[0], 16), parts[2]))
    table.sort()
    return table


def find_symbol(table, namespace, template, hint):
    """The code of one op's loops for one hint: the ForEachChunkOf instantiation
    if the compiler kept it out of line, else (no prefetch only) the op itself,
    into which it was inlined."""
    layout = "blockbloom::internal::ParquetLayout"
    chunk = "void blockbloom::internal::%s::ForEachChunkOf<%s, %d," % (namespace, layout, hint)
    op = "blockbloom::internal::%s::%s<%s>(" % (namespace, template, layout)
    spans = []
    for i, (addr, name) in enumerate(table):
        end = table[i + 1][0] if i + 1 < len(table) else addr + 0x4000
        if name.startswith(chunk) and "::%s<%s>" % (template, layout) in name:
            return addr, end
        if hint == 0 and op in name and name.split(op)[0].split()[-1:] != [] and "ForEachChunk" not in name:
            spans.append((addr, end))
    return spans[0] if spans else None


def disassemble(lib, start, end):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "--start-address=%#x" % start,
                          "--stop-address=%#x" % end, lib], capture_output=True, text=True,
                         check=True).stdout
    insns = []
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
    return insns


def key_multiplies(mnemonic, operands, tier):
    if tier in ("avx512", "avx2"):
        return 1.0 if mnemonic == "vpmulld" else 0.0
    if tier in ("sse42", "neon"):
        return 0.5 if mnemonic in ("pmulld", "mul") else 0.0
    if mnemonic.startswith("imul"):
        m = re.match(r"\$0x([0-9a-f]+)", operands)
        if m and int(m.group(1), 16) in SALTS:
            return 1.0 / 8
    return 0.0


def back_edges(insns):
    """(first, last) instruction indices of every backward branch's loop."""
    index = {addr: i for i, (addr, _, _) in enumerate(insns)}
    loops = []
    for i, (addr, mnemonic, operands) in enumerate(insns):
        m = re.match(r"([0-9a-f]+)", operands)
        if BRANCH.match(mnemonic) and m:
            target = int(m.group(1), 16)
            if target <= addr and target in index:
                loops.append((index[target], i))
    return loops


def hot_loop(insns, tier, want_prefetch):
    """(instructions, keys) of the innermost loop (no other loop's back edge
    inside it) with the most keys."""
    loops = back_edges(insns)
    best = None
    for first, last in loops:
        if any(first <= f and l < last and (f, l) != (first, last) for f, l in loops):
            continue
        body = insns[first:last + 1]
        keys = sum(key_multiplies(mn, ops, tier) for _, mn, ops in body)
        if keys <= 0:
            continue
        # In a prefetching instantiation, the loop that prefetches (the one
        # after it handles the chunk's last keys, with nothing left to fetch).
        prefetches = sum(1 for _, mn, _ in body if mn.startswith("prefetch"))
        candidate = (prefetches > 0 if want_prefetch else True, keys, -len(body), len(body))
        if best is None or candidate > best:
            best = candidate
    if best is None:
        return None
    return best[3], best[1]


STRING_TIERS = [("avx512", "N_AVX3", 8, "vpmullq", "%zmm"), ("avx2", "N_AVX2", 4, "vpmuludq", "%ymm")]


def skipped_blocks(body, multiply):
    """Indices of body's instructions that a forward branch inside the body
    jumps over, where the skipped range holds a multiply (the rare blocks)."""
    index = {addr: i for i, (addr, _, _) in enumerate(body)}
    skipped = set()
    for i, (addr, mnemonic, operands) in enumerate(body):
        m = re.match(r"([0-9a-f]+)", operands)
        if not (BRANCH.match(mnemonic) and m):
            continue
        target = int(m.group(1), 16)
        if target > addr and target in index:
            block = range(i + 1, index[target])
            if any(body[k][1] == multiply for k in block):
                skipped.update(block)
    return skipped


def string_rows(lib, table):
    rows = []
    for tier, namespace, lanes, multiply, register in STRING_TIERS:
        name = "blockbloom::internal::%s::ParquetHashByteArray32(" % namespace
        span = None
        for i, (addr, sym) in enumerate(table):
            if sym.startswith(name):
                span = (addr, table[i + 1][0] if i + 1 < len(table) else addr + 0x4000)
        if span is None:
            continue
        insns = disassemble(lib, *span)
        # The loops that store the most hashes: the largest holds every
        # path, the smallest (less its forward-skipped blocks) the common one.
        loops = []
        for first, last in back_edges(insns):
            body = insns[first:last + 1]
            if not any(mn == multiply for _, mn, _ in body):
                continue
            stores = sum(1 for _, mn, ops in body
                         if mn.startswith("vmovdqu") and ops.startswith(register) and ops.endswith(")"))
            loops.append((stores, body))
        if not loops or max(st for st, _ in loops) == 0:
            continue
        stores = max(st for st, _ in loops)
        bodies = [body for st, body in loops if st == stores]
        body = max(bodies, key=len)
        smallest = min(bodies, key=len)
        strings = stores * lanes
        common = len(smallest) - len(skipped_blocks(smallest, multiply))
        rows.append({"tier": tier, "loop_instructions": len(body), "strings_per_loop": strings,
                     "instructions_per_string": round(len(body) / strings, 2),
                     "common_path_per_string": round(common / strings, 2)})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--strings", action="store_true")
    args = parser.parse_args()
    table = symbols(args.library)
    if args.strings:
        rows = string_rows(args.library, table)
        if not rows:
            print("loop_instructions: no byte-array hash loop found in %s" % args.library,
                  file=sys.stderr)
            return 1
        if args.json:
            print(json.dumps(rows, indent=2))
            return 0
        print("| tier | instructions / strings | per string | per string, no 32-byte string |")
        print("|:---|---:|---:|---:|")
        for r in rows:
            print("| %s | %d / %d | %.2f | %.2f |" % (r["tier"], r["loop_instructions"],
                                                    r["strings_per_loop"], r["instructions_per_string"],
                                                    r["common_path_per_string"]))
        return 0
    rows = []
    for tier, namespace in isa_registry.tiers():
        for op, template in OPS:
            for hint, hint_name in HINTS:
                span = find_symbol(table, namespace, template, hint)
                if span is None:
                    continue
                loop = hot_loop(disassemble(args.library, *span), tier, hint != 0)
                if loop is None:
                    continue
                instructions, keys = loop
                rows.append({"tier": tier, "op": op, "prefetch": hint_name,
                             "loop_instructions": instructions, "keys_per_loop": keys,
                             "instructions_per_key": round(instructions / keys, 2)})
    if not rows:
        print("loop_instructions: no batch loop found in %s" % args.library, file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print("| tier | op | loop | instructions / keys | per key |")
    print("|:---|:---|:---|---:|---:|")
    for r in rows:
        print("| %s | %s | %s | %d / %g | %.2f |" % (r["tier"], r["op"], r["prefetch"],
                                                 r["loop_instructions"], r["keys_per_loop"],
                                                 r["instructions_per_key"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
