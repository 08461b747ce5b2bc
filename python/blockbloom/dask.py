# SPDX-License-Identifier: Apache-2.0
"""Bloom filters on Dask: build one from a Series, and Bloom semi-joins.

    import blockbloom.dask as bbd
    f = bbd.bloom_filter(small["key"], fpp=0.01)       # one Filter, merged on the cluster
    joined = bbd.semi_join(big, small, on="key")        # same rows as big.merge(small, on="key")

Imported on its own (``import blockbloom.dask``) and only where Dask is
installed; ``import blockbloom`` never imports Dask.

Filters here are sized with ``sizing="exact"``: the smallest size meeting the
target FPP (up to half the power-of-two size Parquet needs), because these
filters cross the network to every worker and are never written into a
Parquet file. Pass ``sizing="parquet-safe"`` for a filter you mean to store.
"""
import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd

from ._core import Filter
from ._dask_sizeof import register as _register_sizeof

_register_sizeof()

# The NDV estimate (a KMV sketch of SKETCH_SIZE hashes: relative standard
# error about 1/sqrt(SKETCH_SIZE), 3%) times this: an underestimate of up to
# 8 standard errors still keeps the FPP at the target.
NDV_HEADROOM = 1.25
# Smallest distinct 64-bit key hashes each partition's sketch keeps.
SKETCH_SIZE = 1024
# Filters (and sketches) merged per task in the tree reduction.
SPLIT_EVERY = 8
# Rows of each probe partition semi_join(skip_below=...) tests the filter on.
SAMPLE_ROWS = 10_000

__all__ = ["bloom_filter", "semi_join", "probe_dataset", "NDV_HEADROOM", "FILES_PER_TASK"]


def _require(value, expected, argument, function):
    """TypeError naming the Dask type expected, where a pandas object (or any
    other) is given: it would otherwise fail later on a missing attribute."""
    if isinstance(value, expected):
        return
    hint = " (dask.dataframe.from_pandas(..., npartitions=n) makes one)" \
        if isinstance(value, (pd.DataFrame, pd.Series, pd.Index)) else ""
    raise TypeError("%s(): %s must be a dask.dataframe.%s, not %s.%s%s" % (
        function, argument, expected.__name__, type(value).__module__, type(value).__qualname__, hint))


def _check_split_every(split_every, function):
    """split_every below 2 never shrinks a level (1 loops for ever); refused first."""
    if isinstance(split_every, bool) or not isinstance(split_every, (int, np.integer)) or split_every < 2:
        raise ValueError("%s(): split_every must be an int >= 2, not %r" % (function, split_every))


# --- the NDV estimate: a KMV sketch per partition, merged ----------------------
#
# Computed as tasks of the graph, not with Series.nunique_approx(), which fails
# on in-process workers (LocalCluster(processes=False): "'Serialize' object is
# not callable" in Dask 2022.12). A sketch is the sorted SKETCH_SIZE smallest
# distinct 64-bit hashes of the non-null values (pandas' hash_pandas_object:
# SipHash for objects, a 64-bit mix of the bits for numbers), or None when the
# values cannot be hashed (the filter's insert then reports them).

def _smallest_distinct(hashes):
    """The sorted SKETCH_SIZE smallest distinct values of a uint64 array."""
    if len(hashes) > 4 * SKETCH_SIZE:
        # The 4 * SKETCH_SIZE smallest values hold the smallest distinct ones
        # unless duplicates crowd them out; then sort them all.
        smallest = np.unique(np.partition(hashes, 4 * SKETCH_SIZE)[:4 * SKETCH_SIZE + 1])
        if len(smallest) >= SKETCH_SIZE:
            return smallest[:SKETCH_SIZE]
    return np.unique(hashes)[:SKETCH_SIZE]


def _partition_sketch(part):
    try:
        hashes = pd.util.hash_pandas_object(part.dropna(), index=False).to_numpy(dtype=np.uint64)
    except (TypeError, ValueError):
        return None
    return _smallest_distinct(hashes)


def _merge_sketches(sketches):
    if any(s is None for s in sketches):
        return None
    return _smallest_distinct(np.concatenate(sketches))


