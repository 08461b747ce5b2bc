# SPDX-License-Identifier: Apache-2.0
"""Python objects on a typed filter go through the library's text rules
(bb_parquet_encode_text): each kind hashes as its canonical text does, and the
library's refusals come back as ValueError naming the value and the type."""
import datetime
import decimal
import os
import sys
import time
import uuid

import numpy as np
import pytest

import blockbloom

UTC = datetime.timezone.utc
PLUS1 = datetime.timezone(datetime.timedelta(hours=1))


# On an untyped call these five names keep their earlier rules (a str is not
# an int32); a typed Filter takes them through the text rules.
LEGACY = ("int32", "int64", "float", "double", "string")

# (type, Python object, the same value as text)
KINDS = [
    ("int32", 5, "5"),
    ("int32", np.int16(-7), "-7"),
    ("uint8", np.uint8(255), "255"),
    ("int64", 2**62, str(2**62)),
    ("double", 1.5, "1.5"),
    ("double", 0.1, "0.1"),
    ("double", -0.0, "-0.0"),
    ("double", float("inf"), "inf"),
    ("double", np.float64(2.25), "2.25"),
    ("float", np.float32(0.1), "0.1"),
    ("float", 3, "3"),
    ("double", decimal.Decimal("1.25"), "1.25"),
    ("string", "héllo", "héllo"),
    ("string", b"h\xc3\xa9llo", "héllo"),
    ("binary", b"\x00\x7f", "\x00\x7f"),
    ("fixed(3)", b"abc", "abc"),
    ("decimal(9,2)", decimal.Decimal("1.5"), "1.50"),
    ("decimal(9,2)", decimal.Decimal("-0.01"), "-0.01"),
    ("decimal(9,2)", 7, "7"),
    ("decimal(18,3)", decimal.Decimal("123456789012345.678"), "123456789012345.678"),
    ("decimal(30,4)", decimal.Decimal("-12345678901234567890.5"), "-12345678901234567890.5000"),
    ("date", datetime.date(2024, 1, 31), "2024-01-31"),
    ("date", np.datetime64("2024-01-31"), "2024-01-31"),
    ("date", datetime.date(1, 1, 1), "0001-01-01"),
    ("time(ms)", datetime.time(12, 34, 56, 789000), "12:34:56.789"),
    ("time(us)", datetime.time(12, 34, 56, 5), "12:34:56.000005"),
    ("time(ns)", datetime.time(0, 0), "00:00:00"),
    ("timestamp(us)", datetime.datetime(2024, 1, 31, 12, 0, 0, 250), "2024-01-31 12:00:00.000250"),
    ("timestamp(ms)", datetime.datetime(2024, 1, 31, 12, 0, 0, 250000), "2024-01-31T12:00:00.25"),
    ("timestamp(ns)", np.datetime64("2024-01-31T12:00:00.000000001"), "2024-01-31T12:00:00.000000001"),
    ("timestamp(us,utc)", datetime.datetime(2024, 1, 31, 13, tzinfo=PLUS1), "2024-01-31T12:00:00Z"),
    ("timestamp(us)", np.datetime64("2024-01-31T12:00", "ns"), "2024-01-31T12:00:00"),
    ("uuid", uuid.UUID("12345678-1234-5678-1234-567812345678"), "12345678123456781234567812345678"),
    ("uuid", uuid.UUID("12345678-1234-5678-1234-567812345678").bytes, "12345678-1234-5678-1234-567812345678"),
]


@pytest.mark.parametrize("type_name, value, text", KINDS, ids=[
    "%s-%s" % (t, type(v).__name__) for t, v, _ in KINDS])
def test_each_kind_hashes_as_its_text(type_name, value, text):
    if type_name not in LEGACY:
        want = blockbloom.parquet_hash(text, type=type_name)
        assert blockbloom.parquet_hash(value, type=type_name) == want
    f = blockbloom.Filter(4096, type=type_name)
    f.insert_values([value, None])
    g = blockbloom.Filter(4096, type=type_name)
    g.insert_values([text])
    assert f == g
    assert f.find_values([text, None]).tolist() == [True, False]


def test_nulls_are_none_na_and_nat():
    f = blockbloom.Filter(1024, type="timestamp(us)")
    values = [None, np.datetime64("NaT")]
    try:
        import pandas as pd
        values += [pd.NA, pd.NaT]
    except ImportError:
        pass
    f.insert_values(values)
    assert not np.frombuffer(f, np.uint8).any()
    assert f.find_values(values).tolist() == [False] * len(values)


