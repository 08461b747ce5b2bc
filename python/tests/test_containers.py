# SPDX-License-Identifier: Apache-2.0
"""Every container of the same values hashes the same: numpy arrays of every
width, masked arrays, datetime64, __array__ objects, pandas Series / Index of
plain and nullable dtypes; and lists whose items' hooks mutate them."""

import numpy as np
import pytest

import blockbloom

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def pandas():
    return pytest.importorskip("pandas", reason="pandas is not installed (Debian: python3-pandas)")


def check_same(expected_values, *containers):
    """parquet_hash and find_values agree for every container (the filter typed by the first:
    int32 days and datetime64[D] hash alike, but a DATE filter refuses ints)."""
    want = blockbloom.parquet_hash(expected_values)
    f = blockbloom.Filter(1024)
    f.insert_values(containers[0])
    for c in containers:
        got = blockbloom.parquet_hash(c)
        assert got.dtype == np.uint64
        np.testing.assert_array_equal(got, want, err_msg=repr(type(c)))
        # Every non-null value is found, nulls never are.
        assert np.count_nonzero(f.find_values(c)) == len(want), repr(type(c))
        g = blockbloom.Filter(1024)
        g.insert_values(c)
        assert g == f, repr(type(c))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_widths_follow_the_column_rules(dtype):
    a = np.array([0, 1, 7, 100], dtype=dtype)
    info = np.iinfo(dtype)
    # Up to 32 bits: INT32 (sign- or zero-extended); 64 bits: INT64.
    reference = a.astype(np.int64 if info.bits == 64 else np.int32)
    check_same(reference, a)
    if info.bits < 32:
        # Small ints widen by value; no two values share a hash.
        full = np.array([info.min, info.max], dtype=dtype)
        np.testing.assert_array_equal(blockbloom.parquet_hash(full),
                                      blockbloom.parquet_hash(full.astype(np.int32)))


def test_unsigned_as_bits():
    a = np.array([2**32 - 1], dtype=np.uint32)
    np.testing.assert_array_equal(blockbloom.parquet_hash(a),
                                  blockbloom.parquet_hash(np.array([-1], dtype=np.int32)))
    b = np.array([2**64 - 1], dtype=np.uint64)
    assert blockbloom.parquet_hash(b)[0] == blockbloom.parquet_hash(-1)


def test_parquet_hash_scalar_and_array():
    assert isinstance(blockbloom.parquet_hash(5), int)
    assert isinstance(blockbloom.parquet_hash(np.int64(5)), int)
    assert blockbloom.parquet_hash([5, None, 6]).tolist() == [blockbloom.parquet_hash(5),
                                                               blockbloom.parquet_hash(6)]
    k = blockbloom.kudu_hash(np.array([1, 2], dtype=np.int32), seed=3)
    assert k.dtype == np.uint32
    assert k.tolist() == [blockbloom.kudu_hash(1, seed=3, type="int32"),
                          blockbloom.kudu_hash(2, seed=3, type="int32")]


def test_masked_arrays():
    a = np.ma.array([1, 2, 3], mask=[False, True, False], dtype=np.int16)
    check_same(np.array([1, 3], dtype=np.int32), a)
    f = blockbloom.Filter(1024)
    f.insert_values(a)
    assert f.find_values(a).tolist() == [True, False, True]


def test_datetime64():
    days = np.array(["2024-01-31", "1970-01-01", "NaT"], dtype="datetime64[D]")
    check_same(np.array([19753, 0], dtype=np.int32), days)
    ns = np.array(["2024-01-31T12:00:00.000000001", "NaT"], dtype="datetime64[ns]")
    check_same(ns[:1].view(np.int64), ns)
    secs = np.array(["2024-01-31T12:00:00"], dtype="datetime64[s]")
    check_same(secs.astype("datetime64[ms]").view(np.int64), secs)
    f = blockbloom.Filter(1024)
    f.insert_values(days)
    assert f.find_values(days).tolist() == [True, True, False]
    # Hours are exact seconds: 01:00 is no DATE (absent), midnight is its day.
    assert f.find_values(np.array([1, 24 * 19753], dtype="datetime64[h]")).tolist() == [False, True]
    with pytest.raises(TypeError, match="finest"):
        f.find_values(np.array([1], dtype="datetime64[ps]"))


class ArrayLike:
    def __init__(self, a):
        self.a = a

    def __array__(self, dtype=None, copy=None):
        return self.a


def test_array_protocol_objects():
    a = np.array([3, 4, 5], dtype=np.int32)
    check_same(a, ArrayLike(a), ArrayLike(a.astype(np.int16)))


def test_booleans_refused():
    with pytest.raises(TypeError, match="BOOLEAN"):
        blockbloom.Filter(64).insert_values(np.array([True]))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                                   "uint64", "float32", "float64"])
