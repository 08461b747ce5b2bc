# SPDX-License-Identifier: Apache-2.0
"""A Parquet file's Bloom filters: what ``blockbloom parquet list`` and
``blockbloom parquet probe`` report, as Python objects.

The file is read through the C library's file layer (blockbloom/parquet_file.h:
the footer once, each filter with pread when it is used, never mapped); the
type names, the bits-set fraction and NDV estimate are the library's, and so
are the rules that turn a value into the plain encoding Parquet hashes
(parquet_value.h: a Python value becomes its canonical text, which
bb_parquet_encode_text parses and range-checks with the column's type), as
the tool's. No value rule lives here.
"""

import builtins as _builtins
import json as _json
import operator as _operator
import os as _os
import warnings as _warnings


from ._containers import one_column_list
from ._core import (
    Error,
    _ERR_PARQUET_AMBIGUOUS_COLUMN,
    _ERR_PARQUET_NO_FILTER,
    _ERR_PARQUET_NO_SUCH_CHUNK,
    _ParquetFile,
    _column_hashes,
    _filter_density,
)

__all__ = ["list", "load_filter", "probe", "probe_dataset"]



def _error(status, message):
    e = Error(message)
    e.status = status
    return e


def _column_name(c):
    return c["path"].decode("utf-8", "surrogateescape")


def _text(data):
    return data.decode("utf-8", "surrogateescape")


_UINT64_MAX = (1 << 64) - 1


def _limit(name, value):
    """A footer limit as bb_parquet_limits takes it: None is the default (0)."""
    if value is None:
        return 0
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError("%s: expected an int or None, got %s" % (name, type(value).__name__))
    value = _operator.index(value)
    if not 1 <= value <= _UINT64_MAX:
        raise ValueError("%s %d: not a positive 64-bit count (None takes the default)"
                         % (name, value))
    return value


def _check_limits(max_container_elements, max_memory_bytes):
    """(max_container_elements, max_memory_bytes) checked, before any file is read."""
    return (_limit("max_container_elements", max_container_elements),
            _limit("max_memory_bytes", max_memory_bytes))


def _open(path, limits=(0, 0)):
    """The file's footer read within limits ((0, 0): the defaults)."""
    return _ParquetFile(_os.fsencode(path), *limits)


_LIMITS_DOC = """
    max_container_elements, max_memory_bytes: what reading the footer may
    spend (bb_parquet_limits, blockbloom/parquet_file.h): the most elements
    of any list the footer walk keeps (default 1,000,000), and the most
    memory the parsed footer may take (default 8 MiB + 8 times the footer's
    length). None takes the default; a positive int replaces it. A footer
    past one raises blockbloom.Error with status BB_ERR_PARQUET_LIMIT and a
    reason naming the limit, its value and what the footer holds."""


