# SPDX-License-Identifier: Apache-2.0
"""A Parquet file's Bloom filters: what ``blockbloom parquet list`` and
``blockbloom parquet probe`` report, as Python objects.

The file is read through the C library's file layer (blockbloom/parquet_file.h:
the footer once, each filter with pread when it is used, never mapped); the
type names, the bits-set fraction and NDV estimate, and the rules that turn a
Python value into the plain encoding Parquet hashes are the tool's
(tools/blockbloom/parquet/*.cc), re-derived here.
"""

import builtins as _builtins
import json as _json
import operator as _operator
import os as _os
import struct as _struct
import warnings as _warnings

import numpy as _np

from ._core import (
    Error,
    _ERR_PARQUET_AMBIGUOUS_COLUMN,
    _ERR_PARQUET_NO_FILTER,
    _ERR_PARQUET_NO_SUCH_CHUNK,
    _ERR_PARQUET_UNSUPPORTED,
    _ParquetFile,
    _filter_density,
    _parquet_hash_value,
)

__all__ = ["list", "load_filter", "probe"]

_BOOLEAN, _INT32, _INT64, _INT96, _FLOAT, _DOUBLE, _BYTE_ARRAY, _FIXED_LEN_BYTE_ARRAY = range(8)
_LOGICAL_NONE, _LOGICAL_INTEGER = 0, 10
_CONVERTED_UINT_8, _CONVERTED_INT_64 = 11, 18



def _error(status, message):
    e = Error(message)
    e.status = status
    return e


def _physical_name(c):
    """"INT32", "FIXED_LEN_BYTE_ARRAY(16)", ...: the library's spelling, as the tool's."""
    return c["physical_type_name"]


def _logical_name(c):
    """"INTEGER(8,true)", "DECIMAL(18,3)", "TIMESTAMP(MICROS,true)", else the
    converted type; None if neither (the library's spelling, as the tool's)."""
    return c["logical_type_name"]


def _column_name(c):
    return c["path"].decode("utf-8", "surrogateescape")


def _text(data):
    return data.decode("utf-8", "surrogateescape")


def _open(path):
    return _ParquetFile(_os.fsencode(path))


def _density(filt):
    """(bits set / bits, estimated NDV or None when every bit is set):
    bb_filter_estimate_ndv, the exact model inverted."""
    return _filter_density(filt)


def list(path):  # noqa: A001 (blockbloom.parquet.list, as the tool's command)
    """Every column chunk's Bloom filter in the Parquet file at path.

    One dict per chunk that has a filter, by row group then column, with the
    fields and values of ``blockbloom parquet list FILE --json``'s "filters":
    row_group, column (the dotted path), path (its names, a list of str:
    ["a.b"] for a top-level column named "a.b", ["a", "b"] for field b of
    group a, which share the dotted path "a.b"), physical_type ("INT32",
    "FIXED_LEN_BYTE_ARRAY(16)", ...), logical_type ("STRING",
    "INTEGER(8,true)", ... or None), header_offset, and for a usable filter
    bitset_offset, num_bytes, bits_set_fraction, estimated_ndv (None when
    every bit is set), status "ok", error None; for a malformed one those
    four are None, status is "malformed" and error says why. A file that is
    not Parquet (or cannot be read) raises blockbloom.Error with the
    library's reason. Filters are read one at a time."""
    pf = _open(path)
    rows = []
    columns = [pf.column(c) for c in range(pf.num_columns)]
    names = [[_text(n) for n in pf.column_names(c)] for c in range(pf.num_columns)]
    for g in range(pf.num_row_groups):
        for c, column in enumerate(columns):
            chunk = pf.chunk(g, c)
            if not chunk["has_filter"]:
                continue
            row = {"row_group": g, "column": _column_name(column), "path": names[c],
                   "physical_type": _physical_name(column), "logical_type": _logical_name(column),
                   "header_offset": chunk["filter_offset"]}
            if chunk["filter_status"] == 0:
                try:
                    fraction, ndv = _density(pf.load_filter(g, c))
                except Error as e:  # a read that failed: the file changed
                    raise _error(e.status, "%s: %s" % (_os.fsdecode(path), e)) from None
                row.update(bitset_offset=chunk["bitset_offset"], num_bytes=chunk["bitset_bytes"],
                           bits_set_fraction=fraction, estimated_ndv=ndv, status="ok", error=None)
            else:
                row.update(bitset_offset=None, num_bytes=None, bits_set_fraction=None,
                           estimated_ndv=None, status="malformed", error=chunk["filter_error"])
            rows.append(row)
    return rows


