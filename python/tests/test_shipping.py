# SPDX-License-Identifier: Apache-2.0
"""Shipping filters between processes: __sizeof__, pickle protocols 2..5 (5
without copying the bitset), union_all / intersect_all, and the sizing= choice."""
import pickle
import subprocess
import sys

import numpy as np
import pytest

import blockbloom
from conftest import random_hashes


def filled(num_bytes=4096, layout="parquet", n=300, seed=None, type=None):
    f = blockbloom.Filter(num_bytes, layout=layout, seed=seed, type=type)
    hashes = random_hashes(n)
    f.insert(hashes if layout == "parquet" else (hashes & 0xFFFFFFFF).astype(np.uint32))
    return f


def test_sizeof_counts_the_bitset():
    small, big = blockbloom.Filter(64), blockbloom.Filter(1 << 20)
    assert sys.getsizeof(big) - sys.getsizeof(small) == (1 << 20) - 64
    assert big.__sizeof__() >= (1 << 20)
    view = blockbloom.Filter.from_bytes(bytearray(8192))
    assert view.__sizeof__() >= 8192  # the exported bytes it keeps alive


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
@pytest.mark.parametrize("layout", ["parquet", "kudu"])
def test_pickle_round_trips_at_every_protocol(protocol, layout):
    f = filled(layout=layout, seed=7 if layout == "kudu" else None, type="int64" if layout == "parquet" else None)
    g = pickle.loads(pickle.dumps(f, protocol=protocol))
    assert g == f and bytes(memoryview(g)) == bytes(memoryview(f))
    assert g.type == f.type and g.seed == f.seed and g.layout == layout and not g.is_view


def test_pickle_keeps_kudu_always_false_state():
    f = blockbloom.Filter(1024, layout="kudu", seed=3)
    for protocol in (2, 5):
        g = pickle.loads(pickle.dumps(f, protocol=protocol))
        assert g.always_false and g.seed == 3


def test_protocol_5_gives_the_bitset_out_of_band_without_a_copy():
    f = filled(1 << 16)
    buffers = []
    data = pickle.dumps(f, protocol=5, buffer_callback=buffers.append)
    assert len(buffers) == 1 and len(data) < 200  # the bitset is not in the pickle
    raw = buffers[0].raw()
    assert raw.readonly and raw.nbytes == f.num_bytes
    own = np.frombuffer(f, np.uint8)
    shipped = np.frombuffer(raw, np.uint8)
    assert shipped.ctypes.data == own.ctypes.data  # the filter's own memory
    g = pickle.loads(data, buffers=buffers)
    assert g == f and np.frombuffer(g, np.uint8).ctypes.data != own.ctypes.data  # loading copies once
    g.insert(1)  # an owned, writable filter
    assert not g.is_view


def test_protocol_4_pickles_the_bitset_in_band():
    f = filled(1 << 16)
    assert len(pickle.dumps(f, protocol=4)) > f.num_bytes


def test_union_all_and_intersect_all_match_pairwise():
    parts = [filled(2048, n=100 + i) for i in range(5)]
    union = parts[0].copy()
    inter = parts[0].copy()
    for p in parts[1:]:
        union |= p
        inter &= p
    assert blockbloom.Filter.union_all(parts) == union
    assert blockbloom.Filter.intersect_all(iter(parts)) == inter
    one = blockbloom.Filter.union_all(parts[:1])
    assert one == parts[0] and one is not parts[0]
    assert all(p == q for p, q in zip(parts, [filled(2048, n=100 + i) for i in range(5)]))  # inputs untouched


def test_union_all_refuses_empty_and_mismatched_input():
    with pytest.raises(ValueError, match="no filters"):
        blockbloom.Filter.union_all([])
    with pytest.raises(blockbloom.Error, match="differ in size: 1024 and 2048 bytes") as e:
        blockbloom.Filter.union_all([blockbloom.Filter(1024), blockbloom.Filter(2048)])
    with pytest.raises(blockbloom.Error) as same:
        blockbloom.Filter(1024).union(blockbloom.Filter(2048))
    assert e.value.status == same.value.status
    with pytest.raises(blockbloom.Error, match="differ in layout: Parquet and Kudu"):
        blockbloom.Filter.intersect_all([blockbloom.Filter(1024), blockbloom.Filter(1024, layout="kudu")])
    with pytest.raises(TypeError, match="expected Filter"):
        blockbloom.Filter.union_all([blockbloom.Filter(1024), b"bytes"])


def test_sizing_parquet_safe_is_the_default_power_of_two():
    f = blockbloom.Filter(ndv=1_000_000, fpp=0.01)
    assert f.num_bytes == 2_097_152
    assert blockbloom.Filter(ndv=1_000_000, fpp=0.01, sizing="parquet-safe").num_bytes == f.num_bytes


@pytest.mark.parametrize("ndv,fpp", [(1_000_000, 0.01), (200_000, 0.01), (1000, 0.001), (1, 0.5)])
def test_sizing_exact_is_the_smallest_multiple_of_32_meeting_the_fpp(ndv, fpp):
    f = blockbloom.Filter(ndv=ndv, fpp=fpp, sizing="exact")
    assert f.num_bytes % 32 == 0 and f.fpp(ndv) <= fpp
    if f.num_bytes > 32:
        assert blockbloom.Filter(f.num_bytes - 32).fpp(ndv) > fpp  # one block less misses
    safe = blockbloom.Filter(ndv=ndv, fpp=fpp).num_bytes
    assert f.num_bytes <= safe < 2 * f.num_bytes + 32


def test_sizing_exact_matches_the_c_library_figure():
    # bb_bytes_for(1e6, 0.01, BB_SIZE_PARQUET): the Parquet spec's exact model.
    assert blockbloom.Filter(ndv=1_000_000, fpp=0.01, sizing="exact").num_bytes == 1_316_160


def test_sizing_is_deterministic_and_kudu_stays_a_power_of_two():
    sizes = {blockbloom.Filter(ndv=123_457, fpp=0.02, sizing="exact").num_bytes for _ in range(5)}
    assert len(sizes) == 1
    kudu = {blockbloom.Filter(ndv=123_457, fpp=0.02, layout="kudu", sizing=s).num_bytes
            for s in ("exact", "parquet-safe", None)}
    (size,) = kudu
    assert size & (size - 1) == 0


def test_sizing_refuses_unknown_names_and_num_bytes():
    with pytest.raises(ValueError, match="'parquet-safe' or 'exact'"):
        blockbloom.Filter(ndv=10, fpp=0.01, sizing="pow2")
    with pytest.raises(TypeError, match="sizing"):
        blockbloom.Filter(1024, sizing="exact")


def test_import_blockbloom_does_not_import_dask():
    code = "import sys, blockbloom; assert 'dask' not in sys.modules, 'dask imported'; print('ok')"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr
