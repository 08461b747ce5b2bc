# SPDX-License-Identifier: Apache-2.0
"""The command line shared by the tools' end-to-end test scripts
(tests/cli/*_cli_test.py, tests/aligncheck/aligncheck_test.py):

    python3 SCRIPT TOOL [TestClass ...]

Runs the named unittest classes (all by default) against the tool binary,
which it stores in the script's module-level TOOL. Exit status: 0 passed,
1 failed or nothing ran, 2 bad arguments, 77 (Meson's "skipped") when every
test that ran was skipped, with the reasons on stderr.
"""
import os
import sys
import unittest


def run_unittests(module, argv):
    if len(argv) < 2:
        print(module.__doc__, file=sys.stderr)
        return 2
    tool = os.path.abspath(argv[1])
    if not os.access(tool, os.X_OK):
        print("not an executable: %s" % tool, file=sys.stderr)
        return 2
    module.TOOL = tool
    loader = unittest.TestLoader()
    names = argv[2:]
    suite = (loader.loadTestsFromNames(names, module) if names
             else loader.loadTestsFromModule(module))
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if not result.wasSuccessful():
        return 1
    if result.testsRun == 0:
        print("no tests ran", file=sys.stderr)
        return 1
    if len(result.skipped) == result.testsRun:
        for _, reason in result.skipped:
            print("SKIPPED: %s" % reason, file=sys.stderr)
        return 77
    return 0
