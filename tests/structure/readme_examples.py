#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The README's C and C++ examples compile and run exactly as printed.

usage: readme_examples.py [--kinds c,cpp] README CC CXX INCLUDE_DIR GENERATED_INCLUDE_DIR LIBRARY

Extracts every fenced ```c and ```cpp block of README, compiles the C ones
with CC -std=c99 -Wall -Wextra -pedantic -Werror and the C++ ones with
CXX -std=c++17 -Wall -Wextra -pedantic -Werror against the headers of this
tree (INCLUDE_DIR, and GENERATED_INCLUDE_DIR for blockbloom/version.h) and
the built shared LIBRARY, runs each program, and checks that it exits 0 and
prints something. A README without every kind of block --kinds names
(default: both) fails: the examples cannot silently disappear. Also used
for docs/embedding.md (--kinds cpp). Exit status: 0 ok, 1 a failure, 2 bad
usage.
"""
import os
import re
import subprocess
import sys
import tempfile

FLAGS = {"c": ["-std=c99"], "cpp": ["-std=c++17"]}
WARNINGS = ["-Wall", "-Wextra", "-pedantic", "-Werror"]


def fenced_blocks(text):
    return re.findall(r"^```(c|cpp)\n(.*?)^```", text, flags=re.M | re.S)


def main(argv):
    required = ["c", "cpp"]
    if len(argv) > 2 and argv[1] == "--kinds":
        required = argv[2].split(",")
        argv = argv[:1] + argv[3:]
    if len(argv) != 7 or not set(required) <= set(FLAGS):
        print(__doc__, file=sys.stderr)
        return 2
    readme, cc, cxx, include_dir, generated_dir, library = argv[1:]
    document = os.path.basename(readme)
    blocks = fenced_blocks(open(readme, encoding="utf-8").read())
    failures = []
    kinds = {kind for kind, _ in blocks}
    for kind in required:
        if kind not in kinds:
            failures.append("%s has no ```%s example" % (document, kind))
    library = os.path.abspath(library)
    with tempfile.TemporaryDirectory() as work:
        for number, (kind, source) in enumerate(blocks, 1):
            name = "example%d.%s" % (number, "c" if kind == "c" else "cc")
            path = os.path.join(work, name)
            with open(path, "w", encoding="utf-8") as out:
                out.write(source)
            program = os.path.join(work, "example%d" % number)
            compiler = cc if kind == "c" else cxx
            command = [compiler, *FLAGS[kind], *WARNINGS, "-I", include_dir, "-I", generated_dir,
                       path, "-o", program, library,
                       "-Wl,-rpath," + os.path.dirname(library)]
            built = subprocess.run(command, capture_output=True, text=True)
            if built.returncode != 0:
                failures.append("%s %s example %d does not compile:\n%s%s"
                                % (document, kind, number, built.stdout, built.stderr))
                continue
            ran = subprocess.run([program], capture_output=True, text=True, timeout=60)
            if ran.returncode != 0 or not ran.stdout.strip():
                failures.append("%s %s example %d exited %d with output %r (stderr %r)"
                                % (document, kind, number, ran.returncode, ran.stdout, ran.stderr))
                continue
            print("%s example %d: %s" % (kind, number, ran.stdout.strip().replace("\n", " | ")))
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
