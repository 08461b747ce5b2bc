# SPDX-License-Identifier: Apache-2.0
"""Every entrance that takes values takes one column of them: a DataFrame (of
any number of columns), a dict, an array of more than one column and, where
answers follow the values' order, a set are refused with a TypeError naming
what to pass, before anything is inserted; and messages about one element of
a list call it "item I", never "value I"."""
import os
import struct
import sys

import numpy as np
import pytest

import blockbloom
import blockbloom.parquet as bp

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "support"))
from parquet_files import INT64, Column, build_parquet  # noqa: E402

pd = pytest.importorskip("pandas", reason="pandas is not installed (Debian: python3-pandas): the "
                                          "refused tables are DataFrames")


@pytest.fixture(scope="module")
def int64_file(tmp_path_factory):
    """One row group, an INT64 column "k" whose filter holds 1 and 2."""
    f = blockbloom.Filter(256)
    f.insert([blockbloom.parquet_hash(struct.pack("<q", v)) for v in (1, 2)])
    data, _ = build_parquet([Column("k", INT64)], [[{"filter": f.to_parquet_bytes()}]])
    path = tmp_path_factory.mktemp("one_column") / "k.parquet"
    path.write_bytes(data)
    return str(path)


def filters():
    """(name, a fresh filter) for each kind of filter the value calls treat apart."""
    return [("parquet", blockbloom.Filter(1024)),
            ("parquet int64", blockbloom.Filter(1024, type="int64")),
            ("kudu", blockbloom.Filter(1024, layout="kudu")),
            ("kudu int64", blockbloom.Filter(1024, layout="kudu", type="int64"))]


def entrances(path):
    """(call name, function of values, whether a set is refused: its answers
    would follow no order) for every entrance that takes values."""
    calls = []
    for name, f in filters():
        calls.append(("insert_values", name, f.insert_values, False))
        calls.append(("find_values", name, f.find_values, True))
    calls.append(("parquet_hash", "", blockbloom.parquet_hash, True))
    calls.append(("parquet_hash", "int64", lambda v: blockbloom.parquet_hash(v, type="int64"), True))
    calls.append(("kudu_hash", "", blockbloom.kudu_hash, True))
    calls.append(("kudu_hash", "int64", lambda v: blockbloom.kudu_hash(v, type="int64"), True))
    calls.append(("probe", "", lambda v: bp.probe(path, "k", v), False))
    return calls


TWO_COLUMNS = pd.DataFrame({"key": [1, 2, 3], "other": [4, 5, 6]})

REFUSED = [
    ("a two-column DataFrame", TWO_COLUMNS, r"a DataFrame \(2 columns: 'key', 'other'\) is a table, "
                                            r"not one column of values: pass one column, df\['key'\]"),
    ("a one-column DataFrame", TWO_COLUMNS[["key"]], r"a DataFrame \(1 column: 'key'\) .* df\['key'\]"),
    ("following the contiguity advice", np.ascontiguousarray(TWO_COLUMNS),
     r"a 3 x 2 ndarray is not one column of values .*numpy.ascontiguousarray\(x\[:, 0\]\) .*, "
     r"or x.ravel\(\)"),
    ("a 2-D array", np.arange(6, dtype=np.int64).reshape(2, 3), r"a 2 x 3 ndarray is not one column"),
    ("a 3-D array", np.zeros((2, 1, 1), dtype=np.int64), r"a 2 x 1 x 1 ndarray"),
    ("a dict", {1: 10, 2: 20}, r"a dict is not one column of values: pass list\(d\) for its keys or "
                               r"list\(d.values\(\)\) for its values"),
]


