# SPDX-License-Identifier: Apache-2.0
"""Filter.save / load / to_file_bytes / from_file_bytes: a filter and its value type in one file."""

import os
import subprocess

import numpy as np
import pytest

import blockbloom


def test_a_saved_typed_filter_loads_with_its_type_and_finds_its_values(tmp_path):
    f = blockbloom.Filter(ndv=100, fpp=0.01, type="date")
    f.insert_values(["2024-01-31", "1999-12-31"])
    path = tmp_path / "dates.bbf"
    f.save(path)
    g = blockbloom.Filter.load(path)
    assert g == f
    assert f.type == "date" and g.type == "INT32 DATE"  # the type, as a file spells it
    assert g.find_values(["2024-01-31", "1999-12-31"]).all()
    assert g.find_values(np.array(["2024-01-31"], dtype="datetime64[D]")).all()


def test_a_type_set_by_the_first_insert_survives_the_file():
    f = blockbloom.Filter(1024)
    f.insert_values(np.array([1, 2, 3], dtype=np.int32))
    g = blockbloom.Filter.from_file_bytes(f.to_file_bytes())
    assert g.type == f.type
    assert g.find_values([1, 2, 3]).all()  # Python ints into the INT32 type


def test_kudu_filters_keep_their_seed(tmp_path):
    f = blockbloom.Filter(1024, layout="kudu", seed=7, type="int64")
    f.insert_values([5, 6])
    g = blockbloom.Filter.from_file_bytes(f.to_file_bytes())
    assert (g.layout, g.seed, g.num_bytes) == ("kudu", 7, 1024)
    assert g == f
    assert g.find_values([5, 6]).all()


def test_raw_hash_filters_stay_raw_hash_filters():
    f = blockbloom.Filter(256)
    f.insert(np.array([11, 12], dtype=np.uint64))
    g = blockbloom.Filter.from_file_bytes(f.to_file_bytes())
    assert g.type is None
    assert g.find(np.array([11, 12], dtype=np.uint64)).all()
    with pytest.raises(TypeError):
        g.insert_values([1])  # raw hashes take no values: the file said what they are


def test_a_filter_without_a_type_cannot_be_saved(tmp_path):
    path = tmp_path / "x.bbf"
    path.write_bytes(b"keep me")
    with pytest.raises(ValueError, match="no value type"):
        blockbloom.Filter(256).save(path)
    assert path.read_bytes() == b"keep me"  # nothing half-written, nothing replaced
    assert os.listdir(tmp_path) == ["x.bbf"]


@pytest.mark.parametrize("damage, code", [
    (lambda b: b[:50], -60),                                  # truncated
    (lambda b: b"NOTAFILT" + b[8:], -61),                     # magic
    (lambda b: b[:-1] + bytes([b[-1] ^ 1]), -68),             # checksum
    (lambda b: b + b"\0", -67),                               # size: bytes appended
])
def test_a_damaged_file_is_refused_with_its_code(damage, code):
    f = blockbloom.Filter(256, type="int64")
    f.insert_values([1])
    with pytest.raises(blockbloom.Error) as e:
        blockbloom.Filter.from_file_bytes(damage(f.to_file_bytes()))
    assert e.value.status == code


def test_the_tool_probes_a_filter_python_saved(tmp_path, tool):
    f = blockbloom.Filter(ndv=10, fpp=0.01, type="string")
    f.insert_values(["alpha", "beta"])
    path = tmp_path / "s.bbf"
    f.save(path)
    keys = tmp_path / "keys.txt"
    keys.write_text("alpha\nbeta\n")
    out = subprocess.run([tool, "probe", "--filter", str(path), "--input", str(keys)], capture_output=True,
                         text=True, stdin=subprocess.DEVNULL, check=True).stdout
    assert out.splitlines() == ["alpha\tmaybe", "beta\tmaybe"]  # each value beside its answer


def test_save_gives_the_tools_modes_and_follows_a_symlink(tmp_path):
    """save gives files the modes the tool's build gives them: a new file the
    umask's (not mkstemp's 0600), an existing one its own; and it writes a
    symlink's target rather than replacing the link with a file."""
    f = blockbloom.Filter(1024, type="int64")
    f.insert_values([1, 2])
    mask = os.umask(0o022)
    try:
        new = tmp_path / "new.bbf"
        f.save(new)
        assert new.stat().st_mode & 0o7777 == 0o644
    finally:
        os.umask(mask)
    kept = tmp_path / "kept.bbf"
    kept.write_bytes(b"old")
    os.chmod(kept, 0o640)
    f.save(kept)
    assert kept.stat().st_mode & 0o7777 == 0o640
    assert blockbloom.Filter.load(kept).find_values([1, 2]).tolist() == [True, True]
    target = tmp_path / "target.bbf"
    target.write_bytes(b"old")
    link = tmp_path / "link.bbf"
    link.symlink_to(target.name)
    f.save(link)
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_bytes() == f.to_file_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.bbf", "link.bbf", "new.bbf", "target.bbf"]
