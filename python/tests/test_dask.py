# SPDX-License-Identifier: Apache-2.0
"""blockbloom.dask on a LocalCluster of 2 worker processes: semi_join gives the
rows of merge; bloom_filter equals the filter of all values; filters cross the
cluster bit-exact, sized by Dask's accounting, without a copy when serialised."""
import logging
import os
import subprocess
import sys
import time

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


def kept_rows(*args):
    """The rows _drop_rejected passes on (without its report)."""
    return bbd._drop_rejected(*args)[0]


def test_semi_join_drops_most_rows_before_the_merge(client):
    build, probe = int_frames()
    f = bbd.bloom_filter(build["k"], ndv=3000)
    kept = probe.map_partitions(kept_rows, (f, False, None), "k", "int", None, meta=probe._meta).compute()
    assert len(kept) < 0.1 * len(probe) and set(probe.merge(build, on="k").compute()["p"]) <= set(kept["p"])
    first = probe.partitions[0].map_partitions(kept_rows, (f, False, None), "k", "int", None,
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


def test_semi_join_filters_bool_keys_on_the_cluster(client):
    # Bools were a plain merge; merge compares them as the ints 0 and 1, so does the filter.
    build = dd.from_pandas(pd.DataFrame({"k": [True, True], "b": 1}), npartitions=1)
    probe = dd.from_pandas(pd.DataFrame({"k": [True] * 5 + [False] * 3, "p": range(8)}), npartitions=2)
    joined, report = bbd.semi_join(probe, build, on="k", report=True)
    got, partitions = dask.compute(joined, report.partitions)
    assert_same_rows(got, probe.merge(build, on="k"))
    assert partitions["filtered"].all() and partitions["kept"].sum() == 5
    assert bbd._key_kind(np.dtype(bool), np.dtype(bool)) == "int"


def test_semi_join_report_of_a_persisted_probe_side(client):
    # The probe side persisted: its tasks are a materialized layer, annotated
    # with where each partition lies; the report comes from the same tasks.
    build = dd.from_pandas(pd.DataFrame({"k": pd.date_range("2024-01-01", periods=300, freq="h"), "b": 1}),
                           npartitions=2)
    times = pd.Series(pd.date_range("2023-12-01", periods=4000, freq="h")).sample(frac=1, random_state=1)
    probe = client.persist(dd.from_pandas(pd.DataFrame({"k": times.to_numpy(), "p": 1}), npartitions=4))
    distributed.wait(probe)
    joined, report = bbd.semi_join(probe, build, on="k", report=True)
    got, partitions = dask.compute(joined, report.partitions)
    assert_same_rows(got, probe.merge(build, on="k"))
    summary = report.summary(partitions)
    assert summary["filter_type"] == "timestamp(ns)" and summary["partitions_filtered"] == 4
    assert len(got) == 300 <= summary["kept"] < 400 and summary["rows"] == 4000


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
    ndv = bbd._ndv_task(series.to_delayed(), 2).compute()
    distinct = series.nunique().compute()
    assert 0.9 * distinct * bbd.NDV_HEADROOM < ndv < 1.1 * distinct * bbd.NDV_HEADROOM
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


def test_semi_join_skips_a_filter_that_rejects_too_little(client):
    build, probe = int_frames(build_keys=2000, probe_rows=20_000)
    f = bbd.bloom_filter(build["b"], ndv=2000)
    all_match = pd.DataFrame({"k": np.arange(20_000) % 2000})  # every key is a build["b"]
    assert kept_rows(all_match, (f, False, None), "k", "int", 0.1) is all_match  # passed on whole
    filtered = kept_rows(all_match, (f, False, None), "k", "int", None)
    assert filtered is not all_match and filtered.equals(all_match)  # probed, nothing dropped
    misses = pd.DataFrame({"k": np.arange(20_000) + 10**6})
    assert len(kept_rows(misses, (f, False, None), "k", "int", 0.1)) < 0.05 * len(misses)
    # Decided per partition when computed: the rows of merge either way.
    mixed = dd.concat([dd.from_pandas(all_match, npartitions=2), dd.from_pandas(misses, npartitions=2)])
    with_b = build.assign(k=build["b"])
    assert_same_rows(bbd.semi_join(mixed, with_b, on="k", skip_below=0.1), mixed.merge(with_b, on="k"))
    assert_same_rows(bbd.semi_join(probe, build, on="k", skip_below=0.1), probe.merge(build, on="k"))


def poisoned_frame(columns, npartitions):
    """A Dask frame whose every partition raises when computed."""
    meta = pd.DataFrame({c: pd.Series([], dtype="int64") for c in columns})
    return dd.from_delayed([dask.delayed(poison)(i) for i in range(npartitions)], meta=meta, verify_meta=False)


def poison(i):
    raise RuntimeError("partition %d was computed" % i)


def test_semi_join_and_bloom_filter_compute_nothing_until_asked(client):
    from dask.core import get_dependencies

    probe, build = poisoned_frame(["k", "p"], 6), poisoned_frame(["k", "b"], 3)
    joined = bbd.semi_join(probe, build, on="k", skip_below=0.1)  # ndv estimated, sampled: in the graph
    delayed_filter = bbd.bloom_filter(build["k"], compute=False)
    with pytest.raises(RuntimeError, match="was computed"):
        joined.compute()
    with pytest.raises(RuntimeError, match="was computed"):
        delayed_filter.compute()
    # The filter is one task that every probe partition's task reads.
    build, probe = int_frames(build_keys=100, probe_rows=4000)
    graph = dict(bbd.semi_join(probe, build, on="k", ndv=100).dask)
    probes = [get_dependencies(graph, key) for key in graph if isinstance(key, tuple)
              and key[0].startswith("_drop_rejected-")]
    filters = {dep for deps in probes for dep in deps if str(dep).startswith("_merge_built-")}
    assert len(probes) == probe.npartitions and len(filters) == 1 and all(filters <= deps for deps in probes)


def test_semi_join_estimates_ndv_on_in_process_workers():
    # Dask 2022.12's nunique_approx fails there ("'Serialize' object is not
    # callable"); the sketch semi_join and bloom_filter use is a plain task.
    build, probe = int_frames(build_keys=800, probe_rows=20_000)  # under SKETCH_SIZE: counted exactly
    with distributed.LocalCluster(n_workers=2, processes=False, threads_per_worker=1, dashboard_address=None,
                                  silence_logs=50) as cluster, \
            distributed.Client(cluster, set_as_default=False) as c:
        joined, expected = c.compute([bbd.semi_join(probe, build, on="k"), probe.merge(build, on="k")], sync=True)
        f = c.compute(bbd.bloom_filter(build["k"], compute=False), sync=True)
    assert_same_rows(joined, expected)
    assert len(expected) > 50
    assert f.find_values(build["k"].compute(scheduler="sync")).all()
    assert f.num_bytes == blockbloom.Filter(ndv=int(800 * bbd.NDV_HEADROOM) + 1, fpp=0.01, sizing="exact").num_bytes


def test_ndv_sketch_estimates_distinct_values():
    rng = np.random.default_rng(5)
    for values in (rng.integers(0, 10**9, 200_000) // 3, np.repeat(np.arange(50_000), 4),
                   pd.Series(["s%d" % (i % 30_000) for i in range(90_000)], dtype=object)):
        series = pd.Series(values)
        parts = np.array_split(series, 7)
        sketch = bbd._merge_sketches([bbd._partition_sketch(p) for p in parts])
        ndv = bbd._ndv_of_sketch(sketch)
        distinct = series.nunique()
        assert 0.9 * distinct * bbd.NDV_HEADROOM < ndv < 1.1 * distinct * bbd.NDV_HEADROOM, (ndv, distinct)
    small = pd.Series([1.5, None, 2.5, 1.5, np.nan])  # fewer than SKETCH_SIZE: counted exactly, nulls left out
    assert bbd._ndv_of_sketch(bbd._partition_sketch(small)) == int(2 * bbd.NDV_HEADROOM) + 1
    assert bbd._ndv_of_sketch(bbd._partition_sketch(pd.Series([], dtype="int64"))) == 1
    assert bbd._partition_sketch(pd.Series([[1], [2]])) is None  # unhashable: the insert will say so


def install_error_log(dask_worker=None, dask_scheduler=None):
    """Keeps every ERROR of the "distributed" loggers of this process."""
    import logging.handlers

    handler = logging.handlers.BufferingHandler(10_000)
    handler.setLevel(logging.ERROR)
    logging.getLogger("distributed").addHandler(handler)
    (dask_worker or dask_scheduler)._blockbloom_error_log = handler


def error_log(dask_worker=None, dask_scheduler=None):
    """[(message, whether it is distributed's cancelled-task race)] since install_error_log."""
    handler = (dask_worker or dask_scheduler)._blockbloom_error_log
    logging.getLogger("distributed").removeHandler(handler)
    logged = []
    for record in handler.buffer:
        error, trace = (record.exc_info or (None, None, None))[1:]
        while trace is not None and trace.tb_next is not None:
            trace = trace.tb_next
        # dask/distributed#6893 (Dask 2022.12): a task cancelled just before it
        # starts finds its inputs freed and logs a KeyError while loading them.
        race = isinstance(error, KeyError) and trace is not None and \
            trace.tb_frame.f_code.co_name == "_prepare_args_for_execution"
        logged.append((record.getMessage() + " " + repr(error), race))
    return logged


OWN_TASKS = ("_partition_sketch", "_merge_sketches", "_ndv_of_sketch", "_build_partition", "_merge_built",
             "_drop_rejected")


def test_dropping_a_persisted_semi_join_logs_no_error_of_its_own(client):
    build, probe = client.persist(list(int_frames(build_keys=1000, probe_rows=20_000)))
    distributed.wait([build, probe])
    client.run(install_error_log)
    client.run_on_scheduler(install_error_log)
    for cycle in range(8):
        joined = client.persist(bbd.semi_join(probe, build, on="k", ndv=None if cycle % 2 else 1000))
        if cycle % 4 == 3:
            distributed.wait(joined)  # dropped when done, as well as while running
        del joined
    assert_same_rows(bbd.semi_join(probe, build, on="k"), probe.merge(build, on="k"))
    logged = [entry for entries in client.run(error_log).values() for entry in entries]
    logged += client.run_on_scheduler(error_log)
    assert [message for message, race in logged if not race] == []
    # Nothing of the dropped graphs is left on the cluster: no future outside the graph holds it.
    def left():
        keys = client.run_on_scheduler(lambda dask_scheduler: [str(k) for k in dask_scheduler.tasks])
        return [key for key in keys if any(name in key for name in OWN_TASKS)]

    deadline = time.monotonic() + 5  # the scheduler forgets released keys a moment later
    while left() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert left() == []


def test_pandas_objects_are_refused_naming_the_dask_type(client):
    build, probe = int_frames(build_keys=100, probe_rows=1000)
    pdf = build.compute()
    for call, argument, expected in ((lambda: bbd.bloom_filter(pdf["k"]), "series", "Series"),
                                     (lambda: bbd.bloom_filter(build), "series", "Series"),
                                     (lambda: bbd.semi_join(pdf, probe, on="k"), "left", "DataFrame"),
                                     (lambda: bbd.semi_join(probe, pdf, on="k"), "right", "DataFrame"),
                                     (lambda: bbd.semi_join(probe, build["k"], on="k"), "right", "DataFrame")):
        with pytest.raises(TypeError) as error:
            call()
        message = str(error.value)
        assert "%s must be a dask.dataframe.%s, not " % (argument, expected) in message, message


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
    names = {n.name for n in functions} | {n.target.id for n in stub.body if isinstance(n, ast.AnnAssign)} | \
        {n.name for n in stub.body if isinstance(n, ast.ClassDef)}
    assert names == set(bbd.__all__)
    for node in functions:
        a = node.args
        declared = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs] + ([a.kwarg.arg] if a.kwarg else [])
        assert declared == list(inspect.signature(getattr(bbd, node.name)).parameters), node.name
        assert ast.get_docstring(node) and getattr(bbd, node.name).__doc__, node.name


