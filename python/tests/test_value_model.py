# SPDX-License-Identifier: Apache-2.0
"""A filter knows its values: every container a user has gives the
same hash for the same value, by the library's one rule.

The matrix: for every logical type, values of that type in every container
(Python objects, numpy arrays of every width and unit, masked arrays, pandas
Series / Index plain, nullable and tz-aware, Arrow arrays through
__arrow_c_array__, text) x every filter type:
- on the values' own type, the container's hashes are the text rule's
  (parquet_hash of the canonical text, bb_parquet_encode_text) and those of the
  value one Python object at a time (bb_parquet_hash_typed_value);
- on every type, the container (bb_parquet_hash_typed_column) and the same
  rows as scalars (bb_parquet_hash_typed_value) agree: the same hash, the same
  "cannot be of the type" (absent), or both raise the same exception class.
  Never a different hash.
Then the silent misses this rules out, case by case, and the table's rows a
user meets (absent vs refused)."""
import copy
import datetime as dt
import decimal
import pickle
import uuid

import numpy as np
import pytest

import blockbloom
from arrow_capsules import Exported, primitive, strings

pd = pytest.importorskip("pandas")

D = decimal.Decimal
UTC = dt.timezone.utc


def arrow_decimal(values, precision, scale):
    """Decimals (None = null) as a decimal128 Arrow array (16-byte little-endian unscaled integers)."""
    with decimal.localcontext() as ctx:
        ctx.prec = 80
        raw = b"".join((0 if v is None else int(v.scaleb(scale))).to_bytes(16, "little", signed=True)
                       for v in [None] * 3 + list(values))
    valid = [v is not None for v in values]
    from arrow_capsules import validity
    return Exported("d:%d,%d" % (precision, scale), len(values),
                    [validity(valid), np.frombuffer(raw, dtype=np.uint8)], 3, valid.count(False))


def binaries(values):
    e = strings(values)
    e.format = b"z"
    return e


def micros(t):
    return ((t.hour * 60 + t.minute) * 60 + t.second) * 10**6 + t.microsecond


def text_of(v):
    """The value as a person writes it (bytes stay bytes: a byte type's text is its bytes)."""
    if isinstance(v, bytes):
        return v
    if isinstance(v, (dt.datetime, dt.time)):
        head, dot, tail = v.isoformat().partition(".")
        if not dot:
            return head
        digits, zone = tail[:6].rstrip("0"), tail[6:]  # isoformat: six fraction digits, then the offset
        return head + ("." + digits if digits else "") + zone
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, float):
        return repr(v)
    return str(v)


# type name -> (Python objects, containers as (name, container, the rows' Python objects))
def _ints(lo, hi, dtypes, arrow_format):
    vals = [lo, 0, 7, hi]
    out = [("list", vals, vals)]
    for d in dtypes:
        info = np.iinfo(d)
        rows = [v for v in vals if info.min <= v <= info.max]
        out.append((f"ndarray[{np.dtype(d).name}]", np.array(rows, dtype=d), rows))
    arr = np.array(vals, dtype=dtypes[0])
    out.append(("masked", np.ma.array(np.append(arr, arr[:1]), mask=[0] * len(vals) + [1]), vals))
    out.append(("Series", pd.Series(arr), vals))
    out.append(("Index", pd.Index(np.array(vals, dtype=np.int64) if lo < 0 else np.array(vals, dtype=np.uint64)),
                vals))
    out.append(("nullable", pd.array(list(vals) + [None], dtype=np.dtype(dtypes[0]).name.capitalize()
                                     .replace("Ui", "UI")), vals))
    out.append(("arrow", primitive(arrow_format, vals, dtypes[0]), vals))
    out.append(("numpy scalars", [np.dtype(dtypes[0]).type(v) for v in vals], vals))
    return vals, out


