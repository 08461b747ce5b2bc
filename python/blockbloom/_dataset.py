# SPDX-License-Identifier: Apache-2.0
"""blockbloom.parquet.probe_dataset: which files and row groups of a dataset
may hold these values, over many Parquet files read concurrently.

Each file is opened once (its footer read with pread, then each chunk's
filter of the column), by a bounded thread pool: the library's open and
filter reads run without the GIL (python/src/parquet_file.cc), so threads
overlap their I/O. A file that cannot be answered for (unreadable, not
Parquet, no such column) is reported and skipped, never taken as "absent";
values that cannot be converted into the column's type raise, as probe()'s
do, since that is the caller's mistake, not the file's. blockbloom.dask's
probe_dataset runs _probe_files on chunks of the files on a cluster's
workers and joins what they return with _join.
"""

import os as _os
import warnings as _warnings
from concurrent.futures import ThreadPoolExecutor as _ThreadPoolExecutor

import numpy as _np

from . import parquet as _parquet
from ._containers import one_column_list
from ._paths import expand_paths
from ._core import Error, _ERR_PARQUET_UNSUPPORTED, _column_hashes

_COLUMNS = ["file", "row_group", "value", "maybe"]
# Threads per call when jobs is None: filter reads wait on the disk, not the
# CPU, so more threads than cores help, up to this bound.
MAX_DEFAULT_JOBS = 16
# Files named one by one in the warnings of one call; the rest are counted.
MAX_WARNINGS = 10


def check_jobs(jobs, function):
    if jobs is None:
        return None
    if isinstance(jobs, bool) or not isinstance(jobs, (int, _np.integer)) or jobs < 1:
        raise ValueError("%s: jobs must be None or an int >= 1, not %r" % (function, jobs))
    return int(jobs)


def value_list(values, function):
    """values as a list (one value: a str, bytes, or anything not iterable)."""
    if isinstance(values, (str, bytes, bytearray, memoryview)) or not hasattr(values, "__iter__"):
        return [values]
    return one_column_list(values, function)  # each row carries its value: a set is fine


class _Hashes:
    """The values' hashes for each column type met: converted once per type,
    not once per file."""

    def __init__(self, values, physical, function):
        self.values, self.physical, self.function, self.by_type = values, physical, function, {}

    def of(self, info, column_name, path):
        key = tuple(sorted((k, v) for k, v in info.items() if k != "path"))
        got = self.by_type.get(key)
        if got is None:  # two threads may both convert: the same answer
            try:
                got = _column_hashes(info, self.values, column_name, self.physical)
            except (Error, TypeError, ValueError) as e:
                if isinstance(e, Error) and e.status == _ERR_PARQUET_UNSUPPORTED:
                    raise  # the column's type (BOOLEAN, ...): this file's problem, not the values'
                raise _renamed(e, "%s: %s" % (self.function, path)) from None
            self.by_type[key] = got
        return got


def _renamed(e, caller):
    """e (the value rules' exception, which names probe()) naming caller
    instead: the same class and status."""
    message = str(e)
    if message.startswith("probe(): "):
        message = message[len("probe(): "):]
    if isinstance(e, Error):
        return _parquet._error(e.status, "%s: %s" % (caller, message))
    return type(e)("%s: %s" % (caller, message))