def list(path, *, max_container_elements=None,  # noqa: A001 (as the tool's command)
         max_memory_bytes=None):
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
    library's reason. Filters are read one at a time.

    Memory: what the library keeps for the footer (bounded by the file's
    size, docs/reliability.md) and the list returned; a column's text is
    made only for the columns listed, once each (its rows share it)."""
    pf = _open(path, _check_limits(max_container_elements, max_memory_bytes))
    rows = []
    listed = {}  # column index: (dotted path, names, physical type, logical type)
    num_columns = pf.num_columns
    for g in range(pf.num_row_groups):
        for c in range(num_columns):
            chunk = pf.chunk(g, c)
            if not chunk["has_filter"]:
                continue
            text = listed.get(c)
            if text is None:
                column = pf.column(c)
                text = listed[c] = (_column_name(column),
                                    [_text(n) for n in pf.column_names(c)],
                                    column["physical_type_name"], column["logical_type_name"])
            row = {"row_group": g, "column": text[0], "path": text[1],
                   "physical_type": text[2], "logical_type": text[3],
                   "header_offset": chunk["filter_offset"]}
            if chunk["filter_status"] == 0:
                try:
                    # (bits set / bits, estimated NDV or None when every bit is set)
                    fraction, ndv = _filter_density(pf.load_filter(g, c))
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


def probe(path, column, values, row_group=None, *, physical=False, max_container_elements=None,
          max_memory_bytes=None):
    """Might each row group of the Parquet file hold each value in column?

    The dict of ``blockbloom parquet probe FILE --column COLUMN --json``:
    {"column", "physical_type", "results": [{"value", "row_groups":
    [{"row_group", "maybe"}]}]}, one result per value (the value as given),
    every row group, or only row_group. maybe False: the value is surely
    not in that row group's column chunk.

    values: a list or any other iterable of values (a tuple, a set, a numpy
    array, a Series; one column: a DataFrame, a dict or an array of more than
    one column is a TypeError naming the column to pass), or one value (a
    str, bytes, or anything not iterable): int,
    float, str, bytes, decimal.Decimal, datetime.date / time / datetime
    (naive or aware), uuid.UUID, numpy scalars and datetime64; None, pd.NA
    and NaT are nulls (maybe False in every row group: a null never
    matches). Each is converted into the column's type by the library's one
    table, as Filter.insert_values converts values (docs/formats.md,
    "Values into a typed filter"; docs/python.md says the same): a str by
    the text rules (a DATE takes "2024-01-31", INTEGER(8,true) -128 .. 127,
    DECIMAL(9,2) at most 7 integer and 2 fraction digits, ...: a typo or a
    text out of range is blockbloom.Error, a ValueError); other values
    exactly (1.0 on an integer column is 1); one that cannot be of the type
    (300 on INTEGER(8,true), 1.5 on an integer column) answers maybe False;
    an ambiguous one (an int on a DATE: days? a tz-aware datetime on a local
    TIMESTAMP) raises blockbloom.Error (BB_ERR_VALUE_AMBIGUOUS), one of a
    kind the type cannot be compared with (True, bytes on an integer
    column) TypeError, each naming the item and the column. physical=True:
    ints are the stored physical value (a DATE's days, a TIMESTAMP's
    count), as the tool's ``--physical``.

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
    whose values cannot be probed (BOOLEAN: BB_ERR_PARQUET_UNSUPPORTED, the
    library's reason).
    A row group whose chunk has no usable filter while others have answers
    maybe, with a RuntimeWarning (the tool's warning)."""
    shown_path = _os.fsdecode(path)
    _column_path(column)  # its type, before the file is read
    limits = _check_limits(max_container_elements, max_memory_bytes)
    if row_group is not None:
        if isinstance(row_group, bool) or not hasattr(type(row_group), "__index__"):
            raise TypeError("row_group: expected an int or None, got %s" % type(row_group).__name__)
        row_group = _operator.index(row_group)
        if row_group < 0:
            raise ValueError("row_group %d: not an unsigned integer" % row_group)
    if isinstance(values, (str, bytes, bytearray, memoryview)) or not hasattr(values, "__iter__"):
        values = [values]  # one value
    else:
        values = one_column_list(values, "probe()")  # each answer carries its value: a set is fine

    pf = _open(path, limits)
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

    # One call: every value converted into the column's type (nulls: null or not of the type).
    hashes, nulls = _column_hashes(info, values, column_name, physical)
    answers = []
    for g in selected:
        if g in unusable:
            answers.append(~nulls)
            continue
        try:
            filt = pf.load_filter(g, c)
        except Error as e:  # a read that failed: the file changed
            raise _error(e.status, "%s: %s" % (shown_path, e)) from None
        answers.append(filt.find(hashes) & ~nulls)
    for g in selected:
        if g in unusable:
            _warnings.warn("%s: column %s in row group %d %s: answered maybe"
                           % (shown_path, column_name, g, unusable[g][1]), RuntimeWarning,
                           stacklevel=2)
    columns = [(g, a.tolist()) for g, a in zip(selected, answers)]  # Python bools, once
    return {"column": column_name, "physical_type": info["physical_type_name"],
            "results": [{"value": v,
                         "row_groups": [{"row_group": g, "maybe": maybe[i]}
                                        for g, maybe in columns]}
                        for i, v in enumerate(values)]}


def load_filter(path, column, row_group, *, max_container_elements=None, max_memory_bytes=None):
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
    limits = _check_limits(max_container_elements, max_memory_bytes)
    if isinstance(row_group, bool) or not hasattr(type(row_group), "__index__"):
        raise TypeError("row_group: expected an int, got %s" % type(row_group).__name__)
    row_group = _operator.index(row_group)
    pf = _open(path, limits)
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


for _function in (list, probe, load_filter):
    if _function.__doc__ is not None:  # None under python -OO
        _function.__doc__ += _LIMITS_DOC
del _function

# Many files at once (its own module: expanding paths, a thread pool, a DataFrame).
from ._dataset import probe_dataset  # noqa: E402