# ------------------------------------------------------------------ values

def _integer_annotation(c):
    """(bits, signed) of the column's INTEGER / INT_n / UINT_n annotation; bits 0: none."""
    if c["logical_type"] == _LOGICAL_INTEGER:
        return c["bit_width"], c["is_signed"] != 0
    converted = c["converted_type"]
    if c["logical_type"] == _LOGICAL_NONE and _CONVERTED_UINT_8 <= converted <= _CONVERTED_INT_64:
        return (8, 16, 32, 64)[(converted - _CONVERTED_UINT_8) % 4], converted >= _CONVERTED_UINT_8 + 4
    return 0, True


def _encoder(c, column_name):
    """The function turning one Python value into the column's plain encoding
    (raising TypeError / ValueError naming the value), or blockbloom.Error if
    the column's values cannot be probed."""
    physical = c["physical_type"]
    type_name = _physical_name(c)
    logical = _logical_name(c)
    annotated = type_name if logical is None else type_name + " " + logical

    def refuse(kind, value, problem):
        return kind("value %r of column %s %s" % (value, column_name, problem))

    if physical == _BOOLEAN:
        raise _error(_ERR_PARQUET_UNSUPPORTED, "column %s is BOOLEAN: Parquet defines no Bloom "
                     "filter hash for booleans" % column_name)
    if physical in (_INT32, _INT64):
        width = 4 if physical == _INT32 else 8
        bits, signed = _integer_annotation(c)
        bits = bits or 8 * width
        if bits not in (8, 16, 32, 64) or bits > 8 * width:
            raise _error(_ERR_PARQUET_UNSUPPORTED, "column %s is %s: that integer annotation does "
                         "not fit its physical type" % (column_name, annotated))
        low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        description = "%s %d .. %d" % (type_name, low, high)
        if logical is not None:
            description += " (%s)" % logical

        def encode_int(value):
            if isinstance(value, bool) or not hasattr(type(value), "__index__"):
                raise refuse(TypeError, value, "is not an int (%s)" % description)
            v = _operator.index(value)
            if not low <= v <= high:
                raise refuse(ValueError, value, "is out of range (%s)" % description)
            return (v & ((1 << (8 * width)) - 1)).to_bytes(width, "little")  # unsigned: its bits
        return encode_int
    if physical in (_FLOAT, _DOUBLE):
        fmt, name = ("<f", "FLOAT") if physical == _FLOAT else ("<d", "DOUBLE")

        def encode_float(value):
            if isinstance(value, bool) or not isinstance(value, (int, float, _np.floating,
                                                                 _np.integer)):
                raise refuse(TypeError, value, "is not a number (%s)" % name)
            try:
                v = float(value)
                data = _struct.pack(fmt, v)
            except OverflowError:
                data = None
            # As strtof / strtod: beyond the type's range, or so small it becomes 0.
            if data is None or (v != 0 and _struct.unpack(fmt, data)[0] == 0):
                raise refuse(ValueError, value, "is out of range for a %s" % name)
            return data
        return encode_float
    if physical in (_BYTE_ARRAY, _FIXED_LEN_BYTE_ARRAY, _INT96):
        length = {_INT96: 12, _FIXED_LEN_BYTE_ARRAY: c["type_length"]}.get(physical, 0)

        def encode_bytes(value):
            if isinstance(value, str) and physical == _BYTE_ARRAY:
                return value.encode("utf-8")
            if not isinstance(value, (bytes, bytearray, memoryview)):
                expected = "str or bytes" if physical == _BYTE_ARRAY else "bytes"
                raise refuse(TypeError, value, "is not %s (%s)" % (expected, annotated))
            data = bytes(value)
            if length and len(data) != length:
                raise refuse(ValueError, value, "is %d bytes, not %d (%s)" % (len(data), length,
                                                                              annotated))
            return data
        return encode_bytes
    raise _error(_ERR_PARQUET_UNSUPPORTED, "column %s has the unknown physical type %s"
                 % (column_name, type_name))


