# SPDX-License-Identifier: Apache-2.0
"""Shipping filters between processes: __sizeof__, pickle protocols 0..5 (5
without copying the bitset), union_all / intersect_all, and the sizing= choice."""
import copy
import inspect
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


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("layout", ["parquet", "kudu"])
def test_pickle_round_trips_at_every_protocol(protocol, layout):
    # Protocols 0 and 1 went through object.__reduce_ex__ to copyreg's
    # _reduce_ex, which raised a bogus RuntimeError and then crashed the process.
    f = filled(layout=layout, seed=7 if layout == "kudu" else None, type="int64" if layout == "parquet" else None)
    g = pickle.loads(pickle.dumps(f, protocol=protocol))
    assert g == f and bytes(memoryview(g)) == bytes(memoryview(f))
    assert g.type == f.type and g.seed == f.seed and g.layout == layout and not g.is_view
    typed = blockbloom.Filter(1024, layout=layout, type="double")
    typed.insert_values([1.5, -0.0])
    h = pickle.loads(pickle.dumps(typed, protocol=protocol))
    assert h == typed and h.type == "double" and h.find_values([1.5, -0.0]).all()


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


# Pickle's state, (layout, seed, always_false, bits, type, raw_hashes), comes
# from bytes anyone can write: __setstate__ checks every field and never makes
# a filter whose fields contradict each other.

def state_of(f):
    return tuple(f.__getstate__())


def fresh():
    return blockbloom.Filter.__new__(blockbloom.Filter)


@pytest.mark.parametrize("layout", ["parquet", "kudu"])
def test_setstate_on_a_live_filter_is_refused_and_changes_nothing(layout):
    f = filled(1024, layout=layout)
    before = bytes(memoryview(f))
    other = state_of(blockbloom.Filter(2048, layout=layout))
    with pytest.raises(TypeError, match="already initialised"):
        f.__setstate__(other)
    assert f.num_bytes == 1024 and bytes(memoryview(f)) == before
    with pytest.raises(TypeError, match="expected a blockbloom.Filter"):
        blockbloom.Filter.__setstate__(object(), other)


@pytest.mark.parametrize("protocol", [2, 4, 5])
def test_raw_hashes_survive_every_protocol(protocol):
    # Protocol 5 dropped the flag: the copy then took a type from its first
    # insert_values and hashed values unlike the raw hashes already in it.
    raw = filled(1024)
    g = pickle.loads(pickle.dumps(raw, protocol=protocol))
    assert state_of(g)[5] is True
    with pytest.raises(TypeError):
        g.insert_values([1])


GOOD_TYPE = state_of(blockbloom.Filter(64, type="date"))[4]


@pytest.mark.parametrize("state,field", [
    (["parquet", 0, False, bytes(32)], "state"),
    (("parquet", 0, False), "state"),
    (("parquet", 0, False, bytes(32), None, False, 1), "state"),
    ((b"parquet", 0, False, bytes(32)), "layout"),
    (("kuddu", 0, False, bytes(64)), "layout"),
    (("parquet", 5, False, bytes(32)), "seed"),
    (("kudu", -1, False, bytes(64)), "seed"),
    (("kudu", 1 << 32, False, bytes(64)), "seed"),
    (("kudu", "7", False, bytes(64)), "seed"),
    (("kudu", True, False, bytes(64)), "seed"),
    (("parquet", 0, True, bytes(32)), "always_false"),
    (("kudu", 0, 1, bytes(64)), "always_false"),
    (("parquet", 0, False, "not bytes"), "bits"),
    (("parquet", 0, False, bytes(33)), "bits"),
    (("parquet", 0, False, b""), "bits"),
    (("kudu", 0, False, bytes(96)), "bits"),
    (("kudu", 0, False, bytes(32)), "bits"),
    (("parquet", 0, False, bytes(32), ("date",)), "type"),
    (("parquet", 0, False, bytes(32), "date"), "type"),
    (("parquet", 0, False, bytes(32), (7,) + GOOD_TYPE[1:]), "type name"),
    (("parquet", 0, False, bytes(32), ("int32",) + GOOD_TYPE[1:]), "type name"),
    (("parquet", 0, False, bytes(32), ("INT64",) + GOOD_TYPE[1:]), "type name"),
    (("parquet", 0, False, bytes(32), ("date", 99) + GOOD_TYPE[2:]), "type name"),
    (("parquet", 0, False, bytes(32), ("date", 1 << 40) + GOOD_TYPE[2:]), "type physical_type"),
    (("parquet", 0, False, bytes(32), GOOD_TYPE[:3] + ("x",) + GOOD_TYPE[4:]), "type logical_type"),
    (("parquet", 0, False, bytes(32), None, "yes"), "raw_hashes"),
    (("parquet", 0, False, bytes(32), GOOD_TYPE, True), "raw_hashes"),
])
def test_hostile_states_are_refused_naming_the_field(state, field):
    f = fresh()
    with pytest.raises(ValueError, match="^Filter.__setstate__: " + field + ": "):
        f.__setstate__(state)
    f.__setstate__(("parquet", 0, False, bytes(64)))  # still a new object: nothing half-filled
    assert f.num_bytes == 64