def _probe_one(path, column, hashes, limits):
    """('ok', [(row group, maybe array)], [(row group, why no filter)]) or
    ('error', message) for a file that cannot be answered for."""
    try:
        pf = _parquet._open(path, limits)
        c = _parquet._find_column(pf, column, path)
        info = pf.column(c)
        column_name = _parquet._column_name(info)
        chunks = [pf.chunk(g, c) for g in range(pf.num_row_groups)]
    except (Error, OSError) as e:
        return "error", str(e)
    # A value the column's type refuses is the caller's error: raised. A
    # column whose type cannot be probed (BOOLEAN) is this file's.
    try:
        h, nulls = hashes.of(info, column_name, path)
    except Error as e:
        if e.status != _ERR_PARQUET_UNSUPPORTED:
            raise
        return "error", str(e)
    answers, unfiltered = [], []
    for g, chunk in enumerate(chunks):
        if not chunk["has_filter"] or chunk["filter_status"] != 0:
            why = ("has no Bloom filter" if not chunk["has_filter"] else
                   "has a malformed Bloom filter: " + (chunk["filter_error"] or ""))
            unfiltered.append((g, "column %s %s" % (column_name, why)))
            answers.append((g, ~nulls))  # cannot rule anything out
            continue
        try:
            filt = pf.load_filter(g, c)
        except (Error, OSError) as e:  # a read that failed: the file changed or is cut short
            return "error", "%s: %s" % (path, e)
        answers.append((g, filt.find(h) & ~nulls))
    return "ok", answers, unfiltered


def _frame(values, outcomes):
    """The DataFrame of (file, row group, value, maybe) rows, files in order."""
    import pandas as pd

    n = len(values)
    files, groups, maybes = [], [], []
    for path, answers in outcomes:
        files.append(_np.full(len(answers) * n, path, dtype=object))
        groups.append(_np.repeat(_np.array([g for g, _ in answers], dtype=_np.int64), n))
        maybes.extend(a for _, a in answers)
    total = sum(len(a) for _, a in outcomes)
    given = _np.empty(n, dtype=object)
    for i, v in enumerate(values):  # one by one: a tuple stays one item
        given[i] = v
    return pd.DataFrame({
        "file": _np.concatenate(files) if files else _np.empty(0, dtype=object),
        "row_group": _np.concatenate(groups) if groups else _np.empty(0, dtype=_np.int64),
        "value": _np.tile(given, total),
        "maybe": _np.concatenate(maybes).astype(bool) if maybes else _np.empty(0, dtype=bool),
    }, columns=_COLUMNS)


def _probe_files(files, column, values, physical, limits, jobs, function="probe_dataset()"):
    """What one machine answers for files (sorted, distinct): (frame,
    summary), summary as _join takes it."""
    hashes = _Hashes(values, physical, function)
    if jobs is None:
        jobs = min(MAX_DEFAULT_JOBS, 2 * (_os.cpu_count() or 1))
    jobs = max(1, min(jobs, len(files)))
    if jobs == 1:
        results = [_probe_one(f, column, hashes, limits) for f in files]
    else:
        with _ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="blockbloom-probe") as pool:
            results = list(pool.map(lambda f: _probe_one(f, column, hashes, limits), files))
    outcomes, errors, unfiltered = [], [], []
    for f, result in zip(files, results):
        if result[0] == "error":
            message = result[1]
            if message.startswith(f + ": "):  # the library's reason names the file: once is enough
                message = message[len(f) + 2:]
            errors.append((f, message))
            continue
        outcomes.append((f, result[1]))
        unfiltered.extend((f, g, why) for g, why in result[2])
    frame = _frame(values, outcomes)
    per_group = frame["maybe"].to_numpy().reshape(-1, len(values)) if values else None
    row_groups = sum(len(a) for _, a in outcomes)
    skippable = row_groups if per_group is None else int((~per_group.any(axis=1)).sum())
    return frame, {"files": len(outcomes), "row_groups": row_groups,
                   "skippable_row_groups": skippable, "errors": errors, "unfiltered": unfiltered}


