# SPDX-License-Identifier: Apache-2.0
"""blockbloom.parquet and the footer: the limits of bb_parquet_limits as
arguments (max_container_elements, max_memory_bytes) of every function that
reads one, and the memory a footer costs, bounded by the file's size for
every shape of footer tests/support/hostile_footers.py makes (the bound of
docs/reliability.md), measured on a child interpreter's peak RSS."""
import os
import subprocess
import sys

import pytest

import blockbloom
import blockbloom.parquet as bp

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "support"))
import hostile_footers  # noqa: E402
from parquet_files import INT32, Column, bloom_header, build_parquet  # noqa: E402

LIMIT = blockbloom._core._ERR_PARQUET_LIMIT
CALLS = {
    "list": lambda path, **limits: bp.list(path, **limits),
    "probe": lambda path, **limits: bp.probe(path, "a", 1, **limits),
    "load_filter": lambda path, **limits: bp.load_filter(path, "a", 0, **limits),
}


@pytest.fixture(scope="module")
def two_columns(tmp_path_factory):
    """Two INT32 columns, each with a filter in each of 3 row groups: a
    schema list of 3 elements, a row_groups list of 3."""
    blob = bloom_header(32) + bytes(32)
    data = build_parquet([Column("a", INT32), Column("b", INT32)],
                         [[{"filter": blob}, {"filter": blob}]] * 3)[0]
    path = tmp_path_factory.mktemp("limits") / "two.parquet"
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_the_defaults_accept_the_file(two_columns, call):
    assert call(two_columns) is not None
    assert call(two_columns, max_container_elements=None, max_memory_bytes=None) is not None
    assert call(two_columns, max_container_elements=3, max_memory_bytes=1 << 20) is not None


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_a_limit_below_the_footer_refuses_with_the_librarys_error(two_columns, call):
    with pytest.raises(blockbloom.Error, match="FileMetaData.schema holds 3 elements, more than "
                       "max_container_elements 2") as e:
        call(two_columns, max_container_elements=2)
    assert e.value.status == LIMIT == -53
    with pytest.raises(blockbloom.Error,
                       match="would take more than max_memory_bytes 100 bytes") as e:
        call(two_columns, max_memory_bytes=100)
    assert e.value.status == LIMIT


@pytest.mark.parametrize("name", ["max_container_elements", "max_memory_bytes"])
@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_limit_arguments_are_checked_before_the_file_is_read(tmp_path, call, name):
    missing = str(tmp_path / "missing.parquet")  # reading it would raise blockbloom.Error
    for bad, error in [(0, ValueError), (-1, ValueError), (1 << 64, ValueError),
                       (True, TypeError), (1.5, TypeError), ("10", TypeError)]:
        with pytest.raises(error, match=name):
            call(missing, **{name: bad})
    with pytest.raises(blockbloom.Error):
        call(missing, **{name: (1 << 64) - 1})


def test_a_larger_limit_accepts_what_the_default_refuses(tmp_path):
    path = tmp_path / "row_groups.parquet"
    path.write_bytes(hostile_footers.many_row_groups(1_000_000))
    with pytest.raises(blockbloom.Error, match="max_memory_bytes") as e:
        bp.list(str(path))
    assert e.value.status == LIMIT
    assert bp.list(str(path), max_memory_bytes=1 << 30) == []  # no chunk has a filter


# ------------------------------------------------------------ peak memory

# The child's peak RSS, by wait4 from a fresh small launcher (a forked
# child's peak counts what it was forked from).
LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), usage.ru_maxrss * 1024)
"""
# What list() adds for each row it returns (a dict of 12 values) and each
# column it lists (its names and text, shared by its rows), beside the
# footer's bound: measured ~700 and ~450 bytes on CPython 3.11.
ROW_BYTES = 1536


def peak_of(code, *args):
    root = os.path.dirname(os.path.dirname(os.path.abspath(blockbloom.__file__)))
    out = subprocess.run([sys.executable, "-c", LAUNCHER, sys.executable, "-c",
                          "import sys; sys.path.insert(0, %r); import blockbloom.parquet as bp\n"
                          % root + code] + list(args),
                         check=True, capture_output=True, text=True).stdout.split()
    return int(out[0]), int(out[1])


def sanitized():
    with open(blockbloom._core.__file__, "rb") as f:
        return "ASAN_OPTIONS" in os.environ or b"__asan_init" in f.read()


@pytest.mark.skipif(bool(os.environ.get("BLOCKBLOOM_TEST_WRAPPER")),
                    reason="costs under an emulator are the emulator's")
def test_every_footer_shape_costs_within_the_bound(tmp_path):
    if sanitized():
        pytest.skip("under ASan the peak RSS is the sanitizer's (shadow memory, quarantine)")
    _, baseline = peak_of("")
    path = str(tmp_path / "shape.parquet")
    code = ("import blockbloom\ntry:\n    rows = bp.list(sys.argv[1])\n"
            "except blockbloom.Error as e:\n    assert e.status == %d, e\n    rows = []\n"
            "open(sys.argv[2], 'w').write(str(len(rows)))\n" % LIMIT)
    for name, shape in hostile_footers.SHAPES.items():
        data = shape(800_000)
        with open(path, "wb") as f:
            f.write(data)
        status, peak = peak_of(code, path, path + ".rows")
        assert status == 0, name
        with open(path + ".rows") as f:
            rows = int(f.read())
        bound = (hostile_footers.FOOTER_MEMORY_MULTIPLE * len(data) +
                 hostile_footers.FOOTER_MEMORY_BASE + ROW_BYTES * rows)
        assert peak - baseline < bound, "%s: %.1f MiB over the interpreter's, bound %.1f MiB" % (
            name, (peak - baseline) / (1 << 20), bound / (1 << 20))
