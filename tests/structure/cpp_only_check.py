#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A C++ program of the C++ API alone names nothing of the C API.

usage: cpp_only_check.py SOURCE...

Fails if a SOURCE holds a token that starts with bb_ or BB_ (a C function,
type or macro of the library: comments and strings count too, so none can
hide), or includes a blockbloom header that is not a .hpp. Each source must
use the C++ API (name blockbloom::), so an empty file does not pass. The
pattern is first checked against lines it must catch and lines it must not,
so that a broken pattern cannot pass everything. Exit status: 0 ok, 1 a
failure, 2 bad usage.
"""
import re
import sys

C_TOKEN = re.compile(r"\b(?:bb|BB)_\w*")
C_HEADER = re.compile(r'#\s*include\s*[<"]blockbloom/[^">]*\.h[">]')

MUST_CATCH = ["bb_insert(&f, h);", "if (s == BB_OK)", "(bb_filter*)p", "x=BB_ERR_READ_ONLY;",
              '#include <blockbloom/kudu.h>']
MUST_PASS = ["blockbloom::Filter f(64);", "kudu_bb_x", "#include <blockbloom/kudu.hpp>",
             "abb_c"]


def offences(line):
    return C_TOKEN.findall(line) + C_HEADER.findall(line)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    failures = []
    for line in MUST_CATCH:
        if not offences(line):
            failures.append("the check misses %r" % line)
    for line in MUST_PASS:
        if offences(line):
            failures.append("the check wrongly refuses %r" % line)
    for path in argv[1:]:
        text = open(path, encoding="utf-8").read()
        if "blockbloom::" not in text:
            failures.append("%s does not use the C++ API (no blockbloom::)" % path)
        for number, line in enumerate(text.splitlines(), 1):
            for token in offences(line):
                failures.append("%s:%d: %s (a C name in a C++-only program)"
                                % (path, number, token))
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    print("%d source(s) checked, %d failure(s)" % (len(argv) - 1, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
