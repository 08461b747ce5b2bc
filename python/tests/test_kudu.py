# SPDX-License-Identifier: Apache-2.0
"""The Kudu / Impala runtime-filter layout: always-false, seeds, BlockBloomFilterPB."""
import pickle
import time

import numpy as np
import pytest

import blockbloom
from conftest import random_hashes


def test_a_new_kudu_filter_is_always_false_until_the_first_insert():
    f = blockbloom.Filter(64, layout="kudu")
    assert f.layout == "kudu" and f.always_false and f.num_blocks == 2
    assert not f.find(random_hashes(100, bits=32)).any()
    f.insert(np.array([], dtype=np.uint32))
    assert f.always_false
    f.insert(7)
    assert not f.always_false and 7 in f
    f.clear()
    assert f.always_false and 7 not in f
    assert "always false" in repr(f)


def test_kudu_fields_round_trip():
    f = blockbloom.Filter(4096, layout="kudu", seed=0xC0FFEE)
    f.insert(random_hashes(500, bits=32))
    fields = f.to_kudu_fields()
    assert fields["log_space_bytes"] == 12
    assert fields["bloom_data"] == bytes(memoryview(f)) and isinstance(fields["bloom_data"], bytes)
    assert (fields["always_false"], fields["hash_algorithm"], fields["hash_seed"]) == (False, 3, 0xC0FFEE)
    back = blockbloom.Filter.from_kudu_fields(fields)
    assert back == f and back.seed == 0xC0FFEE and not back.is_view
    # Protobuf's defaults for the optional fields, and the enum by name.
    minimal = blockbloom.Filter.from_kudu_fields({"log_space_bytes": 6, "bloom_data": bytes(64)})
    assert minimal.seed == 0 and not minimal.always_false
    named = dict(fields, hash_algorithm="FAST_HASH", bloom_data=bytearray(fields["bloom_data"]))
    assert blockbloom.Filter.from_kudu_fields(named) == f
    empty = blockbloom.Filter(64, layout="kudu", seed=9).to_kudu_fields()
    assert empty["always_false"] is True
    assert blockbloom.Filter.from_kudu_fields(empty).always_false
    assert pickle.loads(pickle.dumps(f)) == f


def test_seed_changes_value_hashes_not_hash_probes():
    a = blockbloom.Filter(1024, layout="kudu", seed=1)
    b = blockbloom.Filter(1024, layout="kudu", seed=2)
    a.insert_values([10, 20, 30])
    b.insert_values([10, 20, 30])
    assert a.find_values([10, 20, 30]).all() and b.find_values([10, 20, 30]).all()
    assert bytes(memoryview(a)) != bytes(memoryview(b))
    assert blockbloom.kudu_hash(10, seed=1) in a
    assert blockbloom.kudu_hash(10, seed=1) == blockbloom.kudu_hash(np.int64(10), 1, "int64")
    a2 = blockbloom.Filter.from_bytes(bytes(memoryview(a)), layout="kudu", seed=1)
    assert a2 == a
    assert a2 != blockbloom.Filter.from_bytes(bytes(memoryview(a)), layout="kudu", seed=3)


def test_filters_of_other_seeds_are_not_combined():
    """A value sets other bits under another seed: union would keep the
    left filter's seed and lose every value the right one held. Refused by
    every entrance, naming both seeds, the left filter untouched."""
    a = blockbloom.Filter(1024, layout="kudu", seed=1)
    b = blockbloom.Filter(1024, layout="kudu", seed=2)
    a.insert_values([10, 20, 30])
    b.insert_values([40, 50])
    before = a.copy()
    message = "differ in hash seed: 1 and 2"
    for call in (lambda: a.union(b), lambda: a.intersect(b), lambda: a | b, lambda: a & b,
                 lambda: blockbloom.Filter.union_all([a, b]),
                 lambda: blockbloom.Filter.intersect_all([a, b])):
        with pytest.raises(blockbloom.Error, match=message) as e:
            call()
        assert e.value.status == -12  # BB_ERR_FILTER_MISMATCH
    with pytest.raises(blockbloom.Error, match=message):
        a |= b
    with pytest.raises(blockbloom.Error, match=message):
        a &= b
    assert a == before and a.seed == 1
    same = blockbloom.Filter(1024, layout="kudu", seed=1)
    same.insert_values([40, 50])
    a.union(same)
    assert a.find_values([10, 20, 30, 40, 50]).all()


