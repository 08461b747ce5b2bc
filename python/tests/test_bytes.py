# SPDX-License-Identifier: Apache-2.0
"""Bytes identical to the C library: the committed golden digests on every tier,
the tool's filters, parquet-mr's file, and an independent numpy model."""
import struct

import numpy as np
import pytest

import blockbloom
from conftest import random_hashes, run_tool, shared_testdata
from numpy_model import NumpyFilter, splitmix32, splitmix64

# tests/kernels/kernel_golden_test.cc: blocks -> XXH64 of the filter after inserting
# Hashes(0xb10c0000 + blocks, 8 * blocks); tests/kernels/kudu_kernel_test.cc: the same
# with Hashes32(0x6b756475 + blocks, ...).
PARQUET_GOLDEN = {1: 0xA008A4B6287D6C61, 3: 0x2B50BE1F1C6E175A, 32: 0x49B87D05128F7A84,
                  4096: 0xC32F6C675A4E09F9, 32768: 0xCDEC8421B075BB12}
KUDU_GOLDEN = {2: 0x22DFF9645B245F5E, 4: 0xE9D47681BC1A8518, 32: 0x1BAD4BC497FC2E7C,
               4096: 0xC6F3C33913E87F0F, 32768: 0x8B274779FBCB963E}

# facts.md: XXH64 of bytes 0, 1, ..., n-1 (as signed int64), and parquet-mr's strings.
XXH64_VECTORS = {0: -1205034819632174695, 1: -1642502924627794072,
                 2: 5216751715308240086, 3: -1889335612763511331}
PARQUET_MR = {"hello": 0x26C7827D889F6DA3, "parquet": 0x3C9D29275C52E429,
              "bloom": 0x50C8FB9E62DBC53C, "filter": 0x2A5736CDFCD7A9A1}


def digest(f):
    return blockbloom.parquet_hash(memoryview(f))


def test_xxh64_of_bytes_matches_published_vectors():
    for n, signed in XXH64_VECTORS.items():
        assert blockbloom.parquet_hash(bytes(range(n))) == signed % 2**64
    for text, h in PARQUET_MR.items():
        assert blockbloom.parquet_hash(text) == h
        assert blockbloom.parquet_hash(text.encode()) == h


def test_parquet_golden_digests_on_every_tier(each_isa):
    for blocks, golden in PARQUET_GOLDEN.items():
        hashes = splitmix64(0xB10C0000 + blocks, 8 * blocks)
        batch = blockbloom.Filter(32 * blocks)
        batch.insert(hashes)
        assert digest(batch) == golden, (each_isa, blocks)
        single = blockbloom.Filter(32 * blocks)
        for h in hashes[:64].tolist():
            single.insert(h)
        single.insert(hashes[64:])
        assert single == batch, (each_isa, blocks)
        assert batch.find(hashes).all()


def test_kudu_golden_digests_on_every_tier(each_isa):
    for blocks, golden in KUDU_GOLDEN.items():
        hashes = splitmix32(0x6B756475 + blocks, 8 * blocks)
        f = blockbloom.Filter(32 * blocks, layout="kudu")
        f.insert(hashes)
        assert digest(f) == golden, (each_isa, blocks)
        assert f.find(hashes).all()


@pytest.mark.parametrize("layout,num_bytes", [("parquet", 32), ("parquet", 1344), ("parquet", 1 << 20),
                                              ("kudu", 64), ("kudu", 1 << 16)])