def _ndv_of_sketch(sketch):
    """The filter's ndv: the sketch's estimate times NDV_HEADROOM, at least 1."""
    if sketch is None or len(sketch) < SKETCH_SIZE:
        distinct = 0 if sketch is None else len(sketch)  # every distinct hash seen: exact
    else:
        # k-th smallest of n uniform hashes is about k / (n + 1) of the range.
        distinct = (SKETCH_SIZE - 1) / ((float(sketch[-1]) + 1.0) / 2.0**64)
    return max(1, int(distinct * NDV_HEADROOM) + 1)


def _ndv_task(parts, split_every):
    """A delayed ndv for Filter(ndv=): the estimate of the partitions' distinct values."""
    sketches = [dask.delayed(_partition_sketch, pure=True)(p) for p in parts]
    return dask.delayed(_ndv_of_sketch, pure=True)(_merge_tree(sketches, _merge_sketches, split_every))


def _merge_tree(parts, combine, split_every):
    """Delayed combine() over groups of split_every, level by level, to one."""
    if not parts:
        raise ValueError("the Series has no partitions")
    while len(parts) > 1:
        parts = [dask.delayed(combine, pure=True)(parts[i:i + split_every])
                 for i in range(0, len(parts), split_every)]
    return parts[0]


def _partition_filter(part, ndv, fpp, sizing, type):
    f = Filter(ndv=ndv, fpp=fpp, sizing=sizing, type=type)
    f.insert_values(part)
    return f


def _union_all(filters):
    # A module function: tasks pickle functions by name, and a pybind11 static
    # method (Filter.union_all) does not pickle.
    return Filter.union_all(filters)


def bloom_filter(series, *, ndv=None, fpp=0.01, type=None, sizing="exact", split_every=SPLIT_EVERY,
                 compute=True):
    """One Filter holding every value of a Dask Series, built partition by partition.

    Every partition's filter has the size Filter(ndv=ndv, fpp=fpp, sizing=sizing)
    gives, so they merge (Filter.union_all, a tree of split_every per task). ndv
    None: estimated in the same graph (a sketch of each partition's distinct value
    hashes, merged by the same tree) times NDV_HEADROOM. Values are converted and
    hashed as Filter.insert_values does for a pandas Series (type= as for Filter);
    nulls are not inserted. The result is typed as the filter of all values would
    be (Filter.type: type=, or the type the Series' dtype gives, every partition
    the same) and is bit for bit the filter of the same size built from all
    values at once. compute=False gives the dask.delayed object instead (nothing
    computed, the estimate neither). series not a dask.dataframe.Series: TypeError;
    split_every not an int >= 2: ValueError.
    """
    _require(series, dd.Series, "series", "bloom_filter")
    _check_split_every(split_every, "bloom_filter")
    # Optimised: the source reads the one column (a read_parquet / read_csv
    # projected to it), and each partition still runs once.
    parts = series.to_delayed()
    if ndv is None:
        ndv = _ndv_task(parts, split_every)
    built = [dask.delayed(_partition_filter, pure=True)(p, ndv, fpp, sizing, type) for p in parts]
    result = _merge_tree(built, _union_all, split_every)
    return result.compute() if compute else result


# --- semi_join ---------------------------------------------------------------

# How the two key columns are hashed so that keys pandas' merge finds equal
# hash equal: "int" (int64), "float" (float64, -0.0 as 0.0), "string". None:
# no common hashing known, so semi_join is a plain merge.
def _key_kind(a, b):
    def kind(dtype):
        if pd.api.types.is_bool_dtype(dtype) or isinstance(dtype, pd.CategoricalDtype):
            return None
        if pd.api.types.is_integer_dtype(dtype):
            # uint64 above 2**63 has no int64 twin.
            return "int" if np.dtype(getattr(dtype, "numpy_dtype", dtype)) != np.uint64 else None
        if pd.api.types.is_float_dtype(dtype):
            return "float"
        if pd.api.types.is_string_dtype(dtype):  # object columns too; checked per value on use
            return "string"
        return None

    ka, kb = kind(a), kind(b)
    if ka is None or kb is None:
        return None
    if ka == kb:
        return ka
    return "float" if {ka, kb} == {"int", "float"} else None


