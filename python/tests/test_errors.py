# SPDX-License-Identifier: Apache-2.0
"""Every way to call the package wrongly: the exception type, and the library's
own code and message (bb_status_message) where the library refused."""
import mmap
import subprocess
import sys

import numpy as np
import pytest

import blockbloom
from conftest import random_hashes

# include/blockbloom/blockbloom.h's codes used below (stable values).
SIZE_ZERO, NOT_MULTIPLE_OF_32, TOO_MANY_BLOCKS, READ_ONLY, BATCH_TOO_LARGE = -2, -3, -4, -6, -7
UNKNOWN_ISA, ISA_NOT_COMPILED, ISA_UNSUPPORTED, LAYOUT_MISMATCH, FILTER_MISMATCH = -8, -9, -10, -11, -12
NOT_POWER_OF_TWO, LOG_SPACE_OUT_OF_RANGE, INVALID_FPP, INVALID_NDV = -13, -14, -15, -16
HEADER_TRUNCATED, HEADER_MALFORMED, HEADER_NUM_BYTES, BITSET_TRUNCATED = -17, -18, -19, -20
UNSUPPORTED_ALGORITHM, UNSUPPORTED_HASH, UNSUPPORTED_COMPRESSION = -21, -22, -23
FILTERS_OVERLAP, DIRECTORY_SIZE_MISMATCH, PARQUET_SIZE_LIMIT, PARQUET_UNSAFE_SIZE = -29, -30, -47, -48

# parquet-mr's header for 1024 bytes (facts.md), byte by byte.
HEADER = bytes.fromhex("15 80 10 1c 1c 00 00 1c 1c 00 00 1c 1c 00 00 00")


def refused(status, call, *args, **kwargs):
    """call(*args) raises blockbloom.Error with this status and its message."""
    with pytest.raises(blockbloom.Error) as info:
        call(*args, **kwargs)
    assert info.value.status == status, (info.value.status, str(info.value))
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_size_forms():
    for kwargs in ({}, {"ndv": 10}, {"fpp": 0.1}, {"num_bytes": 64, "ndv": 10, "fpp": 0.1},
                   {"num_bytes": 64, "fpp": 0.1}):
        with pytest.raises(TypeError, match="num_bytes"):
            blockbloom.Filter(**kwargs)
    with pytest.raises(TypeError):
        blockbloom.Filter(64, 10)  # ndv and fpp are keyword-only
    with pytest.raises(TypeError):
        blockbloom.Filter(64.0)
    with pytest.raises(OverflowError):
        blockbloom.Filter(-32)
    with pytest.raises(TypeError):
        blockbloom.Filter(ndv=10, fpp="0.1")


def test_sizes_the_library_refuses():
    assert "0 bytes" in refused(SIZE_ZERO, blockbloom.Filter, 0)
    message = refused(NOT_MULTIPLE_OF_32, blockbloom.Filter, 33)
    assert message == "Filter(num_bytes=33): filter size is not a multiple of 32 bytes (the block size)"
    refused(TOO_MANY_BLOCKS, blockbloom.Filter, 32 << 31)
    refused(NOT_POWER_OF_TWO, blockbloom.Filter, 96, layout="kudu")
    refused(LOG_SPACE_OUT_OF_RANGE, blockbloom.Filter, 32, layout="kudu")
    # ndv 0 (an empty build side) is the smallest filter, not an error.
    assert blockbloom.Filter(ndv=0, fpp=0.01).num_bytes == 32
    assert blockbloom.Filter(ndv=0, fpp=1e-9, sizing="exact").num_bytes == 32
    refused(INVALID_FPP, blockbloom.Filter, ndv=0, fpp=0.0)
    for fpp in (0.0, 1.0, -0.5, float("nan")):
        refused(INVALID_FPP, blockbloom.Filter, ndv=10, fpp=fpp)
    refused(PARQUET_SIZE_LIMIT, blockbloom.Filter, ndv=10**12, fpp=1e-6)


def test_layout_seed_and_always_false_arguments():
    with pytest.raises(ValueError, match="'parquet' or 'kudu'"):
        blockbloom.Filter(64, layout="orc")
    with pytest.raises(TypeError, match="seed"):
        blockbloom.Filter(64, seed=1)
    with pytest.raises(OverflowError):
        blockbloom.Filter(64, layout="kudu", seed=2**32)
    with pytest.raises(TypeError, match="always_false"):
        blockbloom.Filter.from_bytes(bytes(64), always_false=True)