def test_ndv_zero_is_the_smallest_kudu_filter():
    f = blockbloom.Filter(ndv=0, fpp=0.01, layout="kudu", seed=5)
    assert f.num_bytes == 64 and f.always_false and f.seed == 5


def test_union_with_an_always_false_filter():
    f = blockbloom.Filter(256, layout="kudu")
    f.insert(random_hashes(20, bits=32))
    empty = blockbloom.Filter(256, layout="kudu")
    before = f.copy()
    f.union(empty)
    assert f == before
    f.intersect(empty)
    assert f.always_false


def test_kudu_views_keep_the_always_false_flag():
    data = bytearray(128)
    view = blockbloom.Filter.from_bytes(data, layout="kudu", always_false=True)
    assert view.always_false and view.is_view and not view.read_only
    view.insert(99)
    assert not view.always_false and 99 in view and any(data)


def test_kudu_takes_uint32_hashes_only():
    f = blockbloom.Filter(64, layout="kudu")
    with pytest.raises(TypeError, match="Kudu filters take uint32"):
        f.insert(np.zeros(2, dtype=np.uint64))
    with pytest.raises(OverflowError):
        f.insert(2**32)
    with pytest.raises(OverflowError):
        (2**32) in f


def test_always_false_kudu_filters_are_equal_whatever_their_bits():
    # bb_filter_equal: an always-false filter's bits count for nothing.
    ones = blockbloom.Filter.from_bytes(bytearray(b"\xff" * 64), layout="kudu", always_false=True)
    zeros = blockbloom.Filter(64, layout="kudu")
    assert ones.always_false and zeros.always_false and ones == zeros
    assert ones.copy().always_false and ones.copy() == zeros
    assert ones != blockbloom.Filter(64, layout="kudu", seed=1)
    zeros.insert(5)
    assert ones != zeros
    zeros.clear()
    assert zeros.always_false and ones == zeros
    with pytest.raises(blockbloom.Error, match="clear"):
        blockbloom.Filter.from_bytes(bytes(64), layout="kudu").clear()


def test_an_untyped_kudu_filter_takes_its_type_from_the_first_insert(tmp_path):
    """After the first insert the filter's type, not the values' container,
    decides a Kudu cell's hash: int32 values then Python ints find each other."""
    pd = pytest.importorskip("pandas")
    k = blockbloom.Filter(1024, layout="kudu", seed=7)
    k.insert_values(pd.Series([1, 2], dtype="int32"))
    assert k.type == "INT32 INTEGER(32,true)"
    assert k.find_values([1, 2]).tolist() == [True, True]
    with pytest.raises(TypeError, match="not values of type 'INT32"):  # refused, never hashed as int64 cells
        k.find_values(np.array([1, 2], dtype=np.int64))
    k.save(tmp_path / "k.bbf")  # it has a type, so it can be saved
    back = blockbloom.Filter.load(tmp_path / "k.bbf")
    assert back.type == k.type and back.find_values([1, 2]).tolist() == [True, True]
    u = blockbloom.Filter(1024, layout="kudu")
    with pytest.raises(TypeError, match="2.5"):
        u.insert_values([1, 2.5])  # refused whole: stays untyped and empty
    assert u.type is None and u.always_false