def test_decimal_exponent_forms():
    # str(Decimal("1E+2")) is "1E+2": the text given the library is format(d, "f").
    for d in (decimal.Decimal("1E+2"), decimal.Decimal("1.00E+2"), decimal.Decimal("100")):
        assert blockbloom.parquet_hash(d, type="decimal(9,2)") == \
            blockbloom.parquet_hash("100.00", type="decimal(9,2)")
    assert blockbloom.parquet_hash(decimal.Decimal("5E-2"), type="decimal(9,2)") == \
        blockbloom.parquet_hash("0.05", type="decimal(9,2)")


def test_aware_datetime_on_utc_timestamp_is_its_utc_time():
    naive = datetime.datetime(2024, 1, 31, 12, 30)
    for aware in (naive.replace(tzinfo=UTC), naive.replace(tzinfo=UTC).astimezone(PLUS1)):
        assert blockbloom.parquet_hash(aware, type="timestamp(us,utc)") == \
            blockbloom.parquet_hash(naive, type="timestamp(us,utc)")


def test_aware_datetime_on_local_timestamp_refused():
    aware = datetime.datetime(2024, 1, 31, 12, 30, tzinfo=UTC)
    with pytest.raises(ValueError) as e:
        blockbloom.Filter(1024, type="timestamp(us)").insert_values([aware])
    assert "item 0 (%r) into type 'timestamp(us)': " % aware in str(e.value)
    assert "local" in str(e.value)  # the library's phrase


@pytest.mark.parametrize("value", [decimal.Decimal("12345678.9"), decimal.Decimal("1.234"), 10**7])
def test_decimal_values_that_cannot_be_of_the_type_are_refused_on_insert_absent_on_find(value):
    f = blockbloom.Filter(1024, type="decimal(9,2)")
    with pytest.raises(blockbloom.Error, match="is not a value of the filter's type 'decimal\\(9,2\\)'"):
        f.insert_values([value])
    assert bytes(f) == bytes(1024)  # nothing inserted
    assert f.find_values([value]).tolist() == [False]


def test_out_of_range_decimal_text_refused_naming_value_and_type():
    f = blockbloom.Filter(1024, type="decimal(9,2)")
    with pytest.raises(ValueError) as e:
        f.insert_values(["99999999"])
    message = str(e.value)
    assert "item 0 ('99999999') into type 'decimal(9,2)': " in message
    assert "digits" in message  # the library's phrase


def test_other_kinds_refused_with_type_error():
    with pytest.raises(TypeError, match="date"):
        blockbloom.parquet_hash(1.5, type="date")
    with pytest.raises(TypeError, match="decimal"):
        blockbloom.parquet_hash(b"1.5", type="decimal(9,2)")
    assert blockbloom.parquet_hash(1.5, type="decimal(9,2)") == blockbloom.parquet_hash("1.50", type="decimal(9,2)")
    with pytest.raises(TypeError, match="uuid"):
        blockbloom.parquet_hash(datetime.date(2024, 1, 1), type="uuid")


def test_probe_of_100k_values(tmp_path):
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tests", "support"))
    from parquet_files import INT32, Column, build_parquet
    import blockbloom.parquet as bp

    f = blockbloom.Filter(4096)
    f.insert_values(np.arange(1000, dtype=np.int32))
    data, _ = build_parquet([Column("d", INT32, converted=6)], [[{"filter": f.to_parquet_bytes()}]])
    path = tmp_path / "dates.parquet"
    path.write_bytes(data)
    epoch = datetime.date(1970, 1, 1)
    values = [epoch + datetime.timedelta(days=k % 5000) for k in range(100_000)]
    start = time.perf_counter()
    report = bp.probe(str(path), "d", values)
    took = time.perf_counter() - start
    print("probe of 100k dates: %.3f s" % took)
    assert len(report["results"]) == 100_000
    assert all(r["row_groups"][0]["maybe"] for r in report["results"][:1000])
    strs = ["2024-01-31"] * 100_000
    start = time.perf_counter()
    bp.probe(str(path), "d", strs)
    print("probe of 100k str dates: %.3f s" % (time.perf_counter() - start))
