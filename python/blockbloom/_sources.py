# SPDX-License-Identifier: Apache-2.0
"""Containers and Python objects as value sources (parquet_value.h's
bb_value_source): what kind of value each is, so that the library's one
rule (bb_parquet_hash_typed_column / bb_parquet_hash_typed_value) turns it
into the filter's type. Nothing here decides bytes or hashes.

``column(values, mask, what)`` takes a numpy array, a masked array, a pandas
Series / Index (plain, nullable, tz-aware) or anything with ``__array__`` apart
without per-element work: it returns ``("column", array, mask, source)`` with
array a numeric numpy array (datetimes as their int64 counts) and source the
tuple (kind, bits, unit, zone, scale, precision), or ``("items", sequence,
mask, None)`` for values that are Python objects (text, object arrays, lists).

``item(value)`` says what one Python object is: ``None`` for a null, else
(kind, payload, bits, unit, zone) with payload an int, a float or bytes.

pandas is never imported: its objects are recognised by their class's module.
"""

import datetime as _datetime
import decimal as _decimal
import operator as _operator
import uuid as _uuid

import numpy as _np

from ._containers import _or_masks, decimal_text

# bb_value_kind (parquet_value.h); values are stable.
INT, UINT, FLOAT, DECIMAL, DATE, TIMESTAMP, TIME, TEXT, BYTES, BOOL = range(1, 11)
# Units (BB_PARQUET_UNIT_* and BB_VALUE_UNIT_*) and zones (BB_VALUE_ZONE_*).
MILLIS, MICROS, NANOS, SECONDS, DAYS = 1, 2, 3, 4, 5
NAIVE, UTC = 0, 1

_UNITS = {"s": SECONDS, "ms": MILLIS, "us": MICROS, "ns": NANOS}
# datetime64 units the library has no unit for, and the exact unit they become.
_COARSE = {"h": "s", "m": "s", "W": "D", "M": "D", "Y": "D"}

_NAT = _np.iinfo(_np.int64).min  # numpy's NaT in any unit
_EPOCH = _datetime.datetime(1970, 1, 1)
_EPOCH_UTC = _datetime.datetime(1970, 1, 1, tzinfo=_datetime.timezone.utc)
_ONE_MICRO = _datetime.timedelta(microseconds=1)
_DAY_ZERO = _datetime.date(1970, 1, 1).toordinal()




def _no_bools(what):
    raise TypeError(f"{what}: booleans cannot be hashed: a BOOLEAN column has no Bloom filter hash")


def _datetime64_unit(dtype, what):
    """('D' or a library unit name, the dtype to convert to exactly first or None)."""
    unit, count = _np.datetime_data(dtype)
    if unit in _COARSE or count != 1:
        base = _COARSE.get(unit, unit)
        if base not in _UNITS and base != "D":
            raise TypeError(f"{what}: cannot take {dtype} values: the finest unit is ns")
        return base, f"datetime64[{base}]"
    if unit not in _UNITS and unit != "D":
        raise TypeError(f"{what}: cannot take {dtype} values: Parquet's finest unit is ns "
                        "(and datetime64 without a unit has no values)")
    return unit, None


def _datetimes(arr, mask, zone, what):
    unit, convert = _datetime64_unit(arr.dtype, what)
    if not arr.dtype.isnative:  # '>M8[us]': its counts are read as int64 below, so in this machine's order
        arr = arr.astype(arr.dtype.newbyteorder("="))
    if convert is not None:
        arr = arr.astype(convert)
    counts = _np.ascontiguousarray(arr).view(_np.int64)
    # NaT is the int64 minimum: one min() over the counts finds whether there is any
    # (no bool array of every row unless there is).
    if counts.size and counts.min() == _NAT:
        mask = _or_masks(mask, (counts == _NAT).reshape(-1))
    if unit == "D":
        return "column", counts, mask, (DATE, 0, DAYS, NAIVE, 0, 0)
    return "column", counts, mask, (TIMESTAMP, 0, _UNITS[unit], zone, 0, 0)