def test_kudu_int8_and_int16_values_hash_as_cells_of_their_width():
    """Python ints on an INT8 / INT16 Kudu filter hash as 1- / 2-byte cells,
    as the tool builds them and as an int8 array's values do (not as the 4
    bytes of Parquet's INT32, which would answer them absent)."""
    for dtype, name in ((np.int8, "int8"), (np.int16, "int16")):
        values = np.array([1, -2, 100], dtype=dtype)
        assert blockbloom.kudu_hash(values.tolist(), 3, name).tolist() == blockbloom.kudu_hash(values, 3).tolist()
        k = blockbloom.Filter(1024, layout="kudu", seed=3)
        k.insert_values(values)  # the type becomes INTEGER(8) / INTEGER(16)
        assert k.find_values([1, -2, 100, 5]).tolist() == [True, True, True, False]
        t = blockbloom.Filter(1024, layout="kudu", seed=3, type=name)
        t.insert_values([1, -2, 100])
        assert t == k


def test_a_wide_fixed_type_is_not_allocated_to_refuse_a_short_value():
    # Each probe sized its bytes by the declared width before the library
    # refused the value: 2000 probes of b"abc" zero-filled 20 GB (1.6 s here).
    f = blockbloom.Filter(1024, layout="kudu", type="fixed(9999999)")
    for value in (b"abc", "abc"):
        started = time.perf_counter()
        for _ in range(2000):
            with pytest.raises(ValueError, match="is 3 bytes"):
                f.find_values([value])
        assert time.perf_counter() - started < 0.5
    wide = blockbloom.Filter(1024, layout="kudu", type="fixed(40)")
    wide.insert_values([b"x" * 40, "y" * 40])  # values of the width still take the room they need
    assert wide.find_values([b"x" * 40, b"y" * 40, b"z" * 40]).tolist() == [True, True, False]


@pytest.mark.parametrize("layout", ["parquet", "kudu"])
def test_a_pickled_fixed_width_no_type_name_declares_is_refused(layout):
    state = list(blockbloom.Filter(1024, layout=layout, type="fixed(16)").__getstate__())
    name, physical, _, *rest = state[4]
    for width in (300_000_000, 2**31 - 1):
        state[4] = ("FIXED_LEN_BYTE_ARRAY(%d)" % width, physical, width, *rest)
        f = blockbloom.Filter.__new__(blockbloom.Filter)
        with pytest.raises(ValueError, match="type type_length: %d bytes: no type name declares" % width):
            f.__setstate__(tuple(state))
    state[4] = ("FIXED_LEN_BYTE_ARRAY(9999999)", physical, 9999999, *rest)
    f = blockbloom.Filter.__new__(blockbloom.Filter)
    f.__setstate__(tuple(state))  # the widest a name declares still loads
    assert f.type == "FIXED_LEN_BYTE_ARRAY(9999999)"


def test_a_kudu_filter_refuses_booleans_without_naming_parquet():
    for f in (blockbloom.Filter(1024, layout="kudu"), blockbloom.Filter(1024, layout="kudu", type="int64")):
        with pytest.raises(TypeError, match="a BOOLEAN column has no Bloom filter hash") as refused:
            f.find_values(np.array([True, False]))
        assert "Parquet" not in str(refused.value)


def test_a_float_that_float32_rounds_to_zero_is_refused_as_one_that_overflows():
    # 1e-50 was hashed as 0.0 while Decimal('1E-46') and 1e39 were refused.
    for tiny in (1e-50, -1e-50, 1e-46):
        with pytest.raises(ValueError, match=r"kudu_hash\(\): .* underflows float32"):
            blockbloom.kudu_hash(tiny, type="float")
    with pytest.raises(ValueError, match="overflows float32"):
        blockbloom.kudu_hash(1e39, type="float")
    assert blockbloom.kudu_hash(1e-45, type="float") == blockbloom.kudu_hash(np.float32(1e-45).item(), type="float")
    assert blockbloom.kudu_hash(0.0, type="float") != blockbloom.kudu_hash(-0.0, type="float")
    assert blockbloom.kudu_hash(1e-50, type="double") != blockbloom.kudu_hash(0.0, type="double")
