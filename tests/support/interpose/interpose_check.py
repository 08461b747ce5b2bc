#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An application's own GetX86Info does not change what libblockbloom.so detects.

usage: interpose_check.py OWN_GET_X86_INFO_PROGRAM BLOCKBLOOM_TOOL

Runs tests/support/interpose/own_get_x86_info.cc's program (linked against the shared
library, defining a GetX86Info that reports no features) and `blockbloom info
--json` (which does not define one), both under $BLOCKBLOOM_TEST_WRAPPER when
set (the emulated-CPU matrix), and checks that the library selected the same
ISA and found the same supported ISAs in both, and that the application's
GetX86Info was never called. Exit status: 0 ok, 1 a failure, 2 bad usage.
"""
import json
import os
import shlex
import subprocess
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    program, tool = argv[1], argv[2]
    wrapper = shlex.split(os.environ.get("BLOCKBLOOM_TEST_WRAPPER", ""))
    app = subprocess.run(wrapper + [program], capture_output=True, text=True, timeout=120)
    if app.returncode != 0:
        print("FAIL: %s exited %d: %s" % (program, app.returncode, app.stderr), file=sys.stderr)
        return 1
    seen = dict(line.split(" ", 1) for line in app.stdout.splitlines() if " " in line)
    info = subprocess.run(wrapper + [tool, "info", "--json"], capture_output=True, text=True,
                          timeout=120)
    if info.returncode != 0:
        print("FAIL: blockbloom info --json exited %d: %s" % (info.returncode, info.stderr),
              file=sys.stderr)
        return 1
    expected = json.loads(info.stdout)
    failures = []
    if seen.get("calls") != "0":
        failures.append("the application's GetX86Info was called %s time(s): it interposed "
                        "on the library's detection" % seen.get("calls"))
    if seen.get("selected") != expected["selected_isa"]:
        failures.append("selected ISA %r with the application's GetX86Info, %r in blockbloom info"
                        % (seen.get("selected"), expected["selected_isa"]))
    if seen.get("supported") != ",".join(expected["supported_isas"]):
        failures.append("supported ISAs %r, blockbloom info says %r"
                        % (seen.get("supported"), ",".join(expected["supported_isas"])))
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    if not failures:
        print("selected %s, supported %s, own GetX86Info not called"
              % (seen["selected"], seen["supported"]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
