# SPDX-License-Identifier: Apache-2.0
"""Split block Bloom filters at native speed: the Parquet and Kudu layouts.

The binding of the blockbloom C library (this repository's; the same kernels
and bytes as the C API and the ``blockbloom`` tool). ``help(blockbloom.Filter)``
documents the filter; the functions below report and choose the ISA tier.

``blockbloom.parquet`` reads a Parquet file's Bloom filters (list, probe, load_filter);
``blockbloom.dask`` (imported on its own, where Dask is installed) builds
filters from Dask Series and runs Bloom semi-joins; everything else public is
re-exported here from the extension ``blockbloom._core``.
"""

from ._core import (
    Error,
    Filter,
    __version__,
    compiled_isas,
    isa_names,
    kudu_hash,
    parquet_hash,
    select_isa,
    selected_isa,
    supported_isas,
)
from . import parquet
from ._filter_files import load as _load_filter_file, save as _save_filter_file

Filter.save = _save_filter_file
Filter.load = staticmethod(_load_filter_file)
from ._dask_sizeof import register as _register_dask_sizeof

_register_dask_sizeof()  # only if Dask is already loaded: never imports it

__all__ = [
    "Error",
    "Filter",
    "__version__",
    "compiled_isas",
    "isa_names",
    "kudu_hash",
    "parquet",
    "parquet_hash",
    "select_isa",
    "selected_isa",
    "supported_isas",
]
