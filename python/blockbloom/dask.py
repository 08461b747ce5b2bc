# SPDX-License-Identifier: Apache-2.0
"""Bloom filters on Dask: build one from a Series, and Bloom semi-joins.

    import blockbloom.dask as bbd
    f = bbd.bloom_filter(small["key"], fpp=0.01)       # one Filter, merged on the cluster
    joined = bbd.semi_join(big, small, on="key")        # same rows as big.merge(small, on="key")
    joined, report = bbd.semi_join(big, small, on="key", report=True)
    result, partitions = dask.compute(joined, report.partitions)   # what the filter did, per partition

Imported on its own (``import blockbloom.dask``) and only where Dask is
installed; ``import blockbloom`` never imports Dask.

Filters here are sized with ``sizing="exact"``: the smallest size meeting the
target FPP (up to half the power-of-two size Parquet needs), because these
filters cross the network to every worker and are never written into a
Parquet file. Pass ``sizing="parquet-safe"`` for a filter you mean to store.
"""
import datetime
import decimal
import operator
import warnings

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

__all__ = ["bloom_filter", "semi_join", "probe_dataset", "NDV_HEADROOM", "FILES_PER_TASK",
           "BloomFilterNotUsed", "SemiJoinReport"]


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


# --- semi_join: how keys are hashed ------------------------------------------
#
# Two keys pandas' merge finds equal must hash equal (no false negatives). A
# "kind" names how a key column becomes values of one typed filter, for both
# sides alike; pandas 1.5's merge compares integers (bools too) as int64 (a
# uint64 wraps), other number pairs by value, datetimes and timedeltas by their
# int64 counts (tz-aware ones as UTC instants), periods of one frequency by
# their ordinals, and objects by Python's ==.
_FIXED_TYPES = {
    "int": "int64",                   # every int width, signed or not, and bool: as int64
    "float": "double",                # floats, and ints against floats: float64 (-0.0 as 0.0)
    "datetime": "timestamp(ns)",      # datetime64 of any unit, naive: exact into ns
    "datetimetz": "timestamp(ns,utc)",  # tz-aware, any zones: UTC instants
    "timedelta": "int64",             # its nanoseconds (Parquet has no duration value)
    "period": "int64",                # its ordinal (both sides of one frequency)
}
# Object (and string) columns: a filter type per value kind pandas infers, decided
# when computed, partition by partition (pandas.api.types.infer_dtype).
_OBJECT_TYPES = {"string": "string", "bytes": "binary", "date": "date", "decimal": "double",  # -0 as +0
                 "integer": "int64"}
# A value of each object kind standing in for the nulls (masked: never inserted).
_OBJECT_FILLERS = {"string": "", "bytes": b"", "date": datetime.date(1970, 1, 1), "decimal": decimal.Decimal(0),
                   "integer": 0}


class BloomFilterNotUsed(UserWarning):
    """semi_join did not filter (a plain merge), or left partitions unfiltered:
    the message names the key dtype or values and why."""


class _Unhashable(Exception):
    """Keys of a partition no filter type holds exactly; the message says why."""


def _dtype_kind(dtype):
    """The kind of one key dtype (see _FIXED_TYPES), or None."""
    if isinstance(dtype, pd.CategoricalDtype):
        return _dtype_kind(dtype.categories.dtype)  # merge compares a categorical's values
    if pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_integer_dtype(dtype):
        return "int"
    if pd.api.types.is_float_dtype(dtype):
        return "float"
    if isinstance(dtype, pd.DatetimeTZDtype):
        return "datetimetz"
    if pd.api.types.is_datetime64_dtype(dtype):
        return "datetime"
    if pd.api.types.is_timedelta64_dtype(dtype):
        return "timedelta"
    if isinstance(dtype, pd.PeriodDtype):
        return "period"
    if dtype == object or isinstance(dtype, pd.StringDtype):
        return "object"
    return None


def _key_kind(a, b):
    """How keys of dtypes a and b are hashed alike (a key of _FIXED_TYPES, or
    "object"), or None: no common hashing known, so semi_join is a plain merge."""
    ka, kb = _dtype_kind(a), _dtype_kind(b)
    if ka is None or kb is None:
        return None
    if ka == "period" and a != b:
        return None  # periods of two frequencies: merge refuses them
    if ka == kb:
        return ka
    return "float" if {ka, kb} == {"int", "float"} else None