def test_the_numpy_model_gives_the_same_bits_and_answers(each_isa, layout, num_bytes):
    bits = 64 if layout == "parquet" else 32
    present = random_hashes(num_bytes // 4, seed=num_bytes, bits=bits)
    probes = np.concatenate([present[:500], random_hashes(5000, seed=num_bytes + 1, bits=bits)])
    f = blockbloom.Filter(num_bytes, layout=layout)
    model = NumpyFilter(num_bytes, layout)
    f.insert(present)
    model.insert(present)
    assert bytes(memoryview(f)) == model.tobytes()
    expected = model.find(probes)
    assert np.array_equal(f.find(probes), expected)
    assert np.array_equal(f.find_indices(probes), np.flatnonzero(expected))
    assert np.array_equal(np.unpackbits(f.find_bitmap(probes), bitorder="little")[:len(probes)], expected)
    assert [h in f for h in probes[:50].tolist()] == expected[:50].tolist()


def test_the_tools_filters_are_the_same_bytes(tool, tmp_path):
    for layout, num_bytes, bits in (("parquet", 4096, 64), ("parquet", 1344, 64), ("kudu", 4096, 32)):
        hashes = random_hashes(3000, seed=num_bytes, bits=bits)
        built = run_tool(tool, ["--layout", layout, "--bytes", str(num_bytes)], tmp_path,
                         [str(h).encode() for h in hashes.tolist()], name=layout + str(num_bytes))
        f = blockbloom.Filter(num_bytes, layout=layout)
        f.insert(hashes)
        assert bytes(memoryview(f)) == built, (layout, num_bytes)


def _value_lines(value_type, values):
    if value_type == "string":
        return [v.encode() if isinstance(v, str) else v for v in values]
    if value_type == "float":
        return [float(v).hex().encode() for v in values]  # exact for float32 values
    return [repr(v).encode() for v in values]


TYPED_VALUES = {
    "int32": (np.array([0, 1, -1, 2**31 - 1, -2**31, 12345, -987654], dtype=np.int32)),
    "int64": (np.array([0, 1, -1, 2**63 - 1, -2**63, 10**15, -(10**12)], dtype=np.int64)),
    "float": (np.array([0.0, -0.0, 1.5, -2e10, 3.4e38, 1e-30, 0.1], dtype=np.float32)),
    "double": (np.array([0.0, -0.0, 1.5, -2e10, 1.7e308, 5e-324, 0.1], dtype=np.float64)),
}


@pytest.mark.parametrize("layout,seed", [("parquet", None), ("kudu", None), ("kudu", 0x5EED)])
def test_values_hash_as_the_tool_does(tool, tmp_path, layout, seed):
    hash_flags = (["--hash", "xxh64"] if layout == "parquet" else
                  ["--hash", "fasthash32"] + (["--seed", str(seed)] if seed is not None else []))
    cases = dict(TYPED_VALUES)
    # A '\r' inside a value is its byte; one ending a line is the line end (CRLF).
    cases["string"] = ["hello", "", "gr\u00fc\u00dfe", "parquet", "a\rb", " padded "]
    for value_type, values in cases.items():
        flags = ["--layout", layout, "--bytes", "2048"] + hash_flags + ["--type", value_type]
        lines = _value_lines(value_type, values.tolist() if hasattr(values, "tolist") else values)
        built = run_tool(tool, flags, tmp_path, lines, name="%s-%s" % (layout, value_type))
        from_array = blockbloom.Filter(2048, layout=layout, seed=seed)
        from_array.insert_values(values)
        assert bytes(memoryview(from_array)) == built, (layout, value_type)
        if value_type != "string":
            from_list = blockbloom.Filter(2048, layout=layout, seed=seed)
            from_list.insert_values(values.tolist(), type=value_type)
            assert from_list == from_array, (layout, value_type)
        assert from_array.find_values(values).all()


def test_parquet_mr_filter_rebuilt_byte_for_byte(each_isa):
    with open(shared_testdata("bloom_filter.xxhash.bin"), "rb") as fh:
        reference = fh.read()
    assert len(reference) == 1040
    f = blockbloom.Filter(1024)
    f.insert_values(list(PARQUET_MR))
    assert bytes(memoryview(f)) == reference[16:]
    assert f.to_parquet_bytes() == reference
    assert f.to_parquet_bytes()[:16] == bytes.fromhex("15 80 10 1c 1c 00 00 1c 1c 00 00 1c 1c 00 00 00")
    read = blockbloom.Filter.from_parquet_bytes(reference)
    assert read == f and not read.is_view
    in_place = blockbloom.Filter.from_parquet_bytes(reference, copy=False, type="string")
    assert in_place == f and in_place.is_view and in_place.read_only
    with pytest.raises(TypeError, match="pass type="):  # the bytes do not say the values' type
        read.find_values(list(PARQUET_MR))
    assert in_place.find_values(list(PARQUET_MR) + ["parquet-mr"]).tolist() == [True] * 4 + [False]
    # facts.md: "hello" sets these lanes of block 4.
    lanes = struct.unpack_from("<8I", reference, 16 + 4 * 32)
    assert lanes == (0x100000, 0x200, 0x400, 0x80, 0x200, 0x80000000, 0x10000000, 0x8000000)
    assert sum(bin(b).count("1") for b in reference[16:]) == 32
