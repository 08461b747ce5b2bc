#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The shared library is versioned: its SONAME is libblockbloom.so.0, its file
is libblockbloom.so.X.Y.Z (the project version), and the build tree links
libblockbloom.so.0 to it. (The development link libblockbloom.so is made at
install time; tests/consumers/run_consumers.py checks the installed chain.)

usage: soname_check.py PATH_TO_LIBBLOCKBLOOM_SO VERSION

Reads the dynamic section with readelf -d, which reads any ELF machine, so the
check is the same for x86_64, aarch64 and cross builds. Exits 0 on success,
1 on failure, 77 (meson's "skipped") when readelf is missing.
"""
import os
import re
import shutil
import subprocess
import sys

EXPECTED_SONAME = "libblockbloom.so.0"


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    library, version = argv[1], argv[2]
    readelf = shutil.which("readelf")
    if readelf is None:
        print("SKIPPED: readelf (binutils) is not installed", file=sys.stderr)
        return 77
    failures = []
    dynamic = subprocess.run([readelf, "-d", library], capture_output=True, text=True,
                             check=True).stdout
    sonames = re.findall(r"\(SONAME\)\s+Library soname: \[([^\]]*)\]", dynamic)
    if sonames != [EXPECTED_SONAME]:
        failures.append("SONAME %r, expected [%r]" % (sonames, EXPECTED_SONAME))
    real_name = "libblockbloom.so." + version
    if os.path.basename(library) != real_name:
        failures.append("library file %s, expected %s" % (os.path.basename(library), real_name))
    folder = os.path.dirname(os.path.abspath(library))
    for link, target in ((EXPECTED_SONAME, real_name),):
        path = os.path.join(folder, link)
        if not os.path.islink(path) or os.readlink(path) != target:
            failures.append("%s is not a symlink to %s" % (path, target))
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    if not failures:
        print("SONAME %s, %s -> %s" % (EXPECTED_SONAME, EXPECTED_SONAME, real_name))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
