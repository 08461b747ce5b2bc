#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The built libblockbloom.so keeps the ABI recorded in abi/ (the baseline).

usage: abi_check.py LIBRARY BASELINE HEADERS_DIR

Compares LIBRARY with BASELINE (an abidw dump, written by scripts/abi-baseline)
with libabigail's abidiff, looking only at the types the public headers in
HEADERS_DIR declare. Fails when
- the library's SONAME differs from the baseline's (a soversion bump needs a
  new baseline: scripts/abi-baseline), or
- with the same SONAME, a function or variable of the baseline was removed or
  changed (a signature, a member of a public struct, an enum value): that is
  an incompatible change, which needs a soversion bump and a CHANGELOG entry
  (docs/architecture.md, "ABI").
Added functions are compatible: they pass, with a note to record them.

Before comparing, it proves that the comparison can fail: a copy of the
baseline with two members of bb_filter swapped, and one without bb_find, must
both be reported as incompatible.

Exit status: 0 compatible, 1 not (or the self-check failed), 2 bad usage,
77 (meson's "skipped") when abidiff is not installed (Debian: abigail-tools)
or the library has no debug information (configure with -Ddebug=true).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
ABIDIFF_INCOMPATIBLE = 8
ABIDIFF_ERRORS = 1 | 2


def soname_of_library(path):
    dynamic = subprocess.run(["readelf", "-d", path], capture_output=True, text=True,
                             check=True).stdout
    found = re.findall(r"\(SONAME\)\s+Library soname: \[([^\]]*)\]", dynamic)
    return found[0] if found else None


def has_debug_info(path):
    sections = subprocess.run(["readelf", "-S", "-W", path], capture_output=True, text=True,
                              check=True).stdout
    return ".debug_info" in sections


def abidiff(old, new, headers_dir):
    """(exit status, report, removed-or-changed count, added count)."""
    command = ["abidiff", "--drop-private-types"]
    if not new.endswith(".abi"):
        command += ["--headers-dir2", headers_dir]
    result = subprocess.run(command + [old, new], capture_output=True, text=True)
    broken = added = 0
    for removed, changed, plus in re.findall(
            r"changes summary: (\d+) Removed, (\d+) Changed[^,]*, (\d+) Added", result.stdout):
        broken += int(removed) + int(changed)
        added += int(plus)
    return result.returncode, result.stdout + result.stderr, broken, added


def incompatible(status, broken):
    return bool(status & ABIDIFF_INCOMPATIBLE) or broken > 0


def self_check(baseline, headers_dir, work):
    """The comparison reports a swapped struct member and a removed function."""
    text = open(baseline, encoding="utf-8").read()
    start = text.find("<class-decl name='bb_filter'")
    end = text.find("</class-decl>", start)
    if start < 0 or end < 0 or "layout-offset-in-bits='160'" not in text[start:end]:
        return "the baseline has no struct bb_filter with a member at bit 160"
    member = text[start:end]
    swapped = (member.replace("layout-offset-in-bits='128'", "@")
               .replace("layout-offset-in-bits='160'", "layout-offset-in-bits='128'")
               .replace("@", "layout-offset-in-bits='160'"))
    without_find = re.sub(r"\s*<elf-symbol name='bb_find' [^>]*/>", "", text)
    for name, mutated in (("swapped-members", text[:start] + swapped + text[end:]),
                          ("without-bb_find", without_find)):
        path = os.path.join(work, name + ".abi")
        with open(path, "w", encoding="utf-8") as out:
            out.write(mutated)
        status, report, broken, _ = abidiff(baseline, path, headers_dir)
        if status & ABIDIFF_ERRORS or not incompatible(status, broken):
            return "abidiff did not report the %s baseline as incompatible:\n%s" % (name, report)
    return None


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    library, baseline, headers_dir = argv[1:]
    for tool in ("abidiff", "readelf"):
        if shutil.which(tool) is None:
            print("SKIPPED: %s is not installed (Debian: abigail-tools, binutils)" % tool,
                  file=sys.stderr)
            return SKIP
    if not has_debug_info(library):
        print("SKIPPED: %s has no debug information, which abidiff needs: configure "
              "with -Ddebug=true (scripts/test builds debugoptimized)" % library, file=sys.stderr)
        return SKIP
    with tempfile.TemporaryDirectory() as work:
        problem = self_check(baseline, headers_dir, work)
        if problem:
            print("FAIL (self-check): " + problem, file=sys.stderr)
            return 1
    baseline_soname = re.search(r"soname='([^']*)'", open(baseline, encoding="utf-8").read())
    baseline_soname = baseline_soname.group(1) if baseline_soname else None
    soname = soname_of_library(library)
    if soname != baseline_soname:
        print("FAIL: the library's SONAME is %s, the baseline's %s: after a soversion bump, "
              "record the new ABI with scripts/abi-baseline" % (soname, baseline_soname),
              file=sys.stderr)
        return 1
    status, report, broken, added = abidiff(baseline, library, headers_dir)
    print(report)
    if status & ABIDIFF_ERRORS:
        print("FAIL: abidiff could not compare (exit status %d)" % status, file=sys.stderr)
        return 1
    if incompatible(status, broken):
        print("FAIL: the ABI of %s changed incompatibly against %s while the SONAME stayed "
              "%s: bump the soversion (meson.build, blockbloom.map), say so in CHANGELOG.md and "
              "run scripts/abi-baseline (docs/architecture.md, \"ABI\")"
              % (library, baseline, soname), file=sys.stderr)
        return 1
    if added:
        print("NOTE: %d added function(s) or variable(s): compatible; record them with "
              "scripts/abi-baseline" % added)
    print("ABI of %s compatible with %s" % (soname, os.path.basename(baseline)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