def _decategorized(series):
    """A categorical Series as its values (null slots hold any category: masked)."""
    if not isinstance(series.dtype, pd.CategoricalDtype):
        return series
    categories = series.cat.categories
    if len(categories) == 0:
        return pd.Series(np.full(len(series), None, dtype=object), index=series.index)
    codes = series.cat.codes.to_numpy()
    return pd.Series(categories.take(np.where(codes < 0, 0, codes)), index=series.index)


def _key_values(series, kind):
    """(values, nulls: a bool array or None, the filter's type name) for
    find_values / insert_values; type None: every key is null (no value kind).
    _Unhashable for object keys of no single kind _OBJECT_TYPES holds."""
    nulls = series.isna().to_numpy()
    any_null = bool(nulls.any())
    series = _decategorized(series)
    if kind == "int":
        unsigned = pd.api.types.is_unsigned_integer_dtype(series.dtype)
        values = series.to_numpy(dtype=np.uint64 if unsigned else np.int64, na_value=0)
        if unsigned:
            values = values.view(np.int64)  # merge's int64, wrapped above 2**63
    elif kind == "float":
        values = series.to_numpy(dtype=np.float64, na_value=np.nan) + 0.0  # -0.0 == 0.0 for merge
        # A nullable Float64/Float32 array holds real NaNs (0/0) that isna() does not
        # count; merge matches them as it does its nulls, so they take the null rule.
        nan = np.isnan(values)
        if nan.any():
            nulls = nulls | nan
            any_null = True
    elif kind == "datetime":
        values = series.to_numpy()
    elif kind == "datetimetz":
        values = series  # the value model takes a zoned Series as UTC instants
    elif kind == "timedelta":
        values = series.to_numpy(dtype="m8[ns]").view(np.int64)
    elif kind == "period":
        values = series.array.asi8
    else:
        inferred = pd.api.types.infer_dtype(series, skipna=True)
        if inferred == "empty":
            return None, (nulls if any_null else None), None
        if inferred not in _OBJECT_TYPES:
            raise _Unhashable("object keys of kind %r (pandas.api.types.infer_dtype): a filter holds %s"
                              % (inferred, ", ".join(sorted(_OBJECT_TYPES))))
        values = series.to_numpy(dtype=object, na_value=None)
        if any_null:
            values = values.copy()
            values[nulls] = _OBJECT_FILLERS[inferred]
        if inferred == "decimal":
            # Hashed as doubles: Decimal('-0') would be -0.0, which hashes apart from
            # 0.0, yet merge matches it to Decimal('0'); every zero goes in as +0.
            zeros = np.fromiter((v.is_zero() for v in values), dtype=bool, count=len(values))
            if zeros.any():
                values = values.copy()
                values[zeros] = _OBJECT_FILLERS["decimal"]
        return values, (nulls if any_null else None), _OBJECT_TYPES[inferred]
    if any_null and kind in ("timedelta", "period"):
        values = np.where(nulls, 0, values)  # NaT's int64 minimum: masked
    return values, (nulls if any_null else None), _FIXED_TYPES[kind]


def _build_partition(part, ndv, fpp, sizing, kind):
    """(filter of the partition's non-null keys or None, whether it has a null
    key, why there is no filter or None)."""
    try:
        values, nulls, type = _key_values(part, kind)
    except (_Unhashable, TypeError, ValueError) as e:
        return None, False, "build keys: %s" % (e,)
    f = Filter(ndv=ndv, fpp=fpp, sizing=sizing, type=type)  # outside the try: a bad fpp or sizing is an error
    try:
        if values is not None:
            f.insert_values(values, mask=nulls)
    except (TypeError, ValueError) as e:  # blockbloom.Error too: a key out of the type's range
        return None, False, "build keys: %s" % (e,)
    return f, nulls is not None, None


def _merge_built(items):
    has_null = any(item[1] for item in items)
    for f, _, why in items:
        if f is None:
            return None, has_null, why
    try:
        merged = Filter.union_all([item[0] for item in items])
    except ValueError:  # blockbloom.Error: partitions typed differently (object keys of several kinds)
        kinds = sorted({str(item[0].type) for item in items if item[0].type is not None})
        return None, has_null, "build keys of several kinds in one column (filter types %s)" % ", ".join(kinds)
    return merged, has_null, None


