# SPDX-License-Identifier: Apache-2.0
"""Tells Dask's memory accounting what a Filter really holds.

Dask sizes unknown objects with sys.getsizeof, which Filter.__sizeof__ already
gets right; registering it makes that explicit and independent of Dask's
fallback. Done by blockbloom.dask, and by ``import blockbloom`` when Dask is
already loaded (a worker unpickling a filter): blockbloom never imports Dask
itself, so the package keeps working, and importing fast, without it.
"""
import sys


def register():
    """Registers Filter with dask.sizeof; a no-op when Dask is not loaded."""
    if "dask" not in sys.modules:
        return
    from dask.sizeof import sizeof

    from ._core import Filter

    sizeof.register(Filter)(Filter.__sizeof__)