def test_pandas_plain_series_hash_as_their_numpy(dtype):
    pd = pandas()
    s = pd.Series([1, 2, 3], dtype=dtype)
    check_same(s.to_numpy(), s, s.to_numpy())
    # pandas < 2 widens small ints in an Index to int64: it hashes as its own to_numpy().
    idx = pd.Index(s)
    check_same(idx.to_numpy(), idx)


@pytest.mark.parametrize("dtype", ["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32",
                                   "UInt64", "Float32", "Float64"])
def test_pandas_nullable_series(dtype):
    pd = pandas()
    s = pd.Series([1, None, 3], dtype=dtype)
    plain = np.array([1, 3], dtype=dtype.lower())
    check_same(plain, s, pd.Index(s), pd.Series([1, 3], dtype=dtype))
    f = blockbloom.Filter(1024)
    f.insert_values(s)
    assert f.find_values(s).tolist() == [True, False, True]


def test_pandas_strings_and_objects():
    pd = pandas()
    s = pd.Series(["a", None, "bc"], dtype="string")
    check_same(["a", "bc"], s, pd.Series(["a", None, "bc"], dtype=object), pd.Index(["a", "bc"]))
    f = blockbloom.Filter(1024)
    f.insert_values(s)
    assert f.find_values(s).tolist() == [True, False, True]


def test_pandas_datetimes():
    pd = pandas()
    naive = pd.Series(pd.to_datetime(["2024-01-31 12:00", None]))
    want = np.array(["2024-01-31T12:00"], dtype="datetime64[ns]").view(np.int64)
    check_same(want, naive, pd.DatetimeIndex(naive))
    aware = pd.Series(pd.to_datetime(["2024-01-31 13:00"]).tz_localize("Europe/Paris"))
    check_same(want, aware)


def test_pandas_booleans_refused():
    pd = pandas()
    with pytest.raises(TypeError, match="BOOLEAN"):
        blockbloom.Filter(64).insert_values(pd.Series([True, None], dtype="boolean"))
    with pytest.raises(TypeError, match="BOOLEAN"):
        blockbloom.Filter(64).insert_values(pd.Series([True, False]))


def test_hooks_that_mutate_the_list_do_not_crash():
    values = []

    class Clearing:
        def __index__(self):
            values.clear()
            return 5

    values.extend([Clearing(), Clearing(), 7])
    f = blockbloom.Filter(1024)
    f.insert_values(values)
    assert f.find_values([5, 7]).tolist() == [True, True]

    mask = []

    class ClearingBool:
        def __bool__(self):
            mask.clear()
            return False

    mask.extend([ClearingBool(), ClearingBool()])
    assert f.find_values([5, 7], mask=mask).tolist() == [True, True]


# ------------------------------------------------------------ typed filters

def test_typed_filter_records_its_type():
    import copy
    import pickle
    f = blockbloom.Filter(1024, type="date")
    assert f.type == "date" and blockbloom.Filter(64).type is None
    f.insert_values(np.array(["2024-01-31"], dtype="datetime64[D]"))
    for g in (f.copy(), copy.deepcopy(f), pickle.loads(pickle.dumps(f))):
        assert g.type == "date" and g == f
    with pytest.raises(ValueError, match="not a type name"):
        blockbloom.Filter(64, type="int33")


def test_typed_filter_objects_through_the_text_rules():
    import datetime
    import decimal
    import uuid
    f = blockbloom.Filter(1024, type="date")
    f.insert_values([datetime.date(2024, 1, 31), "2024-02-01", None, np.datetime64("2024-02-02")])
    assert f.find_values(np.array(["2024-01-31", "2024-02-01", "2024-02-02"],
                                  dtype="datetime64[D]")).tolist() == [True, True, True]
    # The stored value, INT32 days, only when said: an int could be days or seconds.
    assert f.find_values(np.array([19753], dtype=np.int32), physical=True).tolist() == [True]
    with pytest.raises(blockbloom.Error, match="physical"):
        f.find_values(np.array([19753], dtype=np.int32))
    assert f.find_values([None, np.datetime64("NaT")]).tolist() == [False, False]
    d = blockbloom.Filter(1024, type="decimal(9,2)")
    d.insert_values([decimal.Decimal("1.5"), 2, "3.25"])
    assert d.find_values([decimal.Decimal("1.50"), "2.00", decimal.Decimal("3.25")]).tolist() == [True] * 3
    assert d.find_values([decimal.Decimal("1.234")]).tolist() == [False]  # more digits than the scale
    with pytest.raises(ValueError):
        d.find_values(["1.234"])  # text keeps the text rule: an error
    u = blockbloom.Filter(1024, type="uuid")
    x = uuid.UUID("12345678-1234-5678-1234-567812345678")
    u.insert_values([x])
    assert u.find_values([str(x), x.bytes]).tolist() == [True, True]
    t = blockbloom.Filter(1024, type="timestamp(us,utc)")
    when = datetime.datetime(2024, 1, 31, 12, tzinfo=datetime.timezone.utc)
    t.insert_values([when])
    paris = when.astimezone(datetime.timezone(datetime.timedelta(hours=1)))
    assert t.find_values([paris, "2024-01-31T12:00:00Z"]).tolist() == [True, True]
    assert t.find_values(np.array(["2024-01-31T12:00"], dtype="datetime64[ns]")).tolist() == [True]
    # A nanosecond cannot be in a MICROS column: absent.
    assert t.find_values(np.array(["2024-01-31T12:00:00.000000001"], dtype="datetime64[ns]")).tolist() == [False]