# One row per probe partition, the report of what the filter did there.
_STATS_META = pd.DataFrame({"rows": pd.Series([], dtype="int64"), "kept": pd.Series([], dtype="int64"),
                            "filtered": pd.Series([], dtype=bool), "filter_type": pd.Series([], dtype=object),
                            "note": pd.Series([], dtype=object)})


def _stats(rows, kept, filtered, filter_type, note):
    return pd.DataFrame({"rows": [rows], "kept": [kept], "filtered": [filtered],
                         "filter_type": [filter_type], "note": [note]})


def _drop_rejected(part, built, key, kind, skip_below):
    """(the rows of part whose key the filter may hold, and its null-key rows
    if the build side has a null key too; one row of _STATS_META saying what
    was done). built: (filter or None, build side has a null key, why no
    filter). part itself, whole, when there is no filter, its keys cannot be
    hashed as the filter's (a BloomFilterNotUsed warning either way), or
    (skip_below given) the filter rejects less than skip_below of its first
    SAMPLE_ROWS rows."""
    f, keep_nulls, why = built
    filter_type = None if f is None or f.type is None else str(f.type)
    if f is None:
        warnings.warn("semi_join(): no filter, probe partitions kept whole: %s" % why, BloomFilterNotUsed)
        return part, _stats(len(part), len(part), False, None, why)
    if len(part) == 0:
        return part, _stats(0, 0, True, filter_type, None)
    try:
        values, nulls, type = _key_values(part[key], kind)
        if kind == "object" and type is not None and f.type is not None and \
                str(f.type) != str(Filter(1024, type=type).type):
            raise _Unhashable("of kind %s, the filter's type is %s" % (type, f.type))
        if values is None:  # every key null
            hits = np.zeros(len(part), dtype=bool)
        else:
            if skip_below is not None:
                n = min(len(values), SAMPLE_ROWS)
                sample_hits = f.find_values(values[:n], mask=None if nulls is None else nulls[:n])
                if nulls is not None and keep_nulls:
                    sample_hits |= nulls[:n]
                rejected = 1.0 - np.count_nonzero(sample_hits) / n
                if rejected < skip_below:
                    return part, _stats(len(part), len(part), False, filter_type,
                                        "skip_below: the filter rejected %.1f%% of the first %d rows" % (
                                            100 * rejected, n))
            hits = f.find_values(values, mask=nulls)
    except (_Unhashable, TypeError, ValueError) as e:
        # Keys the filter cannot hash as its own (mixed objects): keep them all, the merge decides.
        why = "probe keys: %s" % (e,)
        warnings.warn("semi_join(): a probe partition kept whole: %s" % why, BloomFilterNotUsed)
        return part, _stats(len(part), len(part), False, filter_type, why)
    if nulls is not None and keep_nulls:
        hits |= nulls
    kept = part[hits]
    return kept, _stats(len(part), len(kept), True, filter_type, None)


def _filter_task(keys, ndv, fpp, sizing, kind, split_every):
    """A delayed (filter or None, has a null key, why no filter) of a Dask Series of build keys."""
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
    """(probe_df without the rows the filter (the delayed built) rejects,
    partition by partition, when computed; a Dask DataFrame of _STATS_META,
    one row per probe partition). Each probe task returns both (a pair); the
    two collections take its halves, so computed together (dask.compute) each
    partition is probed once. A persisted probe side is probed where each
    partition lies (each task annotated with the workers holding its
    partition, others allowed): left to itself the scheduler sends some
    partitions to the idler worker, moving whole partitions to drop 95% of
    their rows there."""
    holders = _holders(probe_df)
    if holders is None:
        pairs = probe_df.map_partitions(_drop_rejected, built, key, kind, skip_below, meta=probe_df._meta,
                                        enforce_metadata=False)
    else:
        from dask.base import tokenize
        from dask.highlevelgraph import HighLevelGraph, MaterializedLayer
        from dask.utils import apply

        name = "_drop_rejected-" + tokenize(probe_df, built, key, kind, skip_below)
        # Constants in the kwargs dict: a task's positional strings could be taken for keys.
        tasks = {(name, i): (apply, _drop_rejected, [part, built.key],
                             {"key": key, "kind": kind, "skip_below": skip_below})
                 for i, part in enumerate(probe_df.__dask_keys__())}
        # Not a Blockwise layer: Blockwise fusion cannot merge a per-key workers annotation.
        where = {(name, i): workers for i, workers in enumerate(holders)}
        layer = MaterializedLayer(tasks, annotations={"workers": where.__getitem__, "allow_other_workers": True})
        graph = HighLevelGraph.from_collections(name, layer, dependencies=[probe_df, built])
        pairs = dd.core.new_dd_object(graph, name, probe_df._meta, probe_df.divisions)
    kept = pairs.map_partitions(operator.getitem, 0, meta=probe_df._meta, enforce_metadata=False)
    stats = pairs.map_partitions(operator.getitem, 1, meta=_STATS_META, enforce_metadata=False)
    return kept, stats


