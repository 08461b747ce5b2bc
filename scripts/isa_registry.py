#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Prints the ISA registry of kernels/isa.h: the tier names, best first, one a line.

usage: isa_registry.py [ISA_H]

For the places that need the names before (or without) a built library:
Meson's configure step (the `--setup isa<name>` test setups) and the scripts
that read benchmark results from another machine. Everything that can run
the library asks it instead (bb_isa_name, blockbloom.isa_names(),
`blockbloom info --json`'s "isas"). Parses kIsasBestFirst and IsaName's
switch; exits 1 with a message if either is missing or they disagree, so a
changed isa.h cannot silently yield a short list.
"""
import os
import re
import sys

DEFAULT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       "kernels", "isa.h")


def registry(path=DEFAULT):
    """The tier names of path (a kernels/isa.h), best first."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    order = re.search(r"kIsasBestFirst\[\]\s*=\s*\{([^}]*)\}", text)
    if order is None:
        raise ValueError(f"{path}: no kIsasBestFirst[] = {{...}}")
    # Entries under #ifdef (the test build's dummy tier) are left out: they
    # are not tiers of an ordinary build.
    body = re.sub(r"#if.*?#endif", "", order.group(1), flags=re.S)
    enumerators = re.findall(r"Isa::(k\w+)", body)
    names = dict(re.findall(r'case\s+Isa::(k\w+)\s*:\s*return\s+"([^"]+)"', text))
    missing = [e for e in enumerators if e not in names]
    if not enumerators or missing:
        raise ValueError(f"{path}: no IsaName case for {missing or 'any tier'}")
    return [names[e] for e in enumerators]


def main():
    if len(sys.argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        names = registry(sys.argv[1] if len(sys.argv) == 2 else DEFAULT)
    except (OSError, ValueError) as e:
        print(f"isa_registry: {e}", file=sys.stderr)
        return 1
    print("\n".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
