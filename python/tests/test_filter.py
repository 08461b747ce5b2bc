# SPDX-License-Identifier: Apache-2.0
"""blockbloom.Filter's methods and sizes (Parquet layout unless named)."""
import copy
import pickle

import numpy as np
import pytest

import blockbloom
from conftest import random_hashes


def test_sizes_from_ndv_and_fpp_are_reader_safe_powers_of_two():
    # docs/sizing.md: 2048 bytes for 1,000 keys at 1%; 796,696 keys is the last that 1 MiB holds.
    assert len(blockbloom.Filter(ndv=1000, fpp=0.01)) == 2048
    assert len(blockbloom.Filter(ndv=796_696, fpp=0.01)) == 1 << 20
    assert len(blockbloom.Filter(ndv=796_697, fpp=0.01)) == 2 << 20
    for ndv in (1, 10, 3333, 10**5):
        n = len(blockbloom.Filter(ndv=ndv, fpp=0.001))
        assert n & (n - 1) == 0 and 32 <= n <= 128 << 20
    kudu = blockbloom.Filter(ndv=1000, fpp=0.01, layout="kudu")
    assert len(kudu) >= 64 and len(kudu) & (len(kudu) - 1) == 0
    assert kudu.fpp(1000) <= 0.01


def test_any_multiple_of_32_by_num_bytes_and_the_properties():
    f = blockbloom.Filter(1344)
    assert (len(f), f.num_bytes, f.num_blocks, f.layout, f.seed) == (1344, 1344, 42, "parquet", 0)
    assert not f.always_false and not f.read_only and not f.is_view
    assert repr(f) == "<blockbloom.Filter parquet, 1344 bytes (42 blocks)>"
    assert bytes(memoryview(f)) == bytes(1344)


def test_fpp_is_the_exact_model():
    # facts.md: Parquet's example, 1024 blocks with 26,214 inserts: about 1.26%.
    assert blockbloom.Filter(32 * 1024).fpp(26_214) == pytest.approx(0.0126, abs=0.0002)
    f = blockbloom.Filter(ndv=10_000, fpp=0.01)
    assert f.fpp(10_000) <= 0.01 < f.fpp(40_000)


def test_insert_and_find_forms():
    f = blockbloom.Filter(4096)
    hashes = random_hashes(200)
    f.insert(hashes[:100])
    f.insert(hashes[100:150].tolist())       # a list of ints
    f.insert(tuple(hashes[150:160].tolist()))
    f.insert(int(hashes[160]))               # one int
    f.insert(hashes[161:162][0])             # a numpy scalar
    f.insert(memoryview(hashes[162:170]))    # any buffer of uint64
    for h in hashes[:170].tolist():
        assert h in f
    assert f.find(hashes[:170]).all()
    assert f.find(int(hashes[0])) is True
    assert f.find(hashes[:10].tolist()).tolist() == [True] * 10
    # Shapes are kept; indices are into the flattened input.
    grid = hashes[:170].reshape(10, 17)
    assert f.find(grid).shape == (10, 17)
    assert np.array_equal(f.find_indices(grid), np.arange(170, dtype=np.uint32))
    assert f.find_indices(hashes).dtype == np.uint32
    assert f.find_bitmap(hashes).shape == ((200 + 7) // 8,)


def test_empty_batches():
    f = blockbloom.Filter(64)
    empty = np.empty(0, dtype=np.uint64)
    f.insert(empty)
    assert f.find(empty).shape == (0,) and f.find(empty).dtype == np.bool_
    assert f.find_indices(empty).shape == (0,)
    assert f.find_bitmap(empty).shape == (0,)
    assert bytes(memoryview(f)) == bytes(64)


def test_find_into_out():
    f = blockbloom.Filter(4096)
    hashes = random_hashes(1000)
    f.insert(hashes[:500])
    out = np.ones(1000, dtype=bool)
    assert f.find(hashes, out=out) is out
    assert np.array_equal(out, f.find(hashes)) and out[:500].all()
    grid = np.zeros((10, 100), dtype=bool)
    f.find(hashes, out=grid)
    assert np.array_equal(grid.ravel(), out)


def test_find_bitmap_is_lsb_first():
    f = blockbloom.Filter(4096)
    hashes = random_hashes(21)
    f.insert(hashes[[0, 8, 9, 20]])
    answers = f.find(hashes)
    bits = f.find_bitmap(hashes)
    assert np.array_equal(np.unpackbits(bits, bitorder="little")[:21], answers)
    assert bits[2] >> 5 == 0  # the unused high bits of the last byte are 0


def test_union_intersect_and_operators():
    a, b = blockbloom.Filter(2048), blockbloom.Filter(2048)
    ha, hb = random_hashes(300, seed=1), random_hashes(300, seed=2)
    a.insert(ha)
    b.insert(hb)
    bits_a = np.frombuffer(bytes(memoryview(a)), np.uint8)
    bits_b = np.frombuffer(bytes(memoryview(b)), np.uint8)
    either, both = a | b, a & b
    assert bytes(memoryview(either)) == (bits_a | bits_b).tobytes()
    assert bytes(memoryview(both)) == (bits_a & bits_b).tobytes()
    assert a == blockbloom.Filter.from_bytes(bits_a.tobytes())  # | and & left a as it was
    c = a.copy()
    assert c.union(b) is None and c == either
    c = a.copy()
    c.intersect(b)
    assert c == both
    c = a.copy()
    c |= b
    assert c == either
    c &= a
    assert c == a
    a.union(a)  # the same bytes: unchanged
    assert a == blockbloom.Filter.from_bytes(bits_a.tobytes())


def test_clear_copy_equality_and_pickle():
    f = blockbloom.Filter(1024)
    f.insert(random_hashes(50))
    g = f.copy()
    assert g == f and g is not f and not g.is_view
    assert copy.copy(f) == f and copy.deepcopy(f) == f
    assert pickle.loads(pickle.dumps(f)) == f
    g.insert(12345)
    assert g != f
    assert f != blockbloom.Filter(2048) and f != blockbloom.Filter(1024, layout="parquet")
    assert (f == "not a filter") is False
    with pytest.raises(TypeError):
        hash(f)  # mutable: unhashable
    g.clear()
    assert g == blockbloom.Filter(1024) and bytes(memoryview(g)) == bytes(1024)
    view = blockbloom.Filter.from_bytes(bytes(memoryview(f)))
    owned = view.copy()
    assert owned == f and not owned.is_view and not owned.read_only
