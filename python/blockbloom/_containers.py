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

import datetime as _datetime
import decimal as _decimal
import re as _re
import uuid as _uuid
from collections.abc import Mapping as _Mapping

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


def _as_counts(arr, mask, unit, what):
    """datetime64 values already in `unit` as Parquet stores them: DATE days as
    int32, TIMESTAMP counts as int64; NaT (and masked) rows are nulls."""
    nat = _np.isnat(arr)
    mask = _or_masks(mask, nat if nat.any() else None)
    ints = arr.view(_np.int64)
    if mask is not None:
        ints = _np.where(mask, 0, ints)
    if unit == "D":
        if ints.size and (ints.min() < -(2**31) or ints.max() >= 2**31):
            raise ValueError(f"{what}: a date is outside DATE's int32 days")
        ints = ints.astype(_np.int32)
    return ints, mask


def _datetimes(arr, mask, what, unit=None, type_name=None):
    """datetime64 values as counts: in a typed filter's unit (D for DATE, ms /
    us / ns for TIMESTAMP; "" when the type takes no datetimes), converted only
    when exact; untyped, in their own unit (seconds as milliseconds)."""
    if unit is not None:
        if not unit:
            raise TypeError(f"{what}: the values are {arr.dtype}, not values of type '{type_name}'")
        converted = arr.astype(f"datetime64[{unit}]")
        inexact = (converted.astype(arr.dtype) != arr) & ~_np.isnat(arr)
        if inexact.any():
            raise ValueError(f"{what}: {arr[inexact][0]} is not a whole number of {unit} "
                             f"(type '{type_name}'): round it first")
        return _as_counts(converted, mask, unit, what)
    unit, count = _np.datetime_data(arr.dtype)
    if count != 1 or unit not in _TIME_UNITS:
        raise ValueError(
            f"{what}: cannot hash datetime64[{count if count != 1 else ''}{unit}] values: "
            "Parquet stores dates as days (datetime64[D] -> DATE) and timestamps in "
            "ms, us or ns (-> TIMESTAMP); convert with astype('datetime64[ms]') or similar")
    target = _TIME_UNITS[unit] or unit
    return _as_counts(arr.astype(f"datetime64[{target}]"), mask, target, what)


def _from_pandas(values, mask, what, unit, type_name):
    arr = values.array if hasattr(values, "array") else values
    name = type(arr).__name__
    dtype = getattr(arr, "dtype", None)
    kind = getattr(dtype, "kind", None)
    if name == "BooleanArray" or kind == "b" or str(dtype) in ("bool", "boolean"):
        raise TypeError(f"{what}: cannot hash booleans: a BOOLEAN column has no Bloom filter hash")
    if hasattr(arr, "_data") and hasattr(arr, "_mask") and isinstance(getattr(arr, "_mask"), _np.ndarray):
        # Int8..UInt64, Float32/64: the values and the null mask as numpy arrays.
        data, nulls = arr._data, arr._mask
        return data, _or_masks(mask, nulls if nulls.any() else None)
    if kind == "M":
        tz = getattr(dtype, "tz", None)
        if tz is not None:
            arr = arr.tz_convert("UTC").tz_localize(None)
        return _datetimes(_np.asarray(arr.to_numpy()), mask, what, unit, type_name)
    if kind in ("O", "U", "S") or str(dtype).startswith("string"):
        # str / bytes / objects: an object array with None for every NA.
        obj = _np.asarray(arr.to_numpy(dtype=object, na_value=None), dtype=object)
        return obj, mask
    out = arr.to_numpy() if hasattr(arr, "to_numpy") else _np.asarray(arr)
    return normalize(out, mask, what, unit, type_name)