INT_TYPES = {
    "int8": _ints(-128, 127, [np.int8, np.int16, np.int32, np.int64], "c"),
    "int16": _ints(-2**15, 2**15 - 1, [np.int16, np.int32, np.int64], "s"),
    "int32": _ints(-2**31, 2**31 - 1, [np.int32, np.int64], "i"),
    "int64": _ints(-2**63, 2**63 - 1, [np.int64], "l"),
    "uint8": _ints(1, 255, [np.uint8, np.uint16, np.int32, np.uint64], "C"),
    "uint16": _ints(1, 2**16 - 1, [np.uint16, np.uint32, np.int64], "S"),
    "uint32": _ints(1, 2**32 - 1, [np.uint32, np.uint64, np.int64], "I"),
    "uint64": _ints(1, 2**64 - 1, [np.uint64], "L"),
}

F32 = [0.5, -1.25, 3.0, 2.0**-20]
F64 = [0.1, -2.5, 1e300, 3.0]
FLOAT_TYPES = {
    "float": (F32, [("list", F32, F32), ("ndarray[float32]", np.array(F32, np.float32), F32),
                    ("ndarray[float64]", np.array(F32), F32), ("ndarray[float16]", np.array(F32[:3], np.float16), F32[:3]),
                    ("masked", np.ma.array(np.array(F32 + [9.0], np.float32), mask=[0, 0, 0, 0, 1]), F32),
                    ("nullable", pd.array(F32 + [None], dtype="Float32"), F32),
                    ("Series", pd.Series(np.array(F32, np.float32)), F32),
                    ("arrow", primitive("f", F32, np.float32), F32)]),
    "double": (F64, [("list", F64, F64), ("ndarray[float64]", np.array(F64), F64),
                     ("Index", pd.Index(F64), F64), ("nullable", pd.array(F64 + [None], dtype="Float64"), F64),
                     ("arrow", primitive("g", F64, np.float64), F64),
                     ("numpy scalars", [np.float64(v) for v in F64], F64)]),
}

DEC = {
    "decimal(9,2,int32)": ([D("123.45"), D("-0.01"), D("12345"), D("9999999.99")], 9, 2),
    "decimal(18,4,int64)": ([D("12345678901234.5678"), D("-1"), D("0.0001")], 18, 4),
    "decimal(38,10)": ([D("1234567890123456789012345678.0123456789"), D("-0.5"), D("7")], 38, 10),
}
DECIMAL_TYPES = {
    name: (vals, [("list", vals, vals), ("text", [str(v) for v in vals], vals),
                  ("arrow", arrow_decimal(vals, p, s), vals)])
    for name, (vals, p, s) in DEC.items()
}

DAYS = [dt.date(2024, 1, 31), dt.date(1969, 12, 31), dt.date(2000, 2, 29)]
DAY64 = np.array([d.isoformat() for d in DAYS], dtype="datetime64[D]")
DATE_TYPES = {"date": (DAYS, [
    ("list", DAYS, DAYS), ("ndarray[D]", DAY64, DAYS), ("ndarray[ns]", DAY64.astype("datetime64[ns]"), DAYS),
    ("ndarray[s]", DAY64.astype("datetime64[s]"), DAYS), ("Series", pd.Series(DAY64.astype("datetime64[ns]")), DAYS),
    ("arrow date32", primitive("tdD", DAY64.astype(np.int64).tolist(), np.int32), DAYS),
    ("arrow date64", primitive("tdm", (DAY64.astype(np.int64) * 86400000).tolist(), np.int64), DAYS),
    ("numpy scalars", list(DAY64), DAYS)])}

STAMPS = [dt.datetime(2024, 1, 31, 12, 30, 45, 123000), dt.datetime(1969, 12, 31, 23, 59, 59),
          dt.datetime(2000, 2, 29)]
STAMP64 = np.array([s.isoformat() for s in STAMPS], dtype="datetime64[ms]")


