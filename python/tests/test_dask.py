# SPDX-License-Identifier: Apache-2.0
"""blockbloom.dask on a LocalCluster of 2 worker processes: semi_join gives the
rows of merge; bloom_filter equals the filter of all values; filters cross the
cluster bit-exact, sized by Dask's accounting, without a copy when serialised."""
import os
import subprocess
import sys

import numpy as np
import pytest

try:
    import dask
    import dask.dataframe as dd
    import distributed
    import pandas as pd
except ImportError as e:  # the package works without Dask; these tests need it
    pytest.skip("Dask, distributed or pandas is not installed (%s): Debian's python3-dask, "
                "python3-distributed, python3-pandas" % e, allow_module_level=True)

import blockbloom
import blockbloom.dask as bbd


@pytest.fixture(scope="module")
def client():
    """One cluster for the module: 2 worker processes, 1 thread each."""
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None, silence_logs=50) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def rows(df):
    """A computed frame as sorted rows, comparable whatever the partitioning."""
    pdf = df.compute() if hasattr(df, "compute") else df
    pdf = pdf.astype(object).where(pdf.notna(), None)
    return sorted(map(tuple, pdf.itertuples(index=False)), key=repr)


def assert_same_rows(got, expected):
    got_rows, expected_rows = rows(got), rows(expected)
    assert list(got.columns) == list(expected.columns)
    assert len(got_rows) == len(expected_rows)
    assert got_rows == expected_rows  # and so no false negatives