def _numeric(arr, mask, what):
    k = arr.dtype.kind
    bits = arr.dtype.itemsize * 8
    if k in "iu":
        return "column", arr, mask, (INT if k == "i" else UINT, bits, 0, 0, 0, 0)
    if bits == 16:  # float16: exactly a float32 (no column type holds halves)
        return "column", arr.astype(_np.float32), mask, (FLOAT, 16, 0, 0, 0, 0)
    if bits not in (32, 64):
        raise TypeError(f"{what}: cannot take {arr.dtype} values: float16, float32 and float64 are "
                        "the binary floats Parquet has")
    return "column", arr, mask, (FLOAT, bits, 0, 0, 0, 0)


def _ndarray(arr, mask, what):
    k = arr.dtype.kind
    if k in "iuf":
        return _numeric(arr, mask, what)
    if k == "M":
        return _datetimes(arr, mask, NAIVE, what)
    if k == "b":
        _no_bools(what)
    if k == "m":
        raise TypeError(f"{what}: cannot take {arr.dtype} values: a duration is no Parquet value "
                        "(a time of day is datetime.time or TIME text)")
    if k in "USO":
        return "items", arr.ravel().tolist() if k != "O" else arr.ravel(), mask, None
    raise TypeError(f"{what}: cannot take an array of {arr.dtype}")


def _pandas(values, mask, what):
    arr = values.array if hasattr(values, "array") else values
    dtype = getattr(arr, "dtype", None)
    kind = getattr(dtype, "kind", None)
    if type(arr).__name__ == "BooleanArray" or kind == "b" or str(dtype) in ("bool", "boolean"):
        _no_bools(what)
    if hasattr(arr, "_data") and isinstance(getattr(arr, "_mask", None), _np.ndarray):
        # Int8..UInt64, Float32/64: the values and the null mask as they are held.
        nulls = arr._mask
        return _numeric(arr._data, _or_masks(mask, nulls if nulls.any() else None), what)
    if kind == "M":
        if getattr(dtype, "tz", None) is not None:
            # Held as UTC instants: the counts are UTC, the zone says so.
            naive = _np.asarray(arr.tz_convert("UTC").tz_localize(None).to_numpy())
            return _datetimes(naive, mask, UTC, what)
        return _datetimes(_np.asarray(arr.to_numpy()), mask, NAIVE, what)
    if kind in ("O", "U", "S") or str(dtype).startswith("string"):
        return "items", arr.to_numpy(dtype=object, na_value=None), mask, None
    return column(_np.asarray(arr), mask, what)


def _nulls(mask, what):
    """mask (None, a bool / uint8 array, or a sequence of truths) as a bool array or None;
    a sequence is read over a copy of its items (a __bool__ may change it)."""
    if mask is None:
        return None
    if isinstance(mask, _np.ndarray):
        if mask.dtype.kind not in "bu" or mask.dtype.itemsize != 1:
            raise TypeError(f"{what}: mask must be a bool array (True = null), got {mask.dtype}")
        if not mask.flags.c_contiguous:
            raise ValueError(f"{what}: mask: not C-contiguous (numpy.ascontiguousarray copies it)")
        return mask.astype(bool, copy=False).ravel()
    try:
        items = tuple(mask)
    except TypeError:
        raise TypeError(f"{what}: mask must be a bool array or a sequence of bools, "
                        f"got {type(mask).__name__}") from None
    return _np.array([bool(m) for m in items], dtype=bool)


def column(values, mask, what):
    """See the module's docstring."""
    mask = _nulls(mask, what)
    if isinstance(values, (list, tuple)):
        return "items", values, mask, None
    if type(values) is _np.ndarray:
        return _ndarray(values, mask, what)
    if isinstance(values, _np.ma.MaskedArray):
        return column(_np.asarray(values.data), _or_masks(mask, _np.ma.getmaskarray(values)), what)
    if type(values).__module__.startswith("pandas"):
        return _pandas(values, mask, what)
    if isinstance(values, _np.ndarray) or hasattr(values, "__array__"):
        return _ndarray(_np.asarray(values), mask, what)
    try:
        memoryview(values)  # a buffer of numbers (array.array, ...)
        return _ndarray(_np.asarray(memoryview(values)), mask, what)
    except TypeError:
        pass
    return "items", values, mask, None