def test_every_state_a_filter_gives_loads_back_equal():
    typed_file = blockbloom.Filter.from_file_bytes(blockbloom.Filter(64, type="decimal(9,2)").to_file_bytes())
    kudu_stale = blockbloom.Filter.from_kudu_fields(
        {"log_space_bytes": 6, "bloom_data": b"\x01" * 64, "always_false": True})
    filters = [
        blockbloom.Filter(64), filled(1024), filled(1024, layout="kudu", seed=9),
        blockbloom.Filter(64, type="Date"),  # the caller's spelling is kept
        blockbloom.Filter(64, type="boolean"), blockbloom.Filter(64, layout="kudu", type="uuid"),
        typed_file, kudu_stale, blockbloom.Filter(96),
    ]
    for f in filters:
        for protocol in (2, 5):
            g = pickle.loads(pickle.dumps(f, protocol=protocol))
            assert state_of(g) == state_of(f), f


# A Filter.__new__ object that nothing filled (pickle's first step; kept when
# __setstate__ refuses its state) has no C++ filter: methods read garbage,
# bad_alloc'd, hung or crashed on it.

def _arguments_for(name, other):
    """Arguments a method of a live filter would accept."""
    hashes = np.arange(4, dtype=np.uint64)
    return {
        "insert": (hashes,), "find": (hashes,), "find_bitmap": (hashes,), "find_indices": (hashes,),
        "__contains__": (1,), "insert_values": ([1],), "find_values": ([1],), "fpp": (100,),
        "union": (other,), "intersect": (other,), "__eq__": (other,), "__ne__": (other,),
        "__or__": (other,), "__and__": (other,), "__ior__": (other,), "__iand__": (other,),
        "__reduce_ex__": (5,), "__deepcopy__": ({},), "_set_column_type": (None,),
        "to_parquet_bytes": (), "save": ("never-written",),
    }.get(name, ())


# Object's own machinery that needs no filter (identity hash, attribute access,
# the class itself) and the constructors, which make a filled object.
_NOT_FILTER_METHODS = {
    "__class__", "__new__", "__init__", "__init_subclass__", "__subclasshook__", "__doc__", "__module__",
    "__dict__", "__weakref__", "__delattr__", "__setattr__", "__getattribute__", "__dir__", "__hash__",
    "__format__", "__str__", "__lt__", "__le__", "__gt__", "__ge__", "__setstate__",
}


def test_every_method_of_an_unfilled_filter_is_a_type_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    live = blockbloom.Filter(64)
    checked = []
    for name in dir(blockbloom.Filter):
        static = inspect.getattr_static(blockbloom.Filter, name)
        if name in _NOT_FILTER_METHODS or isinstance(static, (staticmethod, classmethod)):
            continue
        for other in (live, fresh()):  # the unfilled one as self, and as the other filter
            u = fresh()
            with pytest.raises(TypeError, match="Filter is not initialised"):
                attr = getattr(u, name)
                if not isinstance(static, property):
                    attr(*_arguments_for(name, other))
        checked.append(name)
    assert {"num_bytes", "type", "find_values", "insert_values", "__getstate__", "__reduce_ex__", "__reduce__",
            "__repr__", "__sizeof__", "copy", "union", "to_file_bytes", "save"} <= set(checked)
    assert list(tmp_path.iterdir()) == []  # save wrote nothing
    with pytest.raises(TypeError, match="Filter is not initialised"):
        live.union(fresh())
    for export in (memoryview, np.frombuffer, pickle.dumps, copy.copy, copy.deepcopy, repr):
        with pytest.raises(TypeError, match="Filter is not initialised"):
            export(fresh())
    with pytest.raises(TypeError, match="Filter is not initialised"):
        blockbloom.Filter.union_all([live, fresh()])


def test_a_refused_state_leaves_an_object_that_refuses_every_use():
    u = fresh()
    with pytest.raises(ValueError, match="layout"):
        u.__setstate__(("kuddu", 0, False, bytes(64)))
    for use in (lambda: u.num_bytes, lambda: u.find_values([1]), lambda: u.insert_values([1]),
                lambda: u.__getstate__(), lambda: 1 in u):
        with pytest.raises(TypeError, match="Filter is not initialised"):
            use()
    u.__setstate__(("parquet", 0, False, bytes(64)))  # still fillable
    assert u.num_bytes == 64 and u.find_values([1]).tolist() == [False]


def test_states_from_before_types_still_load():
    f = filled(1024)
    layout, seed, always_false, bits = state_of(f)[:4]
    for state in ((layout, seed, always_false, bits), (layout, seed, always_false, bits, None)):
        g = fresh()
        g.__setstate__(state)
        assert g == f and g.type is None


def test_reduce_called_directly_rebuilds_the_filter():
    """object.__reduce__ would take an extension type to copyreg._reduce_ex,
    which aborts the process: Filter.__reduce__ is __reduce_ex__(2)'s tuple."""
    for f in (blockbloom.Filter(1024, type="int64"), blockbloom.Filter(2048, layout="kudu", seed=7)):
        f.insert_values([1, 2, 3]) if f.type is not None else f.insert([11, 12])
        rebuild, args, state = f.__reduce__()
        assert (rebuild, args, state) == f.__reduce_ex__(2)
        g = rebuild(*args)
        g.__setstate__(state)
        assert g == f and g.type == f.type and bytes(memoryview(g)) == bytes(memoryview(f))


class _Tagged(blockbloom.Filter):
    pass


def test_a_subclass_pickles_as_its_class_without_its_own_attributes():
    """What docs/python.md says of subclasses: pickle keeps the class and the
    filter, not the instance's __dict__; copy gives a plain Filter."""
    s = _Tagged(1024, type="int64")
    s.insert_values([5])
    s.tag = "kept beside the filter"
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(s, protocol))
        assert type(back) is _Tagged and back == s and back.find_values([5]) == [True]
        assert not hasattr(back, "tag")
    for c in (copy.copy(s), copy.deepcopy(s)):
        assert type(c) is blockbloom.Filter and c == s
