#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The compiler refuses a tier registry that cannot be dispatched.

usage: isa_registry_compile_check.py SOURCE_ROOT COMPILER...

src/core/isa.h checks its rows at compile time (docs/architecture.md, "How to
add an ISA tier"). This compiles it with one extra row each (through
BLOCKBLOOM_EXTRA_ISA_TIERS, as the test build's dummy tier is added): a
well-formed row must compile, and a row that repeats a name, includes tiers
in a cycle or needs a feature the list lacks must not, each with the message
that says why.

Exit status: 0 as expected, 1 a bad row compiled or a good one did not, 2 usage.
"""
import os
import subprocess
import sys
import tempfile

GOOD = 'T(kExtra, "extra", 0, kScalar, 0)'
# (extra rows, what the compiler must say)
BAD = [
    ('T(kExtra, "scalar", 0, kScalar, 0)', "two tiers share a name"),
    ('T(kExtra, "extra", 0, kOther, 0) T(kOther, "other", 0, kExtra, 0)', "constexpr"),
    ('T(kExtra, "extra", 0, kScalar, need::no_such_feature)', "no_such_feature"),
]


def compile_with(compiler, root, source, rows):
    define = "-DBLOCKBLOOM_EXTRA_ISA_TIERS(T)=" + rows
    return subprocess.run(compiler + ["-std=c++17", "-fsyntax-only", "-I", root, define, source],
                          capture_output=True, text=True)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    root, compiler = sys.argv[1], sys.argv[2:]
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "registry.cc")
        with open(source, "w", encoding="utf-8") as f:
            f.write('#include "src/core/isa.h"\n')
        good = compile_with(compiler, root, source, GOOD)
        if good.returncode != 0:
            print(f"FAIL: a well-formed row did not compile:\n{good.stderr[-2000:]}")
            failed = True
        for rows, message in BAD:
            bad = compile_with(compiler, root, source, rows)
            if bad.returncode == 0 or message not in bad.stderr:
                print(f"FAIL: {rows}: compiled, or without \"{message}\" (exit {bad.returncode})")
                failed = True
            else:
                print(f"OK: refused {rows} ({message})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