@pytest.mark.parametrize("label,values,message", REFUSED, ids=[r[0] for r in REFUSED])
def test_what_is_not_one_column_is_refused_everywhere(int64_file, label, values, message):
    for call, kind, fn, _ in entrances(int64_file):
        with pytest.raises(TypeError, match=message):
            fn(values)
    # Nothing was inserted and no type was taken from the refused values.
    for _, f in filters():
        with pytest.raises(TypeError):
            f.insert_values(values)
        assert not f.find_values(np.array([1, 2, 3, 4, 5, 6, 10, 20], dtype=np.int64)).any()
        assert f.type in (None, "int64")


def test_a_2d_memoryview_is_refused_where_it_is_an_array():
    """insert_values / find_values read a memoryview as an array of values (the
    hash functions and probe take one as one bytes value)."""
    view = memoryview(np.arange(4, dtype=np.int64).reshape(2, 2))
    for _, f in filters():
        for fn in (f.insert_values, f.find_values):
            with pytest.raises(TypeError, match=r"a 2 x 2 memoryview is not one column of values"):
                fn(view)


def test_a_set_is_refused_where_answers_follow_the_order(int64_file):
    for call, kind, fn, ordered in entrances(int64_file):
        for values in ({1, 2}, frozenset([1, 2])):
            if ordered:
                with pytest.raises(TypeError, match=r"a (set|frozenset) has no order, so the answers could "
                                                    r"not be matched to its values: pass a list"):
                    fn(values)
            else:
                fn(values)  # insert_values and probe: a set's order does not matter
    f = blockbloom.Filter(1024)
    f.insert_values({1, 2})
    assert f.find_values([1, 2, 3]).tolist() == [True, True, False]
    maybe = {r["value"]: r["row_groups"][0]["maybe"] for r in bp.probe(int64_file, "k", {1, 3})["results"]}
    assert maybe == {1: True, 3: False}


@pytest.mark.parametrize("layout", ["parquet", "kudu"])
def test_one_column_containers_are_taken(int64_file, layout):
    """What is one column still goes in: a Series, a 1-D array, an n x 1
    array (answers of its shape), a list, a generator, an Index."""
    keys = np.array([1, 2, 3], dtype=np.int64)
    for values in (pd.Series(keys), keys, keys.reshape(3, 1), [1, 2, 3], (k for k in [1, 2, 3]),
                   pd.Index(keys), TWO_COLUMNS["key"]):
        f = blockbloom.Filter(1024, layout=layout)
        f.insert_values(values)
        assert f.find_values(np.array([1, 2, 3, 99], dtype=np.int64)).tolist() == [True, True, True, False]
    assert f.find_values(keys.reshape(3, 1)).shape == (3, 1)
    assert blockbloom.parquet_hash(keys.reshape(3, 1)).tolist() == blockbloom.parquet_hash(keys).tolist()


MIXED = [
    # (filter or hash call, values, exception, message about item 1)
    (lambda v: blockbloom.Filter(64).insert_values(v), [1, "a"], blockbloom.Error, r"item 1 \('a'\)"),
    (lambda v: blockbloom.Filter(64, type="int64").find_values(v), [1, b"x"], TypeError, r"item 1 \(b'x'\)"),
    (lambda v: blockbloom.parquet_hash(v), [1, 2.5, "x"], blockbloom.Error, r"item 2 \('x'\)"),
    (lambda v: blockbloom.Filter(64, layout="kudu").insert_values(v), [1, b"x"], TypeError,
     r"insert_values\(\): item 1: value b'x' of type"),
    (lambda v: blockbloom.Filter(64, layout="kudu", type="int64").find_values(v), [1, 2.5], TypeError,
     r"find_values\(\): item 1: value 2.5 of type"),
    (lambda v: blockbloom.kudu_hash(v), [1, b"x"], TypeError, r"kudu_hash\(\): item 1 \(b'x'\): expected an int"),
    (lambda v: blockbloom.kudu_hash(v), [1.5, "x"], TypeError, r"kudu_hash\(\): item 1 \('x'\): expected a float"),
    (lambda v: blockbloom.kudu_hash(v), ["a", 1], TypeError, r"kudu_hash\(\): item 1 \(1\): expected str or bytes"),
    (lambda v: blockbloom.kudu_hash(v), [1, True], TypeError, r"kudu_hash\(\): item 1 \(True\): cannot hash a bool"),
    (lambda v: blockbloom.kudu_hash(v, type="int32"), [1, 2**40], OverflowError, r"item 1 \(1099511627776\): "),
    # Lists of hashes too.
    (lambda v: blockbloom.Filter(64).insert(v), [1, 2.5], TypeError, r"insert\(\): item 1: expected an int, got a float"),
    (lambda v: blockbloom.Filter(64, layout="kudu").find(v), [1, 2**33], OverflowError,
     r"find\(\): item 1: 8589934592 is out of range 0 \.\. 4294967295"),
]


