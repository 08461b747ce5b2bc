# SPDX-License-Identifier: Apache-2.0
"""Type stubs of blockbloom.parquet: a Parquet file's Bloom filters, as
``blockbloom parquet list --json`` and ``blockbloom parquet probe --json``
report them. Full descriptions are the runtime docstrings."""

import os
from typing import Any, Iterable, Optional, Sequence, TypedDict, Union

from . import Filter

_Path = Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]
# Also decimal.Decimal, datetime.date / time / datetime, uuid.UUID, numpy
# scalars and datetime64; None (and pd.NA / NaT) is a null.
_Value = Union[int, float, str, bytes, bytearray, memoryview, None, Any]

class FilterInfo(TypedDict):
    """One column chunk's Bloom filter (a "filters" entry of the tool's list --json)."""
    row_group: int
    column: str
    path: list[str]
    physical_type: str
    logical_type: Optional[str]
    header_offset: int
    bitset_offset: Optional[int]
    num_bytes: Optional[int]
    bits_set_fraction: Optional[float]
    estimated_ndv: Optional[float]
    status: str
    error: Optional[str]

class RowGroupAnswer(TypedDict):
    row_group: int
    maybe: bool

class ProbeResult(TypedDict):
    value: Any
    row_groups: list[RowGroupAnswer]

class ProbeReport(TypedDict):
    column: str
    physical_type: str
    results: list[ProbeResult]

def list(path: _Path, *, max_container_elements: Optional[int] = None,
         max_memory_bytes: Optional[int] = None) -> list[FilterInfo]:
    """Every column chunk's Bloom filter, by row group then column: row_group,
    column (dotted), path (names), physical_type, logical_type, header_offset, bitset_offset,
    num_bytes, bits_set_fraction, estimated_ndv, status ("ok" or
    "malformed"), error. A file that is not Parquet raises blockbloom.Error
    with the library's reason. max_container_elements, max_memory_bytes:
    the footer limits of bb_parquet_limits (None: the defaults, 1,000,000
    and 8 MiB + 8 x the footer); past one, blockbloom.Error with status
    BB_ERR_PARQUET_LIMIT."""

def probe(path: _Path, column: Union[str, bytes, Sequence[Union[str, bytes]]], values: Union[_Value, Iterable[_Value]],
          row_group: Optional[int] = None, *, physical: bool = False,
          max_container_elements: Optional[int] = None,
          max_memory_bytes: Optional[int] = None) -> ProbeReport:
    """Might each row group hold each value in column? maybe False: surely
    not (a null never matches). Each value is converted into the column's
    type as Filter.insert_values converts it (docs/formats.md "Values into a
    typed filter"): a str by the text rules (a typo or a text out of range
    raises blockbloom.Error), a value that cannot be of the type answers
    maybe False (300 on INTEGER(8,true)), an ambiguous one raises
    blockbloom.Error, one of another kind TypeError. physical=True: ints are the stored physical value. column: a dotted path (str or bytes) or the names (a list or
    tuple of str or bytes: exact). No such column, an ambiguous dotted path
    (status BB_ERR_PARQUET_AMBIGUOUS_COLUMN), no usable filter, a row_group
    past the file's, a BOOLEAN column: blockbloom.Error. The footer limits
    as list()'s."""

def load_filter(path: _Path, column: Union[str, bytes, Sequence[Union[str, bytes]]], row_group: int,
                *, max_container_elements: Optional[int] = None,
                max_memory_bytes: Optional[int] = None) -> Filter:
    """One column chunk's Bloom filter as a Filter (an owned copy) typed
    with the column's type (Filter.type), for find_values at array speed. No such column or row group, no usable
    filter: blockbloom.Error. The footer limits as list()'s."""

_Paths = Union[_Path, Sequence[_Path]]

def probe_dataset(paths: _Paths, column: Union[str, bytes, Sequence[Union[str, bytes]]],
                  values: Union[_Value, Iterable[_Value]], *, physical: bool = False,
                  jobs: Optional[int] = None, max_container_elements: Optional[int] = None,
                  max_memory_bytes: Optional[int] = None) -> Any:
    """A pandas DataFrame (file, row_group, value, maybe), one row per file,
    row group and value, sorted by path, row group, then the values' order.
    paths: a file, a directory (its *.parquet files, recursively), a glob,
    or a list of these; files read once each by jobs threads (None: twice
    the cores, at most 16). Values as probe()'s. A file that cannot be
    answered for is skipped with a RuntimeWarning and listed in
    attrs["errors"] as (path, message), as is a directory that cannot be
    listed (symlinked directories are followed); a row group without a usable filter
    answers maybe (attrs["unfiltered"]). attrs also holds "files",
    "row_groups" and "skippable_row_groups"."""