def _column_path(column):
    """(dotted path as bytes, None) or (None, names as a list of bytes)."""
    if isinstance(column, str):
        return column.encode("utf-8", "surrogateescape"), None
    if isinstance(column, (bytes, bytearray)):
        return bytes(column), None
    if isinstance(column, (_builtins.list, tuple)) and column:
        names = []
        for name in column:
            if isinstance(name, str):
                names.append(name.encode("utf-8", "surrogateescape"))
            elif isinstance(name, (bytes, bytearray)):
                names.append(bytes(name))
            else:
                raise TypeError("column: a list of names holds str or bytes, got %s"
                                % type(name).__name__)
        return None, names
    raise TypeError("column: expected a str or bytes dotted path or a non-empty list of names, "
                    "got %s" % ("an empty %s" % type(column).__name__
                                if isinstance(column, (_builtins.list, tuple))
                                else type(column).__name__))


def _find_column(pf, column, shown_path):
    """The index of column (a dotted path or a list of names) in pf, or
    blockbloom.Error with the library's message (the closest columns, or
    every candidate of an ambiguous dotted path)."""
    dotted, names = _column_path(column)
    if names is None:
        c, status, why = pf.lookup_column(dotted)
        if c is None:
            raise _error(status, "%s: %s" % (shown_path, _text(why)))
        return c
    c = pf.find_column_names(names)
    if c is None:
        dotted = b".".join(names)
        other, _, why = pf.lookup_column(dotted)
        if other is not None:  # one column has that dotted path, from other names
            hint = " (the column %s has the names %s)" % (_text(dotted), _json.dumps(
                [_text(n) for n in pf.column_names(other)], ensure_ascii=False))
        else:
            hint = " (as a dotted path: %s)" % _text(why) if why else ""
        shown = _json.dumps([_text(n) for n in names], ensure_ascii=False)
        raise _error(_ERR_PARQUET_NO_SUCH_CHUNK, "%s: no column with the names %s%s"
                     % (shown_path, shown, hint))
    return c


def probe(path, column, values, row_group=None):
    """Might each row group of the Parquet file hold each value in column?

    The dict of ``blockbloom parquet probe FILE --column COLUMN --json``:
    {"column", "physical_type", "results": [{"value", "row_groups":
    [{"row_group", "maybe"}]}]}, one result per value (the value as given),
    every row group, or only row_group. maybe False: the value is surely
    not in that row group's column chunk.

    values: a list (any iterable) of values, or one value; each is encoded as
    the column's values are and hashed as Parquet does: INT32 / INT64 an int
    in the range of the column's integer annotation (INTEGER(8,true) is
    -128 .. 127; unsigned ones 0 .. 2**bits - 1, stored as their bits; else
    the physical type's range), FLOAT / DOUBLE an int or float (a FLOAT is
    the nearest float32), BYTE_ARRAY a str (UTF-8) or bytes,
    FIXED_LEN_BYTE_ARRAY and INT96 bytes of exactly the type's length. A
    value of the wrong kind raises TypeError, one out of range or of the
    wrong length ValueError, naming it and the column.

    column: the dotted path (str or bytes), as ``--column``, refused when
    more than one column has it; or the names (a list or tuple of str or
    bytes: ["a.b"], ["a", "b"]), as ``--column-path``, exact.

    Raises blockbloom.Error (as the tool exits 2): a file that is not
    Parquet (the library's reason), no such column (status
    BB_ERR_PARQUET_NO_SUCH_CHUNK, naming the closest columns, or a group's
    columns), an ambiguous dotted path (BB_ERR_PARQUET_AMBIGUOUS_COLUMN,
    naming each candidate's names), a row_group past the
    file's, a column without a usable filter in the row groups asked
    (BB_ERR_PARQUET_NO_FILTER or the malformed filter's status), a column
    whose values cannot be probed (BOOLEAN: BB_ERR_PARQUET_UNSUPPORTED).
    A row group whose chunk has no usable filter while others have answers
    maybe, with a RuntimeWarning (the tool's warning)."""
    shown_path = _os.fsdecode(path)
    _column_path(column)  # its type, before the file is read
    if row_group is not None:
        if isinstance(row_group, bool) or not hasattr(type(row_group), "__index__"):
            raise TypeError("row_group: expected an int or None, got %s" % type(row_group).__name__)
        row_group = _operator.index(row_group)
        if row_group < 0:
            raise ValueError("row_group %d: not an unsigned integer" % row_group)
    if isinstance(values, (str, bytes, bytearray, memoryview)) or not hasattr(values, "__iter__"):
        values = [values]  # one value
    values = _builtins.list(values)

    pf = _open(path)
    c = _find_column(pf, column, shown_path)
    info = pf.column(c)
    column_name = _column_name(info)
    row_groups = pf.num_row_groups
    if row_group is not None and row_group >= row_groups:
        raise _error(_ERR_PARQUET_NO_SUCH_CHUNK, "row_group %d: %s has %d row groups"
                     % (row_group, shown_path, row_groups))
    selected = [g for g in range(row_groups) if row_group is None or g == row_group]
    if not selected:
        raise _error(_ERR_PARQUET_NO_SUCH_CHUNK,
                     "%s: the file has no row groups: nothing to probe" % shown_path)
    unusable = {}  # row group -> (status, why it cannot answer)
    for g in selected:
        chunk = pf.chunk(g, c)
        if not chunk["has_filter"]:
            unusable[g] = (_ERR_PARQUET_NO_FILTER, "has no Bloom filter")
        elif chunk["filter_status"] != 0:
            unusable[g] = (chunk["filter_status"],
                           "has a malformed Bloom filter: " + (chunk["filter_error"] or ""))
    if len(unusable) == len(selected):
        g = selected[0]
        status, why = unusable[g]
        if row_group is not None:
            raise _error(status, "%s: column %s in row group %d %s"
                         % (shown_path, column_name, g, why))
        raise _error(status, "%s: column %s has no usable Bloom filter in any of its %d row "
                     "groups (row group %d %s)" % (shown_path, column_name, len(selected), g, why))

    encode = _encoder(info, column_name)
    hashes = _np.array([_parquet_hash_value(info["physical_type"], info["type_length"], encode(v))
                        for v in values], dtype=_np.uint64)
    answers = []
    for g in selected:
        if g in unusable:
            answers.append(_np.ones(len(values), dtype=bool))
            continue
        try:
            filt = pf.load_filter(g, c)
        except Error as e:  # a read that failed: the file changed
            raise _error(e.status, "%s: %s" % (shown_path, e)) from None
        answers.append(filt.find(hashes))
    for g in selected:
        if g in unusable:
            _warnings.warn("%s: column %s in row group %d %s: answered maybe"
                           % (shown_path, column_name, g, unusable[g][1]), RuntimeWarning,
                           stacklevel=2)
    columns = [(g, a.tolist()) for g, a in zip(selected, answers)]  # Python bools, once
    return {"column": column_name, "physical_type": _physical_name(info),
            "results": [{"value": v,
                         "row_groups": [{"row_group": g, "maybe": maybe[i]}
                                        for g, maybe in columns]}
                        for i, v in enumerate(values)]}