def _key_values(series, kind):
    """(values, nulls: a bool array or None, type=) for find_values / insert_values."""
    nulls = series.isna().to_numpy()
    any_null = bool(nulls.any())
    if kind == "int":
        values = series.to_numpy(dtype=np.int64, na_value=0) if any_null else series.to_numpy(dtype=np.int64)
        return values, (nulls if any_null else None), None
    if kind == "float":
        values = series.to_numpy(dtype=np.float64, na_value=np.nan) + 0.0  # -0.0 == 0.0 for merge
        return values, (nulls if any_null else None), None
    values = series.to_numpy(dtype=object)
    if any_null:
        values = values.copy()
        values[nulls] = ""
    return values, (nulls if any_null else None), "string"


def _build_partition(part, ndv, fpp, sizing, kind):
    """(filter of the partition's non-null keys, whether it has a null key);
    (None, ...) when its keys cannot be hashed (mixed objects)."""
    f = Filter(ndv=ndv, fpp=fpp, sizing=sizing)  # outside the try: a bad fpp or sizing is an error
    try:
        values, nulls, type = _key_values(part, kind)
        f.insert_values(values, type=type, mask=nulls)
    except (TypeError, ValueError):
        return None, False
    return f, nulls is not None


def _merge_built(items):
    filters = [f for f, _ in items]
    merged = None if any(f is None for f in filters) else Filter.union_all(filters)
    return merged, any(has_null for _, has_null in items)


def _drop_rejected(part, built, key, kind, skip_below):
    """The rows of part whose key the filter may hold, and its null-key rows
    if the build side has a null key too. built: (filter or None, build side
    has a null key). part itself, whole, when there is no filter (the build
    keys could not be hashed), its keys cannot be hashed, or (skip_below given)
    the filter rejects less than skip_below of its first SAMPLE_ROWS rows."""
    f, keep_nulls = built
    if f is None or len(part) == 0:
        return part
    try:
        values, nulls, type = _key_values(part[key], kind)
        if skip_below is not None:
            n = min(len(values), SAMPLE_ROWS)
            sample_hits = f.find_values(values[:n], type=type, mask=None if nulls is None else nulls[:n])
            if nulls is not None and keep_nulls:
                sample_hits |= nulls[:n]
            if 1.0 - np.count_nonzero(sample_hits) / n < skip_below:
                return part
        hits = f.find_values(values, type=type, mask=nulls)
    except (TypeError, ValueError):
        return part  # keys the filter cannot hash (mixed objects): keep them all, the merge decides
    if nulls is not None and keep_nulls:
        hits |= nulls
    return part[hits]


def _filter_task(keys, ndv, fpp, sizing, kind, split_every):
    """A delayed (filter or None, has a null key) of a Dask Series of build keys."""
    parts = keys.to_delayed(optimize_graph=False)
    if ndv is None:
        ndv = _ndv_task(parts, split_every)
    built = [dask.delayed(_build_partition, pure=True)(p, ndv, fpp, sizing, kind) for p in parts]
    return _merge_tree(built, _merge_built, split_every)


def _holders(df):
    """[the workers holding partition i] for a frame whose every partition is
    in memory on a distributed cluster (persisted), else None. Asks the
    scheduler of the client that holds them; computes nothing."""
    try:
        from distributed import Future
    except ImportError:
        return None  # no distributed: the local schedulers
    from dask.utils import stringify

    graph = df.__dask_graph__()
    futures = [graph.get(k) for k in df.__dask_keys__()]
    if not all(isinstance(f, Future) for f in futures):
        return None  # not persisted: the probe runs fused with the tasks that make each partition
    who_has = futures[0].client.who_has(futures)  # keyed by the keys as strings
    holders = [list(who_has.get(stringify(f.key), ())) for f in futures]
    return holders if all(holders) else None


