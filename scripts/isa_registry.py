#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the ISA registry of src/core/isa.h: the tier names, best first, one a line.

usage: isa_registry.py [--namespaces] [ISA_H]

For the places that need the tiers before (or without) a built library:
Meson's configure step (the `--setup isa<name>` test setups) and the scripts
that read benchmark results or disassembly from another machine. Everything
that can run the library asks it instead (bb_isa_name,
blockbloom.isa_names(), `blockbloom info --json`'s "isas").

The registry is the rows of BLOCKBLOOM_ISA_TIERS, one a line:
  T(enumerator, "name", Highway target, includes, features)
Rows a test build adds (BLOCKBLOOM_EXTRA_ISA_TIERS) are not tiers of an
ordinary build and are left out. With --namespaces each line is also the C++
namespace that holds the tier's kernels (N_<target> of Highway's
HWY_<target>, or the portable kernels' for target 0). Exits 1 with a message
when the table is missing or a row does not read, so a changed isa.h cannot
silently yield a short list.
"""
import os
import re
import sys

DEFAULT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "src", "core", "isa.h")
TABLE = re.compile(r"#define BLOCKBLOOM_ISA_TIERS\(T\)((?:[^\n]*\\\n)*[^\n]*)")
ROW = re.compile(r'^\s*T\((k\w+), "([a-z0-9_]+)", (HWY_([A-Z0-9_]+)|0), (k\w+), ')
PORTABLE_NAMESPACE = "scalar::(anonymous namespace)"


def tiers(path=DEFAULT):
    """(name, kernel namespace) of each tier of path (a src/core/isa.h), best first."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    table = TABLE.search(text)
    if table is None:
        raise ValueError(f"{path}: no #define BLOCKBLOOM_ISA_TIERS(T)")
    rows = []
    for line in table.group(1).split("\\\n")[1:]:
        line = line.strip()
        if not line or line.startswith("BLOCKBLOOM_EXTRA_ISA_TIERS("):
            continue
        row = ROW.match(line)
        if row is None:
            raise ValueError(f"{path}: a row of BLOCKBLOOM_ISA_TIERS does not read: {line}")
        rows.append((row.group(2), "N_" + row.group(4) if row.group(4) else PORTABLE_NAMESPACE))
    if not rows or rows[-1][0] != "scalar":
        raise ValueError(f"{path}: BLOCKBLOOM_ISA_TIERS has no rows, or scalar is not the last")
    return rows


def registry(path=DEFAULT):
    """The tier names of path (a src/core/isa.h), best first."""
    return [name for name, _ in tiers(path)]


def main():
    args = sys.argv[1:]
    namespaces = "--namespaces" in args
    args = [a for a in args if a != "--namespaces"]
    if len(args) > 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        rows = tiers(args[0] if args else DEFAULT)
    except (OSError, ValueError) as e:
        print(f"isa_registry: {e}", file=sys.stderr)
        return 1
    print("\n".join(f"{name} {ns}" if namespaces else name for name, ns in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
