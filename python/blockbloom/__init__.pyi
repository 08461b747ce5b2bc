# SPDX-License-Identifier: Apache-2.0
"""Type stubs of the blockbloom package (the extension blockbloom._core).

Full descriptions are the runtime docstrings: help(blockbloom.Filter).
"""

import os
import sys
from typing import Any, Iterable, Literal, Mapping, Optional, Protocol, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

from . import parquet as parquet

if sys.version_info >= (3, 12):
    from collections.abc import Buffer as _Buffer
else:
    from typing_extensions import Buffer as _Buffer

__version__: str
"""The C library's version (bb_version()), which is the package's."""

Layout = Literal["parquet", "kudu"]
# A Parquet type name as bb_parquet_type_parse reads it: "int8" .. "uint64",
# "float", "double", "string", "binary", "fixed(16)", "uuid", "date",
# "time(us)", "timestamp(us,utc)", "decimal(9,2)", ...
ValueType = str
# Hashes: uint64 arrays (Parquet) or uint32 arrays (Kudu), any buffer of that
# element type, C-contiguous; or a sequence of ints.
Hashes = Union[_Buffer, Sequence[int]]
Value = Union[int, float, str, bytes, Any]  # also Decimal, date, time, datetime, UUID, numpy scalars


class ArrowArrayExportable(Protocol):
    """An Arrow array by the Arrow PyCapsule interface (pyarrow, polars, nanoarrow, ...)."""

    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...


# numpy arrays (any int / uint width, float32/64, datetime64[D|s|ms|us|ns]),
# numpy.ma arrays, pandas Series / Index (plain and nullable dtypes), objects
# with __array__, Arrow arrays (__arrow_c_array__; insert_values / find_values
# only), sequences of values, or one value.
# One column of values: a DataFrame, a dict or an array of more than one column is a
# TypeError at run time (a set too where answers follow the order: find_values, the hashes).
Values = Union[npt.NDArray[Any], ArrowArrayExportable, Sequence[Optional[Value]], Value, Any]
Mask = Union[npt.NDArray[np.bool_], Sequence[bool], None]
# How Filter(ndv=, fpp=) is sized: "parquet-safe" (None, the default) a power of
# two every Parquet reader accepts; "exact" the smallest multiple of 32 meeting fpp.
Sizing = Literal["parquet-safe", "exact"]

class Error(ValueError):
    """A call the C library refused: str(e) is bb_status_message(), e.status the code."""

    status: int

