# SPDX-License-Identifier: Apache-2.0
"""Nothing is copied: hash arrays are read where they lie, the bitset is exported
as itself, and views probe (and write) the caller's memory."""
import array
import tracemalloc

import numpy as np
import pytest

import blockbloom
from blockbloom import _core
from conftest import random_hashes


def address(a):
    return a.__array_interface__["data"][0]


def test_hash_arrays_are_read_in_place():
    hashes = random_hashes(1000)
    assert _core._hash_input_address(hashes, "parquet") == address(hashes)
    assert _core._hash_input_address(hashes[3:], "parquet") == address(hashes) + 24
    grid = hashes.reshape(10, 100)
    assert _core._hash_input_address(grid, "parquet") == address(hashes)
    assert _core._hash_input_address(memoryview(hashes), "parquet") == address(hashes)
    typed = array.array("Q", [1, 2, 3])
    assert _core._hash_input_address(typed, "parquet") == typed.buffer_info()[0]
    small = random_hashes(10, bits=32)
    assert _core._hash_input_address(small, "kudu") == address(small)
    # A list has no memory of uint64s: it is converted (documented).
    assert _core._hash_input_address([1, 2], "parquet") not in (0, None)


def test_batches_allocate_nothing_in_python():
    f = blockbloom.Filter(1 << 16, type="int64")
    hashes = random_hashes(1 << 20)  # 8 MiB
    out = np.empty(len(hashes), dtype=bool)
    tracemalloc.start()
    try:
        f.insert(hashes)
        f.find(hashes, out=out)
        f.insert_values(hashes.view(np.int64))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024, peak  # numpy registers its buffers here: no copy was made
    assert out.all()


def test_the_bitset_is_exported_as_itself():
    f = blockbloom.Filter(4096)
    bits = np.frombuffer(f, dtype=np.uint8)
    view = memoryview(f)
    assert view.readonly is False and view.nbytes == 4096 and view.format == "B"
    assert np.shares_memory(bits, np.frombuffer(view, dtype=np.uint8))
    assert np.shares_memory(bits, np.frombuffer(f, dtype=np.uint8))
    assert not bits.any()
    f.insert(random_hashes(10))
    assert bits.any()  # the earlier array sees the insert: the same memory
    bits2 = np.frombuffer(f, dtype=np.uint8).copy()
    view[:] = b"\xff" * 4096  # and writing through it is writing the filter
    assert f.find(random_hashes(100, seed=9)).all()
    assert not np.array_equal(bits2, bits)


def test_views_probe_and_write_the_callers_memory():
    memory = bytearray(2048)
    f = blockbloom.Filter.from_bytes(memory)
    assert f.is_view and not f.read_only
    assert np.shares_memory(np.frombuffer(f, dtype=np.uint8), np.frombuffer(memory, dtype=np.uint8))
    f.insert(12345)
    assert any(memory)
    assert blockbloom.Filter.from_bytes(bytes(memory)) == f
    with pytest.raises(BufferError):
        memory.extend(b"x")  # the filter keeps the buffer exported...
    del f
    memory.extend(b"x")  # ...for its lifetime only

    # At an odd address inside a larger array, as a bitset in a Parquet file.
    backing = np.zeros(4096 + 1, dtype=np.uint8)
    odd = backing[1:]
    g = blockbloom.Filter.from_bytes(odd)
    assert address(np.frombuffer(g, dtype=np.uint8)) == address(backing) + 1
    g.insert(random_hashes(50))
    assert backing[1:].any() and backing[0] == 0

    owned = blockbloom.Filter.from_bytes(odd, copy=True)
    assert not owned.is_view and owned == g
    assert not np.shares_memory(np.frombuffer(owned, dtype=np.uint8), backing)


def test_read_only_views_export_read_only_memory():
    data = bytes(1024)
    f = blockbloom.Filter.from_bytes(data)
    assert f.read_only and memoryview(f).readonly
    assert address(np.frombuffer(f, dtype=np.uint8)) == address(np.frombuffer(data, dtype=np.uint8))


def test_parquet_bytes_viewed_in_place():
    f = blockbloom.Filter(1024)
    f.insert(random_hashes(40))
    serialized = bytearray(f.to_parquet_bytes()) + b"trailing bytes of the file"
    in_place = blockbloom.Filter.from_parquet_bytes(serialized, copy=False)
    assert in_place == f and in_place.is_view and not in_place.read_only
    assert address(np.frombuffer(in_place, dtype=np.uint8)) == address(np.frombuffer(serialized, dtype=np.uint8)) + 16
    in_place.insert(7)
    assert 7 in blockbloom.Filter.from_parquet_bytes(bytes(serialized))