def _probe_side(probe_df, built, key, kind, skip_below):
    """probe_df without the rows the filter (the delayed built) rejects,
    partition by partition, when computed. A persisted probe side is probed
    where each partition lies (each task annotated with the workers holding
    its partition, others allowed): left to itself the scheduler sends some
    partitions to the idler worker, moving whole partitions to drop 95% of
    their rows there."""
    holders = _holders(probe_df)
    if holders is None:
        return probe_df.map_partitions(_drop_rejected, built, key, kind, skip_below, meta=probe_df._meta,
                                       enforce_metadata=False)
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph, MaterializedLayer
    from dask.utils import apply

    name = "_drop_rejected-" + tokenize(probe_df, built, key, kind, skip_below)
    # Constants in the kwargs dict: a task's positional strings could be taken for keys.
    tasks = {(name, i): (apply, _drop_rejected, [part, built.key], {"key": key, "kind": kind, "skip_below": skip_below})
             for i, part in enumerate(probe_df.__dask_keys__())}
    # Not a Blockwise layer: Blockwise fusion cannot merge a per-key workers annotation.
    where = {(name, i): workers for i, workers in enumerate(holders)}
    layer = MaterializedLayer(tasks, annotations={"workers": where.__getitem__, "allow_other_workers": True})
    graph = HighLevelGraph.from_collections(name, layer, dependencies=[probe_df, built])
    return dd.core.new_dd_object(graph, name, probe_df._meta, probe_df.divisions)


def _key_names(on, left_on, right_on):
    if on is not None:
        if left_on is not None or right_on is not None:
            raise TypeError("semi_join(): give on, or left_on and right_on, not both")
        left_on = right_on = on
    if left_on is None or right_on is None:
        raise TypeError("semi_join(): give on, or both left_on and right_on")
    as_list = lambda k: list(k) if isinstance(k, (list, tuple)) else [k]
    left_on, right_on = as_list(left_on), as_list(right_on)
    for name in left_on + right_on:
        # A Series or array of keys (pandas' merge takes one) is no column
        # name: testing it against the columns raised an ambiguous-truth error.
        if isinstance(name, (dd.Series, dd.Index, pd.Series, pd.Index, np.ndarray)):
            raise TypeError("semi_join(): keys must be column names, not a %s.%s: assign it as a column "
                            "and join on its name" % (type(name).__module__, type(name).__qualname__))
    if not left_on:
        raise ValueError("semi_join(): no key column given (on / left_on / right_on is empty)")
    if len(left_on) != len(right_on):
        raise ValueError("semi_join(): left_on and right_on differ in length")
    return left_on, right_on


def semi_join(left, right, on=None, left_on=None, right_on=None, how="inner", fpp=0.01, *, ndv=None,
              build=None, sizing="exact", split_every=SPLIT_EVERY, skip_below=None, **merge_kwargs):
    """left.merge(right, ...), with the rows that cannot match dropped first by a Bloom filter.

    Lazy, as merge is: nothing is computed here; the result is a Dask
    DataFrame whose graph builds the filter from one side's key (build: "left"
    or "right"; for an inner join by default the side of fewer partitions, for
    how="left" the left side, for how="right" the right) partition by
    partition, merges the partitions' filters by a tree of split_every per
    task to one filter task, which every worker fetches once, probes the other
    side partition by partition with it, dropping the rows whose key it
    rejects, and merges the two with the given how and merge_kwargs. The rows
    are those of left.merge(right, ...): a Bloom filter has no false
    negatives, and null keys are kept when the build side has nulls too,
    since pandas' merge matches nulls with nulls. With several keys the filter
    is on the first (a superset of the matches). how="outer" or "cross", index
    joins, and key types with no common hashing (bool, categorical, uint64,
    ...) are a plain merge; object keys the filter cannot hash (mixed objects)
    are found so when computed, and then nothing is dropped. ndv: the build
    side's distinct keys if known, else estimated in the same graph (a sketch
    of each build partition's key hashes, merged; times NDV_HEADROOM).

    skip_below (the adaptive rule; None, the default, always filters): each
    probe partition's first SAMPLE_ROWS rows are probed first, and if the
    filter rejects less than this fraction of them (say 0.1), filtering would
    cost more than it saves, and the partition goes to the merge whole.

    left or right not a dask.dataframe.DataFrame (a pandas one, say), or a key
    given as a Series or array instead of a column name: TypeError. No key
    column, build not None / "left" / "right", split_every not an int >= 2:
    ValueError.
    """
    _require(left, dd.DataFrame, "left", "semi_join")
    _require(right, dd.DataFrame, "right", "semi_join")
    left_on, right_on = _key_names(on, left_on, right_on)
    _check_split_every(split_every, "semi_join")
    if build not in (None, "left", "right"):
        raise ValueError("semi_join(): build must be None, 'left' or 'right', not %r" % (build,))

    def merge(a, b):
        if on is not None:
            return a.merge(b, how=how, on=on, **merge_kwargs)
        return a.merge(b, how=how, left_on=left_on, right_on=right_on, **merge_kwargs)

    def plain():
        return merge(left, right)

    if build is None:
        build = {"left": "left", "right": "right"}.get(how)
        if how == "inner":
            build = "left" if left.npartitions < right.npartitions else "right"
    if build not in ("left", "right") or (how not in ("inner", build)) or \
            merge_kwargs.get("left_index") or merge_kwargs.get("right_index"):
        return plain()
    build_df, build_key, probe_df, probe_key = (
        (left, left_on[0], right, right_on[0]) if build == "left" else (right, right_on[0], left, left_on[0]))
    if build_key not in build_df.columns or probe_key not in probe_df.columns:
        return plain()
    kind = _key_kind(build_df._meta[build_key].dtype, probe_df._meta[probe_key].dtype)
    if kind is None:
        return plain()

    built = _filter_task(build_df[build_key], ndv, fpp, sizing, kind, split_every)
    filtered = _probe_side(probe_df, built, probe_key, kind, skip_below)
    return merge(left, filtered) if build == "left" else merge(filtered, right)