def test_out_of_memory_is_memory_error():
    # In a child with a 4 GiB address space, as tests/filter/api_test.cc does it.
    code = ("import resource, blockbloom\n"
            "resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))\n"
            "try:\n    blockbloom.Filter(16 << 30)\nexcept MemoryError as e:\n    print('MemoryError', e)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.startswith("MemoryError Filter(num_bytes=17179869184): out of memory"), result.stdout


@pytest.mark.parametrize("layout", ["parquet", "kudu"])
def test_wrong_hash_arrays(layout):
    f = blockbloom.Filter(64, layout=layout)
    right = np.uint64 if layout == "parquet" else np.uint32
    wrong = [np.int64, np.float64, np.uint8, np.uint16, np.int32, np.uint32 if layout == "parquet" else np.uint64]
    for method in (f.insert, f.find, f.find_bitmap, f.find_indices):
        for dtype in wrong:
            with pytest.raises(TypeError, match="got dtype " + np.dtype(dtype).name):
                method(np.zeros(4, dtype=dtype))
        with pytest.raises(TypeError, match="foreign byte order|>u"):
            method(np.zeros(4, dtype=np.dtype(right).newbyteorder(">")))
        with pytest.raises(ValueError, match="not C-contiguous"):
            method(np.zeros(8, dtype=right)[::2])
        with pytest.raises(ValueError, match="not C-contiguous"):
            method(np.zeros((4, 4), dtype=right, order="F"))
        with pytest.raises(TypeError, match="str"):
            method("12")
        with pytest.raises(TypeError):
            method(b"12345678")
        with pytest.raises(TypeError):
            method(3.5)
        with pytest.raises(TypeError):
            method([1, 2.5])
        with pytest.raises(OverflowError):
            method([1, -1])
        with pytest.raises(OverflowError):
            method([2**64])
    with pytest.raises(OverflowError):
        f.insert(-1)
    with pytest.raises(TypeError, match="find"):
        np.zeros(2, dtype=right) in f
    with pytest.raises(TypeError):
        "x" in f


def test_wrong_out_arrays():
    f = blockbloom.Filter(64)
    hashes = random_hashes(10)
    with pytest.raises(TypeError, match="bool"):
        f.find(hashes, out=np.zeros(10, dtype=np.uint8))
    with pytest.raises(ValueError, match="9 elements for 10"):
        f.find(hashes, out=np.zeros(9, dtype=bool))
    with pytest.raises(ValueError, match="not C-contiguous"):
        f.find(hashes, out=np.zeros(20, dtype=bool)[::2])
    read_only = np.zeros(10, dtype=bool)
    read_only.flags.writeable = False
    with pytest.raises(TypeError, match="writable"):
        f.find(hashes, out=read_only)
    with pytest.raises(TypeError, match="out"):
        f.find(5, out=np.zeros(1, dtype=bool))


def test_read_only_views_refuse_every_write():
    f = blockbloom.Filter.from_bytes(bytes(64), type="int64")
    assert f.read_only and f.is_view
    assert refused(READ_ONLY, f.insert, 1).endswith("filter is a read-only view; inserts are refused")
    refused(READ_ONLY, f.insert, random_hashes(3))
    refused(READ_ONLY, f.insert_values, [1, 2])
    refused(READ_ONLY, f.insert_values, np.arange(3, dtype=np.int64))
    refused(READ_ONLY, f.clear)
    refused(READ_ONLY, f.union, blockbloom.Filter(64))
    with pytest.raises(TypeError):
        memoryview(f)[0] = 1
    readonly_bytearray = memoryview(bytearray(64)).toreadonly()
    assert blockbloom.Filter.from_bytes(readonly_bytearray).read_only


def test_union_and_intersect_mismatches():
    a = blockbloom.Filter(64)
    refused(FILTER_MISMATCH, a.union, blockbloom.Filter(128))
    refused(FILTER_MISMATCH, a.intersect, blockbloom.Filter(64, layout="kudu"))
    with pytest.raises(blockbloom.Error):
        a | blockbloom.Filter(96)
    with pytest.raises(TypeError):
        a.union(b"x" * 64)
    memory = bytearray(96)
    left = blockbloom.Filter.from_bytes(memoryview(memory)[:64])
    right = blockbloom.Filter.from_bytes(memoryview(memory)[32:])
    refused(FILTERS_OVERLAP, left.union, right)


def test_serialization_refusals():
    refused(PARQUET_UNSAFE_SIZE, blockbloom.Filter(1344).to_parquet_bytes)
    assert len(blockbloom.Filter(1344).to_parquet_bytes(any_size=True)) > 1344
    refused(LAYOUT_MISMATCH, blockbloom.Filter(64, layout="kudu").to_parquet_bytes)
    refused(LAYOUT_MISMATCH, blockbloom.Filter(64).to_kudu_fields)


def test_from_bytes_refusals():
    refused(SIZE_ZERO, blockbloom.Filter.from_bytes, b"")
    refused(NOT_MULTIPLE_OF_32, blockbloom.Filter.from_bytes, bytes(33))
    refused(NOT_MULTIPLE_OF_32, blockbloom.Filter.from_bytes, bytes(33), copy=True)
    refused(NOT_POWER_OF_TWO, blockbloom.Filter.from_bytes, bytes(96), layout="kudu")
    refused(NOT_POWER_OF_TWO, blockbloom.Filter.from_bytes, bytes(96), layout="kudu", copy=True)
    with pytest.raises(TypeError, match="bytes-like"):
        blockbloom.Filter.from_bytes(64)
    with pytest.raises(ValueError, match="not C-contiguous"):
        blockbloom.Filter.from_bytes(np.zeros(128, dtype=np.uint8)[::2])


def test_parquet_header_refusals():
    bits = bytes(1024)
    assert blockbloom.Filter.from_parquet_bytes(HEADER + bits).num_bytes == 1024
    for cut in (0, 1, 5, 15):
        refused(HEADER_TRUNCATED, blockbloom.Filter.from_parquet_bytes, HEADER[:cut])
    refused(BITSET_TRUNCATED, blockbloom.Filter.from_parquet_bytes, HEADER + bits[:-1])
    refused(BITSET_TRUNCATED, blockbloom.Filter.from_parquet_bytes, HEADER + bits[:-1], copy=False)
    refused(HEADER_NUM_BYTES, blockbloom.Filter.from_parquet_bytes, b"\x15\x42" + HEADER[3:] + bits)
    refused(HEADER_MALFORMED, blockbloom.Filter.from_parquet_bytes, b"\x1f" + HEADER[1:] + bits)
    # The union member of each field: 1 is BLOCK / XXHASH / UNCOMPRESSED, 2 is nothing known.
    for offset, status in ((4, UNSUPPORTED_ALGORITHM), (8, UNSUPPORTED_HASH), (12, UNSUPPORTED_COMPRESSION)):
        header = bytearray(HEADER)
        header[offset] = 0x2C
        refused(status, blockbloom.Filter.from_parquet_bytes, bytes(header) + bits)


def test_kudu_fields_refusals():
    good = {"log_space_bytes": 6, "bloom_data": bytes(64)}
    with pytest.raises(TypeError, match="missing"):
        blockbloom.Filter.from_kudu_fields({"log_space_bytes": 6})
    with pytest.raises(TypeError, match="missing"):
        blockbloom.Filter.from_kudu_fields({"bloom_data": bytes(64)})
    with pytest.raises(TypeError, match="unknown field 'seed'"):
        blockbloom.Filter.from_kudu_fields(dict(good, seed=1))
    with pytest.raises(TypeError, match="mapping"):
        blockbloom.Filter.from_kudu_fields(42)
    with pytest.raises(TypeError, match="bytes-like"):
        blockbloom.Filter.from_kudu_fields(dict(good, bloom_data=64))
    refused(LOG_SPACE_OUT_OF_RANGE, blockbloom.Filter.from_kudu_fields, dict(good, log_space_bytes=5))
    refused(LOG_SPACE_OUT_OF_RANGE, blockbloom.Filter.from_kudu_fields, dict(good, log_space_bytes=2**40))
    refused(DIRECTORY_SIZE_MISMATCH, blockbloom.Filter.from_kudu_fields, dict(good, bloom_data=bytes(128)))
    refused(NOT_POWER_OF_TWO, blockbloom.Filter.from_kudu_fields, dict(good, bloom_data=bytes(96)))
    refused(UNSUPPORTED_HASH, blockbloom.Filter.from_kudu_fields, dict(good, hash_algorithm=1))
    refused(UNSUPPORTED_HASH, blockbloom.Filter.from_kudu_fields, dict(good, hash_algorithm="CITY_HASH"))
    with pytest.raises(OverflowError):
        blockbloom.Filter.from_kudu_fields(dict(good, hash_seed=-1))
    with pytest.raises(TypeError, match="log_space_bytes: expected an int"):
        blockbloom.Filter.from_kudu_fields(dict(good, log_space_bytes=6.0))
    refused(LOG_SPACE_OUT_OF_RANGE, blockbloom.Filter.from_kudu_fields, dict(good, log_space_bytes=2**70))
    refused(UNSUPPORTED_HASH, blockbloom.Filter.from_kudu_fields, dict(good, hash_algorithm=2**40 + 3))


def test_isa_refusals():
    before = blockbloom.selected_isa()
    assert "unknown ISA name" in refused(UNKNOWN_ISA, blockbloom.select_isa, "mmx")
    for name in blockbloom.isa_names():
        if name not in blockbloom.compiled_isas():
            refused(ISA_NOT_COMPILED, blockbloom.select_isa, name)
        elif name not in blockbloom.supported_isas():
            refused(ISA_UNSUPPORTED, blockbloom.select_isa, name)
    assert blockbloom.selected_isa() == before


def test_a_batch_of_2_to_the_32_hashes_has_no_selection_vector():
    try:
        # 2**32 uint32 hashes: 16 GiB of address space, never touched.
        memory = mmap.mmap(-1, 4 << 32, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | getattr(mmap, "MAP_NORESERVE", 0))
    except (OSError, OverflowError) as e:
        pytest.skip("no 16 GiB anonymous mapping here: %s" % e)
    hashes = np.frombuffer(memory, dtype=np.uint32)
    assert hashes.size == 2**32
    f = blockbloom.Filter(64, layout="kudu")
    assert "below 2^32" in refused(BATCH_TOO_LARGE, f.find_indices, hashes)


def test_value_refusals():
    f = blockbloom.Filter(64)
    with pytest.raises(TypeError, match="cannot take an array of complex64"):
        f.insert_values(np.zeros(3, dtype=np.complex64))
    with pytest.raises(TypeError, match="a BOOLEAN column has no Bloom filter hash"):
        f.insert_values(np.zeros(3, dtype=np.bool_))
    with pytest.raises(TypeError, match="finest unit is ns"):
        f.insert_values(np.zeros(3, dtype="datetime64[ps]"))
    with pytest.raises(blockbloom.Error):
        blockbloom.Filter(64, layout="kudu").insert_values(np.zeros(3, dtype=np.uint32))
    with pytest.raises(TypeError, match="holds values of type 'int32', not type='int64'"):
        blockbloom.Filter(64, type="int32").insert_values(np.zeros(3, dtype=np.int64), type="int64")
    assert f.type is None  # nothing was inserted: still untyped
    with pytest.raises(ValueError, match="'int33' is not a type name"):
        f.insert_values([1], type="int33")
    with pytest.raises(TypeError):
        f.insert_values([1], type=32)
    with pytest.raises(ValueError, match="not C-contiguous"):
        f.insert_values(np.zeros(8, dtype=np.int64)[::2])
    with pytest.raises(ValueError, match="mask has 2 entries for 3 values"):
        f.insert_values(np.zeros(3, dtype=np.int64), mask=np.zeros(2, dtype=bool))
    with pytest.raises(ValueError, match="mask has 2 entries for 3 values"):
        f.find_values([1, 2, 3], mask=[True, False])
    with pytest.raises(TypeError, match="mask must be a bool array"):
        f.insert_values(np.zeros(3, dtype=np.int64), mask=np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="not C-contiguous"):
        f.insert_values(np.zeros(3, dtype=np.int64), mask=np.zeros(6, dtype=bool)[::2])
    with pytest.raises(TypeError, match=r"item 1 \(1\)"):
        f.insert_values(["a", 1])  # STRING from "a"; an int is no text
    assert f.type is None  # a refused insert records no type
    with pytest.raises(blockbloom.Error, match=r"item 1 \('a'\)"):
        f.insert_values([1, "a"])
    with pytest.raises(TypeError, match="item 0 .*none of the kinds"):
        f.insert_values([object()])
    with pytest.raises(TypeError, match="value .*none of the kinds"):
        f.insert_values(object())  # one value (not iterable), of no kind known
    with pytest.raises(TypeError):
        blockbloom.parquet_hash(object())
    with pytest.raises(blockbloom.Error, match="not a decimal integer"):
        blockbloom.parquet_hash("a", type="int32")
    g = blockbloom.Filter(64, type="int64")
    with pytest.raises(blockbloom.Error, match=r"item 0 \(1.5\) is not a value of the filter's type 'int64'"):
        g.insert_values([1.5])  # no INT64 equals 1.5: refused, nothing inserted
    assert bytes(g) == bytes(64) and g.find_values([1.5]).tolist() == [False]
    with pytest.raises(TypeError):
        blockbloom.kudu_hash(1, seed=-1)
    assert bytes(memoryview(f)) == bytes(64)  # nothing was half-inserted
