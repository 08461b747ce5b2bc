# SPDX-License-Identifier: Apache-2.0
"""Filter.save / Filter.load: a filter and what its values are, in one file.

The bytes are the library's filter file (Filter.to_file_bytes, filter_file.h;
docs/formats.md, "Filter files"), the same the ``blockbloom`` tool's build
writes and its probe reads, so a filter saved here probes there and back.
"""

import os as _os
import tempfile as _tempfile


def save(self, path):
    """Writes the filter to path as a blockbloom filter file (to_file_bytes()).

    The file is written beside path under a temporary name and renamed over it
    once complete, so a reader never sees half a file and an interrupted save
    leaves path as it was. A filter with no type yet raises ValueError.
    """
    data = self.to_file_bytes()
    path = _os.fspath(path)
    folder = _os.path.dirname(_os.path.abspath(path))
    fd, tmp = _tempfile.mkstemp(prefix=".blockbloom-", suffix=".tmp", dir=folder)
    try:
        with _os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            _os.fsync(out.fileno())
        _os.replace(tmp, path)
    except BaseException:
        try:
            _os.unlink(tmp)
        except OSError:
            pass
        raise


def load(path):
    """The filter a blockbloom filter file at path holds, with its type (from_file_bytes()).

    A damaged or lying file raises blockbloom.Error with its BB_ERR_FILTER_FILE_*
    code; a file that cannot be read, OSError.
    """
    with open(_os.fspath(path), "rb") as f:
        data = f.read()
    from ._core import Filter

    return Filter.from_file_bytes(data)
