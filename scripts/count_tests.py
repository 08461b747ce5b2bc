#!/usr/bin/env python3
"""Prints "N passed, N failed[, N skipped]" from Meson's testlog.json.

Meson's own summary ("Ok: N / Fail: N") is not a count CI reads, so this is
the closing line of scripts/test. Exits 1 if any test failed or none ran.
"""
import json
import sys


def main(path):
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
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    print(line)
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