_BUILD_CALLS = []


def _counted(part):
    _BUILD_CALLS.append(len(part))
    return part


@pytest.mark.parametrize("build_side", ["left", "right"])
def test_semi_join_runs_each_build_partition_once(build_side):
    # The filter was built from the build keys' to_delayed(), whose optimised
    # (fused) copies of the build tasks had other keys than the merge's: every
    # build partition ran twice.
    build, probe = int_frames(build_keys=900, probe_rows=8_000)
    build = build.map_partitions(_counted)
    left, right = (build, probe) if build_side == "left" else (probe, build)
    _BUILD_CALLS.clear()
    expected = left.merge(right, on="k").compute(scheduler="sync")
    merge_calls = len(_BUILD_CALLS)
    _BUILD_CALLS.clear()
    joined = bbd.semi_join(left, right, on="k", build=build_side).compute(scheduler="sync")
    assert merge_calls == build.npartitions and len(_BUILD_CALLS) == merge_calls
    assert_same_rows(joined, expected)
    _BUILD_CALLS.clear()
    f = bbd.bloom_filter(build["k"], compute=False).compute(scheduler="sync")  # not on a client
    assert len(_BUILD_CALLS) == build.npartitions and f.find_values(build["k"].compute(scheduler="sync")).all()


@pytest.mark.parametrize("split_every", [1, 0, -1, 2.5, True, "8", None])
def test_split_every_below_two_is_refused_before_any_graph_is_built(split_every):
    # 1 never shrank a level (graph building looped for ever), -1 was an
    # IndexError and 0 range()'s ValueError.
    build, probe = int_frames(build_keys=100, probe_rows=1_000)
    with pytest.raises(ValueError, match=r"bloom_filter\(\): split_every must be an int >= 2"):
        bbd.bloom_filter(build["k"], split_every=split_every, compute=False)
    with pytest.raises(ValueError, match=r"semi_join\(\): split_every must be an int >= 2"):
        bbd.semi_join(probe, build, on="k", split_every=split_every)
    assert bbd.semi_join(probe, build, on="k", split_every=np.int64(2)).npartitions >= 1


def test_semi_join_refuses_arguments_it_cannot_mean():
    build, probe = int_frames(build_keys=100, probe_rows=1_000)
    with pytest.raises(ValueError, match="build must be None, 'left' or 'right', not 'middle'"):
        bbd.semi_join(probe, build, on="k", build="middle")
    for empty in ([], ()):
        with pytest.raises(ValueError, match="no key column given"):
            bbd.semi_join(probe, build, on=empty)
    with pytest.raises(TypeError, match="keys must be column names, not a dask.dataframe"):
        bbd.semi_join(probe, build, left_on=probe["k"], right_on="k")
    with pytest.raises(TypeError, match="keys must be column names, not a pandas"):
        bbd.semi_join(probe, build, left_on="k", right_on=pd.Series([1]))
