#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""In a -Dtest_dummy_tier=true build, every per-ISA test runs the dummy tier.

usage: dummy_tier_check.py TEST_PROGRAM...

The dummy tier is one more row of the registry (src/core/isa.h; the test
build's meson.build adds it): the scalar kernels under the name "dummy". Each TEST_PROGRAM (a gtest binary whose suites are
instantiated over the registry) must list instances named .../dummy, and
they must end as its .../scalar instances do (the same kernels): the same
number passed, at least one, and the same number skipped (a skip for both,
e.g. without ../shared test data, is the environment's). Proof that a tier
added to the registry is tested with no other edit (docs/architecture.md,
"How to add an ISA tier").

Exit status: 0 every program ran its dummy instances, 1 one did not, 2 usage.
"""
import re
import subprocess
import sys


def Outcome(program, tier):
    """(exit status, tests passed, tests skipped) of the program's instances for tier."""
    run = subprocess.run([program, "--gtest_filter=*/" + tier], capture_output=True, text=True)
    passed = re.search(r"\[  PASSED  \] (\d+) test", run.stdout)
    skipped = re.search(r"\[  SKIPPED \] (\d+) test", run.stdout)
    return (run.returncode, int(passed.group(1)) if passed else 0,
            int(skipped.group(1)) if skipped else 0)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    failed = False
    for program in sys.argv[1:]:
        listed = subprocess.run([program, "--gtest_list_tests"], capture_output=True, text=True)
        # Instances are listed as "  TestName/dummy  # GetParam() = ...".
        dummy = [l.split()[0] for l in listed.stdout.splitlines()
                 if l.startswith("  ") and l.split()[0].endswith("/dummy")]
        if listed.returncode != 0 or not dummy:
            print(f"FAIL: {program} lists no dummy instance (exit {listed.returncode})")
            failed = True
            continue
        # The dummy tier is the scalar kernels: its instances must end as
        # scalar's do (a test skipped for both, e.g. without ../shared test
        # data, is the environment's, not the tier's).
        dummy_run, scalar_run = (Outcome(program, tier) for tier in ("dummy", "scalar"))
        if dummy_run[0] != 0 or dummy_run[1] == 0 or dummy_run[1:] != scalar_run[1:]:
            print(f"FAIL: {program}: dummy (exit, passed, skipped) {dummy_run} "
                  f"differs from scalar's {scalar_run}")
            failed = True
            continue
        print(f"OK: {program}: {dummy_run[1]} dummy-tier tests passed, {dummy_run[2]} skipped "
              f"as for scalar ({len(dummy)} listed)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
