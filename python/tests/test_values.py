# SPDX-License-Identifier: Apache-2.0
"""Values hashed as Parquet (XXH64 of the plain encoding) and Kudu (FastHash32) do;
nulls neither inserted nor found."""
import struct

import numpy as np
import pytest

import blockbloom


def parquet_hashes(values, fmt):
    return np.array([blockbloom.parquet_hash(struct.pack(fmt, v)) for v in values], dtype=np.uint64)


@pytest.mark.parametrize("dtype,fmt,type_name", [(np.int32, "<i", "int32"), (np.int64, "<q", "int64"),
                                                 (np.float32, "<f", "float"), (np.float64, "<d", "double")])
def test_arrays_hash_their_plain_encoding(each_isa, dtype, fmt, type_name):
    values = np.array([0, 1, -1, 7, 100, -2**20, 3], dtype=dtype)
    f = blockbloom.Filter(2048)
    f.insert_values(values)
    by_hash = blockbloom.Filter(2048)
    by_hash.insert(parquet_hashes(values.tolist(), fmt))
    assert f == by_hash
    g = blockbloom.Filter(2048)
    g.insert_values(values.tolist(), type=type_name)
    assert g == f
    assert f.find_values(values).all()
    assert f.find_values(values.reshape(7, 1)).shape == (7, 1)
    for v in values.tolist():
        assert blockbloom.parquet_hash(v, type_name) in f


def test_lists_type_an_untyped_filter_int64_double_and_string():
    ints = blockbloom.Filter(4096)
    ints.insert_values([1, 2, 3])
    assert ints.type.startswith("INT64")
    assert blockbloom.parquet_hash(struct.pack("<q", 2)) in ints
    floats = blockbloom.Filter(4096)
    floats.insert_values([1.5, -0.0])
    assert floats.type == "DOUBLE"
    assert blockbloom.parquet_hash(struct.pack("<d", -0.0)) in floats
    assert blockbloom.parquet_hash(struct.pack("<d", 0.0)) not in floats  # bits, not equality
    texts = blockbloom.Filter(4096)
    texts.insert_values(["a", b"b", bytearray(b"c"), ""])
    assert blockbloom.parquet_hash(b"") in texts
    assert texts.find_values(["a", "b", "c", "", "d"]).tolist() == [True, True, True, True, False]
    assert ints.find_values(1) is True and texts.find_values("zz") is False
    texts.insert_values("one string")  # a str is one value, not its characters
    assert texts.find_values(["one string", "o"]).tolist() == [True, False]


def test_int_columns_take_their_range_and_unsigned_columns_their_bits():
    f = blockbloom.Filter(1024, type="int32")
    with pytest.raises(blockbloom.Error, match="item 0 .* not a value of the filter's type 'int32'"):
        f.insert_values([2**32 - 1, 2**31 - 1])  # 2**32 - 1 cannot be an INT32: refused
    f.insert_values([2**31 - 1])
    assert f.find_values([2**32 - 1, -1, 2**31 - 1]).tolist() == [False, False, True]
    u = blockbloom.Filter(1024, type="uint32")
    u.insert_values([2**32 - 1])
    assert u.find_values(np.array([2**32 - 1], dtype=np.uint32))[0]
    assert blockbloom.parquet_hash(2**32 - 1, "uint32") == blockbloom.parquet_hash(-1, "int32")  # the bits
    g = blockbloom.Filter(1024)
    g.insert_values([2**64 - 1])
    assert g.type.startswith("INT64") and g.find_values(2**64 - 1) is True
    h = blockbloom.Filter(1024, type="float")
    with pytest.raises(blockbloom.Error, match="1e\\+39"):
        h.insert_values([1e39, 1.5])  # 1e39 is no float32: refused
    h.insert_values([1.5])
    assert h.find_values([1e39, 1.5]).tolist() == [False, True]


def test_nan_and_text_arrays():
    f = blockbloom.Filter(1024)
    f.insert_values(np.array([np.nan]))
    assert f.find_values(np.array([np.nan, 1.0])).tolist() == [True, False]
    t = blockbloom.Filter(1024)
    t.insert_values(np.array(["x", "yy"]))          # numpy str array
    t.insert_values(np.array([b"z"], dtype="S1"))   # numpy bytes array
    t.insert_values(np.array(["w", None], dtype=object))
    assert t.find_values(["x", "yy", "z", "w", "v"]).tolist() == [True, True, True, True, False]


def test_nulls_are_neither_inserted_nor_found():
    values = np.arange(64, dtype=np.int64)
    mask = values % 3 == 0  # True = null
    f = blockbloom.Filter(8192)
    f.insert_values(values, mask=mask)
    expected = blockbloom.Filter(8192)
    expected.insert_values(values[~mask])
    assert f == expected
    everything = blockbloom.Filter(8192)
    everything.insert_values(values)
    assert not everything.find_values(values, mask=mask)[mask].any()
    assert everything.find_values(values, mask=mask)[~mask].all()
    # None in a list; a mask as a list; numpy.ma's own mask.
    g = blockbloom.Filter(8192)
    g.insert_values([None if m else int(v) for v, m in zip(values, mask)])
    assert g == expected
    g = blockbloom.Filter(8192)
    g.insert_values(values.tolist(), mask=mask.tolist())
    assert g == expected
    masked = np.ma.masked_array(values, mask=mask)
    g = blockbloom.Filter(8192)
    g.insert_values(masked)
    assert g == expected
    assert everything.find_values(masked).tolist() == (~mask).tolist()
    assert everything.find_values([None, 5]).tolist() == [False, True]
    # numpy.ma's mask and an explicit one together: null where either says so.
    both = everything.find_values(masked, mask=values == 1)
    assert both.tolist() == (~mask & (values != 1)).tolist()


def test_nulls_in_kudu_and_fused_paths_on_every_tier(each_isa):
    for dtype in (np.int32, np.int64, np.float32, np.float64):
        values = (np.arange(200_000) * 7).astype(dtype)
        mask = np.zeros(len(values), dtype=bool)
        mask[::5] = True
        for layout in ("parquet", "kudu"):
            f = blockbloom.Filter(1 << 16, layout=layout, seed=3 if layout == "kudu" else None)
            f.insert_values(values, mask=mask)
            expected = blockbloom.Filter(1 << 16, layout=layout, seed=3 if layout == "kudu" else None)
            expected.insert_values(values[~mask])
            assert f == expected, (dtype, layout)
            found = f.find_values(values, mask=mask)
            assert found[~mask].all() and not found[mask].any()


def test_kudu_hash_is_fasthash32_of_little_endian_bytes():
    # The FastHash vectors of the Kudu .NET client (tests/cli/typed_values_cli_test.py has them too).
    for data, seed, h32 in ((b"ab", 0, 2564147595), (b"abcdefg", 0, 1497700618),
                            (b"quick brown fox", 42, 1676541068), (b"", 0, 3045300040)):
        assert blockbloom.kudu_hash(data, seed) == h32
    assert blockbloom.kudu_hash(5, 7, "int32") == blockbloom.kudu_hash(struct.pack("<i", 5), 7)
    assert blockbloom.kudu_hash(5, 7) == blockbloom.kudu_hash(struct.pack("<q", 5), 7)
    assert blockbloom.kudu_hash(2.5, 0, "float") == blockbloom.kudu_hash(struct.pack("<f", 2.5), 0)
    f = blockbloom.Filter(256, layout="kudu", seed=7)
    f.insert_values(np.array([5], dtype=np.int32))
    assert blockbloom.kudu_hash(5, 7, "int32") in f
