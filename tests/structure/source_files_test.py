#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The tests that inspect the tree read its source, not what commands wrote.

usage: source_files_test.py SOURCE_ROOT

On a fresh clone, `scripts/run` then `scripts/test --quick` failed once:
scripts/run writes bench/results/find_batch_bitmap.json, which names every ISA
tier, and isa_list_check.py walked bench/ and took it for source. This builds a
small tree in a temporary folder (the real src/core/isa.h, scripts/isa_registry.py
and .gitignore, a test file, scripts/run's JSON and a build folder holding a
list of tiers) and runs isa_list_check.py on it: as a copy (no git: a walk that
leaves out .gitignore's patterns) and as a git checkout (`git ls-files`); both
pass with the outputs present, and both still find a list in a new source file
git does not ignore. Also checks tests/structure/source_files.py's .gitignore reader on
the project's own patterns. Exit status: 0 ok, 1 a failure.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from source_files import GitIgnore, source_files  # noqa: E402

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def check_gitignore_reader(root):
    ignore = GitIgnore(open(os.path.join(root, ".gitignore"), encoding="utf-8").read())
    cases = [
        ("build-release", True, True), ("build", True, True), ("build.txt", False, False),
        ("tests/build-x", True, False),  # anchored: only at the root
        ("bench/results/find_batch_bitmap.json", False, True),
        ("bench/results/sub/x.json", False, False), ("bench/x.json", False, False),
        ("python/tests/__pycache__/x.pyc", False, True), ("x.py", False, False),
        ("python/.mesonpy-abc", True, True),
    ]
    for rel, is_folder, ignored in cases:
        check(ignore.ignores(rel, is_folder) == ignored, ".gitignore reader: %s ignored should be %s"
              % (rel, ignored))
    for unknown in ("!keep.json", "a/**/b", "[ab].c"):
        try:
            GitIgnore(unknown)
            failures.append(".gitignore reader accepted a form it does not read: " + unknown)
        except ValueError:
            pass


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def fake_tree(source_root, root):
    for rel in ("src/core/isa.h", "scripts/isa_registry.py", ".gitignore",
                "scripts/loop_instructions.py", "tests/structure/tier_instructions_check.py"):  # its ALLOWED
        os.makedirs(os.path.dirname(os.path.join(root, rel)) or root, exist_ok=True)
        shutil.copy(os.path.join(source_root, rel), os.path.join(root, rel))
    sys.path.insert(0, os.path.join(source_root, "scripts"))
    import isa_registry
    names = isa_registry.registry(os.path.join(source_root, "src", "core", "isa.h"))
    listed = ", ".join('"%s"' % n for n in names)
    write(root, "tests/dispatch_test.py", 'assert select("%s")\n' % names[0])  # one tier: fine
    for top in ("bench", "python", "tools"):
        write(root, top + "/README", "source\n")
    # What commands write into the tree: each names every tier.
    write(root, "bench/results/find_batch_bitmap.json", '{"isas": [%s]}\n' % listed)
    write(root, "build-release/meson-private/coredata.dat", "x\n")
    write(root, "build-release/tests/listing.py", "ISAS = [%s]\n" % listed)
    write(root, "python/tests/__pycache__/t.cpython-311.pyc", "ISAS = [%s]\n" % listed)
    return listed


def isa_list_check(root):
    return subprocess.run([sys.executable, os.path.join(HERE, "isa_list_check.py"), root],
                          capture_output=True, text=True)


def check_tree(root, listed, mode):
    result = isa_list_check(root)
    check(result.returncode == 0, "%s: isa_list_check took an output for source:\n%s" % (mode, result.stdout))
    files = source_files(root, ["bench", "python", "tests", "tools"])
    check(files == ["bench/README", "python/README", "tests/dispatch_test.py",
                    "tests/structure/tier_instructions_check.py", "tools/README"],
          "%s: source_files gave %s" % (mode, files))
    # A new source file (git does not ignore it; in a checkout not yet added) is read.
    write(root, "tests/new_test.py", "ISAS = [%s]\n" % listed)
    result = isa_list_check(root)
    check(result.returncode == 1 and "tests/new_test.py:1" in result.stdout,
          "%s: a list in a new source file was not found:\n%s" % (mode, result.stdout))
    os.remove(os.path.join(root, "tests", "new_test.py"))


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    source_root = sys.argv[1]
    check_gitignore_reader(source_root)
    with tempfile.TemporaryDirectory(prefix="blockbloom-tree-") as work:
        root = os.path.join(work, "src")
        os.makedirs(root)
        listed = fake_tree(source_root, root)
        check_tree(root, listed, "a copy (no git)")
        if shutil.which("git") is None:
            print("note: git is not installed: only the walk of a copy was checked")
        else:
            env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", HOME=work)
            for command in (["init", "-q"], ["add", "src", "scripts", "tests", "bench/README",
                                              "python/README", "tools/README", ".gitignore"]):
                subprocess.run(["git", "-C", root] + command, check=True, env=env, capture_output=True)
            check_tree(root, listed, "a git checkout")
    for failure in failures:
        print("FAIL: " + failure)
    if not failures:
        print("OK: isa_list_check.py reads the tree's source, as a copy and as a git checkout, "
              "and skips scripts/run's JSON, a build folder and .pyc files")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