def test_typed_filter_converts_numbers_and_refuses_other_kinds():
    import datetime
    f = blockbloom.Filter(1024, type="int32")
    f.insert_values([1])
    assert f.find_values(np.array([1.0, np.nan, 1.5])).tolist() == [True, False, False]
    assert f.find_values(np.array([1, 2**40], dtype=np.int64)).tolist() == [True, False]
    assert f.find_values([float("nan")]).tolist() == [False]
    with pytest.raises((TypeError, blockbloom.Error), match="int32"):
        f.find_values([datetime.date(2024, 1, 1)])
    with pytest.raises(TypeError, match="'int32'.*'date'"):
        f.find_values([1], type="date")



def test_typed_hash_functions():
    assert blockbloom.parquet_hash("2024-01-31", type="date") == \
        blockbloom.parquet_hash(19753, type="int32")
    got = blockbloom.parquet_hash(["2024-01-31", None], type="date")
    assert got.dtype == np.uint64 and got.tolist() == [blockbloom.parquet_hash(19753, type="int32")]


def test_load_filter_is_typed_and_probe_takes_objects(tmp_path):
    import datetime
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "support"))
    from parquet_files import INT32, Column, build_parquet
    import blockbloom.parquet as bp

    day = 19753
    f = blockbloom.Filter(256)
    f.insert_values(np.array([day], dtype=np.int32))
    data, _ = build_parquet([Column("d", INT32, converted=6)], [[{"filter": f.to_parquet_bytes()}]])
    path = tmp_path / "dates.parquet"
    path.write_bytes(data)
    g = bp.load_filter(path, "d", 0)
    assert g.type == "INT32 DATE"
    assert g.find_values(np.array(["2024-01-31"], dtype="datetime64[D]")).tolist() == [True]
    with pytest.raises(blockbloom.Error, match="INT32 DATE"):
        g.find_values(np.array([day], dtype=np.int64))
    assert g.find_values(np.array([day], dtype=np.int64), physical=True).tolist() == [True]
    assert g.copy().type == "INT32 DATE"


def test_typed_arrays_and_datetimes():
    f = blockbloom.Filter(1024, type="date")
    days = np.array(["2024-01-31", "NaT"], dtype="datetime64[D]")
    f.insert_values(days)
    assert f.find_values(np.array([19753], dtype=np.int32), physical=True).tolist() == [True]
    assert f.find_values(np.array(["2024-01-31T00:00"], dtype="datetime64[s]")).tolist() == [True]
    assert f.find_values(np.array(["2024-01-31T12:00"], dtype="datetime64[s]")).tolist() == [False]
    t = blockbloom.Filter(1024, type="timestamp(us,utc)")
    t.insert_values(np.array(["2024-01-31T12:00"], dtype="datetime64[ns]"))
    assert t.find_values(np.array(["2024-01-31T12:00"], dtype="datetime64[ms]")).tolist() == [True]
    assert t.find_values(np.array(["2024-01-31T12:00:00.000000001"], dtype="datetime64[ns]")).tolist() == [False]
    with pytest.raises((TypeError, blockbloom.Error), match="int32"):
        blockbloom.Filter(64, type="int32").find_values(days)
    u = blockbloom.Filter(1024, type="uint8")
    u.insert_values(np.array([200], dtype=np.uint8))
    assert u.find_values(np.array([200], dtype=np.int32)).tolist() == [True]
    with pytest.raises(blockbloom.Error):
        blockbloom.Filter(64, type="boolean").find_values(np.array([1], dtype=np.int32))


def test_typed_pandas():
    pd = pandas()
    f = blockbloom.Filter(1024, type="timestamp(ns,utc)")
    s = pd.Series(pd.to_datetime(["2024-01-31 13:00", None]).tz_localize("Europe/Paris"))
    f.insert_values(s)
    assert f.find_values(np.array(["2024-01-31T12:00"], dtype="datetime64[ns]")).tolist() == [True]
    assert f.find_values(s).tolist() == [True, False]
    with pytest.raises(TypeError, match="timestamp"):
        f.find_values(pd.Series([1.0, None]))