def _timestamp(value):
    """A datetime.datetime (pandas Timestamp too) as (kind, count, bits, unit, zone)."""
    if value.tzinfo is not None and value.utcoffset() is not None:
        if hasattr(value, "value") and hasattr(value, "nanosecond"):  # pandas: ns since the epoch, UTC
            return TIMESTAMP, int(value.value), 0, NANOS, UTC
        return TIMESTAMP, (value - _EPOCH_UTC) // _ONE_MICRO, 0, MICROS, UTC
    if hasattr(value, "value") and hasattr(value, "nanosecond"):
        return TIMESTAMP, int(value.value), 0, NANOS, NAIVE
    return TIMESTAMP, (value.replace(tzinfo=None) - _EPOCH) // _ONE_MICRO, 0, MICROS, NAIVE


def item(value):
    """See the module's docstring. Raises TypeError for an object of no kind."""
    name = type(value).__name__
    if value is None or name in ("NAType", "NaTType"):
        return None
    if isinstance(value, (bool, _np.bool_)):
        return BOOL, int(value), 0, 0, 0
    if isinstance(value, _np.generic):
        if isinstance(value, _np.datetime64):
            if _np.isnat(value):
                return None
            _, counts, _, source = _datetimes(_np.array([value]), None, NAIVE, "value")
            return source[0], int(counts[0]), 0, source[2], NAIVE
        if isinstance(value, _np.timedelta64):
            if _np.isnat(value):
                return None
            raise TypeError("a numpy.timedelta64 is a duration, no Parquet value")
        if isinstance(value, _np.integer):
            return (INT if value.dtype.kind == "i" else UINT), int(value), value.dtype.itemsize * 8, 0, 0
        if isinstance(value, _np.floating):
            if value.dtype.itemsize > 8:
                raise TypeError(f"a {value.dtype} is wider than a double")
            return FLOAT, float(value), value.dtype.itemsize * 8, 0, 0
        value = value.item()  # str_, bytes_, void: their Python values
    if isinstance(value, int):
        return INT, value, 0, 0, 0
    if isinstance(value, float):
        return FLOAT, value, 0, 0, 0
    if isinstance(value, str):
        return TEXT, value.encode("utf-8", "surrogateescape"), 0, 0, 0
    if isinstance(value, (bytes, bytearray, memoryview)):
        return BYTES, bytes(value), 0, 0, 0
    if isinstance(value, _decimal.Decimal):
        if not value.is_finite():  # NaN / inf: the float's, the one NaN rule
            return FLOAT, float(value), 0, 0, 0
        return DECIMAL, decimal_text(value), 0, 0, 0
    if isinstance(value, _datetime.datetime):
        return _timestamp(value)
    if isinstance(value, _datetime.date):
        return DATE, value.toordinal() - _DAY_ZERO, 0, DAYS, 0
    if isinstance(value, _datetime.time):
        if value.tzinfo is not None and value.utcoffset() is not None:
            raise TypeError("a time of day with a zone has no one meaning (which date's offset?): "
                            "give the wall-clock time")
        micros = ((value.hour * 60 + value.minute) * 60 + value.second) * 1000000 + value.microsecond
        return TIME, micros, 0, MICROS, NAIVE
    if isinstance(value, _uuid.UUID):
        return BYTES, value.bytes, 0, 0, 0
    if hasattr(type(value), "__index__"):  # an int in all but name
        return INT, _operator.index(value), 0, 0, 0
    if isinstance(value, _datetime.timedelta):
        raise TypeError("a datetime.timedelta is a duration, no Parquet value")
    raise TypeError(f"a {type(value).__name__} is none of the kinds values have (int, float, "
                    "decimal.Decimal, str, bytes, datetime.date / datetime / time, uuid.UUID)")
