#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""libblockbloom.so exports exactly the public C API, versioned; the Python
extension exports its init function only.

usage: exports_check.py LIBRARY HEADERS_DIR
       exports_check.py --extension MODULE

--extension: every defined dynamic symbol of MODULE (blockbloom._core) is
PyInit__core, which is there (python/src/_core.map hides the rest: the
library's bb_* and cpu_features copies, the C++ sources' std:: templates and
typeinfo).

- Every defined dynamic symbol (nm -D --defined-only) is a function bb_* with
  the default version BLOCKBLOOM_0, or the version node itself.
- The exported names are exactly the functions the installed headers in
  HEADERS_DIR declare with BB_API: none missing (a declared function a
  program could not link) and none extra (an internal symbol leaking out).
- No cpu_features symbol is imported either: the library carries its own,
  local copy, so an application that defines GetX86Info cannot interpose on
  its CPU detection (tests/support/interpose/interpose_check.py runs such an application).

nm reads any ELF machine, so cross builds are checked too. Exit status: 0 ok,
1 a failure, 2 bad usage, 77 (meson's "skipped") when nm is missing.
"""
import os
import re
import shutil
import subprocess
import sys

from source_files import source_files

VERSION_NODE = "BLOCKBLOOM_0"
EXTENSION_INIT = "PyInit__core"
CPU_FEATURES_NAMES = re.compile(r"^(Get(X86|Aarch64|Arm|Cpuid|XCR0)\w*|(X86|Aarch64|Arm)Feature\w*|"
                                r"CpuFeatures_\w*|StackLineReader_\w*|FillX86BrandString)$")


def declared_api(headers_dir):
    # The public headers as git sees the tree (tests/structure/source_files.py): a
    # stray file git ignores declares nothing.
    root = os.path.dirname(os.path.dirname(os.path.abspath(headers_dir)))
    names = set()
    for rel in source_files(root, ["include/blockbloom"], (".h",)):
        text = open(os.path.join(root, rel), encoding="utf-8").read()
        names.update(re.findall(r"^BB_API\b[^;(]*?\b(bb_\w+)\s*\(", text, flags=re.M))
    return names


def dynamic_symbols(nm, library, *flags):
    out = subprocess.run([nm, "-D", "--with-symbol-versions", *flags, library],
                         capture_output=True, text=True, check=True).stdout
    return [line.split() for line in out.splitlines() if line.strip()]


def report(failures, success):
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    if not failures:
        print(success)
    return 1 if failures else 0


def check_extension(nm, module):
    names = [fields[-1] for fields in dynamic_symbols(nm, module, "--defined-only")]
    failures = ["exported symbol %s is not %s" % (name, EXTENSION_INIT)
                for name in names if name.split("@")[0] != EXTENSION_INIT]
    if not any(name.split("@")[0] == EXTENSION_INIT for name in names):
        failures.append("%s is not exported" % EXTENSION_INIT)
    return report(failures, "%s exports %s only" % (os.path.basename(module), EXTENSION_INIT))


def main(argv):
    extension = len(argv) == 3 and argv[1] == "--extension"
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    nm = shutil.which("nm")
    if nm is None:
        print("SKIPPED: nm (binutils) is not installed", file=sys.stderr)
        return 77
    if extension:
        return check_extension(nm, argv[2])
    library, headers_dir = argv[1], argv[2]
    failures = []
    exported = set()
    for fields in dynamic_symbols(nm, library, "--defined-only"):
        kind, name = fields[-2], fields[-1]
        if kind == "A" and name == VERSION_NODE:
            continue
        symbol, _, version = name.partition("@@")
        if kind != "T" or not symbol.startswith("bb_") or version != VERSION_NODE:
            failures.append("exported symbol %s (type %s) is not a bb_* function of version %s"
                            % (name, kind, VERSION_NODE))
            continue
        exported.add(symbol)
    declared = declared_api(headers_dir)
    if not declared:
        failures.append("no BB_API declarations found in %s" % headers_dir)
    for name in sorted(declared - exported):
        failures.append("%s is declared BB_API in the headers but not exported" % name)
    for name in sorted(exported - declared):
        failures.append("%s is exported but no installed header declares it BB_API" % name)
    for fields in dynamic_symbols(nm, library, "--undefined-only"):
        symbol = fields[-1].split("@")[0]
        if CPU_FEATURES_NAMES.match(symbol):
            failures.append("cpu_features symbol %s is imported, so an application's "
                            "definition would interpose on it" % symbol)
    return report(failures, "%d bb_* functions exported, all @@%s, equal to the headers' BB_API set"
                  % (len(exported), VERSION_NODE))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