def _stamps(zone):
    aware = [s.replace(tzinfo=UTC) for s in STAMPS]
    rows = aware if zone else STAMPS
    ms = STAMP64.astype(np.int64).tolist()
    out = [("list", rows, rows), ("arrow ms", primitive("tsm:" + ("UTC" if zone else ""), ms, np.int64), rows),
           ("arrow us", primitive("tsu:" + ("UTC" if zone else ""), [v * 1000 for v in ms], np.int64), rows),
           ("arrow ns", primitive("tsn:" + ("UTC" if zone else ""), [v * 10**6 for v in ms], np.int64), rows)]
    if zone:
        paris = pd.Series(pd.DatetimeIndex(STAMP64.astype("datetime64[ns]")).tz_localize("UTC")
                          .tz_convert("Etc/GMT-1"))
        out += [("Series tz", paris, rows), ("DatetimeIndex tz", pd.DatetimeIndex(paris), rows),
                ("Timestamps tz", list(paris), rows)]
    else:
        for unit in ("ms", "us", "ns"):
            out.append((f"ndarray[{unit}]", STAMP64.astype(f"datetime64[{unit}]"), rows))
        out += [("Series", pd.Series(STAMP64.astype("datetime64[ns]")), rows),
                ("DatetimeIndex", pd.DatetimeIndex(STAMP64.astype("datetime64[ns]")), rows),
                ("masked", np.ma.array(np.append(STAMP64, STAMP64[:1]), mask=[0, 0, 0, 1]), rows),
                ("numpy scalars", list(STAMP64.astype("datetime64[us]")), rows)]
    return rows, out


TIMESTAMP_TYPES = {}
for _unit in ("ms", "us", "ns"):
    TIMESTAMP_TYPES[f"timestamp({_unit})"] = _stamps(False)
    TIMESTAMP_TYPES[f"timestamp({_unit},utc)"] = _stamps(True)

