#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""No list of ISA tiers is written outside the registry (src/core/isa.h).

usage: isa_list_check.py SOURCE_ROOT

Every list of tiers in tests/, bench/, scripts/, python/ and tools/ must be
derived from the registry (bb_isa_count/bb_isa_name, blockbloom.isa_names(),
`blockbloom info --json`'s "isas", scripts/isa_registry.py), so that adding a
tier to src/core/isa.h is all it takes for the per-ISA tests to run it. A list
is three or more distinct tier names within three consecutive lines (a list
literal, however it is wrapped); one or two names are a test about those
tiers and pass. The files in ALLOWED are about particular tiers' instructions
or CPUs, each with the reason. Before scanning, it proves that it would find a
list (one-line and wrapped) and would pass a single mention.

The files read are the tree's source as git sees it (tests/structure/source_files.py):
nothing git ignores, such as scripts/run's bench/results/*.json.

Exit status: 0 no list outside the registry, 1 a list found (file:line
printed) or the self-check failed, 2 bad usage.
"""
import os
import re
import sys

from source_files import how_listed, source_files

ROOTS = ("tests", "bench", "scripts", "python", "tools")
WINDOW = 3  # lines
MIN_NAMES = 3

# Files that name several tiers because they are about those tiers, not a
# list of all of them; relative to the source root.
ALLOWED = {
    # The instruction sets each x86 tier may use (ELF notes N_SSE4, N_AVX2).
    "tests/structure/tier_instructions_check.py": "each tier's allowed instructions",
    # The instructions each tier's hot loop should contain (N_AVX3 ... N_NEON).
    "scripts/loop_instructions.py": "each tier's expected loop instructions",
}


def registry_names(source_root):
    sys.path.insert(0, os.path.join(source_root, "scripts"))
    import isa_registry  # noqa: E402
    return isa_registry.registry(os.path.join(source_root, "src", "core", "isa.h"))


def lists_in(text, names):
    """Line numbers (1-based) where a window of WINDOW lines names MIN_NAMES tiers."""
    word = re.compile(r"(?<![A-Za-z0-9_])(%s)(?![A-Za-z0-9_])" % "|".join(map(re.escape, names)))
    per_line = [set(word.findall(line)) for line in text.split("\n")]
    hits = []
    for i in range(len(per_line)):
        if per_line[i] and len(set().union(*per_line[i:i + WINDOW])) >= MIN_NAMES:
            if not hits or hits[-1] < i + 1 - WINDOW:  # one report per list
                hits.append(i + 1)
    return hits


def self_check(names):
    a, b, c = names[0], names[1], names[-1]
    one_line = 'const char* kIsas[] = {"%s", "%s", "%s"};\n' % (a, b, c)
    wrapped = 'COLORS = {"%s": 1, "%s": 2,\n          "%s": 3}\n' % (a, b, c)
    single = 'EXPECT_EQ(bb_select_isa("%s"), BB_OK);\nassert x != "%s"\n' % (a, b)
    return lists_in(one_line, names) == [1] and lists_in(wrapped, names) == [1] and \
        lists_in(single, names) == []


def main():
    if len(sys.argv) != 2 or not os.path.isdir(os.path.join(sys.argv[1], "src")):
        print(__doc__, file=sys.stderr)
        return 2
    root = sys.argv[1]
    names = registry_names(root)
    if len(names) < MIN_NAMES or not self_check(names):
        print("FAIL: the self-check did not find a planted list (or flagged a single mention)")
        return 1
    found = []
    # Source only: not what a command wrote into the tree (scripts/run's
    # bench/results/*.json names every tier; tests/structure/source_files.py).
    for rel in source_files(root, ROOTS):
        if rel in ALLOWED:
            continue
        try:
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue  # binary test data
        found += ["%s:%d" % (rel, line) for line in lists_in(text, names)]
    for missing in sorted(set(ALLOWED) - {p for p in ALLOWED if os.path.exists(os.path.join(root, p))}):
        found.append("%s: in the allow-list but gone; remove it from ALLOWED" % missing)
    if found:
        print("FAIL: ISA lists outside src/core/isa.h (derive them from the registry, "
              "see docs/architecture.md, \"Adding a tier\"):")
        print("\n".join("  " + f for f in found))
        return 1
    print("OK: no list of the %d tiers (%s) outside the registry in %s" % (len(names), ", ".join(names),
                                                                         how_listed(root)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
