#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The built libblockbloom.so keeps the ABI recorded in abi/ (the baseline).

usage: abi_check.py LIBRARY BASELINE HEADERS_DIR

Dumps LIBRARY with libabigail's abidw exactly as scripts/abi-baseline does
(the types the public headers in HEADERS_DIR declare) and compares the dump
with BASELINE using abidiff. (Given the library itself and --headers-dir2,
abidiff 2.2 files a member appended to a public struct, bb_filter growing from
256 to 320 bits, under "filtered out" changes; between two dumps it reports
it.) Fails when
- the library's SONAME differs from the baseline's (a soversion bump needs a
  new baseline: scripts/abi-baseline), or
- with the same SONAME, a function or variable of the baseline was removed or
  changed (a signature, a member of a public struct, an enum value): that is
  an incompatible change, which needs a soversion bump and a CHANGELOG entry
  (docs/architecture.md, "ABI").
Added functions are compatible: they pass, with a note to record them.

Before comparing, it proves that the comparison can fail: a copy of the
baseline with two members of bb_filter swapped, one without bb_find, and one
whose bb_filter lacks its last member (so the real one has a member appended)
must all be reported as incompatible.

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


def abidw(library, headers_dir, out):
    """Writes the ABI dump of library to out, as scripts/abi-baseline does."""
    subprocess.run(["abidw", "--headers-dir", headers_dir, "--drop-private-types",
                    "--no-corpus-path", "--no-comp-dir-path", "--no-show-locs",
                    "--type-id-style", "hash", "--out-file", out, library], check=True)


def abidiff(old, new):
    """(exit status, report, removed-or-changed count, added count) of two dumps."""
    result = subprocess.run(["abidiff", "--drop-private-types", old, new], capture_output=True,
                            text=True)
    broken = added = 0
    for removed, changed, plus in re.findall(
            r"changes summary: (\d+) Removed, (\d+) Changed[^,]*, (\d+) Added", result.stdout):
        broken += int(removed) + int(changed)
        added += int(plus)
    return result.returncode, result.stdout + result.stderr, broken, added


def incompatible(status, broken):
    return bool(status & ABIDIFF_INCOMPATIBLE) or broken > 0


def without_last_member(class_decl):
    """The class-decl text with its last data member removed, its size shrunk to it."""
    start = class_decl.rfind("<data-member")
    end = class_decl.find("</data-member>", start)
    offset = re.search(r"layout-offset-in-bits='(\d+)'", class_decl[start:end])
    if start < 0 or end < 0 or offset is None:
        return None
    shrunk = class_decl[:start] + class_decl[end + len("</data-member>"):]
    return re.sub(r"size-in-bits='\d+'", "size-in-bits='%s'" % offset.group(1), shrunk, count=1)


def self_check(baseline, work):
    """The comparison reports a swapped struct member, a removed function and an
    appended struct member."""
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
    shorter = without_last_member(member)
    if shorter is None:
        return "the baseline's struct bb_filter has no data member"
    # (old, new) pairs: the mutated baseline as the new ABI, or as the old one
    # (then the real baseline has a member appended to bb_filter).
    for name, mutated, mutated_is_new in (
            ("swapped-members", text[:start] + swapped + text[end:], True),
            ("without-bb_find", without_find, True),
            ("bb_filter-without-its-last-member", text[:start] + shorter + text[end:], False)):
        path = os.path.join(work, name + ".abi")
        with open(path, "w", encoding="utf-8") as out:
            out.write(mutated)
        old, new = (baseline, path) if mutated_is_new else (path, baseline)
        status, report, broken, _ = abidiff(old, new)
        if status & ABIDIFF_ERRORS or not incompatible(status, broken):
            return "abidiff did not report the %s baseline as incompatible:\n%s" % (name, report)
    return None


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    library, baseline, headers_dir = argv[1:]
    for tool in ("abidiff", "abidw", "readelf"):
        if shutil.which(tool) is None:
            print("SKIPPED: %s is not installed (Debian: abigail-tools, binutils)" % tool,
                  file=sys.stderr)
            return SKIP
    if not has_debug_info(library):
        print("SKIPPED: %s has no debug information, which abidiff needs: configure "
              "with -Ddebug=true (scripts/test builds debugoptimized)" % library, file=sys.stderr)
        return SKIP
    with tempfile.TemporaryDirectory() as work:
        problem = self_check(baseline, work)
        if problem:
            print("FAIL (self-check): " + problem, file=sys.stderr)
            return 1
        dump = os.path.join(work, "library.abi")
        abidw(library, headers_dir, dump)
        status, report, broken, added = abidiff(baseline, dump)
    baseline_soname = re.search(r"soname='([^']*)'", open(baseline, encoding="utf-8").read())
    baseline_soname = baseline_soname.group(1) if baseline_soname else None
    soname = soname_of_library(library)
    if soname != baseline_soname:
        print("FAIL: the library's SONAME is %s, the baseline's %s: after a soversion bump, "
              "record the new ABI with scripts/abi-baseline" % (soname, baseline_soname),
              file=sys.stderr)
        return 1
    print(report)
    if status & ABIDIFF_ERRORS:
        print("FAIL: abidiff could not compare (exit status %d)" % status, file=sys.stderr)
        return 1
    if incompatible(status, broken):
        print("FAIL: the ABI of %s changed incompatibly against %s while the SONAME stayed "
              "%s: bump the soversion (meson.build, blockbloom.map), say so in CHANGELOG.md and "
              "run scripts/abi-baseline (before the first release: CHANGELOG.md and "
              "scripts/abi-baseline only; docs/architecture.md, \"ABI\")"
              % (library, baseline, soname), file=sys.stderr)
        return 1
    if added:
        print("NOTE: %d added function(s) or variable(s): compatible; record them with "
              "scripts/abi-baseline" % added)
    print("ABI of %s compatible with %s" % (soname, os.path.basename(baseline)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