def normalize(values, mask, what, unit=None, type_name=None):
    """(values, mask) ready for the extension's array or sequence path. For a
    typed filter (type_name given), unit is the datetime64 unit its values
    take ("D", "ms", "us", "ns"; "" when datetimes are not of its kind)."""
    if type(values) is _np.ndarray:
        k = values.dtype.kind
        if k in _NUMERIC or k in ("U", "S"):
            return values, mask
        if k == "M":
            return _datetimes(values, mask, what, unit, type_name)
        if k == "b":
            raise TypeError(f"{what}: cannot hash booleans: a BOOLEAN column has no Bloom filter hash")
        if k == "m":
            raise TypeError(f"{what}: cannot hash timedelta64 values (Parquet has no duration type)")
        return values, mask
    if isinstance(values, _np.ma.MaskedArray):
        nulls = _np.ma.getmaskarray(values)
        return normalize(_np.asarray(values.data), _or_masks(mask, nulls), what, unit, type_name)
    if type(values).__module__.startswith("pandas"):
        return _from_pandas(values, mask, what, unit, type_name)
    if isinstance(values, _np.ndarray):
        return normalize(_np.asarray(values), mask, what, unit, type_name)
    if hasattr(values, "__array__") and not hasattr(values, "__buffer__"):
        try:
            memoryview(values)
            return values, mask
        except TypeError:
            return normalize(_np.asarray(values), mask, what, unit, type_name)
    return values, mask


def one_column(values, what, ordered):
    """Refuses what is not one column of values, naming what to pass instead
    (TypeError): a DataFrame of any number of columns (its iteration gives its
    column names, its array its rows mixed), a mapping (its iteration gives its
    keys), an array of more than one column (a 2-D array of n rows and one
    column is one column), and, where answers follow the values' order
    (ordered: find_values, the hash functions), a set."""
    kind = type(values)
    if hasattr(values, "__dataframe__") or (kind.__module__.startswith("pandas") and
                                            getattr(values, "ndim", 1) == 2):
        names = [str(c) for c in getattr(values, "columns", ())]
        first = repr(names[0]) if names else "'key'"
        shown = ", ".join(repr(n) for n in names[:4]) + (", ..." if len(names) > 4 else "")
        count = "%d column%s" % (len(names), "" if len(names) == 1 else "s")
        raise TypeError(f"{what}: a {kind.__name__} ({count}{': ' + shown if names else ''}) is a table, "
                        f"not one column of values: pass one column, df[{first}]")
    if isinstance(values, _Mapping):
        raise TypeError(f"{what}: a {kind.__name__} is not one column of values: pass list(d) for its keys "
                        "or list(d.values()) for its values")
    if ordered and isinstance(values, (set, frozenset)):
        raise TypeError(f"{what}: a {kind.__name__} has no order, so the answers could not be matched to its "
                        "values: pass a list (values = sorted(s)) and read the answers against it")
    shape = getattr(values, "shape", None)
    if isinstance(shape, tuple) and len(shape) > 1 and not (len(shape) == 2 and shape[1] == 1):
        dims = " x ".join(str(n) for n in shape)
        raise TypeError(f"{what}: a {dims} {kind.__name__} is not one column of values (a 1-D array, or "
                        "n x 1): pass one column, numpy.ascontiguousarray(x[:, 0]) (the batch calls take "
                        "contiguous arrays only), or x.ravel() for every value")


def one_column_list(values, what):
    """values, one column (one_column; a set is fine: each answer carries its
    value), as a list of its values: an n x 1 array's rows are 1-element
    arrays, so its single elements are taken."""
    one_column(values, what, ordered=False)
    shape = getattr(values, "shape", None)
    if isinstance(shape, tuple) and len(shape) == 2:
        return [row[0] for row in values]
    return list(values)


# The Python kinds each kind of type takes (str always: the library parses it).
_KINDS = {
    "int": "an int",
    "float": "an int or float",
    "decimal": "an int or decimal.Decimal",
    "date": "a datetime.date or numpy.datetime64",
    "time": "a datetime.time",
    "timestamp": "a datetime.datetime or numpy.datetime64",
    "uuid": "a uuid.UUID or 16 bytes",
    "text": "str or bytes",
}


# How text() says the text is to be read (bb_parquet_encode_text's flags are
# chosen by the extension from these words).
_AS_TEXT, _AS_HEX, _AS_NULL = "text", "hex", "null"


_CLOCK = _re.compile(r"^(.*?\d\d:\d\d:\d\d)(\.\d+)?(.*)$")


def _clock_text(s):
    """isoformat() / datetime_as_string() text without the fraction's trailing
    zeros ("12:00:00.250000" -> "12:00:00.25"), so that a value the unit holds
    exactly is never refused for its digits; the library refuses the rest."""
    m = _CLOCK.match(s)
    if m is None or m.group(2) is None:
        return s
    fraction = m.group(2).rstrip("0")
    return m.group(1) + ("" if fraction == "." else fraction) + m.group(3)