@pytest.mark.parametrize("call,values,error,message", MIXED)
def test_a_mixed_list_names_the_item(call, values, error, message):
    with pytest.raises(error, match=message) as e:
        call(values)
    assert "value 1:" not in str(e.value) and "value 2:" not in str(e.value)


def test_one_value_is_named_as_a_value_not_an_item():
    """A single value is no list: its message names no item."""
    for call in (lambda: blockbloom.kudu_hash(b"x", type="int64"),
                 lambda: blockbloom.Filter(64, layout="kudu", type="int64").insert_values(b"x"),
                 lambda: blockbloom.Filter(64, layout="kudu", type="int64").find_values(2.5)):
        with pytest.raises(TypeError) as e:
            call()
        assert "item" not in str(e.value), str(e.value)


def test_datetime_arrays_are_named_as_datetimes_not_their_counts():
    """A datetime64 array or Series reaches the library as its counts (an
    int64 array); a refusal names what the caller gave."""
    cases = [
        (blockbloom.Filter(64, type="timestamp(ns)"),
         pd.Series(pd.to_datetime(["2024-01-31"])).dt.tz_localize("Europe/Oslo"),
         blockbloom.Error, r"insert_values\(\): the datetime64\[ns\] values: a column of a tz-aware"),
        (blockbloom.Filter(64, type="int32"), np.array(["2024-01-31"], dtype="datetime64[D]"),
         TypeError, r"insert_values\(\): the datetime64\[D\] values: a column of a date"),
        (blockbloom.Filter(64, type="int64"), np.array(["2024-01-31T00:00"], dtype="datetime64[ms]"),
         TypeError, r"insert_values\(\): the datetime64\[ms\] values: a column of a timestamp"),
    ]
    for f, values, error, message in cases:
        with pytest.raises(error, match=message) as e:
            f.insert_values(values)
        assert "dtype int" not in str(e.value)


def test_the_advice_for_a_2d_array_works_everywhere(int64_file):
    """The refusal of a 2-D array says numpy.ascontiguousarray(x[:, 0]): taken at
    every entrance (x[:, 0] alone is a strided view the batch calls refuse)."""
    x = np.array([[1, 10], [2, 20], [3, 30]], dtype=np.int64)
    column = np.ascontiguousarray(x[:, 0])
    for call, kind, fn, _ in entrances(int64_file):
        fn(column)
    f = blockbloom.Filter(1024, type="int64")
    f.insert_values(column)
    assert f.find_values(np.array([1, 2, 3, 10], dtype=np.int64)).tolist() == [True, True, True, False]


def test_an_n_by_1_array_is_one_column_for_probe(int64_file):
    """probe and probe_dataset take an n x 1 array's single elements as its values."""
    column = np.array([[1], [42]], dtype=np.int64)
    maybe = {r["value"]: r["row_groups"][0]["maybe"] for r in bp.probe(int64_file, "k", column)["results"]}
    assert maybe == {1: True, 42: False}
    df = bp.probe_dataset(int64_file, "k", column)
    assert sorted(zip(df["value"].tolist(), df["maybe"].tolist())) == [(1, True), (42, False)]