# --- which files of a dataset may hold these values ----------------------------

# Files per task of probe_dataset when files_per_task is None: enough that a
# task's threads overlap their reads, few enough that a dataset of thousands
# of files spreads over every worker.
FILES_PER_TASK = 64


def probe_dataset(paths, column, values, *, physical=False, files_per_task=None, jobs=None,
                  max_container_elements=None, max_memory_bytes=None, scheduler=None):
    """blockbloom.parquet.probe_dataset over Dask's workers: the same
    pandas DataFrame (rows, order, attrs), computed.

    The paths are expanded here (a directory, a glob, a list: as the local
    function expands them), sorted, and cut into tasks of files_per_task
    consecutive files (None: 64); each task runs the local probe on its
    files with jobs threads (None: the local default) where it is
    scheduled, so every worker must see the files at the same paths (a
    shared or object-store mount). The values go to the workers once. What
    the tasks skip (attrs["errors"]) and answer maybe for want of a filter
    (attrs["unfiltered"]) is warned about here, as the local function warns.
    scheduler: as dask.compute's (None: the current one, a distributed
    Client's when one is active)."""
    from . import _dataset, parquet

    function = "blockbloom.dask.probe_dataset()"
    parquet._column_path(column)
    limits = parquet._check_limits(max_container_elements, max_memory_bytes)
    jobs = _dataset.check_jobs(jobs, function)
    if files_per_task is None:
        files_per_task = FILES_PER_TASK
    if isinstance(files_per_task, bool) or not isinstance(files_per_task, (int, np.integer)) \
            or files_per_task < 1:
        raise ValueError("%s: files_per_task must be None or an int >= 1, not %r"
                         % (function, files_per_task))
    values = _dataset.value_list(values, function)
    files, listing_errors = _dataset.expand_paths(paths)
    shipped = dask.delayed(values, traverse=False)  # one key: sent once to each worker
    tasks = [dask.delayed(_dataset._probe_files, pure=True)(
                 files[i:i + files_per_task], column, shipped, physical, limits, jobs, function)
             for i in range(0, len(files), files_per_task)]
    if not tasks:  # nothing to read: the local function's empty frame
        tasks = [dask.delayed(_dataset._probe_files, pure=True)([], column, shipped, physical,
                                                                limits, jobs, function)]
    parts = dask.compute(*tasks, scheduler=scheduler)
    return _dataset._join(list(parts), listing_errors, function, stacklevel=2)