CLOCKS = [dt.time(12, 30, 45, 123000), dt.time(0, 0), dt.time(23, 59, 59)]
TIME_TYPES = {
    f"time({u})": (CLOCKS, [("list", CLOCKS, CLOCKS),
                            ("arrow ms", primitive("ttm", [micros(t) // 1000 for t in CLOCKS], np.int32), CLOCKS),
                            ("arrow us", primitive("ttu", [micros(t) for t in CLOCKS], np.int64), CLOCKS),
                            ("arrow ns", primitive("ttn", [micros(t) * 1000 for t in CLOCKS], np.int64), CLOCKS)])
    for u in ("ms", "us", "ns")
}

WORDS = ["a", "", "héllo", "2024-01-31"]
BLOBS = [b"a", b"", b"\x00\xff"]
IDS = [uuid.UUID("12345678-1234-5678-1234-567812345678"), uuid.UUID(int=0)]
BYTE_TYPES = {
    "string": (WORDS, [("list", WORDS, WORDS), ("ndarray[U]", np.array(WORDS), WORDS),
                       ("object array", np.array(WORDS + [None], dtype=object), WORDS),
                       ("Series", pd.Series(WORDS), WORDS), ("string dtype", pd.array(WORDS + [None], dtype="string"), WORDS),
                       ("arrow", strings(WORDS), WORDS), ("arrow large", strings(WORDS, large=True), WORDS)]),
    "binary": (BLOBS, [("list", BLOBS, BLOBS), ("arrow", binaries(BLOBS), BLOBS)]),
    "uuid": (IDS, [("list", IDS, IDS), ("bytes", [u.bytes for u in IDS], IDS), ("text", [str(u) for u in IDS], IDS)]),
}

MATRIX = {**INT_TYPES, **FLOAT_TYPES, **DECIMAL_TYPES, **DATE_TYPES, **TIMESTAMP_TYPES, **TIME_TYPES, **BYTE_TYPES}
CASES = [(t, name, c, rows) for t, (_, containers) in MATRIX.items() for name, c, rows in containers]


def outcome(fn):
    """("ok", result) or ("raises", the exception class's family)."""
    try:
        return "ok", fn()
    except TypeError:
        return "raises", TypeError
    except ValueError:  # blockbloom.Error too
        return "raises", ValueError


def scalar_hashes(rows, type_name):
    """Each row by the scalar path: its hash, None when not of the type; or the first row's exception."""
    got = []
    for r in rows:
        kind, h = outcome(lambda: blockbloom.parquet_hash(r, type_name))
        if kind == "raises":
            return kind, h
        got.append(h)
    return "ok", got


@pytest.mark.parametrize("type_name,name,container,rows", CASES, ids=[f"{t}-{n}" for t, n, _, _ in CASES])
def test_a_container_hashes_its_values_as_the_text_and_scalar_rules_do(type_name, name, container, rows):
    by_text = [blockbloom.parquet_hash(text_of(r), type_name) for r in rows]
    by_scalar = [blockbloom.parquet_hash(r, type_name) for r in rows]
    assert by_scalar == by_text
    assert blockbloom.parquet_hash(container, type_name).tolist() == by_text
    f = blockbloom.Filter(1024, type=type_name)
    f.insert_values(container)
    expected = blockbloom.Filter(1024, type=type_name)
    expected.insert(np.array(by_text, dtype=np.uint64))
    assert f == expected
    assert f.find_values([text_of(r) for r in rows]).all()


TYPES = list(MATRIX)


@pytest.mark.parametrize("type_name,name,container,rows", CASES, ids=[f"{t}-{n}" for t, n, _, _ in CASES])
def test_on_every_type_a_container_and_its_rows_agree(type_name, name, container, rows):
    for target in TYPES:
        kind, column = outcome(lambda: blockbloom.parquet_hash(container, target))
        # The rows as the same Python objects the container holds (their own kinds: a numpy
        # int32 is INT like an int32 array; a datetime64[ns] like the array).
        scalar_kind, scalars = scalar_hashes(list(container) if isinstance(container, list)
                                             else _rows_of(container, rows), target)
        assert kind == scalar_kind, (target, column, scalars)
        if kind == "ok":
            assert column.tolist() == [h for h in scalars if h is not None], target
        else:
            assert column is scalars, target


def _rows_of(container, rows):
    """The container's rows as objects of the container's own kind (np scalars, Timestamps)."""
    if isinstance(container, np.ma.MaskedArray):
        return [v for v, m in zip(container.data, np.ma.getmaskarray(container)) if not m]
    if isinstance(container, np.ndarray):
        return [v for v in container if v is not None]
    if hasattr(container, "dtype") and type(container).__module__.startswith("pandas"):
        return [v for v in container if v is not None and v is not pd.NA and v is not pd.NaT]
    return rows  # Arrow arrays: their rows as the Python objects of the same kind


# ---- One value in different containers: the silent misses ruled out -------------------------------

def test_issue33_int32_series_filter_finds_the_same_numbers_as_a_list_or_int64_array():
    f = blockbloom.Filter(1024)
    f.insert_values(pd.Series([1, 2, 3], dtype=np.int32))
    assert f.type is not None and f.type.startswith("INT32")
    assert f.find_values([1, 2, 3]).all()
    assert f.find_values(np.array([1, 2, 3], dtype=np.int64)).all()
    assert f.find_values(np.array([2**40], dtype=np.int64)).tolist() == [False]  # not an INT32


def test_issue33_datetime64_ns_filter_finds_the_same_instants_in_us_and_as_text():
    f = blockbloom.Filter(1024)
    f.insert_values(np.array(["2024-01-31", "2024-02-01T12:00"], dtype="datetime64[ns]"))
    assert "TIMESTAMP" in f.type and "NANOS" in f.type
    assert f.find_values(np.array(["2024-01-31", "2024-02-01T12:00"], dtype="datetime64[us]")).all()
    assert f.find_values("2024-01-31T00:00:00") is True
    assert f.find_values(dt.date(2024, 1, 31)) is True  # a date on a local TIMESTAMP: its midnight
    assert f.find_values(dt.datetime(2024, 2, 1, 12)) is True
    try:  # a bare date as a timestamp's text: found, or refused by the text rule; never a silent False
        assert f.find_values("2024-01-31") is True
    except blockbloom.Error as e:
        assert "timestamp" in str(e)


def test_issue33_int64_filter_finds_1_point_0():
    f = blockbloom.Filter(1024)
    f.insert_values(np.array([1, 2], dtype=np.int64))
    assert f.find_values(1.0) is True
    assert f.find_values(pd.Series([1, None], dtype="float64")).tolist() == [True, False]
    assert f.find_values(1.5) is False  # not integral: cannot be in an integer column


def test_issue33_decimal_is_not_hashed_as_a_float():
    f = blockbloom.Filter(1024, type="decimal(38,1)")
    f.insert_values([D("12345678901234567.1")])
    assert f.find_values([D("12345678901234567.1"), D("12345678901234567.10")]).all()
    assert not f.find_values([D("12345678901234567.2"), D("12345678901234568")]).any()
    with pytest.raises(TypeError, match="type"):
        blockbloom.Filter(1024).insert_values([D("1.5")])  # a Decimal says no type: give one


def test_issue33_tz_aware_values_on_a_local_timestamp_are_refused_from_every_container():
    local = blockbloom.Filter(1024, type="timestamp(us)")
    aware = pd.Series(pd.to_datetime(["2024-01-31 12:00"]).tz_localize("Etc/GMT-1"))
    for container in (aware, pd.DatetimeIndex(aware), [aware[0]], aware[0],
                      [dt.datetime(2024, 1, 31, 12, tzinfo=UTC)],
                      primitive("tsu:UTC", [1706702400000000], np.int64)):
        with pytest.raises(ValueError, match="zone|UTC|wall"):
            local.insert_values(container)
    assert local.find_values(np.array(["2024-01-31T12:00"], dtype="datetime64[us]")).tolist() == [False]


def test_issue33_decimal_on_int32_is_the_same_number_in_every_container():
    f = blockbloom.Filter(1024, type="decimal(9,2,int32)")
    f.insert_values([12345])
    for same in (12345, np.int64(12345), np.array([12345]), pd.Series([12345]), D("12345.00"), "12345"):
        assert np.all(f.find_values(same)), repr(same)
    assert not np.any(f.find_values(np.array([12345]) // 100))  # 123 is not 12345
    assert not f.find_values("123.45")


def test_issue33_a_list_of_ints_then_a_datetime64_array_on_the_same_filter_refuses():
    f = blockbloom.Filter(1024)
    f.insert_values([1, 2])
    assert f.type.startswith("INT64")
    with pytest.raises(TypeError, match="item 0|TIMESTAMP|type"):
        f.insert_values(np.array(["2024-01-31"], dtype="datetime64[ns]"))


# ---- What the filter's type is and where it goes ----------------------------------------------------

def test_the_first_insert_names_the_type():
    for values, prefix in (([1], "INT64"), (np.array([1], np.int8), "INT32"), ([1.5], "DOUBLE"),
                           (np.array([1], np.float32), "FLOAT"), (["a"], "BYTE_ARRAY STRING"),
                           ([b"a"], "BYTE_ARRAY"), ([dt.date(2024, 1, 1)], "INT32 DATE"),
                           (np.array(["2024-01-01"], "datetime64[D]"), "INT32 DATE")):
        f = blockbloom.Filter(1024)
        f.insert_values(values)
        assert f.type.startswith(prefix), (values, f.type)


def test_nulls_alone_leave_the_type_unset_and_bools_are_refused():
    f = blockbloom.Filter(1024)
    f.insert_values([None, None])
    assert f.type is None
    for bools in ([True], np.array([True]), pd.Series([True, None], dtype="boolean")):
        with pytest.raises(TypeError, match="BOOL|bool"):
            f.insert_values(bools)


def test_an_item_error_names_the_item_index():
    f = blockbloom.Filter(1024, type="int64")
    with pytest.raises(TypeError, match=r"item 2 \(b'x'\)"):
        f.insert_values([1, 2, b"x"])
    with pytest.raises(ValueError, match="item 1"):
        f.insert_values([1, "one"])


def test_raw_hashes_make_a_filter_refuse_values_until_it_has_a_type():
    f = blockbloom.Filter(1024)
    f.insert(np.array([5], dtype=np.uint64))
    with pytest.raises(TypeError, match="raw hashes"):
        f.insert_values([1])
    with pytest.raises(TypeError, match="raw hashes"):
        f.find_values([1])
    g = blockbloom.Filter(1024, type="int64")
    g.insert(np.array([blockbloom.parquet_hash(7)], dtype=np.uint64))  # hashes of its values: fine
    assert g.find_values(7) is True


def test_physical_takes_the_stored_value():
    f = blockbloom.Filter(1024, type="date")
    with pytest.raises(ValueError, match="day|ambiguous|PHYSICAL|physical"):
        f.insert_values([19753])
    f.insert_values([19753], physical=True)
    assert f.find_values(dt.date(2024, 1, 31)) is True
    assert f.find_values(np.array([19753]), physical=True).tolist() == [True]
    assert blockbloom.parquet_hash(19753, "date", physical=True) == blockbloom.parquet_hash("2024-01-31", "date")


def test_the_type_survives_pickle_copy_union_and_parquet_bytes():
    f = blockbloom.Filter(1024)
    f.insert_values(np.array([1, 2], dtype=np.int32))
    for g in (pickle.loads(pickle.dumps(f)), copy.copy(f), f.copy(), f | blockbloom.Filter(1024),
              blockbloom.Filter(1024) | f):
        assert g.type == f.type
        assert g.find_values([1, 2]).all()
    h = blockbloom.Filter.from_parquet_bytes(f.to_parquet_bytes(), type="int32")
    assert h.type == blockbloom.Filter(1024, type="int32").type and h.find_values([1, 2]).all()
    other = blockbloom.Filter(1024)
    other.insert_values(["a"])
    with pytest.raises(blockbloom.Error, match="types"):
        f | other
    with pytest.raises(blockbloom.Error, match="types"):
        blockbloom.Filter.union_all([f, other])
    raw = blockbloom.Filter(1024)
    raw.insert(np.array([1], dtype=np.uint64))
    with pytest.raises(TypeError, match="raw hashes"):
        pickle.loads(pickle.dumps(raw)).insert_values([1])


def test_old_type_names_are_type_names():
    for name in ("int32", "int64", "float", "double", "string"):
        assert blockbloom.Filter(1024, type=name).type is not None
    f = blockbloom.Filter(1024, type="int32")
    with pytest.raises(blockbloom.Error, match=r"item 1 \(2147483648\)"):
        f.insert_values([2**31 - 1, 2**31])  # 2**31 cannot be an INT32: the call is refused
    f.insert_values([2**31 - 1])
    assert f.find_values([2**31 - 1, 2**31]).tolist() == [True, False]


def test_timedelta_is_refused():
    with pytest.raises(TypeError, match="duration"):
        blockbloom.Filter(1024).insert_values(np.array([1], dtype="timedelta64[s]"))
    with pytest.raises(TypeError, match="duration"):
        blockbloom.Filter(1024, type="time(us)").insert_values([dt.timedelta(seconds=1)])


def test_insert_of_a_value_not_in_the_filters_type_is_refused_whole():
    """A value the filter's type cannot hold is refused on insert (the call
    inserts nothing) and answered False on find: never inserted-then-absent."""
    f = blockbloom.Filter(1024)
    f.insert_values(np.array([1, 2], dtype=np.int8))  # the type becomes INTEGER(8)
    before = bytes(f)
    with pytest.raises(blockbloom.Error) as e:
        f.insert_values(np.array([5, 1000]))
    message = str(e.value)
    assert "item 1 (1000)" in message and "INTEGER(8" in message and "type='int64'" in message
    assert bytes(f) == before  # 5 was not inserted either
    assert f.find_values([1000]).tolist() == [False]
    g = blockbloom.Filter(1024)
    with pytest.raises(ValueError, match=r"item 1 \(2.5\).*INT64"):
        g.insert_values([1, 2.5])
    assert g.type is None and bytes(g) == bytes(1024)
    d = blockbloom.Filter(1024, type="date")
    noon = dt.datetime(2024, 1, 1, 12)
    for values in ([noon], np.array(["2024-01-01T12"], dtype="M8[us]"), pd.Series([noon])):
        with pytest.raises(blockbloom.Error, match="'date'"):
            d.insert_values(values)
    d.insert_values(np.array(["2024-01-01T00"], dtype="M8[us]"))  # midnight is a date
    assert d.find_values([dt.date(2024, 1, 1), noon]).tolist() == [True, False]
    x = blockbloom.Filter(1024, type="float")
    with pytest.raises(blockbloom.Error, match="1e\\+300"):
        x.insert_values(np.array([1.5, 1e300]))
    assert bytes(x) == bytes(1024)
    x.insert_values(np.array([1.5, np.nan]), mask=np.array([False, True]))  # a null is no value: fine
    assert x.find_values([1.5]).tolist() == [True]


def test_a_filter_from_bytes_without_type_holds_raw_hashes():
    """Bits read back without type= do not say their values' type,
    so values are refused rather than converted into a type each probe guesses."""
    f = blockbloom.Filter(1024, type="int32")
    f.insert_values([1, 2])
    k = blockbloom.Filter(1024, layout="kudu", type="int32")
    k.insert_values([1, 2])
    for untyped in (blockbloom.Filter.from_bytes(bytes(f)), blockbloom.Filter.from_parquet_bytes(f.to_parquet_bytes()),
                    blockbloom.Filter.from_kudu_fields(k.to_kudu_fields())):
        assert untyped.type is None
        with pytest.raises(TypeError, match="type="):
            untyped.find_values([1, 2])
        with pytest.raises(TypeError, match="type="):
            untyped.insert_values(np.array([3], dtype=np.int64))
    typed = [blockbloom.Filter.from_bytes(bytes(f), type="int32"),
             blockbloom.Filter.from_parquet_bytes(f.to_parquet_bytes(), type="int32"),
             blockbloom.Filter.from_kudu_fields(k.to_kudu_fields(), type="int32")]
    for t in typed:
        assert t.type == "int32" and t.find_values([1, 2, 3]).tolist() == [True, True, False]


def test_a_raw_hash_filter_does_not_merge_with_a_typed_one():
    """h | a is refused (as the CLI refuses the pair): taking a's type would
    make h's raw hashes answer by a's type's conversion."""
    h = blockbloom.Filter(1024)
    h.insert(5)
    a = blockbloom.Filter(1024, type="int32")
    a.insert_values([1])
    for merge in (lambda: h | a, lambda: a | h, lambda: h.union(a), lambda: a.intersect(h),
                  lambda: blockbloom.Filter.union_all([a, h])):
        with pytest.raises(blockbloom.Error, match="filters differ in value type: (raw hashes and 'int32'|"
                                                   "'int32' and raw hashes)") as e:
            merge()
        assert e.value.status == -12  # BB_ERR_FILTER_MISMATCH
    assert h.type is None and a.type == "int32"
    r = blockbloom.Filter(1024)
    r.insert(7)
    assert 7 in (h | r) and 5 in (h | r) and (h | blockbloom.Filter(1024)).type is None


def test_big_endian_arrays_are_read_by_value_or_refused():
    """A '>M8[us]' array's counts are read in their own byte order (not this
    machine's: another instant, absent); numeric big-endian arrays are refused."""
    day = dt.datetime(2024, 1, 1)
    f = blockbloom.Filter(1024)
    f.insert_values(np.array(["2024-01-01"], dtype=">M8[us]"))
    assert f.find_values([day, dt.datetime(2024, 1, 2)]).tolist() == [True, False]
    assert f.find_values(np.array(["2024-01-01"], dtype="<M8[ns]")).tolist() == [True]
    d = blockbloom.Filter(1024, type="date")
    d.insert_values(np.array(["2024-01-01"], dtype=">M8[D]"))
    assert d.find_values([day.date()]).tolist() == [True]
    for dtype in (">i8", ">i4", ">f8", ">u2"):
        with pytest.raises(TypeError, match="native byte order"):
            blockbloom.Filter(1024).insert_values(np.array([1], dtype=dtype))
        with pytest.raises(TypeError, match="native byte order"):
            blockbloom.Filter(1024, type="int64").find_values(np.array([1], dtype=dtype))


@pytest.mark.parametrize("layout", ["parquet", "kudu"])
@pytest.mark.parametrize("type_name", ["double", "float", "float16"])
def test_decimal_negative_zero_is_negative_zero_in_float_types(layout, type_name):
    """-0.0 and +0.0 are different keys of a float column (formats.md): a
    Decimal('-0') was hashed as +0.0, so a filter holding -0.0 answered it
    False. In a DECIMAL or integer type -0 is 0 (they have one zero)."""
    f = blockbloom.Filter(1024, layout=layout, type=type_name)
    f.insert_values([-0.0])
    negative_zeros = [D("-0"), D("-0.0"), D("-0E+5"), D("-0E-9")]
    assert f.find_values(negative_zeros + ["-0", -0.0]).all()
    assert not f.find_values([D("0"), D("0E+5"), 0.0]).any()
    hash_of = blockbloom.kudu_hash if layout == "kudu" else blockbloom.parquet_hash
    for z in negative_zeros:
        assert hash_of(z, type=type_name) == hash_of(-0.0, type=type_name) != hash_of(0.0, type=type_name)
    d = blockbloom.Filter(1024, layout=layout, type="decimal(9,2)")
    d.insert_values([D("0")])
    assert d.find_values(negative_zeros).all()


class ShownRounded(D):
    def __str__(self):
        return format(self, ".2f")


class ShownAsSeven(D):
    def __str__(self):
        return "7"


@pytest.mark.parametrize("cls", [ShownRounded, ShownAsSeven])
@pytest.mark.parametrize("type_name", ["decimal(9,3)", "double"])
def test_a_decimal_subclass_is_hashed_by_its_value_not_its_display(cls, type_name):
    """A Decimal subclass's own __str__ once chose the key (1.125 shown as
    1.12, or as 7): the value it holds must be what is hashed."""
    value = cls("1.125")
    plain = D("1.125")
    f = blockbloom.Filter(1024, type=type_name)
    f.insert_values([plain])
    assert f.find_values([value]).tolist() == [True]
    g = blockbloom.Filter(1024, type=type_name)
    g.insert_values([value])
    assert g == f and not g.find_values([D("7"), D("1.12")]).any()
    assert blockbloom.parquet_hash(value, type=type_name) == blockbloom.parquet_hash(plain, type=type_name)
    assert blockbloom.kudu_hash(value, type="double") == blockbloom.kudu_hash(plain, type="double")


def test_a_value_python_cannot_convert_names_the_call_and_the_item():
    # float(Decimal('sNaN')) raised its bare ValueError, naming neither.
    f = blockbloom.Filter(1024, type="double")
    for call in (f.find_values, f.insert_values):
        with pytest.raises(ValueError, match=r"^%s\(\): item 1 \(Decimal\('sNaN'\)\): .*signaling NaN" % call.__name__):
            call([1.0, D("sNaN")])
    assert not f.find_values([1.0]).any()  # nothing was inserted
