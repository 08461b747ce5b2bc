#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The README's offline install of the Python package, for real (test `python_pip_install`).

usage: pip_install_check.py PYTHON SOURCE_ROOT VERSION

Copies the source tree (without build folders and .git, so the checkout is left
as it was) into a temporary folder and there runs the README's command for a
Debian machine without a package index:

    PYTHON -m venv --system-site-packages V && V/bin/pip install --no-build-isolation ./python

with PIP_NO_INDEX=1, so nothing is fetched. Then, from another folder, V/bin/python
imports blockbloom and checks: the module is the installed one, __version__ is
VERSION (the project's), a filter works (the parquet-mr strings give the bitset of
../shared/testdata/bloom_filter.xxhash.bin, when present); the
wheel installed only the package (no headers, library or pkg-config file of the
bundled C library) and the extension exports PyInit__core and nothing else.

Exit status 0 passed, 1 failed, 77 (skipped) in emulated-CPU or forced-ISA rows
(packaging does not depend on the CPU) or without the venv module.
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

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


def main():
    python, source_root, version = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
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
        venv = os.path.join(work, "V")
        env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
        for variable in ("PYTHONPATH", "PYTHONHOME"):
            env.pop(variable, None)
        run([python, "-m", "venv", "--system-site-packages", venv], cwd=tree, env=env)
        run([os.path.join(venv, "bin", "pip"), "install", "--no-build-isolation", "./python"],
            cwd=tree, env=env)
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
    print("passed: the README's offline install works")
    return 0


if __name__ == "__main__":
    sys.exit(main())
