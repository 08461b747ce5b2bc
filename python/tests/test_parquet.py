# SPDX-License-Identifier: Apache-2.0
"""blockbloom.parquet against the blockbloom tool's JSON on the same files:
the shared test data's real files, and files assembled here with the CLI
tests' Parquet builder (tests/support/parquet_files.py)."""
import datetime
import decimal
import inspect
import json
import os
import re
import struct
import subprocess
import sys

import numpy as np
import pytest

import blockbloom
import blockbloom.parquet as bp

from conftest import shared_testdata

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "support"))
from parquet_files import (BOOLEAN, BYTE_ARRAY, DOUBLE_TYPE, FIXED_LEN_BYTE_ARRAY,  # noqa: E402
                           FLOAT, INT32, INT64, INT96, LIST, Column, bloom_header, ambiguous_paths_parquet,
                           build_parquet, column_values, read_file_metadata)

REAL_FILES = ["parquet-bloom-filtering.parquet", "data_index_bloom_encoding_stats.parquet"]


def cli(tool, args):
    return subprocess.run([tool] + [str(a) for a in args], capture_output=True, timeout=120)


def cli_json(tool, args):
    """The tool's --json output (args hold --json where it belongs)."""
    if "--json" not in args:
        args = args + ["--json"]
    result = cli(tool, args)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def nine_digits(x):
    """What the tool prints of a double (%.9g), read back."""
    return None if x is None else float("%.9g" % x)


def assert_list_matches_cli(tool, path):
    ours = bp.list(path)
    theirs = cli_json(tool, ["parquet", "list", path])["filters"]
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert set(a) == set(b)
        for key in b:
            if key in ("bits_set_fraction", "estimated_ndv"):
                assert nine_digits(a[key]) == b[key], key
            else:
                assert a[key] == b[key], key
    return ours


def python_value(plain, physical_type, logical_type):
    """A stored value (its plain encoding) as the Python value probe takes."""
    unsigned = logical_type is not None and (logical_type.startswith("UINT_") or
                                             logical_type.endswith(",false)") and
                                             logical_type.startswith("INTEGER"))
    if physical_type == "INT32":
        return struct.unpack("<I" if unsigned else "<i", plain)[0]
    if physical_type == "INT64":
        return struct.unpack("<Q" if unsigned else "<q", plain)[0]
    if physical_type == "FLOAT":
        return struct.unpack("<f", plain)[0]
    if physical_type == "DOUBLE":
        return struct.unpack("<d", plain)[0]
    return bytes(plain)


def cli_words(values):
    """The tool's flags and VALUE arguments for Python values (bytes as
    --hex; a datetime as its ISO text)."""
    if values and all(isinstance(v, bytes) for v in values):
        return ["--hex"], [v.hex() for v in values]
    return [], [v.isoformat() if isinstance(v, datetime.datetime) else
                repr(v) if isinstance(v, float) else str(v) for v in values]


def assert_probe_matches_cli(tool, path, column, values, row_group=None):
    ours = bp.probe(path, column, values, row_group=row_group)
    flags, words = cli_words(values)
    if row_group is not None:
        flags += ["--row-group", row_group]
    theirs = cli_json(tool, ["parquet", "probe", path, "--column", column] + flags + ["--json", "--"] +
                      words)
    assert (ours["column"], ours["physical_type"]) == (theirs["column"], theirs["physical_type"])
    assert [r["value"] for r in ours["results"]] == values
    assert [r["row_groups"] for r in ours["results"]] == [r["row_groups"] for r in theirs["results"]]
    return ours


