#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The public headers compile warning-free, and refuse pre-C++17 clearly.

usage: public_headers_check.py --include-dir DIR --generated-include-dir DIR
                               --gcc GCC --gxx GXX [--clang CLANG] [--clangxx CLANGXX]

With each compiler given (GCC always; Clang when meson found it: without it
this says so and checks GCC alone), compiles, -fsyntax-only and -Werror:
  all_headers.cc, every public header (.h and .hpp) in one C++ translation
      unit that instantiates their templates, as C++17 and C++20 with
      -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
      -Wold-style-cast (and Clang's -Wshadow-all);
  all_headers.c, every C header, as C99 with
      -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion.
Both must include every header of DIR/blockbloom (and version.h, generated in
the build's include folder): a new header cannot go unchecked. Then, as C++14,
each .hpp alone and all of them together must fail with exactly one
diagnostic, the #error "<name>.hpp needs C++17 or later (the C API, <name>.h,
works from C and any C++)" of the first .hpp included (arrow.hpp names
column.h, see C_API_OF); and MSVC's
_MSVC_LANG=201703L under -std=c++14 must pass that check (preprocessing only).
Exit status: 0 ok, 1 a failure, 2 bad usage.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from source_files import source_files  # noqa: E402  (tests/structure/source_files.py)

HERE = os.path.dirname(os.path.abspath(__file__))
CXX_WARNINGS = ["-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wconversion",
                "-Wsign-conversion", "-Wold-style-cast"]
CLANG_CXX_WARNINGS = ["-Wshadow-all"]
C_WARNINGS = ["-Wall", "-Wextra", "-Wpedantic", "-Wconversion", "-Wsign-conversion"]
CXX_STANDARDS = ["c++17", "c++20"]
TIMEOUT = 120


# A .hpp over C calls of another name: arrow.hpp maps Arrow arrays onto column.h.
C_API_OF = {"arrow.hpp": "column.h"}


def pre17_message(hpp):
    return "%s needs C++17 or later (the C API, %s, works from C and any C++)" % (
        hpp, C_API_OF.get(hpp, hpp[:-len(".hpp")] + ".h"))


def included(source):
    text = open(os.path.join(HERE, source), encoding="utf-8").read()
    return set(re.findall(r'^#include "blockbloom/([^"]+)"', text, flags=re.M))


def compile_command(compiler, flags, includes, source, mode="-fsyntax-only"):
    command = [compiler, *flags, mode]
    for include in includes:
        command += ["-I", include]
    return command + [source]


def run(command):
    result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=TIMEOUT)
    return result.returncode, result.stdout + result.stderr


def diagnostics(output):
    """The error and warning lines (GCC and Clang: "file:line:col: error: ...")."""
    return [line for line in output.splitlines() if re.search(r"\b(error|warning): ", line)]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--include-dir", required=True)
    parser.add_argument("--generated-include-dir", required=True)
    parser.add_argument("--gcc", required=True)
    parser.add_argument("--gxx", required=True)
    parser.add_argument("--clang", default="")
    parser.add_argument("--clangxx", default="")
    args = parser.parse_args(argv[1:])
    includes = [os.path.abspath(args.include_dir), os.path.abspath(args.generated_include_dir)]
    failures = []

    # The public headers as git sees the tree (tests/structure/source_files.py).
    root = os.path.dirname(includes[0])
    headers = [rel.split("/")[-1] for rel in source_files(root, ["include/blockbloom"], (".h", ".hpp"))]
    if not os.path.isfile(os.path.join(includes[1], "blockbloom", "version.h")):
        failures.append("no generated blockbloom/version.h in " + includes[1])
    headers.append("version.h")
    hpps = [name for name in headers if name.endswith(".hpp")]
    c_headers = [name for name in headers if name.endswith(".h")]
    for source, wanted in (("all_headers.cc", headers), ("all_headers.c", c_headers)):
        missing = sorted(set(wanted) - included(source))
        if missing:
            failures.append("%s does not include %s" % (source, ", ".join(missing)))

    compilers = [("GCC", args.gcc, args.gxx, [])]
    if args.clang and args.clangxx:
        compilers.append(("Clang", args.clang, args.clangxx, CLANG_CXX_WARNINGS))
    else:
        print("NOTE: Clang (clang and clang++) was not found when the build was configured: "
              "only GCC is checked here. Install clang and reconfigure to check both.",
              flush=True)

    checked = 0
    for family, cc, cxx, extra in compilers:
        builds = [(cxx, ["-std=" + std, "-Werror", *CXX_WARNINGS, *extra], "all_headers.cc")
                  for std in CXX_STANDARDS]
        builds.append((cc, ["-std=c99", "-Werror", *C_WARNINGS], "all_headers.c"))
        for compiler, flags, source in builds:
            command = compile_command(compiler, flags, includes, os.path.join(HERE, source))
            status, output = run(command)
            if status != 0 or diagnostics(output):
                failures.append("%s: %s is not warning-free:\n$ %s\n%s"
                                % (family, source, " ".join(command), output))
            else:
                print("%s %s: %s clean" % (family, flags[0], source), flush=True)
                checked += 1

        # C++14: one #error, naming the first .hpp included, and nothing else.
        with tempfile.TemporaryDirectory() as work:
            cases = [[hpp] for hpp in hpps] + [hpps]
            for case in cases:
                source = os.path.join(work, "pre17.cc")
                with open(source, "w", encoding="utf-8") as out:
                    out.writelines('#include "blockbloom/%s"\n' % hpp for hpp in case)
                command = compile_command(cxx, ["-std=c++14"], includes, source)
                status, output = run(command)
                found = diagnostics(output)
                message = pre17_message(case[0])
                if status == 0 or len(found) != 1 or message not in found[0]:
                    failures.append("%s: C++14 with %s does not fail with exactly the one #error "
                                    "%r:\n$ %s\n%s" % (family, ", ".join(case), message,
                                                       " ".join(command), output))
                else:
                    print("%s -std=c++14 %s: the one #error" % (family, ", ".join(case)),
                          flush=True)
                    checked += 1
            command = compile_command(cxx, ["-std=c++14", "-D_MSVC_LANG=201703L", "-o",
                                            os.devnull], includes, source, mode="-E")
            status, output = run(command)
            if status != 0 or diagnostics(output):
                failures.append("%s: _MSVC_LANG=201703L does not pass the C++17 check:\n$ %s\n%s"
                                % (family, " ".join(command), output))
            else:
                print("%s -std=c++14 -D_MSVC_LANG=201703L: passes the check" % family, flush=True)
                checked += 1

    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    print("%d checks passed, %d failed (%s)"
          % (checked, len(failures), ", ".join(family for family, *_ in compilers)), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
