#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The scripts' view of the tier registry is the library's.

usage: isa_registry_check.py SOURCE_ROOT SHARED_LIBRARY

scripts/isa_registry.py reads src/core/isa.h's rows for what runs before or
without a library (Meson's test setups, the benchmark tables,
scripts/loop_instructions.py's namespaces). This holds it to the built
library: the same names in the same order as bb_isa_name; every tier the
library compiled (bb_compiled_isas) has code in the namespace the view gives
it, and no tier it did not compile has any (so the loop-instruction script
disassembles each tier's own kernels). First it proves that the view follows
the rows (two rows swapped in a copy of isa.h come out swapped) and refuses
a row it cannot read.

Exit status: 0 the view is the library's, 1 it is not, 2 bad usage.
"""
import ctypes
import os
import subprocess
import sys
import tempfile


def self_check(isa_registry, isa_h):
    with open(isa_h, encoding="utf-8") as f:
        text = f.read()
    rows = text.split("\\\n")
    first = next(i for i, r in enumerate(rows) if r.strip().startswith("T(k"))
    swapped = rows[:first] + [rows[first + 1], rows[first]] + rows[first + 2:]
    broken = rows[:first] + ["  T(kBroken)"] + rows[first:]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "isa.h")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\\\n".join(swapped))
        want = isa_registry.registry(isa_h)
        want[0], want[1] = want[1], want[0]
        if isa_registry.registry(path) != want:
            return "two rows swapped in a copy of isa.h did not come out swapped"
        with open(path, "w", encoding="utf-8") as f:
            f.write("\\\n".join(broken))
        try:
            isa_registry.tiers(path)
            return "a row that does not read was accepted"
        except ValueError:
            return None


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    root, library = sys.argv[1:]
    sys.path.insert(0, os.path.join(root, "scripts"))
    import isa_registry  # noqa: E402
    isa_h = os.path.join(root, "src", "core", "isa.h")
    problem = self_check(isa_registry, isa_h)
    if problem:
        print("FAIL: self-check: " + problem)
        return 1
    view = isa_registry.tiers(isa_h)

    lib = ctypes.CDLL(os.path.abspath(library))
    lib.bb_isa_count.restype = ctypes.c_size_t
    lib.bb_isa_name.restype = ctypes.c_char_p
    lib.bb_isa_name.argtypes = [ctypes.c_size_t]
    lib.bb_compiled_isas.restype = ctypes.c_char_p
    names = [lib.bb_isa_name(i).decode() for i in range(lib.bb_isa_count())]
    compiled = lib.bb_compiled_isas().decode().split(",")
    failed = []
    if [name for name, _ in view] != names:
        failed.append("the view's tiers %s are not the library's %s" % ([n for n, _ in view], names))

    symbols = subprocess.run(["nm", "-C", "--defined-only", library], capture_output=True,
                             text=True, check=True).stdout
    for name, namespace in view:
        has_code = ("blockbloom::internal::%s::" % namespace) in symbols
        if has_code != (name in compiled):
            failed.append("%s: compiled %s, but code in %s: %s" % (name, name in compiled, namespace,
                                                                    has_code))
    if failed:
        print("FAIL: scripts/isa_registry.py's view is not the library's:")
        print("\n".join("  " + f for f in failed))
        return 1
    print("OK: %d tiers as the library lists them; compiled %s, each with code in its namespace (%s)"
          % (len(view), ",".join(compiled), ", ".join(ns for n, ns in view if n in compiled)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