def text(value, kind, type_name, what):
    """One Python object as the canonical text the library's rules parse
    (bb_parquet_encode_text): (bytes, how) with how "text" or "hex" (bytes as
    hex digits), or (None, "null") for pd.NA / NaT. An int is never taken as a
    DATE's days or a TIMESTAMP's count of units: the stored form only when
    asked for, never by accident (a datetime64 array is the fast way). A value of another kind than the type's
    is a TypeError naming both; the library checks form and range. type_name
    is what messages call the type ("type 'date'", "column d (INT32 DATE)")."""
    if type(value).__name__ in ("NAType", "NaTType") or (isinstance(value, _np.datetime64) and _np.isnat(value)):
        return None, _AS_NULL  # pd.NA, pd.NaT, numpy NaT: a null
    if isinstance(value, _np.datetime64):
        if kind not in ("date", "timestamp"):
            return _refuse(value, kind, type_name, what)
        if kind == "date":
            day = value.astype("datetime64[D]")
            if day != value:
                raise ValueError(f"{what}: value {value} of {type_name} is not a whole day")
            value = day
        return _clock_text(_np.datetime_as_string(value)).encode(), _AS_TEXT
    if isinstance(value, _np.generic):
        value = value.item()
    if isinstance(value, bool):
        return _refuse(value, kind, type_name, what)
    if isinstance(value, str):
        return value.encode("utf-8", "surrogateescape"), _AS_TEXT
    if isinstance(value, (bytes, bytearray, memoryview)):
        if kind in ("text", "uuid", "timestamp"):  # INT96 is a timestamp of bytes
            return bytes(value).hex().encode(), _AS_HEX
    elif isinstance(value, int):
        if kind in ("int", "float", "decimal"):
            return str(value).encode(), _AS_TEXT
    elif isinstance(value, float):
        if kind == "float":
            return value.hex().encode(), _AS_TEXT
    elif isinstance(value, _decimal.Decimal):
        if kind in ("decimal", "float") and value.is_finite():
            return decimal_text(value), _AS_TEXT
        if kind == "float":
            return _decimal.Decimal.__str__(value).encode(), _AS_TEXT
    elif isinstance(value, _datetime.datetime):
        if kind == "timestamp":
            return _clock_text(value.isoformat()).encode(), _AS_TEXT
    elif isinstance(value, _datetime.date):
        if kind == "date":
            return value.isoformat().encode(), _AS_TEXT
    elif isinstance(value, _datetime.time):
        if kind == "time":
            return _clock_text(value.isoformat()).encode(), _AS_TEXT
    elif isinstance(value, _uuid.UUID):
        if kind == "uuid":
            return str(value).encode(), _AS_TEXT
    return _refuse(value, kind, type_name, what)


def _refuse(value, kind, type_name, what):
    raise TypeError(f"{what}: value {short_repr(value)} of {type_name} is a {type(value).__name__}, not "
                    f"{_KINDS.get(kind, 'its text')} or its text as str")


def decimal_text(value):
    """A finite Decimal's exact value as text the library's decimal and float
    rules read: str(), which is [-]digits[.digits][E[+-]digits] and writes
    a large or small exponent as a number (b"1E+999999999"), so the text is
    as long as the digits whatever the exponent. (format(value, "f") writes
    out every zero the exponent stands for: a gigabyte for that one.)
    Decimal's own __str__, not str(): a subclass's __str__ may show the value
    rounded ("1.50" for 1.5, or anything), which would hash another key."""
    return _decimal.Decimal.__str__(value).encode()


# Messages show this many characters of a long str or bytes value: the whole
# repr of a 100 MB value would be copied into every message made of it.
_SHOWN = 200


def short_repr(value):
    """repr(value) for messages, at most a few hundred characters: a long str
    or bytes as the repr of its start and its length."""
    if isinstance(value, (str, bytes, bytearray)) and len(value) > _SHOWN:
        unit = "characters" if isinstance(value, str) else "bytes"
        return "%s... (%d %s)" % (repr(value[:_SHOWN]), len(value), unit)
    text = repr(value)
    if len(text) > 2 * _SHOWN:
        return "%s... (a repr of %d characters)" % (text[:2 * _SHOWN], len(text))
    return text