def absent_values(physical_type, n=4):
    if physical_type in ("INT32", "INT64"):
        return [123456789 + k for k in range(n)]
    if physical_type in ("FLOAT", "DOUBLE"):
        return [-98765.25 - k for k in range(n)]
    return [b"blockbloom absent %d" % k for k in range(n)]


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_file_matches_the_tool(tool, name):
    path = shared_testdata(name)
    filters = assert_list_matches_cli(tool, path)
    assert filters, "the test file has Bloom filters"
    with open(path, "rb") as f:
        data = f.read()
    meta = read_file_metadata(data)
    pf = bp._open(path)
    column_index = {bp._column_name(pf.column(c)): c for c in range(pf.num_columns)}
    absent_seen = False
    for column in sorted({f["column"] for f in filters if f["status"] == "ok"}):
        row = next(f for f in filters if f["column"] == column)
        if row["physical_type"] == "BOOLEAN":
            continue
        present = []
        for g in sorted({f["row_group"] for f in filters if f["column"] == column}):
            stored = column_values(data, meta, g, column_index[column])
            present += [python_value(v, row["physical_type"], row["logical_type"])
                        for v in stored[:3]]
        if row["physical_type"].startswith("FIXED_LEN_BYTE_ARRAY"):
            absent = [b"\x5a" * len(present[0])]
        else:
            absent = absent_values(row["physical_type"])
        report = assert_probe_matches_cli(tool, path, column, present + absent)
        for r in report["results"][:len(present)]:
            assert any(g["maybe"] for g in r["row_groups"])  # no false negative
        absent_seen |= any(not g["maybe"] for r in report["results"] for g in r["row_groups"])
        assert_probe_matches_cli(tool, path, column, present + absent, row_group=row["row_group"])
    assert absent_seen, "some value is ruled out somewhere"


# ------------------------------------------------------------ assembled file

def plain_filter(encoded, num_bytes=256):
    f = blockbloom.Filter(num_bytes)
    f.insert([blockbloom.parquet_hash(v) for v in encoded])
    return f.to_parquet_bytes()


TS_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
TS_STORED = datetime.datetime(2023, 11, 14, 22, 13, 20, tzinfo=datetime.timezone.utc)  # 1.7e15 us

