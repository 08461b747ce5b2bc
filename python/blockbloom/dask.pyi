# SPDX-License-Identifier: Apache-2.0
"""Type stubs of blockbloom.dask: Bloom filters of Dask Series, and Bloom
semi-joins of Dask DataFrames. Full descriptions are the runtime docstrings."""

from typing import Any, Dict, Literal, Optional, Sequence, Tuple, Union, overload

import dask.dataframe as dd
import pandas as pd
from dask.delayed import Delayed

from . import Filter, Sizing, ValueType

NDV_HEADROOM: float

_Keys = Union[str, Sequence[str]]

@overload
def bloom_filter(
    series: dd.Series,
    *,
    ndv: Optional[int] = None,
    fpp: float = 0.01,
    type: Optional[ValueType] = None,
    sizing: Sizing = "exact",
    split_every: int = 8,
    compute: Literal[True] = True,
) -> Filter:
    """One Filter holding every value of a Dask Series, built partition by partition and tree-merged."""
@overload
def bloom_filter(
    series: dd.Series,
    *,
    ndv: Optional[int] = None,
    fpp: float = 0.01,
    type: Optional[ValueType] = None,
    sizing: Sizing = "exact",
    split_every: int = 8,
    compute: Literal[False],
) -> Delayed:
    """compute=False: the dask.delayed object of the Filter (nothing computed)."""
class BloomFilterNotUsed(UserWarning):
    """semi_join did not filter (a plain merge) or left partitions unfiltered; the message says why."""

class SemiJoinReport:
    """What semi_join(..., report=True) did: whether a filter is in the graph and why not, and per probe partition (computed) rows, kept, filtered, filter_type, note."""
    filter_used: bool
    reason: Optional[str]
    build: Optional[Literal["left", "right"]]
    key_kind: Optional[str]
    partitions: Optional[dd.DataFrame]
    def summary(self, partitions: Optional[pd.DataFrame] = None) -> Dict[str, Any]:
        """Totals over the probe partitions: rows, kept, dropped, partitions, partitions_filtered, filter_type, notes."""

def semi_join(
    left: dd.DataFrame,
    right: dd.DataFrame,
    on: Optional[_Keys] = None,
    left_on: Optional[_Keys] = None,
    right_on: Optional[_Keys] = None,
    how: Literal["inner", "left", "right", "outer", "cross"] = "inner",
    fpp: float = 0.01,
    *,
    ndv: Optional[int] = None,
    build: Optional[Literal["left", "right"]] = None,
    sizing: Sizing = "exact",
    split_every: int = 8,
    skip_below: Optional[float] = None,
    report: bool = False,
    **merge_kwargs: Any,
) -> Union[dd.DataFrame, Tuple[dd.DataFrame, SemiJoinReport]]:
    """left.merge(right, ...), the rows that cannot match dropped first by a Bloom filter; lazy: the filter is a task of the result's graph. report=True: (the result, a SemiJoinReport of what the filter did)."""

FILES_PER_TASK: int

def probe_dataset(
    paths: Any,
    column: Union[str, bytes, Sequence[Union[str, bytes]]],
    values: Any,
    *,
    physical: bool = False,
    files_per_task: Optional[int] = None,
    jobs: Optional[int] = None,
    max_container_elements: Optional[int] = None,
    max_memory_bytes: Optional[int] = None,
    scheduler: Any = None,
) -> Any:
    """blockbloom.parquet.probe_dataset over Dask's workers, files_per_task
    files a task (None: 64): the same pandas DataFrame and attrs, computed."""

