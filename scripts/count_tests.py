#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Counts the results in Meson's testlog.json.

Run as a script it prints "N passed, N failed[, N skipped]", the closing line
of scripts/test (Meson's own "Ok: N / Fail: N" is not a count CI reads), and
exits 1 if any test failed or none passed. --add P,F,S adds counts from
elsewhere (the test matrix rows) to the line.
"""
import argparse
import json
import sys


def count(path):
    """(passed, failed, skipped) in one testlog; an unreadable log is one failure."""
    passed = failed = skipped = 0
    try:
        with open(path, encoding="utf-8") as log:
            for line in log:
                if not line.strip():
                    continue
                result = json.loads(line).get("result")
                if result in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                elif result == "SKIP":
                    skipped += 1
                else:  # FAIL, TIMEOUT, ERROR, UNEXPECTEDPASS, INTERRUPT
                    failed += 1
    except (OSError, ValueError) as error:
        print(f"count_tests: cannot read {path}: {error}", file=sys.stderr)
        failed += 1
    return passed, failed, skipped


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("testlog")
    parser.add_argument("--add", default="0,0,0", help="passed,failed,skipped to add")
    args = parser.parse_args()
    passed, failed, skipped = count(args.testlog)
    try:
        extra = [int(x) for x in args.add.split(",")]
        passed, failed, skipped = passed + extra[0], failed + extra[1], skipped + extra[2]
    except (ValueError, IndexError):
        print(f"count_tests: bad --add {args.add!r}", file=sys.stderr)
        failed += 1
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    print(line)
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