COLUMNS = [
    (Column("i8", INT32, logical=("INTEGER", 8, True)), [-128, -1, 0, 127],
     lambda v: struct.pack("<i", v)),
    (Column("u32", INT32, logical=("INTEGER", 32, False)), [0, 1, 2**31, 2**32 - 1],
     lambda v: struct.pack("<I", v)),
    (Column("i64", INT64), [-2**63, 0, 42, 2**63 - 1], lambda v: struct.pack("<q", v)),
    (Column("old_u16", INT32, converted=12), [0, 65535], lambda v: struct.pack("<I", v)),
    (Column("f", FLOAT), [1.5, -0.0, float("inf")], lambda v: struct.pack("<f", v)),
    (Column("d", DOUBLE_TYPE), [0.1, -2.5e300, float("nan")], lambda v: struct.pack("<d", v)),
    (Column("s", BYTE_ARRAY, logical=("STRING",)), ["", "abc", "héllo"],
     lambda v: v.encode("utf-8")),
    (Column("raw", BYTE_ARRAY), [b"\x00\xff", b"x"], lambda v: v),
    (Column("uuid", FIXED_LEN_BYTE_ARRAY, type_length=16, logical=("UUID",)),
     [bytes(range(16)), b"\xee" * 16], lambda v: v),
    (Column(["nested", "i96"], INT96), [b"\x01" * 12], lambda v: v),
    (Column("ts", INT64, logical=("TIMESTAMP", 2, True)), [TS_STORED],
     lambda v: struct.pack("<q", (v - TS_EPOCH) // datetime.timedelta(microseconds=1))),
    (Column("dec", FIXED_LEN_BYTE_ARRAY, type_length=5, converted=5, scale=2, precision=10),
     [decimal.Decimal("123.45")], lambda v: int(v.scaleb(2)).to_bytes(5, "big", signed=True)),
]


@pytest.fixture(scope="module")
def assembled(tmp_path_factory):
    """Two row groups: each typed column's filter holds its values (row group
    g the values at even / odd positions); plus a BOOLEAN column with a
    filter, one with none, one malformed in row group 1."""
    columns = [c for c, _, _ in COLUMNS] + [Column("flag", BOOLEAN), Column("nofilter", INT32),
                                            Column("half", INT32)]
    groups = []
    for g in range(2):
        group = []
        for _, values, encode in COLUMNS:
            mine = [v for i, v in enumerate(values) if i % 2 == g]
            group.append({"filter": plain_filter([encode(v) for v in mine], 64 * (g + 1))})
        group.append({"filter": plain_filter([b"\x01"])})
        group.append(None)
        group.append({"filter": plain_filter([struct.pack("<i", 7)])} if g == 0
                     else {"filter": b"\xff" * 40})
        groups.append(group)
    data, _ = build_parquet(columns, groups)
    path = tmp_path_factory.mktemp("parquet") / "assembled.parquet"
    path.write_bytes(data)
    return str(path)


def test_assembled_list_matches_the_tool(tool, assembled):
    filters = assert_list_matches_cli(tool, assembled)
    assert len(filters) == 2 * (len(COLUMNS) + 2)
    by_name = {(f["row_group"], f["column"]): f for f in filters}
    assert by_name[(0, "i8")]["logical_type"] == "INTEGER(8,true)"
    assert by_name[(0, "old_u16")]["logical_type"] == "UINT_16"
    assert by_name[(0, "uuid")]["physical_type"] == "FIXED_LEN_BYTE_ARRAY(16)"
    assert by_name[(0, "dec")]["logical_type"] == "DECIMAL(10,2)"
    assert by_name[(0, "ts")]["logical_type"] == "TIMESTAMP(MICROS,true)"
    assert by_name[(1, "i64")]["num_bytes"] == 128
    assert by_name[(1, "half")]["status"] == "malformed" and by_name[(1, "half")]["error"]
    assert by_name[(1, "half")]["bitset_offset"] is None
    assert ("nofilter" not in {f["column"] for f in filters})


def test_list_estimated_ndv_none_when_every_bit_is_set(tool, tmp_path):
    from parquet_files import bloom_header
    data, _ = build_parquet([Column("full")], [[{"filter": bloom_header(32) + b"\xff" * 32}]])
    (tmp_path / "full.parquet").write_bytes(data)
    [f] = assert_list_matches_cli(tool, str(tmp_path / "full.parquet"))
    assert (f["bits_set_fraction"], f["estimated_ndv"]) == (1.0, None)


@pytest.mark.parametrize("index", range(len(COLUMNS)))
def test_assembled_probe_matches_the_tool(tool, assembled, index):
    column, values, _ = COLUMNS[index]
    name = ".".join(column.path)
    if column.logical is not None and column.logical[0] == "TIMESTAMP":
        absent = [TS_STORED + datetime.timedelta(microseconds=1)]
    elif column.physical in (INT32, INT64):
        absent = [3, 5]
    elif column.physical in (FLOAT, DOUBLE_TYPE):
        absent = [2.25, -7.0]
    elif column.physical == BYTE_ARRAY:
        absent = ["absent", "nope"] if isinstance(values[0], str) else [b"absent"]
    elif isinstance(values[0], decimal.Decimal):
        absent = [decimal.Decimal("7.77")]
    else:
        absent = [b"\x07" * len(values[0])]
    probe_values = values + absent
    report = assert_probe_matches_cli(tool, assembled, name, probe_values)
    for i in range(len(values)):
        assert report["results"][i]["row_groups"][i % 2]["maybe"] is True
    assert not all(g["maybe"] for r in report["results"] for g in r["row_groups"])
    for g in (0, 1):
        one = assert_probe_matches_cli(tool, assembled, name, probe_values, row_group=g)
        assert [r["row_groups"][0]["row_group"] for r in one["results"]] == [g] * len(probe_values)
        assert [r["row_groups"] for r in one["results"]] == \
            [[r["row_groups"][g]] for r in report["results"]]


def test_probe_takes_one_value_and_bytes_paths(assembled):
    a = bp.probe(assembled, "i64", 42)
    assert a["results"] == [{"value": 42, "row_groups": [{"row_group": 0, "maybe": True},
                                                         {"row_group": 1, "maybe": False}]}]
    assert bp.probe(assembled.encode(), b"nested.i96", [b"\x01" * 12])["column"] == "nested.i96"
    # A str is its UTF-8 bytes.
    assert bp.probe(assembled, "s", "héllo")["results"][0]["row_groups"] == \
        bp.probe(assembled, "s", ["héllo".encode()])["results"][0]["row_groups"]
    assert bp.probe(assembled, "f", [])["results"] == []


def test_probe_unusable_row_group_answers_maybe_with_a_warning(tool, assembled):
    with pytest.warns(RuntimeWarning, match="row group 1 has a malformed Bloom filter"):
        ours = bp.probe(assembled, "half", [7, 8])
    result = cli(tool, ["parquet", "probe", assembled, "--column", "half", "7", "8", "--json"])
    assert result.returncode == 0
    assert b"row group 1 has a malformed Bloom filter" in result.stderr
    theirs = json.loads(result.stdout)
    assert [r["row_groups"] for r in ours["results"]] == [r["row_groups"] for r in theirs["results"]]
    assert ours["results"][1]["row_groups"] == [{"row_group": 0, "maybe": False},
                                                {"row_group": 1, "maybe": True}]



def test_a_header_that_disagrees_with_bloom_filter_length_is_never_absent(tool, tmp_path):
    """A 512-byte bitset whose header says 256 (bloom_filter_length 16 + 512)
    or one whose header says 512 (bloom_filter_length 16 + 256): malformed in
    list, maybe with a warning in probe, refused by load_filter, as the tool
    says; probed over the header's 256 bytes, some of the 100 values it holds
    would answer absent."""
    held = list(range(1000, 1100))
    full = blockbloom.Filter(512)
    full.insert([blockbloom.parquet_hash(struct.pack("<i", v)) for v in held])
    bitset = bytes(full)
    half = blockbloom.Filter.from_bytes(bitset[:256])
    assert not all(blockbloom.parquet_hash(struct.pack("<i", v)) in half for v in held)
    other = plain_filter([struct.pack("<i", 1)], 512)
    data, _ = build_parquet([Column("less"), Column("more")], [
        [{"filter": other}, {"filter": other}],
        [{"filter": bloom_header(256) + bitset, "length": 16 + 512},
         {"filter": bloom_header(512) + bitset, "length": 16 + 256}]])
    path = tmp_path / "disagree.parquet"
    path.write_bytes(data)
    filters = assert_list_matches_cli(tool, str(path))
    by_chunk = {(f["row_group"], f["column"]): f for f in filters}
    for column, header, length in (("less", 256, 528), ("more", 512, 272)):
        assert by_chunk[(0, column)]["status"] == "ok"
        bad = by_chunk[(1, column)]
        assert bad["status"] == "malformed" and bad["num_bytes"] is None
        assert ("numBytes %d (+ 16 header bytes = %d) disagrees with bloom_filter_length %d"
                % (header, header + 16, length)) in bad["error"]
        with pytest.warns(RuntimeWarning, match="row group 1 has a malformed Bloom filter"):
            report = bp.probe(str(path), column, held)
        assert all(r["row_groups"][1]["maybe"] for r in report["results"])
        with pytest.warns(RuntimeWarning):
            assert_probe_matches_cli(tool, str(path), column, held)
        with pytest.raises(blockbloom.Error, match="disagrees with bloom_filter_length"):
            bp.load_filter(str(path), column, 1)


def test_a_list_in_bloom_filter_length_is_skipped(tool, tmp_path):
    """A writer that put a list in ColumnMetaData field 15 (an i32): the field
    is skipped as Thrift's readers skip it; with no usable offset either, the
    chunk has no filter, else its header says how long it is."""
    data, _ = build_parquet([Column("a")], [[{"offset": 4, "length": 80, "offset_type": LIST,
                                               "length_type": LIST}]])
    (tmp_path / "lists.parquet").write_bytes(data)
    assert assert_list_matches_cli(tool, str(tmp_path / "lists.parquet")) == []
    data, _ = build_parquet([Column("b")], [[{"filter": plain_filter([struct.pack("<i", 7)], 64),
                                               "length_type": LIST}]])
    (tmp_path / "length.parquet").write_bytes(data)
    [f] = assert_list_matches_cli(tool, str(tmp_path / "length.parquet"))
    assert (f["status"], f["num_bytes"]) == ("ok", 64)
    assert bp.probe(str(tmp_path / "length.parquet"), "b", [7])["results"][0]["row_groups"] == \
        [{"row_group": 0, "maybe": True}]


def test_load_filter_probes_arrays(assembled):
    import numpy as np
    f = bp.load_filter(assembled, "i64", 0)
    assert isinstance(f, blockbloom.Filter) and f.layout == "parquet"
    assert f.find_values(np.array([-2**63, 42], dtype=np.int64)).tolist() == [True, True]
    # INTEGER(8,true) is stored as INT32: an int8 array is sign-extended to it.
    i8 = bp.load_filter(assembled, "i8", 0)
    assert i8.find_values(np.array([-128, 0], dtype=np.int8)).tolist() == [True, True]
    assert i8.find_values(np.array([-128, 0], dtype=np.int32)).tolist() == [True, True]
    u32 = bp.load_filter(assembled, b"u32", 1)
    assert u32.find_values(np.array([1, 2**32 - 1], dtype=np.uint32)).tolist() == [True, True]
    for column, row_group, status in (("nofilter", 0, "_ERR_PARQUET_NO_FILTER"),
                                      ("no_such", 0, "_ERR_PARQUET_NO_SUCH_CHUNK"),
                                      ("i8", 2, "_ERR_PARQUET_NO_SUCH_CHUNK")):
        with pytest.raises(blockbloom.Error) as e:
            bp.load_filter(assembled, column, row_group)
        assert e.value.status == getattr(blockbloom._core, status)
    with pytest.raises(blockbloom.Error, match="malformed"):
        bp.load_filter(assembled, "half", 1)
    with pytest.raises(TypeError):
        bp.load_filter(assembled, "i8", None)


# ------------------------------------------------------------ errors

def assert_tool_refuses(tool, args):
    result = cli(tool, args)
    assert result.returncode == 2, result
    return result.stderr.decode("utf-8", "replace")


@pytest.mark.parametrize("content", [b"", b"not a parquet file at all", b"PAR1" + b"\0" * 20])
def test_not_parquet_is_the_library_message(tool, tmp_path, content):
    path = tmp_path / "junk.parquet"
    path.write_bytes(content)
    for call in (lambda: bp.list(path), lambda: bp.probe(path, "a", [1])):
        with pytest.raises(blockbloom.Error) as e:
            call()
        assert str(path) in str(e.value)
        assert str(e.value) in assert_tool_refuses(tool, ["parquet", "list", path])


def test_missing_file(tool, tmp_path):
    with pytest.raises(blockbloom.Error) as e:
        bp.list(tmp_path / "absent.parquet")
    assert str(e.value) in assert_tool_refuses(tool, ["parquet", "list", tmp_path / "absent.parquet"])


class _PathLike:
    def __init__(self, path):
        self.path = path

    def __fspath__(self):
        return self.path


@pytest.mark.parametrize("spell", [str, os.fsencode, _PathLike], ids=["str", "bytes", "PathLike"])
@pytest.mark.parametrize("call", [
    lambda path: bp.list(path),
    lambda path: bp.probe(path, "i64", 42),
    lambda path: bp.load_filter(path, "i64", 0),
    lambda path: blockbloom._core._ParquetFile(os.fsencode(path)),
], ids=["list", "probe", "load_filter", "_ParquetFile"])
def test_a_path_with_an_embedded_nul_is_refused_as_open_refuses_it(assembled, call, spell):
    # Cut at the NUL, the path would name the (valid) file: nothing is opened.
    path = spell(assembled + "\0.other")
    with pytest.raises(ValueError, match="embedded null byte") as e:
        call(path)
    assert not isinstance(e.value, blockbloom.Error)
    with pytest.raises(ValueError, match="embedded null byte"):
        open(path, "rb")


@pytest.mark.parametrize("column, status_name, row_group", [
    ("no_such", "_ERR_PARQUET_NO_SUCH_CHUNK", None),
    ("nofilter", "_ERR_PARQUET_NO_FILTER", None),
    ("nofilter", "_ERR_PARQUET_NO_FILTER", 0),
    ("half", "_ERR_PARQUET_FOOTER_MALFORMED", 1),
    ("i8", "_ERR_PARQUET_NO_SUCH_CHUNK", 2),
    ("flag", "_ERR_PARQUET_UNSUPPORTED", None),
])
def test_probe_refuses_as_the_tool(tool, assembled, column, status_name, row_group):
    with pytest.raises(blockbloom.Error) as e:
        bp.probe(assembled, column, [b"\x01"] if column == "flag" else [1], row_group=row_group)
    if status_name != "_ERR_PARQUET_FOOTER_MALFORMED":
        assert e.value.status == getattr(blockbloom._core, status_name)
    else:
        assert e.value.status < 0
    extra = [] if row_group is None else ["--row-group", row_group]
    stderr = assert_tool_refuses(tool, ["parquet", "probe", assembled, "--column", column, "1"] +
                                 extra)
    assert (column if row_group != 2 else "has 2 row groups") in str(e.value)
    # The same reason, the tool's "--row-group" being our "row_group".
    assert str(e.value).replace("row_group ", "--row-group ") in stderr


def test_probe_of_a_file_without_row_groups(tool, tmp_path):
    data, _ = build_parquet([Column("a")], [])
    path = tmp_path / "empty.parquet"
    path.write_bytes(data)
    with pytest.raises(blockbloom.Error, match="no row groups") as e:
        bp.probe(path, "a", [1])
    assert str(e.value) in assert_tool_refuses(tool, ["parquet", "probe", path, "--column", "a", "1"])
    assert bp.list(path) == []


@pytest.mark.parametrize("column, value, error, cli_word", [
    ("i8", "1x", ValueError, None),  # a str is the type's text form: "1" is 1
    ("i8", True, TypeError, None),
    ("d", "one", ValueError, None),
    ("s", 5, TypeError, None),
    ("uuid", "0123456789abcdef", ValueError, None),
    ("ts", 1.5, TypeError, None),
])
def test_probe_refuses_values(tool, assembled, column, value, error, cli_word):
    with pytest.raises(error) as e:
        bp.probe(assembled, column, [value])
    assert repr(value)[:20] in str(e.value) and column in str(e.value)
    if cli_word is not None:
        assert_tool_refuses(tool, ["parquet", "probe", assembled, "--column", column, "--", cli_word])


@pytest.mark.parametrize("column, value, cli_word", [
    ("i8", 128, "128"),
    ("i8", -129, "-129"),
    ("u32", -1, "-1"),
    ("u32", 2**32, str(2**32)),
    ("i64", 2**63, str(2**63)),
    ("old_u16", 65536, "65536"),
    ("i8", 1.5, "1.5"),
    ("f", 1e39, "1e39"),
    ("f", 1e-50, "1e-50"),
    ("d", 10**400, None),
    ("uuid", b"short", "short"),
    ("nested.i96", b"\x01" * 11, "x" * 11),
])
def test_probe_values_that_cannot_be_of_the_type_are_absent(tool, assembled, column, value, cli_word):
    """A value no row of the column can equal answers maybe False (as SQL's = would); the
    same spelled as the tool's text is a typo, refused (exit 2)."""
    report = bp.probe(assembled, column, [value])
    assert [g["maybe"] for g in report["results"][0]["row_groups"]] == [False, False]
    if cli_word is not None:
        assert_tool_refuses(tool, ["parquet", "probe", assembled, "--column", column, "--", cli_word])


@pytest.fixture(scope="module")
def documented(tmp_path_factory):
    """One row group: INTEGER(8,true) holding 1, DATE holding day 5, a local
    TIMESTAMP(MICROS) holding 0, a STRING holding "abc"."""
    columns = [Column("i8", INT32, logical=("INTEGER", 8, True)), Column("d", INT32, logical=("DATE",)),
               Column("local_ts", INT64, logical=("TIMESTAMP", 2, False)),
               Column("s", BYTE_ARRAY, logical=("STRING",))]
    stored = [struct.pack("<i", 1), struct.pack("<i", 5), struct.pack("<q", 0), b"abc"]
    data, _ = build_parquet(columns, [[{"filter": plain_filter([v])} for v in stored]])
    path = tmp_path_factory.mktemp("parquet") / "documented.parquet"
    path.write_bytes(data)
    return str(path)


# bb_status codes (stable values, include/blockbloom/blockbloom.h).
BB_ERR_VALUE_SYNTAX, BB_ERR_VALUE_RANGE, BB_ERR_VALUE_AMBIGUOUS = -49, -50, -58


def maybes(path, column, values):
    return [r["row_groups"][0]["maybe"] for r in bp.probe(path, column, values)["results"]]


def test_probe_does_what_its_docstring_and_docs_python_say(documented):
    """Each claim of blockbloom.parquet.probe's docstring and docs/python.md's
    "Values" paragraph and table (they used to disagree: the docs said ints
    went through the text rules, so 300 on INTEGER(8,true) was a ValueError)."""
    p = documented
    # Values that no row of the type can equal answer maybe False; exact ones convert.
    assert maybes(p, "i8", [300, 1.5, decimal.Decimal("1.5"), 1.0, decimal.Decimal("1.00"), 1]) == \
        [False, False, False, True, True, True]
    # A str is the type's text: a typo or a text out of range is blockbloom.Error (a ValueError).
    assert maybes(p, "i8", ["1"]) == [True]
    for text, status in (("300", BB_ERR_VALUE_RANGE), ("1x", BB_ERR_VALUE_SYNTAX)):
        with pytest.raises(blockbloom.Error, match="item 0 .* into column i8") as e:
            bp.probe(p, "i8", [text])
        assert e.value.status == status and isinstance(e.value, ValueError)
    # Ambiguous values: blockbloom.Error BB_ERR_VALUE_AMBIGUOUS.
    aware = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    for column, value in (("d", 5), ("local_ts", 0), ("local_ts", aware)):
        with pytest.raises(blockbloom.Error) as e:
            bp.probe(p, column, [value])
        assert e.value.status == BB_ERR_VALUE_AMBIGUOUS and column in str(e.value)
    assert maybes(p, "d", [datetime.date(1970, 1, 6)]) == [True]
    assert maybes(p, "local_ts", [datetime.datetime(1970, 1, 1)]) == [True]
    assert maybes(p, "d", ["1970-01-06"]) == [True]
    # Values of a kind the type cannot be compared with: TypeError naming item and column.
    for column, value in (("i8", True), ("i8", b"\x01"), ("s", 5)):
        with pytest.raises(TypeError, match="item 0 .*column " + column):
            bp.probe(p, column, [value])
    with pytest.raises(TypeError, match="item 1 .*a tuple is none of the kinds"):
        bp.probe(p, "i8", [1, (1, 2)])
    # Nulls never match; physical=True takes a DATE's days.
    assert maybes(p, "i8", [None]) == [False]
    assert bp.probe(p, "d", [5], physical=True)["results"][0]["row_groups"][0]["maybe"] is True
    # values: any iterable is many values; a str, bytes or a non-iterable is one.
    assert maybes(p, "i8", (1, 300)) == [True, False]
    assert maybes(p, "i8", np.array([1, 2], dtype=np.int8)) == [True, False]
    assert maybes(p, "s", "abc") == [True] and maybes(p, "s", b"abc") == [True]
    assert maybes(p, "i8", 1) == [True]


def test_docs_python_md_gives_each_parquet_call_its_real_signature():
    """docs/python.md's table of blockbloom.parquet calls spells each one as it is
    (probe's physical= was missing)."""
    docs = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")
    with open(docs, encoding="utf-8") as f:
        spelled = dict(re.findall(r"`blockbloom\.parquet\.(\w+)(\([^`]*\))`", f.read()))
    assert set(spelled) == {"list", "probe", "load_filter", "probe_dataset"}
    for name, signature in spelled.items():
        assert signature == str(inspect.signature(getattr(bp, name))), name


def test_probe_argument_types(assembled):
    with pytest.raises(TypeError):
        bp.probe(assembled, 5, [1])
    with pytest.raises(TypeError):
        bp.probe(assembled, "i8", [1], row_group="0")
    with pytest.raises(ValueError):
        bp.probe(assembled, "i8", [1], row_group=-1)


# ------------------------------------------------------------ column paths

@pytest.fixture(scope="module")
def ambiguous(tmp_path_factory):
    """A top-level column named "a.b" (holding 7) beside field b of group a
    (holding 8), and a.c without a filter."""
    data = ambiguous_paths_parquet(plain_filter([struct.pack("<i", 7)]),
                                   plain_filter([struct.pack("<i", 8)]))
    path = tmp_path_factory.mktemp("parquet") / "ambiguous.parquet"
    path.write_bytes(data)
    return str(path)


def test_list_rows_carry_their_names_as_the_tool(tool, ambiguous, assembled):
    rows = assert_list_matches_cli(tool, ambiguous)
    assert [(r["column"], r["path"]) for r in rows] == [("a.b", ["a.b"]), ("a.b", ["a", "b"])]
    rows = bp.list(assembled)
    assert {r["column"]: r["path"] for r in rows}["nested.i96"] == ["nested", "i96"]


def test_probe_by_names_is_exact_and_an_ambiguous_dotted_path_is_refused(tool, ambiguous):
    def maybe(column, value):
        return bp.probe(ambiguous, column, [value])["results"][0]["row_groups"][0]["maybe"]

    assert maybe(["a.b"], 7) and maybe(("a", "b"), 8) and maybe([b"a", "b"], 8)
    top = bp.probe(ambiguous, ["a.b"], [7, 8])
    nested = bp.probe(ambiguous, ["a", "b"], [7, 8])
    assert top["column"] == nested["column"] == "a.b"
    for report, names in ((top, '["a.b"]'), (nested, '["a", "b"]')):
        theirs = cli_json(tool, ["parquet", "probe", ambiguous, "--column-path", names, "7", "8"])
        assert report == {**theirs, "results": [{**r, "value": int(r["value"])}
                                                for r in theirs["results"]]}
    with pytest.raises(blockbloom.Error) as e:
        bp.probe(ambiguous, "a.b", [7])
    assert e.value.status == blockbloom._core._ERR_PARQUET_AMBIGUOUS_COLUMN == -52
    assert '["a.b"], ["a", "b"]' in str(e.value)
    stderr = assert_tool_refuses(tool, ["parquet", "probe", ambiguous, "--column", "a.b", "7"])
    assert str(e.value) in stderr


@pytest.mark.parametrize("column, fragment", [
    ("a", 'no column a: a is a group: its columns are ["a", "b"], a.c'),
    ("b", "no column b; the closest of its 3 columns by name: "),
    (["a"], 'no column with the names ["a"] (as a dotted path: no column a: a is a group'),
    (["a", "x"], 'no column with the names ["a", "x"]'),
    (["a.c"], 'no column with the names ["a.c"] (the column a.c has the names ["a", "c"])'),
])
def test_no_column_messages_are_the_librarys(tool, ambiguous, column, fragment):
    with pytest.raises(blockbloom.Error) as e:
        bp.probe(ambiguous, column, [7])
    assert e.value.status == blockbloom._core._ERR_PARQUET_NO_SUCH_CHUNK
    assert fragment in str(e.value)
    if isinstance(column, str):
        stderr = assert_tool_refuses(tool, ["parquet", "probe", ambiguous, "--column", column, "7"])
        assert str(e.value) in stderr


def test_probe_column_types(ambiguous):
    for bad in ([], (), [1], ["a", None], 5, None):
        with pytest.raises(TypeError):
            bp.probe(ambiguous, bad, [7])


def test_names_that_are_not_utf8_are_the_tools_and_stay_distinct(tool, tmp_path):
    # The tool's JSON writes such a byte 0xXX as \udcXX: json.loads gives the
    # str that surrogateescape decodes (docs/formats.md, "JSON output").
    from parquet_files import bloom_header
    blob = bloom_header(32) + b"\x00" * 32
    names = [[b"\xff"], [b"\xfe"], [b"g\xc3", b"\xe9t\xc3\xa9"]]
    data, _ = build_parquet([Column(n, BYTE_ARRAY) for n in names], [[{"filter": blob}] * 3])
    (tmp_path / "names.parquet").write_bytes(data)
    rows = assert_list_matches_cli(tool, str(tmp_path / "names.parquet"))
    assert [r["column"] for r in rows] == ["\udcff", "\udcfe", "g\udcc3.\udce9t\u00e9"]
    assert [[n.encode("utf-8", "surrogateescape") for n in r["path"]] for r in rows] == names
    # A message quoting the file's bytes (a chunk's file_path) decodes alike.
    data, _ = build_parquet([Column("a")], [[{"filter": blob, "file_path": b"x\xffy.parquet"}]])
    (tmp_path / "elsewhere.parquet").write_bytes(data)
    [row] = assert_list_matches_cli(tool, str(tmp_path / "elsewhere.parquet"))
    assert 'file_path "x\udcffy.parquet"' in row["error"]
