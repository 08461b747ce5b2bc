# SPDX-License-Identifier: Apache-2.0
"""The files of the source tree, for the tests that inspect it.

A test that reads "every file under tools/" must read source, not what a
command wrote into the tree: `scripts/run` writes
bench/results/find_batch_bitmap.json, a build folder holds generated files, a
Python run leaves .pyc files. So the tree is what git sees as its files: in a
git checkout, the files it tracks plus the untracked ones it does not ignore
(`git ls-files --cached --others --exclude-standard`: a new file not yet added
is still checked); outside one (a release tarball, a copy), a walk that leaves
out what the project's .gitignore names, read by the small reader below (a
pattern form it does not know is an error, so the two can never silently
differ).
"""
import fnmatch
import os
import subprocess


def _git_top(root):
    """root when it is the top of a git work tree, else None."""
    try:
        result = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"],
                                capture_output=True, text=True)
    except FileNotFoundError:
        return None  # no git: read as a copy
    if result.returncode != 0:
        return None
    top = result.stdout.strip()
    # A tree inside someone else's repository (a vendored copy, a tarball
    # unpacked in a tracked home) is not a checkout of this project.
    return root if os.path.realpath(top) == os.path.realpath(root) else None


def _git_files(root, tops):
    result = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard", "--"] + list(tops), capture_output=True)
    if result.returncode != 0:
        raise RuntimeError("git ls-files failed in %s: %s" % (root, result.stderr.decode(errors="replace")))
    paths = {os.fsdecode(p) for p in result.stdout.split(b"\0") if p}
    # A tracked file deleted in the work tree is listed but gone.
    return [p for p in paths if os.path.isfile(os.path.join(root, p))]


class GitIgnore:
    """The patterns of one .gitignore at the root, in the forms it uses:
    `name` or `*.ext` (any depth), `/path/glob` (anchored), a trailing `/`
    (folders only); `#` comments and blank lines. `*` and `?` stay within one
    path component, as in git."""

    def __init__(self, text):
        self.patterns = []
        for line in text.splitlines():
            line = line.rstrip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("!") or "**" in line or "\\" in line or "[" in line:
                raise ValueError(".gitignore: %r: a pattern form tests/structure/source_files.py does not read; "
                                 "teach it, or the walk would differ from git" % line)
            folders_only = line.endswith("/")
            body = line.rstrip("/")
            anchored = "/" in body
            self.patterns.append((body.lstrip("/").split("/"), anchored, folders_only))

    def ignores(self, rel, is_folder):
        parts = rel.split("/")
        for segments, anchored, folders_only in self.patterns:
            if folders_only and not is_folder:
                continue
            if anchored:
                hit = len(segments) == len(parts) and all(
                    fnmatch.fnmatchcase(p, s) for p, s in zip(parts, segments))
            else:
                hit = fnmatch.fnmatchcase(parts[-1], segments[0])
            if hit:
                return True
        return False


def _walked_files(root, tops):
    ignore_path = os.path.join(root, ".gitignore")
    ignore = GitIgnore(open(ignore_path, encoding="utf-8").read() if os.path.exists(ignore_path) else "")
    files = []
    for top in tops:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
            dirnames[:] = [d for d in dirnames
                           if d != ".git" and not ignore.ignores(rel_dir + "/" + d, True)]
            files += [rel_dir + "/" + f for f in filenames
                      if not ignore.ignores(rel_dir + "/" + f, False)]
    return files


def source_files(root, tops, suffixes=None):
    """The repo-relative paths ('/'-separated, sorted) of the source files
    under each folder in tops, optionally only those ending in suffixes.
    A top folder that exists but yields no file is an error: a check of
    nothing would pass."""
    in_git = _git_top(root) is not None
    files = _git_files(root, tops) if in_git else _walked_files(root, tops)
    files = sorted(set(files))
    for top in tops:
        if os.path.isdir(os.path.join(root, top)) and not any(f.startswith(top + "/") for f in files):
            raise RuntimeError("no source file under %s/ (%s)" % (top, "git ls-files" if in_git else "walk"))
    if suffixes:
        files = [f for f in files if f.endswith(tuple(suffixes))]
    return files


def how_listed(root):
    """How source_files finds the files, for a check's report."""
    return "the files git lists" if _git_top(root) else "a walk without .gitignore's patterns (not a git checkout)"