def int_frames(seed=1, build_keys=3000, probe_rows=60_000):
    rng = np.random.default_rng(seed)
    keys = rng.choice(10**7, build_keys, replace=False).astype(np.int64)
    build = pd.DataFrame({"k": keys, "b": np.arange(build_keys)})
    # The first half of the probe side holds no key of the build side: its
    # partitions have no match at all.
    misses = rng.integers(2 * 10**7, 3 * 10**7, probe_rows // 2)
    mixed = np.where(rng.random(probe_rows // 2) < 0.1, rng.choice(keys, probe_rows // 2),
                     rng.integers(0, 10**7, probe_rows // 2))
    probe = pd.DataFrame({"k": np.concatenate([misses, mixed]).astype(np.int64), "p": np.arange(probe_rows)})
    return dd.from_pandas(build, npartitions=3), dd.from_pandas(probe, npartitions=8)


def test_semi_join_int64_keys_gives_the_rows_of_merge(client):
    build, probe = int_frames()
    expected = probe.merge(build, on="k")
    assert len(expected.compute()) > 500
    assert_same_rows(bbd.semi_join(probe, build, on="k"), expected)
    assert_same_rows(bbd.semi_join(build, probe, on="k"), build.merge(probe, on="k"))


def test_semi_join_drops_most_rows_before_the_merge(client):
    build, probe = int_frames()
    f = bbd.bloom_filter(build["k"], ndv=3000)
    kept = probe.map_partitions(bbd._drop_rejected, f, "k", "int", False, meta=probe._meta).compute()
    assert len(kept) < 0.1 * len(probe) and set(probe.merge(build, on="k").compute()["p"]) <= set(kept["p"])
    first = probe.partitions[0].map_partitions(bbd._drop_rejected, f, "k", "int", False,
                                               meta=probe._meta).compute()
    assert len(first) < 0.05 * len(probe.partitions[0])  # a partition of no match: nearly empty


def moved_keys(client):
    """The keys the workers fetched from each other since the logs were cleared."""
    def fetched(dask_worker):
        return [key for entry in dask_worker.transfer_incoming_log for key in entry["keys"]]

    return [key for keys in client.run(fetched).values() for key in keys]


def clear_transfer_logs(client):
    client.run(lambda dask_worker: dask_worker.transfer_incoming_log.clear())


def test_semi_join_of_persisted_frames_probes_each_partition_where_it_lies(client):
    build, probe = int_frames()
    build, probe = client.persist([build, probe])
    distributed.wait([build, probe])
    holders = bbd._holders(client, probe)
    assert holders is not None and len(holders) == probe.npartitions
    assert bbd._holders(client, int_frames()[1]) is None  # not persisted: a plain map_partitions
    clear_transfer_logs(client)
    joined = bbd.semi_join(probe, build, on="k")
    assert_same_rows(joined, probe.merge(build, on="k"))
    probe_keys = {dask.utils.stringify(k) for k in probe.__dask_keys__()}
    assert not probe_keys & {dask.utils.stringify(k) for k in moved_keys(client)}


def test_semi_join_string_keys_with_nulls(client):
    rng = np.random.default_rng(2)
    names = np.array(["key-%d" % i for i in range(5000)], dtype=object)
    build_keys = list(names[:800]) + [None, None]
    probe_keys = list(rng.choice(names, 20_000)) + [None] * 50
    build = dd.from_pandas(pd.DataFrame({"name": build_keys, "b": range(len(build_keys))}), npartitions=2)
    probe = dd.from_pandas(pd.DataFrame({"name": probe_keys, "p": range(len(probe_keys))}), npartitions=6)
    # pandas' merge matches null keys with null keys; semi_join keeps them.
    assert_same_rows(bbd.semi_join(probe, build, on="name"), probe.merge(build, on="name"))
    no_null_build = build.dropna()
    assert_same_rows(bbd.semi_join(probe, no_null_build, on="name"), probe.merge(no_null_build, on="name"))


@pytest.mark.parametrize("dtype", ["float64", "Int64"])
def test_semi_join_int_keys_with_nulls(client, dtype):
    rng = np.random.default_rng(3)
    build_keys = pd.array(list(range(0, 4000, 2)) + [None], dtype=dtype)
    probe_keys = pd.array([None if i % 97 == 0 else int(v) for i, v in enumerate(rng.integers(0, 8000, 30_000))],
                          dtype=dtype)
    build = dd.from_pandas(pd.DataFrame({"bk": build_keys, "b": 1}), npartitions=2)
    probe = dd.from_pandas(pd.DataFrame({"pk": probe_keys, "p": range(len(probe_keys))}), npartitions=5)
    for b in (build, build.dropna()):
        expected = probe.merge(b, left_on="pk", right_on="bk")
        assert_same_rows(bbd.semi_join(probe, b, left_on="pk", right_on="bk"), expected)


def test_semi_join_int_against_float_keys(client):
    build = dd.from_pandas(pd.DataFrame({"k": [1.0, 2.0, -0.0, np.nan], "b": [1, 2, 3, 4]}), npartitions=1)
    probe = dd.from_pandas(pd.DataFrame({"k": np.arange(-5, 100, dtype=np.int64), "p": 7}), npartitions=3)
    assert_same_rows(bbd.semi_join(probe, build, on="k"), probe.merge(build, on="k"))


def test_semi_join_with_an_empty_side(client):
    build, probe = int_frames(build_keys=100, probe_rows=4000)
    empty_build = build[build["k"] < 0]
    empty_probe = probe[probe["k"] < 0]
    for left, right in ((probe, empty_build), (empty_probe, build), (empty_probe, empty_build)):
        result = bbd.semi_join(left, right, on="k")
        assert len(result.compute()) == 0
        assert_same_rows(result, left.merge(right, on="k"))


def test_semi_join_how_left_and_right(client):
    build, probe = int_frames(build_keys=500, probe_rows=10_000)
    for how in ("left", "right"):
        assert_same_rows(bbd.semi_join(build, probe, on="k", how=how), build.merge(probe, on="k", how=how))


def test_semi_join_falls_back_to_merge_for_keys_it_cannot_hash(client):
    build = dd.from_pandas(pd.DataFrame({"k": [True, False], "b": 1}), npartitions=1)
    probe = dd.from_pandas(pd.DataFrame({"k": [True] * 5 + [False] * 3, "p": range(8)}), npartitions=2)
    assert_same_rows(bbd.semi_join(probe, build, on="k"), probe.merge(build, on="k"))
    assert bbd._key_kind(np.dtype(bool), np.dtype(bool)) is None


def test_bloom_filter_equals_the_filter_of_all_values(client):
    build, probe = int_frames()
    series = probe["k"]
    f = bbd.bloom_filter(series, ndv=40_000)
    whole = blockbloom.Filter(ndv=40_000, fpp=0.01, sizing="exact")
    whole.insert_values(series.compute())
    assert f == whole and bytes(memoryview(f)) == bytes(memoryview(whole))
    assert f.type is not None and f.type == whole.type  # typed by its values, as one insert is
    assert f.find_values(series.compute().astype("float64")).all()  # 5.0 is the INT64 5
    estimated = bbd.bloom_filter(series, fpp=0.05, sizing="parquet-safe", split_every=2)
    ndv = bbd._estimate_ndv(series)
    assert 0.9 * 60_000 * bbd.NDV_HEADROOM < ndv < 1.1 * 60_000 * bbd.NDV_HEADROOM
    assert estimated.num_bytes == blockbloom.Filter(ndv=ndv, fpp=0.05).num_bytes


def test_filter_round_trips_through_the_cluster_bit_exact(client):
    f = bbd.bloom_filter(int_frames()[0]["k"], ndv=3000)
    future = client.scatter(f, broadcast=True, hash=False)
    assert client.gather(future) == f
    on_workers = client.run(lambda: sorted(distributed.get_worker().data.keys()))
    assert len(on_workers) == 2 and all(future.key in keys for keys in on_workers.values())
    digest = client.submit(lambda g: bytes(memoryview(g)), future).result()
    assert digest == bytes(memoryview(f))


def test_dask_sizeof_reports_the_bitset(client):
    from dask.sizeof import sizeof

    f = blockbloom.Filter(ndv=200_000, fpp=0.01, sizing="exact")
    assert sizeof(f) >= f.num_bytes > 200_000
    future = client.scatter(f, hash=False)
    assert client.nbytes([future.key], summary=False)[future.key] >= f.num_bytes  # the scheduler's accounting


def test_dask_serialisation_ships_the_filters_own_memory(client):
    from distributed.protocol import serialize

    f = blockbloom.Filter(ndv=100_000, fpp=0.01, sizing="exact")
    f.insert_values(np.arange(1000))
    header, frames = serialize(f)
    own = np.frombuffer(f, np.uint8).ctypes.data
    addresses = [np.frombuffer(fr, np.uint8).ctypes.data for fr in frames if memoryview(fr).nbytes == f.num_bytes]
    assert own in addresses  # out of band: no copy of the bitset while dumping


def test_sizeof_is_registered_when_dask_comes_first():
    # A worker has Dask loaded before it unpickles its first filter.
    code = ("import dask.sizeof, blockbloom\n"
            "assert blockbloom.Filter in dask.sizeof.sizeof._lookup\n"
            "print(dask.sizeof.sizeof(blockbloom.Filter(1 << 20)) >= 1 << 20)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert result.returncode == 0 and result.stdout.strip() == "True", result.stderr


def filters_in(frame):
    """Whether the frame's graph probes a filter: a _drop_rejected task, or (a
    persisted probe side, filtered where it lies) a future of one."""
    return any("_drop_rejected" in str(name) or "_drop_rejected" in str(task)
               for name, task in dict(frame.dask).items())


def test_semi_join_skips_a_filter_that_rejects_too_little(client):
    build, probe = int_frames(build_keys=2000, probe_rows=20_000)
    all_match = client.persist(probe.assign(k=probe["p"] % 2000)[["k"]])  # every key is a build["b"]
    assert len(all_match.compute()) == 20_000
    skipped = bbd.semi_join(all_match, build.assign(k=build["b"]), on="k", skip_below=0.1)
    assert not filters_in(skipped)
    assert_same_rows(skipped, all_match.merge(build.assign(k=build["b"]), on="k"))
    kept = bbd.semi_join(probe, build, on="k", skip_below=0.1)  # rejects about 95%
    assert filters_in(kept) and filters_in(bbd.semi_join(all_match, build, on="k"))
    assert_same_rows(kept, probe.merge(build, on="k"))


def test_the_benchmark_example_runs_small():
    example = os.path.join(os.path.dirname(__file__), "..", "examples", "dask_semijoin.py")
    result = subprocess.run([sys.executable, example, "--rows", "40000", "--keys", "2000", "--methods",
                             "semi_join,merge"], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = {line.split()[0]: line.split() for line in result.stdout.splitlines() if line.strip()}
    for method in ("semi_join", "merge"):
        assert lines[method][-1] == "0", result.stdout  # no false negatives
    assert lines["semi_join"][3] == lines["merge"][3]  # the same number of rows


def test_the_dask_stub_declares_what_the_module_has():
    import ast
    import inspect

    with open(os.path.join(os.path.dirname(bbd.__file__), "dask.pyi"), encoding="utf-8") as fh:
        stub = ast.parse(fh.read())
    functions = [n for n in stub.body if isinstance(n, ast.FunctionDef)]
    names = {n.name for n in functions} | {n.target.id for n in stub.body if isinstance(n, ast.AnnAssign)}
    assert names == set(bbd.__all__)
    for node in functions:
        a = node.args
        declared = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs] + ([a.kwarg.arg] if a.kwarg else [])
        assert declared == list(inspect.signature(getattr(bbd, node.name)).parameters), node.name
        assert ast.get_docstring(node) and getattr(bbd, node.name).__doc__, node.name