def _join(parts, listing_errors, function, stacklevel):
    """One frame from the (frame, summary) of consecutive chunks of the
    files, with the summary in its attrs; each unreadable file and each
    file with row groups that have no usable filter warned about, in path
    order, from the caller's thread."""
    import pandas as pd

    frames = [f for f, _ in parts]
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    errors = sorted(listing_errors + [e for _, s in parts for e in s["errors"]], key=lambda e: e[0])
    unfiltered = [u for _, s in parts for u in s["unfiltered"]]
    frame.attrs = {key: sum(s[key] for _, s in parts)
                   for key in ("files", "row_groups", "skippable_row_groups")}
    frame.attrs["errors"] = errors
    frame.attrs["unfiltered"] = unfiltered
    by_file = {}
    for path, g, why in unfiltered:
        by_file.setdefault(path, []).append((g, why))
    _warn_some(["%s skipped: %s" % (path, message) for path, message in errors],
               'skipped (attrs["errors"] lists them all)', function, stacklevel + 1)
    _warn_some(["%s: row group%s %s: %s: answered maybe" % (
                    path, "s" if len(groups) > 1 else "", ", ".join(str(g) for g, _ in groups),
                    groups[0][1]) for path, groups in by_file.items()],
               'with row groups answered maybe for want of a filter (attrs["unfiltered"] lists '
               'them all)', function, stacklevel + 1)
    return frame


def _warn_some(messages, rest, function, stacklevel):
    """A RuntimeWarning for each of the first MAX_WARNINGS messages, then one
    counting the others: a dataset of thousands of broken files warns in a
    screenful."""
    for message in messages[:MAX_WARNINGS]:
        _warnings.warn("%s: %s" % (function, message), RuntimeWarning, stacklevel=stacklevel + 1)
    if len(messages) > MAX_WARNINGS:
        _warnings.warn("%s: %d more files %s" % (function, len(messages) - MAX_WARNINGS, rest),
                       RuntimeWarning, stacklevel=stacklevel + 1)


def probe_dataset(paths, column, values, *, physical=False, jobs=None, max_container_elements=None,
                  max_memory_bytes=None):
    """Which files and row groups of a dataset may hold each value in column?

    A pandas DataFrame with one row per (file, row group, value): columns
    file (the path, str), row_group (int64), value (the value as given,
    object), maybe (bool: False means surely not there, so the row group,
    and a file whose row groups are all False, can be skipped). Rows are
    sorted by file path, then row group, then the values' order.

    paths: a path (str, bytes, os.PathLike), a directory (every *.parquet
    file under it, recursively), a glob ("data/*/part-*.parquet"; ** spans
    folders), or a list or tuple of these; a file named twice is read once.
    Both forms follow symlinked directories, each directory entered once.
    Files are read concurrently by a pool of jobs threads (None: twice the
    cores, at most 16; 1: one after the other; the answers are the same),
    each opened once: its footer, then each row group's filter of column.

    column, values, physical and the footer limits are probe()'s: each
    value is converted into each file's column type by the same rules, and
    a value the column's type refuses (a typo'd text, a tuple) raises as
    probe() raises (same class and status), the message naming
    probe_dataset() and the file whose column type refused it.

    A file that cannot be answered for (not Parquet, unreadable, absent, no
    such column or an ambiguous one, a column of a type that cannot be
    probed such as BOOLEAN, a filter that cannot be read) is
    skipped, never answered "absent": a RuntimeWarning names it and the
    reason (the first 10 files so, then one warning counts the others), and attrs["errors"] lists (path, message), sorted by path (so
    do a glob that matches nothing, a directory without *.parquet files
    and a directory that cannot be listed: its files go unprobed). A row group whose chunk has no usable filter answers maybe True
    (False for a null) with a RuntimeWarning naming the file and row
    groups, and is listed in attrs["unfiltered"] as (path, row group, why).

    attrs also holds the summary: "files" (answered for), "row_groups"
    (theirs), "skippable_row_groups" (those where every value is maybe
    False). pandas is needed (imported when called)."""
    function = "probe_dataset()"
    _parquet._column_path(column)  # its type, before anything is read
    limits = _parquet._check_limits(max_container_elements, max_memory_bytes)
    jobs = check_jobs(jobs, function)
    values = value_list(values, function)
    files, listing_errors = expand_paths(paths)
    part = _probe_files(files, column, values, physical, limits, jobs)
    return _join([part], listing_errors, function, stacklevel=2)
