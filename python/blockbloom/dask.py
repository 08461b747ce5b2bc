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

# nunique_approx (HyperLogLog) is within a few percent; 25% more keeps the FPP
# at the target even when it underestimates.
NDV_HEADROOM = 1.25
# Filters merged per task in the tree reduction.
SPLIT_EVERY = 8
# Rows of the probe side semi_join(skip_below=...) tests the filter on.
SAMPLE_ROWS = 10_000

__all__ = ["bloom_filter", "semi_join", "NDV_HEADROOM"]


def _estimate_ndv(series):
    return max(1, int(series.nunique_approx().compute() * NDV_HEADROOM) + 1)


def _merge_tree(parts, combine, split_every):
    """Delayed combine() over groups of split_every, level by level, to one."""
    if not parts:
        raise ValueError("the Series has no partitions")
    while len(parts) > 1:
        parts = [dask.delayed(combine)(parts[i:i + split_every]) for i in range(0, len(parts), split_every)]
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
    None: estimated with series.nunique_approx() times NDV_HEADROOM (one more
    pass over the Series). Values are converted and hashed as Filter.insert_values
    does for a pandas Series (type= as for Filter); nulls are not inserted. The
    result is typed as the filter of all values would be (Filter.type: type=, or
    the type the Series' dtype gives, every partition the same) and is bit for bit
    the filter of the same size built from all values at once.
    compute=False gives the dask.delayed object instead.
    """
    if ndv is None:
        ndv = _estimate_ndv(series)
    parts = [dask.delayed(_partition_filter)(p, ndv, fpp, sizing, type) for p in series.to_delayed()]
    result = _merge_tree(parts, _union_all, split_every)
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
    """(filter of the partition's non-null keys, whether it has a null key)."""
    f = Filter(ndv=ndv, fpp=fpp, sizing=sizing)
    values, nulls, type = _key_values(part, kind)
    f.insert_values(values, type=type, mask=nulls)
    return f, nulls is not None


def _merge_built(items):
    return Filter.union_all([f for f, _ in items]), any(has_null for _, has_null in items)


def _drop_rejected(part, f, key, kind, keep_nulls):
    """The rows of part whose key the filter may hold (and null keys if keep_nulls)."""
    if len(part) == 0:
        return part
    try:
        values, nulls, type = _key_values(part[key], kind)
        hits = f.find_values(values, type=type, mask=nulls)
    except (TypeError, ValueError):
        return part  # keys the filter cannot hash (mixed objects): keep them all, the merge decides
    if nulls is not None and keep_nulls:
        hits |= nulls
    return part[hits]


def _client():
    """The distributed Client in use, or None (the local schedulers)."""
    try:
        from distributed import get_client

        return get_client()
    except (ImportError, ValueError):
        return None


def _broadcast(client, value):
    """value on every worker once: scattered with broadcast=True under a
    distributed Client, else a delayed object (one copy in the local scheduler)."""
    if client is None:
        return dask.delayed(value)
    [future] = client.scatter([value], broadcast=True, hash=False)  # one object, not its elements
    return future


def _holders(client, df):
    """[the workers holding partition i] for a frame whose every partition is
    in memory on the cluster (persisted), else None."""
    if client is None:
        return None
    from dask.utils import stringify
    from distributed import Future

    graph = df.__dask_graph__()
    futures = [graph.get(k) for k in df.__dask_keys__()]
    if not all(isinstance(f, Future) for f in futures):
        return None  # not persisted: the probe runs fused with the tasks that make each partition
    who_has = client.who_has(futures)  # keyed by the keys as strings
    holders = [list(who_has.get(stringify(f.key), ())) for f in futures]
    return holders if all(holders) else None


def _probe_side(client, probe_df, f, key, kind, keep_nulls):
    """probe_df without the rows the filter rejects, partition by partition.
    A persisted probe side is filtered where each partition lies (the task
    restricted to its holders): left to itself the scheduler sends some
    partitions to the idler worker, moving whole partitions to drop 95% of
    their rows there."""
    f = _broadcast(client, f)
    holders = _holders(client, probe_df)
    if holders is None:
        return probe_df.map_partitions(_drop_rejected, f, key, kind, keep_nulls, meta=probe_df._meta)
    graph = probe_df.__dask_graph__()
    parts = [client.submit(_drop_rejected, graph[k], f, key, kind, keep_nulls, workers=w,
                           allow_other_workers=True)
             for k, w in zip(probe_df.__dask_keys__(), holders)]
    return dd.from_delayed(parts, meta=probe_df._meta, divisions=probe_df.divisions, prefix="bloom-filtered",
                           verify_meta=False)


def _key_names(on, left_on, right_on):
    if on is not None:
        if left_on is not None or right_on is not None:
            raise TypeError("semi_join(): give on, or left_on and right_on, not both")
        left_on = right_on = on
    if left_on is None or right_on is None:
        raise TypeError("semi_join(): give on, or both left_on and right_on")
    as_list = lambda k: list(k) if isinstance(k, (list, tuple)) else [k]
    left_on, right_on = as_list(left_on), as_list(right_on)
    if len(left_on) != len(right_on):
        raise ValueError("semi_join(): left_on and right_on differ in length")
    return left_on, right_on


def _sample_rejected(probe_df, f, key, kind, keep_nulls):
    """The fraction of a sample of probe_df (its first partition's first
    SAMPLE_ROWS rows) that the filter rejects."""
    sample = probe_df.partitions[0].head(SAMPLE_ROWS, compute=True)
    if len(sample) == 0:
        return 1.0
    return 1.0 - len(_drop_rejected(sample, f, key, kind, keep_nulls)) / len(sample)


def semi_join(left, right, on=None, left_on=None, right_on=None, how="inner", fpp=0.01, *, ndv=None,
              build=None, sizing="exact", split_every=SPLIT_EVERY, skip_below=None, **merge_kwargs):
    """left.merge(right, ...), with the rows that cannot match dropped first by a Bloom filter.

    The filter is built from one side's key (build: "left" or "right"; for an
    inner join by default the side of fewer partitions, for how="left" the left
    side, for how="right" the right), merged on the cluster, broadcast once to
    every worker, and probed partition by partition against the other side,
    whose rows with a key the filter rejects are dropped; then the two are
    merged with the given how and merge_kwargs. The rows are those of
    left.merge(right, ...): a Bloom filter has no false negatives, and null
    keys are kept when the build side has nulls too, since pandas' merge
    matches nulls with nulls. With several keys the filter is on the first
    (a superset of the matches). how="outer" or "cross", index joins, and key
    types with no common hashing (bool, categorical, uint64, ...) are a plain
    merge. ndv: the build side's distinct keys if known (else estimated, a
    pass over it: persist it first if it is costly to compute).

    A probe side persisted on a distributed cluster is filtered at once, each
    partition on a worker holding it (tasks submitted with that restriction;
    the result is a frame of their futures); otherwise the probe is a
    map_partitions that runs when the result is computed.

    skip_below (the adaptive rule; None, the default, always filters): the
    filter is first probed with a sample of the other side, and if it rejects
    less than this fraction of the sample (say 0.1), filtering would cost more
    than it saves, and the sides are merged as they are.
    """
    left_on, right_on = _key_names(on, left_on, right_on)

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

    client = _client()
    keys = build_df[build_key]
    if ndv is None:
        ndv = _estimate_ndv(keys)
    parts = [dask.delayed(_build_partition)(p, ndv, fpp, sizing, kind) for p in keys.to_delayed()]
    try:
        f, has_null = _merge_tree(parts, _merge_built, split_every).compute()
    except (TypeError, ValueError):
        return plain()  # build keys the filter cannot hash (mixed objects)
    if skip_below is not None and _sample_rejected(probe_df, f, probe_key, kind, has_null) < skip_below:
        return plain()
    filtered = _probe_side(client, probe_df, f, probe_key, kind, has_null)
    return merge(left, filtered) if build == "left" else merge(filtered, right)