class Filter:
    """A split block Bloom filter (Parquet or Kudu layout) of 32-byte blocks."""

    def __init__(
        self,
        num_bytes: Optional[int] = None,
        *,
        ndv: Optional[int] = None,
        fpp: Optional[float] = None,
        layout: Layout = "parquet",
        seed: Optional[int] = None,
        type: Optional[str] = None,
        sizing: Optional[Sizing] = None,
    ) -> None:
        """A zeroed filter of num_bytes, or sized for ndv distinct values at fpp
        (sizing: "parquet-safe", the default, or "exact");
        type: the values' Parquet type name (bb_parquet_type_parse)."""
    @staticmethod
    def from_bytes(
        buf: _Buffer,
        *,
        layout: Layout = "parquet",
        copy: bool = False,
        seed: Optional[int] = None,
        always_false: bool = False,
        type: Optional[ValueType] = None,
    ) -> Filter:
        """A filter over a raw bitset where it lies (copy=False) or a copy of it; of values of type if given,
        else of raw hashes (insert_values / find_values raise TypeError asking for type=)."""
    @staticmethod
    def from_parquet_bytes(buf: _Buffer, *, copy: bool = True, type: Optional[ValueType] = None) -> Filter:
        """A Parquet filter from a Thrift BloomFilterHeader and its bitset: of values of type if given, else of
        raw hashes (insert_values / find_values raise TypeError asking for type=)."""
    @staticmethod
    def from_file_bytes(buf: _Buffer) -> Filter:
        """A filter from a blockbloom filter file's bytes, with its layout, seed and value type."""
    @staticmethod
    def load(path: Union[str, "os.PathLike[str]"]) -> Filter:
        """The filter a blockbloom filter file holds, with its value type."""
    @staticmethod
    def from_kudu_fields(fields: Mapping[str, Any], *, type: Optional[ValueType] = None) -> Filter:
        """A Kudu filter from BlockBloomFilterPB's fields (to_kudu_fields()); of values of type if given, else of
        raw hashes."""
    def insert(self, hashes: Union[int, Hashes]) -> None:
        """Inserts one hash or an array of hashes (read in place, without the GIL)."""
    @overload
    def find(self, hashes: int, out: None = None) -> bool: ...
    @overload
    def find(self, hashes: Hashes, out: Optional[npt.NDArray[np.bool_]] = None) -> npt.NDArray[np.bool_]:
        """A bool per hash: True where it may be present."""
    def find_bitmap(self, hashes: Hashes) -> npt.NDArray[np.uint8]:
        """A bit per hash, LSB first (an Arrow validity bitmap)."""
    def find_indices(self, hashes: Hashes) -> npt.NDArray[np.uint32]:
        """The ascending indices of the hashes that may be present."""
    def __contains__(self, hash: int) -> bool:
        """`hash in filter`."""
    def insert_values(
        self, values: Values, type: Optional[ValueType] = None, mask: Mask = None, *, physical: bool = False
    ) -> None:
        """Converts values into the filter's type (set by the first insert if none) and inserts them; nulls are
        left out; a value that cannot be of the type (1000 on INTEGER(8), 2.5 on INT64) raises blockbloom.Error
        naming it and nothing of the call is inserted."""
    @overload
    def find_values(
        self, values: Value, type: Optional[ValueType] = None, mask: Optional[bool] = None, *, physical: bool = False
    ) -> bool: ...
    @overload
    def find_values(
        self, values: Values, type: Optional[ValueType] = None, mask: Mask = None, *, physical: bool = False
    ) -> npt.NDArray[np.bool_]:
        """Converts values as insert_values does and tests them; nulls and values not of the type answer False."""
    def fpp(self, ndv: int) -> float:
        """The expected false-positive probability with ndv distinct values in."""
    def union(self, other: Filter) -> None:
        """self |= other, in place."""
    def intersect(self, other: Filter) -> None:
        """self &= other, in place."""
    @staticmethod
    def union_all(filters: Iterable[Filter]) -> Filter:
        """A new filter: the OR of a non-empty iterable of filters of one layout and size."""
    @staticmethod
    def intersect_all(filters: Iterable[Filter]) -> Filter:
        """A new filter: the AND of a non-empty iterable of filters of one layout and size."""
    def clear(self) -> None:
        """Zeroes every bit."""
    def copy(self) -> Filter:
        """An owned, writable copy."""
    def __copy__(self) -> Filter: ...
    def __deepcopy__(self, memo: Any) -> Filter: ...
    def __or__(self, other: Filter) -> Filter:
        """A new filter: the union."""
    def __and__(self, other: Filter) -> Filter:
        """A new filter: the intersection."""
    def __ior__(self, other: Filter) -> Filter: ...
    def __iand__(self, other: Filter) -> Filter: ...
    def __eq__(self, other: object) -> bool: ...
    def __len__(self) -> int:
        """The size in bytes."""
    def __sizeof__(self) -> int:
        """The object and its bitset, in bytes (sys.getsizeof, dask.sizeof)."""
    def __reduce_ex__(self, protocol: Any) -> Any:
        """Pickling; protocol 5 gives the bitset out of band (pickle.PickleBuffer), uncopied."""
    def __getstate__(self) -> Tuple[Any, ...]:
        """(layout, seed, always_false, bits, type, raw_hashes)."""
    def __setstate__(self, state: Tuple[Any, ...]) -> None:
        """Fills a new filter from a checked state; a live filter is a TypeError."""
    def __buffer__(self, flags: int) -> memoryview:
        """The bitset itself (memoryview(filter)), zero-copy."""
    def to_parquet_bytes(self, *, any_size: bool = False) -> bytes:
        """Thrift BloomFilterHeader + bitset, as in a Parquet file."""
    def to_file_bytes(self) -> bytes:
        """The filter as a blockbloom filter file (layout, size, seed, value type, bits)."""
    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Writes to_file_bytes() to path (atomically: a temporary file renamed over it)."""
    def to_kudu_fields(self) -> dict[str, Any]:
        """BlockBloomFilterPB's fields."""
    @property
    def type(self) -> Optional[str]:
        """The values' Parquet type: None, the name given, or a file column's ("INT32 DATE")."""
    @property
    def layout(self) -> Layout:
        """'parquet' or 'kudu'."""
    @property
    def num_bytes(self) -> int:
        """The size in bytes."""
    @property
    def num_blocks(self) -> int:
        """The number of 32-byte blocks."""
    @property
    def seed(self) -> int:
        """Kudu: the FastHash seed (0 for Parquet)."""
    @property
    def always_false(self) -> bool:
        """Kudu: True until the first insert."""
    @property
    def read_only(self) -> bool:
        """True for a read-only view."""
    @property
    def is_view(self) -> bool:
        """True when the bitset is another object's memory."""

def isa_names() -> list[str]:
    """Every tier the library knows, best first ('scalar' last)."""

def selected_isa() -> str:
    """The ISA tier running now."""

def supported_isas() -> list[str]:
    """Tiers this build has and this CPU runs, best first."""

def compiled_isas() -> list[str]:
    """Tiers compiled into this build, best first."""

def select_isa(name: str) -> None:
    """Switches all filters to one tier (process-wide)."""

@overload
def parquet_hash(
    values: Union[Value, bytearray, memoryview, np.generic], type: Optional[ValueType] = None, *, physical: bool = False
) -> Optional[int]:
    """XXH64 (seed 0) of a value's plain encoding in type (None: the type its kind gives); None if it cannot be of it."""
@overload
def parquet_hash(
    values: Values, type: Optional[ValueType] = None, *, physical: bool = False
) -> npt.NDArray[np.uint64]:
    """The non-null values' hashes, in order."""

@overload
def kudu_hash(values: Union[Value, bytearray, memoryview, np.generic], seed: int = 0,
              type: Optional[ValueType] = None) -> int:
    """FastHash32 of a value's little-endian bytes."""
@overload
def kudu_hash(values: Values, seed: int = 0, type: Optional[ValueType] = None) -> npt.NDArray[np.uint32]:
    """The non-null values' hashes, in order."""
