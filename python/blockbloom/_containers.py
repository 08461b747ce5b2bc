# SPDX-License-Identifier: Apache-2.0
"""Containers to (array, mask) for the value calls, without per-element work.

Filter.insert_values / find_values, parquet_hash and kudu_hash call
``normalize`` (from C++) for any input that is neither a list, a tuple nor a
scalar. It returns ``(values, mask)``: values a numpy array the extension
hashes in place (a numeric array) or a sequence it walks (an object array of
str / bytes / None), mask None or a bool array (True = null).

pandas is never imported here: its objects are recognised by their class's
module and taken apart through their own attributes (``.array``, the masked
arrays' ``_data`` / ``_mask``, ``to_numpy()``).
"""

import numpy as _np

_NUMERIC = frozenset("iuf")
# datetime64 units as Parquet stores them: days as DATE (INT32), ms / us / ns
# as TIMESTAMP (INT64); seconds become milliseconds (exact).
_TIME_UNITS = {"D": None, "ms": None, "us": None, "ns": None, "s": "ms"}


def _or_masks(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return _np.logical_or(a, b)


def _datetimes(arr, mask, what):
    unit, count = _np.datetime_data(arr.dtype)
    if count != 1 or unit not in _TIME_UNITS:
        raise ValueError(
            f"{what}: cannot hash datetime64[{count if count != 1 else ''}{unit}] values: "
            "Parquet stores dates as days (datetime64[D] -> DATE) and timestamps in "
            "ms, us or ns (-> TIMESTAMP); convert with astype('datetime64[ms]') or similar")
    nat = _np.isnat(arr)
    mask = _or_masks(mask, nat if nat.any() else None)
    target = _TIME_UNITS[unit]
    if target is not None:
        arr = arr.astype(f"datetime64[{target}]")
    ints = arr.view(_np.int64)
    if mask is not None:
        ints = _np.where(mask, 0, ints)
    if unit == "D":
        # Days as Parquet's DATE: an int32 column.
        if ints.size and (ints.min() < -(2**31) or ints.max() >= 2**31):
            raise ValueError(f"{what}: a datetime64[D] value is outside DATE's int32 days")
        ints = ints.astype(_np.int32)
    return ints, mask


def _from_pandas(values, mask, what):
    arr = values.array if hasattr(values, "array") else values
    name = type(arr).__name__
    dtype = getattr(arr, "dtype", None)
    kind = getattr(dtype, "kind", None)
    if name == "BooleanArray" or kind == "b" or str(dtype) in ("bool", "boolean"):
        raise TypeError(f"{what}: cannot hash booleans: Parquet has no Bloom filter hash for BOOLEAN")
    if hasattr(arr, "_data") and hasattr(arr, "_mask") and isinstance(getattr(arr, "_mask"), _np.ndarray):
        # Int8..UInt64, Float32/64: the values and the null mask as numpy arrays.
        data, nulls = arr._data, arr._mask
        return data, _or_masks(mask, nulls if nulls.any() else None)
    if kind == "M":
        tz = getattr(dtype, "tz", None)
        if tz is not None:
            arr = arr.tz_convert("UTC").tz_localize(None)
        return _datetimes(_np.asarray(arr.to_numpy()), mask, what)
    if kind in ("O", "U", "S") or str(dtype).startswith("string"):
        # str / bytes / objects: an object array with None for every NA.
        obj = _np.asarray(arr.to_numpy(dtype=object, na_value=None), dtype=object)
        return obj, mask
    out = arr.to_numpy() if hasattr(arr, "to_numpy") else _np.asarray(arr)
    return normalize(out, mask, what)


def normalize(values, mask, what):
    """(values, mask) ready for the extension's array or sequence path."""
    if type(values) is _np.ndarray:
        k = values.dtype.kind
        if k in _NUMERIC or k in ("U", "S"):
            return values, mask
        if k == "M":
            return _datetimes(values, mask, what)
        if k == "b":
            raise TypeError(f"{what}: cannot hash booleans: Parquet has no Bloom filter hash for BOOLEAN")
        if k == "m":
            raise TypeError(f"{what}: cannot hash timedelta64 values (Parquet has no duration type)")
        return values, mask
    if isinstance(values, _np.ma.MaskedArray):
        nulls = _np.ma.getmaskarray(values)
        return normalize(_np.asarray(values.data), _or_masks(mask, nulls), what)
    if type(values).__module__.startswith("pandas"):
        return _from_pandas(values, mask, what)
    if isinstance(values, _np.ndarray):
        return normalize(_np.asarray(values), mask, what)
    if hasattr(values, "__array__") and not hasattr(values, "__buffer__"):
        try:
            memoryview(values)
            return values, mask
        except TypeError:
            return normalize(_np.asarray(values), mask, what)
    return values, mask
