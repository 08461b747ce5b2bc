#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""README's offline install of the Python package, run as printed (test `python_pip_install`).

usage: pip_install_check.py PYTHON SOURCE_ROOT VERSION

Takes README.md's one ```sh block holding `pip install --no-build-isolation ./python`
(tests/consumers/doc_blocks.py; docs/python.md and python/README.md must print the same
block, so no document can part from what is tested), copies the source tree (without build
folders and .git, so the checkout is left as it was) into a temporary folder and there runs
the block with bash -euo pipefail, `python3` being PYTHON, PIP_NO_INDEX=1 so nothing is
fetched, and PIP_VERBOSE=1 so that the build's compiler lines can be counted (the block
itself is not changed). It checks that the build compiled only what the extension needs
(the library's sources and the extension's: nothing of tools/, tests/ or bench/) and prints
how long the install took. Then, from another folder, V/bin/python imports blockbloom and
checks: the module is the installed one, __version__ is VERSION (the project's), a filter
works (the parquet-mr strings give the bitset of ../shared/testdata/bloom_filter.xxhash.bin,
when present); the wheel installed only the package (no headers, library or pkg-config file
of the bundled C library) and the extension exports PyInit__core and nothing else.

Exit status 0 passed, 1 failed, 77 (skipped) in emulated-CPU or forced-ISA rows
(packaging does not depend on the CPU) or without the venv module.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

INSTALL_LINE = "pip install --no-build-isolation ./python"
# The other documents that print README's install block unchanged.
SAME_BLOCK_IN = (os.path.join("docs", "python.md"), os.path.join("python", "README.md"))
# What the package's build may compile: the library (a static archive in the
# subproject) and the extension; anything else (tools, tests, benchmarks) is
# time the user waits for nothing.
COMPILED_FOR_THE_EXTENSION = ("subprojects/blockbloom/libblockbloom_core.a.p/", "blockbloom/_core.")

# parquet-mr's bloom_filter.xxhash.bin holds these four strings.
PARQUET_MR_STRINGS = ["hello", "parquet", "bloom", "filter"]

IMPORT_CHECK = r"""
import os, sys
import numpy as np
import blockbloom
venv = sys.argv[1]
assert os.path.realpath(blockbloom.__file__).startswith(os.path.realpath(venv)), blockbloom.__file__
print("imported", blockbloom.__file__, "version", blockbloom.__version__, "ISA", blockbloom.selected_isa())
f = blockbloom.Filter(1024)
f.insert_values(%r)
hashes = np.array([blockbloom.parquet_hash(s) for s in %r], dtype=np.uint64)
assert f.find(hashes).all()
import blockbloom.parquet
assert blockbloom.parquet.list.__doc__ and blockbloom.parquet.probe.__doc__
for stub in ("__init__.pyi", "dask.pyi", "parquet.pyi", "py.typed"):
    assert os.path.exists(os.path.join(os.path.dirname(blockbloom.__file__), stub)), stub
print("version", blockbloom.__version__)
print("bitset", bytes(memoryview(f)).hex())
""" % (PARQUET_MR_STRINGS, PARQUET_MR_STRINGS)


def ignore_build_folders(folder, names):
    """Leaves out Meson build folders (they hold meson-private), .git and caches."""
    skipped = {".git", "__pycache__", ".pytest_cache"}
    return [n for n in names
            if n in skipped or n.startswith(".mesonpy-")
            or os.path.isdir(os.path.join(folder, n, "meson-private"))]


def run(command, **kwargs):
    print("+ " + " ".join(command), flush=True)
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)
    if result.returncode != 0:
        print(result.stdout[-8000:])
        raise SystemExit("FAIL: exit status %d" % result.returncode)
    return result.stdout


def documented_block(source_root):
    """README's install block, after checking that the other documents print it unchanged."""
    sys.path.insert(0, os.path.join(source_root, "tests", "consumers"))
    import doc_blocks
    from hermetic import Failure
    try:
        block = doc_blocks.only_block(os.path.join(source_root, "README.md"), "sh", INSTALL_LINE)
        for document in SAME_BLOCK_IN:
            if block not in doc_blocks.fenced(os.path.join(source_root, document), "sh"):
                raise Failure("%s does not print README's install block unchanged" % document)
    except Failure as failure:
        raise SystemExit("FAIL: %s" % failure)
    return block


def compiled_objects(output):
    """The objects the build compiled, from its ninja lines ("[3/68] Compiling C++ object X")."""
    return re.findall(r"\[\d+/\d+\] Compiling \S+ object (\S+)", output)


