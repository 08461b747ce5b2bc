# SPDX-License-Identifier: Apache-2.0
"""probe_dataset's paths: a directory that cannot be listed is reported (in
attrs["errors"], with a RuntimeWarning), by the directory form and the glob
form alike, never passed over as if it held nothing; symlinked directories
are followed by both forms, each directory once."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

import pytest

pytest.importorskip("pandas", reason="probe_dataset returns a pandas DataFrame: Debian's python3-pandas")

import blockbloom  # noqa: E402
import blockbloom.parquet as bp  # noqa: E402
from blockbloom._paths import expand_paths  # noqa: E402


def touch(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb"):
        pass


def tree(root):
    """root/open/p0.parquet, root/locked/p1.parquet, root/locked/deep/p2.parquet."""
    for rel in ("open/p0.parquet", "locked/p1.parquet", "locked/deep/p2.parquet"):
        touch(os.path.join(root, rel))
    return [os.path.join(root, "open", "p0.parquet")]


def refuse_listing(monkeypatch, locked):
    """os.scandir (what os.walk lists with) raises PermissionError for locked,
    as it does for a directory without read permission."""
    real_scandir = os.scandir

    def scandir(path="."):
        if os.path.normpath(os.fsdecode(path)) == locked:
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)


FORMS = [("directory", lambda root: root), ("list", lambda root: [root]),
         ("glob", lambda root: os.path.join(root, "*", "*.parquet")),
         ("recursive glob", lambda root: os.path.join(root, "**", "*.parquet"))]


@pytest.mark.parametrize("form, paths", FORMS, ids=[f[0] for f in FORMS])
def test_an_unlistable_directory_is_reported_simulated(tmp_path, monkeypatch, form, paths):
    """Simulated (refuse_listing), so it runs as any user."""
    root = str(tmp_path)
    listed = tree(root)
    locked = os.path.join(root, "locked")
    refuse_listing(monkeypatch, locked)
    files, errors = expand_paths(paths(root))
    assert files == listed
    assert [path for path, _ in errors] == [locked]
    assert "cannot be listed (Permission denied)" in errors[0][1]


def test_probe_dataset_warns_of_an_unlistable_directory(tmp_path, monkeypatch):
    root = str(tmp_path)
    touch(os.path.join(root, "locked", "p1.parquet"))
    locked = os.path.join(root, "locked")
    refuse_listing(monkeypatch, locked)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = bp.probe_dataset(root, "id", [1])
    assert [path for path, _ in frame.attrs["errors"]] == [locked]
    assert len(frame) == 0 and frame.attrs["files"] == 0
    assert any(locked in str(w.message) and "cannot be listed" in str(w.message) for w in caught
               if issubclass(w.category, RuntimeWarning))


CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from blockbloom._paths import expand_paths
print(json.dumps([expand_paths(p) for p in sys.argv[2:]]))
"""


def test_an_unlistable_directory_is_reported_for_real():
    """Real permissions: root lists any directory, so as root the check runs
    in a child as nobody (setpriv); as another user, in this process."""
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(blockbloom.__file__)))
    root = tempfile.mkdtemp(prefix="bb-listing-")
    try:
        os.chmod(root, 0o755)
        listed = tree(root)
        for d in (os.path.join(root, "open"), os.path.join(root, "locked", "deep")):
            os.chmod(d, 0o755)
        locked = os.path.join(root, "locked")
        os.chmod(locked, 0o311)  # enterable, not listable
        forms = [root, os.path.join(root, "**", "*.parquet")]
        if os.geteuid() != 0:
            results = [list(map(list, expand_paths(p))) for p in forms]
        else:
            setpriv = shutil.which("setpriv")
            if setpriv is None:
                pytest.skip("running as root without setpriv: cannot drop to nobody (the simulated test runs)")
            out = subprocess.run([setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable,
                                  "-c", CHILD, package_dir] + forms, capture_output=True, text=True, timeout=60)
            assert out.returncode == 0, out.stderr
            results = json.loads(out.stdout)
        for files, errors in results:
            assert files == listed
            assert [e[0] for e in errors] == [locked]
            assert "cannot be listed (Permission denied)" in errors[0][1]
    finally:
        os.chmod(os.path.join(root, "locked"), 0o755)
        shutil.rmtree(root)


@pytest.mark.parametrize("form, paths", FORMS, ids=[f[0] for f in FORMS])
def test_symlinked_directories_are_followed_by_every_form_once(tmp_path, form, paths):
    root = str(tmp_path / "data")
    elsewhere = str(tmp_path / "elsewhere")
    touch(os.path.join(root, "a", "p0.parquet"))
    touch(os.path.join(elsewhere, "p1.parquet"))
    os.symlink(elsewhere, os.path.join(root, "linked"))
    os.symlink(root, os.path.join(root, "a", "cycle"))  # a loop: entered once
    files, errors = expand_paths(paths(root))
    assert errors == []
    assert files == [os.path.join(root, "a", "p0.parquet"), os.path.join(root, "linked", "p1.parquet")]