class SemiJoinReport:
    """What semi_join(..., report=True) did, beside its result.

    Known when semi_join returns: ``filter_used`` (a filter is in the graph),
    ``reason`` (why not, the BloomFilterNotUsed warning's text; None when
    used), ``build`` ("left" / "right": the side the filter is built from,
    None without one), ``key_kind`` (how the keys are hashed: "int", "float",
    "datetime", "datetimetz", "timedelta", "period", "object"; None without a
    filter). Known when computed: ``partitions``, a Dask DataFrame of one row
    per probe partition: rows, kept (rows passed to the merge), filtered
    (whether the filter ran on it), filter_type (the filter's Filter.type,
    None without one), note (why it was not filtered). Compute it with the
    result, ``dask.compute(joined, report.partitions)``, to probe once;
    ``summary(rows)`` totals it (computing it alone when not given).
    """

    def __init__(self, filter_used, reason, build, key_kind, partitions):
        self.filter_used = filter_used
        self.reason = reason
        self.build = build
        self.key_kind = key_kind
        self.partitions = partitions

    def summary(self, partitions=None):
        """A dict: filter_used, reason, build, key_kind, and over the probe
        partitions (the computed ``partitions``, or computed here: the probe
        side and the filter, not the merge) rows, kept, dropped, partitions,
        partitions_filtered, filter_type, notes (distinct, in order). Without
        a filter in the graph the counts are None. A BloomFilterNotUsed warning
        when partitions were not filtered for a reason other than skip_below."""
        result = {"filter_used": self.filter_used, "reason": self.reason, "build": self.build,
                  "key_kind": self.key_kind, "rows": None, "kept": None, "dropped": None, "partitions": None,
                  "partitions_filtered": None, "filter_type": None, "notes": []}
        if self.partitions is None:
            return result
        if partitions is None:
            partitions = self.partitions.compute()
        rows, kept = int(partitions["rows"].sum()), int(partitions["kept"].sum())
        types = partitions["filter_type"].dropna()
        result.update(rows=rows, kept=kept, dropped=rows - kept, partitions=len(partitions),
                      partitions_filtered=int(partitions["filtered"].sum()),
                      filter_type=types.iloc[0] if len(types) else None,
                      notes=list(dict.fromkeys(partitions["note"].dropna())))
        unfiltered = partitions[~partitions["filtered"] & (partitions["rows"] > 0)]
        reasons = [note for note in unfiltered["note"].dropna() if not note.startswith("skip_below")]
        if reasons:  # skip_below's partitions are passed on as asked: no warning
            warnings.warn("semi_join(): %d of %d probe partitions not filtered: %s"
                          % (len(reasons), len(partitions), "; ".join(dict.fromkeys(reasons))),
                          BloomFilterNotUsed, stacklevel=2)
        return result

    def __repr__(self):
        return "SemiJoinReport(filter_used=%r, reason=%r, build=%r, key_kind=%r)" % (
            self.filter_used, self.reason, self.build, self.key_kind)


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
              build=None, sizing="exact", split_every=SPLIT_EVERY, skip_below=None, report=False, **merge_kwargs):
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
    is on the first (a superset of the matches). ndv: the build side's
    distinct keys if known, else estimated in the same graph (a sketch of
    each build partition's key hashes, merged; times NDV_HEADROOM).

    Keys are hashed so that keys merge finds equal hash equal, through one
    typed filter (its Filter.type): ints of every width and bool as int64 (as
    merge compares them, a uint64 above 2**63 wrapped), floats (and ints
    against floats) as double, datetime64 of any unit as timestamp(ns),
    tz-aware ones as timestamp(ns,utc) instants, timedelta64 and periods (of
    one frequency) as their int64 counts, a categorical as its values, and
    object / string columns by the kind of their values, decided when
    computed: str, bytes, datetime.date, decimal.Decimal (as double: equal
    Decimals are one double) or Python ints. Where no filter is used it says
    so: a BloomFilterNotUsed warning naming the reason, and a plain merge, for
    how="outer" or "cross", a how that keeps every row of the probe side,
    index joins, and key dtypes with no common exact hashing (interval,
    object against int64, ...). Object keys of no single such kind (mixed
    objects) are found so when computed: the warning is raised in the task
    (on a distributed worker, in its log) and nothing of that side is dropped.

    report=True returns (the result, a SemiJoinReport): whether a filter is
    in the graph and why not, and, computed with the result
    (dask.compute(joined, report.partitions)), each probe partition's rows,
    rows kept, whether the filter ran on it and the filter's type. report is
    a keyword so that existing calls keep their one return value, and a
    separate object because a Dask DataFrame's attributes do not survive the
    next operation on it and the counts are known only when computed.

    skip_below (the adaptive rule; None, the default, always filters): each
    probe partition's first SAMPLE_ROWS rows are probed first, and if the
    filter rejects less than this fraction of them (say 0.1), filtering would
    cost more than it saves, and the partition goes to the merge whole.

    left or right not a dask.dataframe.DataFrame (a pandas one, say), or a key
    given as a Series or array instead of a column name: TypeError. No key
    column, build not None / "left" / "right", split_every not an int >= 2:
    ValueError (before any graph is built, as for every argument error).
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

    def plain(reason):
        warnings.warn("semi_join(): no Bloom filter, a plain merge: %s" % reason, BloomFilterNotUsed, stacklevel=3)
        joined = merge(left, right)
        return (joined, SemiJoinReport(False, reason, None, None, None)) if report else joined

    if build is None:
        build = {"left": "left", "right": "right"}.get(how)
        if how == "inner":
            build = "left" if left.npartitions < right.npartitions else "right"
    if build is None:
        return plain("how=%r keeps the rows of both sides that match nothing: neither side can be filtered" % (how,))
    if how not in ("inner", build):
        return plain("how=%r keeps every row of the %s side, so the filter cannot be built from the %s side "
                     "(build=%r)" % (how, how, build, build))
    if merge_kwargs.get("left_index") or merge_kwargs.get("right_index"):
        return plain("left_index / right_index: a join on an index, the filter is on a key column")
    build_df, build_key, probe_df, probe_key = (
        (left, left_on[0], right, right_on[0]) if build == "left" else (right, right_on[0], left, left_on[0]))
    for side, frame, name in ((build, build_df, build_key), ("right" if build == "left" else "left", probe_df,
                                                              probe_key)):
        if name not in frame.columns:
            return plain("the key %r is not a column of the %s side (an index level?)" % (name, side))
    build_dtype, probe_dtype = build_df._meta[build_key].dtype, probe_df._meta[probe_key].dtype
    kind = _key_kind(build_dtype, probe_dtype)
    if kind is None:
        return plain("the keys' dtypes, %s (%s %r) and %s (%s %r), have no common exact hashing in a filter "
                     "(it takes ints of every width and bool, floats, datetime64 naive or tz-aware, timedelta64, "
                     "periods of one frequency, categoricals of these, and str / bytes / date / Decimal / int "
                     "objects)" % (build_dtype, build, build_key, probe_dtype,
                                   "right" if build == "left" else "left", probe_key))

    built = _filter_task(build_df[build_key], ndv, fpp, sizing, kind, split_every)
    filtered, stats = _probe_side(probe_df, built, probe_key, kind, skip_below)
    joined = merge(left, filtered) if build == "left" else merge(filtered, right)
    return (joined, SemiJoinReport(True, None, build, kind, stats)) if report else joined


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