def load_filter(path, column, row_group):
    """The Bloom filter of one column chunk, as a blockbloom.Filter (an owned
    copy of its bitset, Parquet layout) typed with the column's type
    (Filter.type, e.g. "INT32 DATE"), so that many values can be probed with
    Filter.find_values at array speed and values of another kind are refused.

    column is the dotted path (str or bytes) or the names (a list or tuple,
    exact), as for probe(); row_group its index. Raises
    blockbloom.Error: a file that is not Parquet, no such column or row group
    (BB_ERR_PARQUET_NO_SUCH_CHUNK), a chunk without a usable filter
    (BB_ERR_PARQUET_NO_FILTER or the malformed filter's status)."""
    shown_path = _os.fsdecode(path)
    _column_path(column)  # its type, before the file is read
    if isinstance(row_group, bool) or not hasattr(type(row_group), "__index__"):
        raise TypeError("row_group: expected an int, got %s" % type(row_group).__name__)
    row_group = _operator.index(row_group)
    pf = _open(path)
    c = _find_column(pf, column, shown_path)
    column_name = _column_name(pf.column(c))
    if not 0 <= row_group < pf.num_row_groups:
        raise _error(_ERR_PARQUET_NO_SUCH_CHUNK, "row_group %d: %s has %d row groups"
                     % (row_group, shown_path, pf.num_row_groups))
    chunk = pf.chunk(row_group, c)
    if not chunk["has_filter"]:
        raise _error(_ERR_PARQUET_NO_FILTER, "%s: column %s in row group %d has no Bloom filter"
                     % (shown_path, column_name, row_group))
    if chunk["filter_status"] != 0:
        raise _error(chunk["filter_status"], "%s: column %s in row group %d has a malformed Bloom "
                     "filter: %s" % (shown_path, column_name, row_group, chunk["filter_error"] or ""))
    try:
        filt = pf.load_filter(row_group, c)
    except Error as e:  # a read that failed: the file changed
        raise _error(e.status, "%s: %s" % (shown_path, e)) from None
    filt._set_column_type(pf.column(c))
    return filt
