#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs the Python package's pytest suite for `meson test` (test `python`).

usage: run_pytest.py PYTHON TESTS_DIR [pytest args...]

PYTHON is the interpreter the extension was built for (it has numpy and
pytest); the package is imported from $BLOCKBLOOM_PYTHONPATH (the build's
python/ folder). Exit status: pytest's, or 77 (meson's "skipped") in the
emulated-CPU and forced-ISA rows of the test matrix: there the interpreter
would run natively anyway, and the suite loops over every tier itself.
"""
import os
import sys


def main():
    python, tests_dir = sys.argv[1], sys.argv[2]
    for variable in ("BLOCKBLOOM_TEST_WRAPPER", "BLOCKBLOOM_ISA"):
        if os.environ.get(variable):
            print("SKIPPED: %s is set (an emulated or forced-ISA row); the pytest suite "
                  "runs once, natively, and selects every tier itself" % variable)
            return 77
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (env["BLOCKBLOOM_PYTHONPATH"], env.get("PYTHONPATH")) if p)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # nothing written into the source tree
    command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", tests_dir] + sys.argv[3:]
    sys.stdout.flush()
    os.execve(python, command, env)


if __name__ == "__main__":
    sys.exit(main())