def main():
    python, source_root, version = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    block = documented_block(source_root)
    for variable in ("BLOCKBLOOM_TEST_WRAPPER", "BLOCKBLOOM_ISA"):
        if os.environ.get(variable):
            print("SKIPPED: %s is set (an emulated or forced-ISA row); the install runs once, "
                  "natively" % variable)
            return 77
    if subprocess.run([python, "-c", "import ensurepip, venv"], capture_output=True).returncode != 0:
        print("SKIPPED: %s has no venv/ensurepip (Debian: python3-venv; scripts/install-deps "
              "installs it)" % python)
        return 77
    with tempfile.TemporaryDirectory(prefix="blockbloom-pip-") as work:
        tree = os.path.join(work, "src")
        shutil.copytree(source_root, tree, symlinks=True, ignore=ignore_build_folders)
        env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
        for variable in ("PYTHONPATH", "PYTHONHOME"):
            env.pop(variable, None)
        # `python3` in the block is PYTHON: a script rather than a link, so the
        # venv's base interpreter is PYTHON itself.
        shim = os.path.join(work, "bin")
        os.mkdir(shim)
        with open(os.path.join(shim, "python3"), "w") as fh:
            fh.write('#!/bin/sh\nexec "%s" "$@"\n' % python)
        os.chmod(os.path.join(shim, "python3"), 0o755)
        env["PATH"] = shim + os.pathsep + env.get("PATH", "/usr/bin:/bin")
        env["PIP_VERBOSE"] = "1"
        started = time.monotonic()
        output = run(["bash", "-euo", "pipefail", "-c", block], cwd=tree, env=env)
        seconds = time.monotonic() - started
        venv = os.path.join(tree, "V")
        objects = compiled_objects(output)
        strays = [o for o in objects if not o.startswith(COMPILED_FOR_THE_EXTENSION)]
        print("the documented install took %.0f s (%d objects compiled: %d of the library, %d of "
              "the extension; CCACHE_DISABLE=%s)" % (
                  seconds, len(objects),
                  sum(o.startswith(COMPILED_FOR_THE_EXTENSION[0]) for o in objects),
                  sum(o.startswith(COMPILED_FOR_THE_EXTENSION[1]) for o in objects),
                  os.environ.get("CCACHE_DISABLE", "")), flush=True)
        if strays:
            raise SystemExit("FAIL: the package's build compiled what the extension does not need: "
                             + ", ".join(strays[:10]))
        if not objects:
            raise SystemExit("FAIL: no compiler lines in pip's verbose output: what the build "
                             "compiled cannot be checked")
        last = output.strip().splitlines()[-1] if output.strip() else ""
        if not last.startswith(version + " "):
            raise SystemExit("FAIL: the block's last line printed %r, expected the version %s and the ISA"
                             % (last, version))
        output = run([os.path.join(venv, "bin", "python"), "-c", IMPORT_CHECK, venv], cwd=work, env=env)
        print("\n".join(line for line in output.splitlines() if not line.startswith("bitset")))
        lines = dict(line.split(" ", 1) for line in output.splitlines() if " " in line)
        failures = []
        if lines.get("version") != version:
            failures.append("__version__ is %s, the project's version %s" % (lines.get("version"), version))
        reference = os.path.join(source_root, "..", "shared", "testdata", "bloom_filter.xxhash.bin")
        if os.path.exists(reference):
            with open(reference, "rb") as fh:
                if lines.get("bitset") != fh.read()[16:].hex():
                    failures.append("the parquet-mr strings did not give parquet-mr's bitset")
        else:
            print("note: %s is absent; the parquet-mr bytes are not compared" % reference)
        # The wheel's own list of what it installed (paths relative to site-packages).
        records = glob.glob(os.path.join(venv, "lib", "python*", "site-packages", "blockbloom-*.dist-info", "RECORD"))
        if len(records) != 1:
            raise SystemExit("FAIL: expected one blockbloom dist-info RECORD, found %s" % records)
        site_packages = os.path.dirname(os.path.dirname(records[0]))
        with open(records[0], encoding="utf-8") as fh:
            installed = [line.split(",")[0] for line in fh if line.strip()]
        stray = [p for p in installed if not p.startswith(("blockbloom/", "blockbloom-"))]
        if stray:
            failures.append("the wheel installed files outside the package: " + ", ".join(sorted(stray)[:10]))
        extension = [p for p in installed if os.path.basename(p).startswith("_core.") and p.endswith(".so")]
        if len(extension) != 1:
            failures.append("expected one extension module, found %s" % extension)
        elif shutil.which("nm"):
            listing = run(["nm", "-D", "--defined-only", os.path.join(site_packages, extension[0])])
            # Every defined name, the std:: templates and typeinfo too (python/src/_core.map).
            exported = sorted(line.split()[-1] for line in listing.splitlines() if line.strip())
            if exported != ["PyInit__core"]:
                failures.append("the extension exports %s (expected PyInit__core only)" % exported[:8])
        for failure in failures:
            print("FAIL: " + failure)
        if failures:
            return 1
    print("passed: README's install block, as printed, works")
    return 0


if __name__ == "__main__":
    sys.exit(main())
