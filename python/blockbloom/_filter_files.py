# SPDX-License-Identifier: Apache-2.0
"""Filter.save / Filter.load: a filter and what its values are, in one file.

The bytes are the library's filter file (Filter.to_file_bytes, filter_file.h;
docs/formats.md, "Filter files"), the same the ``blockbloom`` tool's build
writes and its probe reads, so a filter saved here probes there and back.
"""

import os as _os
import stat as _stat
import tempfile as _tempfile


def _mode_for(target):
    """The mode the saved file gets, as the tool's build gives it: an existing
    file's own mode, else 0666 & ~umask (mkstemp's 0600 would hide a new file
    from the other users a plain open() would let read it)."""
    try:
        info = _os.stat(target)
        if _stat.S_ISREG(info.st_mode):
            return _stat.S_IMODE(info.st_mode)
    except FileNotFoundError:
        pass
    return 0o666 & ~_umask()


def _umask():
    """The process's umask, read without changing it where Linux says it
    (another thread's file created meanwhile would get umask 0)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = _os.umask(0)
    _os.umask(mask)
    return mask


def save(self, path):
    """Writes the filter to path as a blockbloom filter file (to_file_bytes()).

    The file is written beside path under a temporary name and renamed over it
    once complete, so a reader never sees half a file and an interrupted save
    leaves path as it was. As the tool's build: a symlink at path is followed
    (its target is replaced, the link kept), an existing file keeps its mode,
    a new one gets 0666 & ~umask. A filter with no type yet raises ValueError.
    """
    data = self.to_file_bytes()
    target = _os.path.realpath(_os.fspath(path))
    folder = _os.path.dirname(target)
    mode = _mode_for(target)
    fd, tmp = _tempfile.mkstemp(prefix=".blockbloom-", suffix=".tmp", dir=folder)
    try:
        _os.fchmod(fd, mode)
        with _os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            _os.fsync(out.fileno())
        _os.replace(tmp, target)
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
